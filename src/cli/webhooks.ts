// webhooks list / create / get / update / delete / rotate-secret / test / deliveries / replay.
// The CLI is the operator's (it holds the store): it shows webhook URLs whole.
import type { Command } from 'commander';
import { WebhookCreateBody, WebhookListQuery, WebhookPatchBody } from '../schemas/webhooks.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type WebhookSettings,
} from '../manage/webhooks.js';
import type { WebhookCreateBody as CreateBody, WebhookPatchBody as PatchBody } from '../schemas/webhooks.js';
import { CliError, databaseOption, idArgument, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  idFilter,
  numberish,
  pagedOptions,
  pageFrom,
  printOptions,
  printPage,
  printRecord,
  showPage,
  showRecord,
  type PagedOptions,
  type PrintOptions,
} from './output.js';

const COLUMNS = ['id', 'accountId', 'url', 'events', 'enabled', 'state', 'lastEventId', 'lastError'];
const DELIVERY_COLUMNS = [
  'id',
  'eventId',
  'type',
  'attempt',
  'status',
  'httpStatus',
  'latencyMs',
  'at',
  'replay',
  'error',
];

/** `--events a,b` → ['a', 'b'] (the schema names a bad one) */
const eventList = (text: string | undefined) =>
  text === undefined
    ? undefined
    : text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

function enabledFrom(options: { enable?: boolean; disable?: boolean }): boolean | undefined {
  if (options.enable && options.disable) throw new CliError('give --enable or --disable, not both');
  return options.enable ? true : options.disable ? false : undefined;
}

const SECRET_NOTE = 'the signing secret is shown this once: keep it where your receiver can read it\n';

/** The settings a CLI send uses: the cause of a failure without an answer goes to stderr (the operator's). */
const withCause = (settings: WebhookSettings): WebhookSettings => ({
  ...settings,
  onNoAnswer: (webhookId, cause) => process.stderr.write(`wallery: webhook ${webhookId}: no HTTP answer: ${cause}\n`),
});

export function registerWebhookCommands(program: Command) {
  const webhooks = program
    .command('webhooks')
    .description('webhook endpoints of an account: signed POSTs of post, wall and feed events');

  pagedOptions(
    webhooks.command('list').description('list webhooks').option('--account <id>', 'only this account’s webhooks'),
  ).action(async (options: PagedOptions & { account?: string }) => {
    const page = pageFrom(options, WebhookListQuery, given({ accountId: options.account }));
    await showPage(options, COLUMNS, (store) =>
      listWebhooks(store.db, { accountId: idFilter(options.account) }, page, 'full'),
    );
  });

  printOptions(
    webhooks
      .command('create')
      .description('create a webhook (it receives the events from now on; the secret is printed once)')
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--url <url>', 'http(s) address that receives the POSTs')
      .requiredOption('--events <list>', 'comma-separated: post.created,post.approved,… (see the README)'),
  ).action(async (options: PrintOptions & { account: string; url: string; events: string }) => {
    const body = checkBody<CreateBody>(WebhookCreateBody, {
      accountId: numberish(options.account),
      url: options.url,
      events: eventList(options.events),
    });
    await withStore(options, async (store, config) => {
      printRecord(await attempt(() => createWebhook(cliOp(store), body, config.webhooks)), options);
      process.stderr.write(SECRET_NOTE);
    });
  });

  printOptions(
    webhooks
      .command('get')
      .description('show a webhook')
      .argument(...idArgument('webhook', 'id')),
  ).action(async (id: number, options: PrintOptions) => {
    await showRecord(options, (store) => getWebhook(store.db, id, 'full'));
  });

  printOptions(
    webhooks
      .command('update')
      .description('change a webhook; --enable resumes a disabled one from its cursor')
      .argument(...idArgument('webhook', 'id'))
      .option('--url <url>', 'new address')
      .option('--events <list>', 'comma-separated events')
      .option('--enable', 'deliver again (from the cursor)')
      .option('--disable', 'stop delivering (events are kept for later)'),
  ).action(
    async (
      id: number,
      options: PrintOptions & { url?: string; events?: string; enable?: boolean; disable?: boolean },
    ) => {
      const body = checkBody<PatchBody>(
        WebhookPatchBody,
        given({ url: options.url, events: eventList(options.events), enabled: enabledFrom(options) }),
      );
      await withStore(options, async (store, config) =>
        printRecord(await attempt(() => updateWebhook(cliOp(store), id, body, config.webhooks)), options),
      );
    },
  );

  webhooks
    .command('delete')
    .description('delete a webhook and its delivery log')
    .argument(...idArgument('webhook', 'id'))
    .option(...databaseOption)
    .action(async (id: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        await attempt(() => deleteWebhook(cliOp(store), id));
        process.stdout.write(`webhook ${id} deleted\n`);
      });
    });

  printOptions(
    webhooks
      .command('rotate-secret')
      .description('a new signing secret, printed once (the old one signs too for 24 hours, unless --expire-old-now)')
      .argument(...idArgument('webhook', 'id'))
      .option('--expire-old-now', 'the old secret leaked: it stops signing at once, only the new one signs'),
  ).action(async (id: number, options: PrintOptions & { expireOldNow?: boolean }) => {
    const body = { expireOldNow: options.expireOldNow === true };
    await withStore(options, async (store, config) => {
      printRecord(await attempt(() => rotateWebhookSecret(cliOp(store), id, config.webhooks, body)), options);
      process.stderr.write(SECRET_NOTE);
    });
  });

  printOptions(
    webhooks
      .command('test')
      .description('send a signed webhook.test event now and print the attempt (exits non-zero if it failed)')
      .argument(...idArgument('webhook', 'id')),
  ).action(async (id: number, options: PrintOptions) => {
    await withStore(options, async (store, config) => {
      const attemptRecord = await attempt(() => testWebhook(cliOp(store), id, withCause(config.webhooks)));
      printRecord(attemptRecord, options);
      if (attemptRecord.status !== 'delivered') process.exitCode = 1;
    });
  });

  pagedOptions(
    webhooks
      .command('deliveries')
      .description('the delivery log of a webhook, newest first')
      .argument(...idArgument('webhook', 'id')),
  ).action(async (id: number, options: PagedOptions) => {
    const page = pageFrom(options);
    await withStore(options, async (store) =>
      printPage(await attempt(() => listDeliveries(store.db, id, page)), DELIVERY_COLUMNS, options),
    );
  });

  printOptions(
    webhooks
      .command('replay')
      .description('send the event of a delivery again now, with the same event id (exits non-zero if it failed)')
      .argument(...idArgument('webhook', 'id'))
      .argument('<delivery>', 'delivery id (from `webhooks deliveries`)', positiveInt('delivery id')),
  ).action(async (id: number, deliveryId: number, options: PrintOptions) => {
    await withStore(options, async (store, config) => {
      const attemptRecord = await attempt(() =>
        replayDelivery(cliOp(store), id, deliveryId, withCause(config.webhooks)),
      );
      printRecord(attemptRecord, options);
      if (attemptRecord.status !== 'delivered') process.exitCode = 1;
    });
  });
}
