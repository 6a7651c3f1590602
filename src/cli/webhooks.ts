// webhooks list / create / get / update / delete / rotate-secret / test / deliveries / replay.
// The CLI is the operator's (it holds the store): it shows webhook URLs whole.
import type { Command } from 'commander';
import { WebhookCreateBody, WebhookListQuery, WebhookPatchBody } from '../schemas/webhooks.js';
import * as manage from '../manage/webhooks.js';
import type { WebhookCreateBody as CreateBody, WebhookPatchBody as PatchBody } from '../schemas/webhooks.js';
import { CliError, cliMediaBase, positiveInt } from './common.js';
import { checkBody, given, idFilter, numberish, type PagedOptions, type PrintOptions } from './output.js';
import { pageCommand, recordCommand, resourceCommands } from './resource.js';

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

/** The settings a CLI send uses: the cause of a failure without an answer goes to stderr (the operator's). */
const withCause = (settings: manage.WebhookSettings): manage.WebhookSettings => ({
  ...settings,
  onNoAnswer: (webhookId, cause) => process.stderr.write(`wallery: webhook ${webhookId}: no HTTP answer: ${cause}\n`),
});

/** Said after a record that shows the signing secret. */
const secretNote = () =>
  process.stderr.write('the signing secret is shown this once: keep it where your receiver can read it\n');
/** A test or a replay that did not deliver makes the command fail. */
const failUnlessDelivered = (sent: { status: string }) => {
  if (sent.status !== 'delivered') process.exitCode = 1;
};

type UpdateOptions = PrintOptions & { url?: string; events?: string; enable?: boolean; disable?: boolean };

export function registerWebhookCommands(program: Command) {
  const webhooks = resourceCommands(program, {
    name: 'webhooks',
    description: 'webhook endpoints of an account: signed POSTs of post, wall and feed events',
    noun: 'webhook',
  });

  webhooks.list({
    description: 'list webhooks',
    options: (c) => c.option('--account <id>', 'only this account’s webhooks'),
    columns: COLUMNS,
    query: WebhookListQuery,
    filters: (options: PagedOptions & { account?: string }) => ({ accountId: options.account }),
    run: ({ store, page, options }) =>
      manage.listWebhooks(store.db, { accountId: idFilter(options.account) }, page, 'full'),
  });

  webhooks.create({
    description: 'create a webhook (it receives the events from now on; the secret is printed once)',
    options: (c) =>
      c
        .requiredOption('--account <id>', 'account id')
        .requiredOption('--url <url>', 'http(s) address that receives the POSTs')
        .requiredOption(
          '--events <list>',
          'comma-separated: post.created,post.approved,… (see the guide, Webhooks and the change feed)',
        ),
    body: (options: PrintOptions & { account: string; url: string; events: string }) =>
      checkBody<CreateBody>(WebhookCreateBody, {
        accountId: numberish(options.account),
        url: options.url,
        events: eventList(options.events),
      }),
    run: ({ op, body, config }) => manage.createWebhook(op, body, config.webhooks),
    after: secretNote,
  });

  webhooks.get('show a webhook', (store, id) => manage.getWebhook(store.db, id, 'full'));

  webhooks.update({
    description: 'change a webhook; --enable resumes a disabled one from its cursor',
    options: (c) =>
      c
        .option('--url <url>', 'new address')
        .option('--events <list>', 'comma-separated events')
        .option('--enable', 'deliver again (from the cursor)')
        .option('--disable', 'stop delivering (events are kept for later)'),
    body: (options: UpdateOptions) =>
      checkBody<PatchBody>(
        WebhookPatchBody,
        given({ url: options.url, events: eventList(options.events), enabled: enabledFrom(options) }),
      ),
    run: ({ op, body, args: [id], config }) => manage.updateWebhook(op, id, body, config.webhooks),
  });

  webhooks.delete('delete a webhook and its delivery log', manage.deleteWebhook);

  recordCommand(webhooks.group, {
    name: 'rotate-secret',
    description: 'a new signing secret, printed once (the old one signs too for 24 hours, unless --expire-old-now)',
    arguments: [webhooks.id],
    options: (c) =>
      c.option('--expire-old-now', 'the old secret leaked: it stops signing at once, only the new one signs'),
    body: (options: PrintOptions & { expireOldNow?: boolean }) => ({ expireOldNow: options.expireOldNow === true }),
    run: ({ op, args: [id], config, body }) => manage.rotateWebhookSecret(op, id, config.webhooks, body),
    after: secretNote,
  });

  recordCommand(webhooks.group, {
    name: 'test',
    description: 'send a signed webhook.test event now and print the attempt (exits non-zero if it failed)',
    arguments: [webhooks.id],
    run: ({ op, args: [id], config }) => manage.testWebhook(op, id, withCause(config.webhooks)),
    after: failUnlessDelivered,
  });

  pageCommand(webhooks.group, {
    name: 'deliveries',
    description: 'the delivery log of a webhook, newest first',
    arguments: [webhooks.id],
    columns: DELIVERY_COLUMNS,
    run: ({ store, page, args: [id] }) => manage.listDeliveries(store.db, id, page),
  });

  recordCommand(webhooks.group, {
    name: 'replay',
    description: 'send the event of a delivery again now, with the same event id (exits non-zero if it failed)',
    arguments: [webhooks.id, ['<delivery>', 'delivery id (from `webhooks deliveries`)', positiveInt('delivery id')]],
    run: ({ op, args: [id, deliveryId], config }) =>
      manage.replayDelivery(op, id, deliveryId, {
        ...withCause(config.webhooks),
        mediaBase: cliMediaBase(config),
      }),
    after: failUnlessDelivered,
  });
}
