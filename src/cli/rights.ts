// rights settings / request / show / answer / opt-outs / report (a table,
// JSON, CSV or PDF) / watch:
// asking authors for the rights to their posts from the command line
// (docs/guides/rights.md). The operator services of src/manage/rights.ts,
// audited as `cli`; a request by a reply goes out through the account's
// connection with the instance's key (SECRET_KEY, else its key file) and
// INGEST_ALLOW_PRIVATE_NETWORKS, like `wallery ingest --once`.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import { connectionSecretKey } from '../connections/secret-key.js';
import { RIGHTS_STATES, type RightsState } from '../domain/rights.js';
import { jsonLogger } from '../jobs/log.js';
import * as manage from '../manage/rights.js';
import { rightsFetcher } from '../rights/fetcher.js';
import { checkReportFont } from '../rights/report-pdf.js';
import type { RequestOutcome, ListenResult, RightsDeps } from '../rights/service.js';
import type { WatchReport } from '../rights/watcher.js';
import {
  OptOutBody,
  RightsAnswerBody,
  RightsReportQuery,
  RightsRequestBody,
  RightsSettingsPatch,
  type OptOutBody as OptOutInput,
  type RequestOutcomeRecord,
  type RequestOutcomes,
  type RightsAnswerBody as AnswerInput,
  type RightsRecord,
  type RightsSettingsPatch as SettingsPatch,
} from '../schemas/rights.js';
import type { Store } from '../store/store.js';
import { CliError, configFrom, databaseOption, idArgument, loadRuntime, positiveInt, withStore } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  details,
  given,
  idFilter,
  numberish,
  printOptions,
  printRecord,
  table,
  type PrintOptions,
} from './output.js';
import { lineCommand, recordCommand } from './resource.js';
import { visibleLine } from './terminal.js';

const ACCOUNT = idArgument('account');
const WALL = idArgument('wall');
const POST = idArgument('post');

const OPT_OUT_COLUMNS = ['author', 'reason', 'postId', 'note', 'createdAt'];
const REPORT_TABLE_COLUMNS = [
  'postId',
  'wallId',
  'author',
  'state',
  'method',
  'requestedAt',
  'requestedBy',
  'answeredAt',
  'decidedBy',
  'answerUrl',
];
const EVENT_COLUMNS = ['at', 'kind', 'actor', 'state', 'url', 'text', 'note'];

/** What asking needs: the store, the instance's key, a guarded fetcher (closed by the caller). */
function rightsDeps(store: Store, config: Config): RightsDeps {
  return {
    db: store.db,
    secretKey: connectionSecretKey(config.connections),
    fetcher: rightsFetcher(config.ingest.allowPrivateNetworks),
    memory: new Map(),
    now: Date.now,
    listenMs: config.rights.listenS * 1000,
  };
}

// ---------- settings ----------

interface SettingsOptions extends PrintOptions {
  template?: string;
  hashtag?: string;
  declineWords?: string;
  brand?: string;
  termsUrl?: string;
  mastodonVisibility?: string;
  perAuthorPerDay?: string;
  perDay?: string;
  expireDays?: string;
  connection?: string[];
}

interface ReportOptions extends PrintOptions {
  wall?: string;
  state?: string;
  csv?: boolean;
  pdf?: boolean;
  out?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--connection network=id` (repeatable; `network=none` stops naming one): the changes to the map. */
function connectionChanges(pairs: string[] | undefined): Record<string, number | string | null> | undefined {
  if (!pairs?.length) return undefined;
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new CliError(`--connection must be network=id (e.g. mastodon=12), not "${visibleLine(pair)}"`);
      const value = pair.slice(at + 1).trim();
      return [pair.slice(0, at).trim().toLowerCase(), value === 'none' ? null : numberish(value)!];
    }),
  );
}

/** The options as the API's patch (without `connections`: those are merged with the stored map when run). */
function settingsPatch(options: SettingsOptions): Record<string, unknown> {
  return given({
    template: options.template,
    grantHashtag: options.hashtag,
    declineWords:
      options.declineWords === undefined
        ? undefined
        : options.declineWords
            .split(',')
            .map((w) => w.trim())
            .filter((w) => w !== ''),
    brand: options.brand,
    termsUrl: options.termsUrl === 'none' ? '' : options.termsUrl,
    mastodonVisibility: options.mastodonVisibility,
    perAuthorPerDay: numberish(options.perAuthorPerDay),
    perDay: numberish(options.perDay),
    expireDays: numberish(options.expireDays),
  });
}

// ---------- asking ----------

const postIds = (value: string, previous: number[] | undefined) => [...(previous ?? []), positiveInt('post id')(value)];

/** One outcome as the line the operator reads. */
export function outcomeLine(o: RequestOutcomeRecord): string {
  const what = `post ${o.postId}`;
  if (!o.ok) {
    const word = o.problem === 'failed' ? 'FAILED' : o.problem === 'not_found' ? 'not found' : 'refused';
    return `${what}: ${word} — ${o.reason ?? ''}`;
  }
  if (o.method === 'reply') return `${what}: asked by a reply${o.requestUrl ? ` ${o.requestUrl}` : ''}`;
  // by hand: the text, on one line, to copy and send the author
  return `${what}: ask by hand, send the author: ${o.text ?? ''}`;
}

// ---------- a post's rights ----------

/** A post's rights for people: its fields, then the evidence trail as a table. */
export function rightsText(r: RightsRecord): string {
  const { events, ...fields } = r;
  return `${details(fields)}\nevidence (oldest first):\n${table(events, EVENT_COLUMNS).replace(/^(?=.)/gm, '  ')}`;
}

// ---------- the watcher ----------

function askedLine(o: RequestOutcome): string {
  return o.ok
    ? `asked for post ${o.postId} by the wall's rule${o.requestUrl ? `: ${o.requestUrl}` : ''}`
    : `the wall's rule did not ask for post ${o.postId}: ${o.status === 'failed' ? 'FAILED — ' : ''}${o.reason}`;
}

function heardLine(r: ListenResult): string {
  if (r.error) return `post ${r.postId}: answer not read — ${r.error}`;
  return r.changed
    ? `post ${r.postId}: heard the author, now ${r.state}`
    : `post ${r.postId}: nothing new (${r.state})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One pass of the rights watcher with the instance's configuration, each thing it did on a line. */
async function watchOnce(options: PrintOptions & { once?: boolean }) {
  if (!options.once) throw new CliError('rights watch needs --once (`wallery worker` and `serve` watch continuously)');
  const config = configFrom(options);
  const { openRuntime } = await loadRuntime();
  // what it did goes to stdout; the log only says what went wrong
  const runtime = await openRuntime(config, {
    ingest: true,
    ingestLog: jsonLogger(config.logLevel === 'info' ? 'warn' : config.logLevel),
  });
  let report: WatchReport;
  try {
    report = await runtime.rightsWatcher!.runOnce();
  } finally {
    await runtime.close();
  }
  if (options.json) {
    printRecord(report, options);
  } else {
    const lines = [
      ...(report.expired > 0 ? [`expired ${plural(report.expired, 'request')} unanswered in time`] : []),
      ...report.asked.map(askedLine),
      ...report.heard.map(heardLine),
      `rights watcher: ${report.expired} expired, ${report.asked.filter((o) => o.ok).length} asked, ` +
        `${plural(report.heard.filter((r) => r.changed).length, 'answer')} heard, ${plural(report.heard.length, 'request')} listened to`,
    ];
    process.stdout.write(lines.map((l) => `${visibleLine(l)}\n`).join(''));
  }
  const failed =
    report.asked.some((o) => !o.ok && o.status === 'failed') || report.heard.some((r) => r.error !== undefined);
  if (failed) process.exitCode = 1;
}

export function registerRightsCommands(program: Command) {
  const rights = program
    .command('rights')
    .description('asking authors for the rights to show their posts: settings, requests, answers, opt-outs, evidence');

  recordCommand(rights, {
    name: 'settings',
    description:
      "print an account's rights settings, or change those given (the template must say how to grant: {hashtag})",
    arguments: [ACCOUNT],
    options: (c) =>
      c
        .option('--template <text>', 'the request text; {author}, {hashtag}, {brand} and {terms} are filled in')
        .option('--hashtag <tag>', 'the hashtag an author answers with to grant (with or without #)')
        .option('--decline-words <a,b>', 'words or hashtags an answer declines with, comma-separated')
        .option('--brand <name>', 'the brand’s name, as {brand} says it')
        .option('--terms-url <url>', 'where the terms are read ({terms}); none: no link')
        .option('--mastodon-visibility <v>', 'who sees a request on Mastodon: public, unlisted or direct')
        .option('--per-author-per-day <n>', 'most requests to one author in a day (UTC), 1–20')
        .option('--per-day <n>', 'most requests the account sends in a day (UTC), 1–5000')
        .option('--expire-days <n>', 'a request unanswered this many days expires, 1–365')
        .option(
          '--connection <network=id>',
          'the connection that asks on a network, e.g. mastodon=12 (repeatable); network=none: the feed’s own, else the first working one',
          collect,
        ),
    body: (options: SettingsOptions) => {
      const patch = settingsPatch(options);
      const connections = connectionChanges(options.connection);
      if (Object.keys(patch).length === 0 && !connections) return null;
      // checked with the connections given (removals left out): every problem at once, before the store opens
      const named = connections && Object.fromEntries(Object.entries(connections).filter(([, v]) => v !== null));
      checkBody<SettingsPatch>(RightsSettingsPatch, named ? { ...patch, connections: named } : patch);
      return { patch: patch as SettingsPatch, connections };
    },
    run: async ({ store, op, body, args: [accountId] }) => {
      if (!body) return manage.getRightsSettings(store.db, accountId);
      const change: SettingsPatch = { ...body.patch };
      if (body.connections) {
        const merged: Record<string, number> = { ...(await manage.getRightsSettings(store.db, accountId)).connections };
        for (const [network, id] of Object.entries(body.connections))
          if (id === null) delete merged[network];
          else merged[network] = id as number;
        change.connections = merged;
      }
      return manage.updateRightsSettings(op, accountId, change);
    },
  });

  printOptions(
    rights
      .command('request')
      .description(
        'ask for the rights to posts of a wall: by a reply where Wallery can, else by hand (the text to send is printed); ' +
          'one line per post, exit code 1 when one was not asked',
      )
      .argument(...WALL)
      .argument('<posts...>', 'post ids', postIds)
      .option('--manual', 'ask by hand even where Wallery could reply (copy the text, record the answer)'),
  ).action(async (wallId: number, ids: number[], options: PrintOptions & { manual?: boolean }) => {
    const body = checkBody<{ postIds: number[]; method?: 'manual' }>(
      RightsRequestBody,
      given({ postIds: ids, method: options.manual ? 'manual' : undefined }),
    );
    await withStore(options, async (store, config) => {
      const deps = rightsDeps(store, config);
      let result: RequestOutcomes;
      try {
        result = await attempt(() => manage.requestWallRights(cliOp(store), deps, wallId, body.postIds, body.method));
      } finally {
        await deps.fetcher.close();
      }
      if (options.json) printRecord(result, options);
      else process.stdout.write(result.outcomes.map((o) => `${visibleLine(outcomeLine(o))}\n`).join(''));
      if (result.outcomes.some((o) => !o.ok)) process.exitCode = 1;
    });
  });

  recordCommand(rights, {
    name: 'show',
    description: "a post's rights: its state, the request, the answer and the evidence trail",
    arguments: [WALL, POST],
    run: ({ store, args: [wallId, postId] }) => manage.getPostRights(store.db, wallId, postId),
    text: rightsText,
  });

  recordCommand(rights, {
    name: 'answer',
    description:
      'record an answer given where Wallery cannot read it (a network asked by hand, an e-mail): granted, declined ' +
      '(the author goes on the opt-out list) or revoked (only after a grant)',
    arguments: [WALL, POST, ['<state>', 'granted, declined or revoked']],
    options: (c) =>
      c
        .option('--note <text>', 'how and when it was given, kept in the evidence')
        .option('--url <url>', 'where the answer is (its link)'),
    body: (options: PrintOptions & { note?: string; url?: string }, args) =>
      checkBody<AnswerInput>(RightsAnswerBody, given({ state: args[2], note: options.note, url: options.url })),
    run: ({ op, body, args: [wallId, postId] }) => manage.recordPostAnswer(op, wallId, postId, body),
    text: rightsText,
  });

  const optOuts = rights
    .command('opt-outs')
    .description('the authors never asked again (they declined, or you said so)');

  recordCommand(optOuts, {
    name: 'list',
    description: "an account's opt-out list, newest first",
    arguments: [ACCOUNT],
    run: ({ store, args: [accountId] }) => manage.listAccountOptOuts(store.db, accountId),
    text: (records) => table(records as unknown as Record<string, unknown>[], OPT_OUT_COLUMNS),
  });

  recordCommand(optOuts, {
    name: 'add',
    description: 'put an author on the opt-out list: never asked again, by hand or by a rule',
    arguments: [ACCOUNT, ['<network>', 'the network’s name, e.g. mastodon'], ['<username>', 'the author’s handle']],
    options: (c) => c.option('--note <text>', 'why (kept with the entry)'),
    body: (options: PrintOptions & { note?: string }, args) =>
      checkBody<OptOutInput>(OptOutBody, given({ network: args[1], username: args[2], note: options.note })),
    run: ({ op, body, args: [accountId] }) => manage.addAccountOptOut(op, accountId, body),
  });

  lineCommand(optOuts, {
    name: 'remove',
    description: 'take an author off the opt-out list (they asked to be asked again)',
    arguments: [ACCOUNT, ['<author>', 'network:handle, as the list shows it']],
    run: ({ op, args: [accountId, author] }) => {
      if (!/^[^:\s]+:\S/.test(author)) throw new CliError('author must be network:handle, as the list shows it');
      return manage.removeAccountOptOut(op, accountId, author);
    },
    done: ([accountId], removed) => visibleLine(`${removed.author} taken off the opt-out list of account ${accountId}`),
  });

  printOptions(
    rights
      .command('report')
      .description(
        'the evidence report: every post the account asked about, its request and answer (links, texts, times), who decided',
      )
      .argument(...ACCOUNT)
      .option('--wall <id>', 'only this wall’s posts')
      .option('--state <state>', `only this state: ${RIGHTS_STATES.join(', ')}`)
      .option(
        '--csv',
        `CSV for the legal team: a header row, one row per post (${manage.REPORT_COLUMNS.length} columns)`,
      )
      .option(
        '--pdf',
        'a PDF for the legal team: the counts by state, then each post’s evidence with clickable links (needs --out on a terminal)',
      )
      .option('--out <file>', 'write the CSV or PDF to this file instead of stdout'),
  ).action(async (accountId: number, options: ReportOptions) => {
    const formats = (['csv', 'pdf', 'json'] as const).filter((f) => options[f]);
    if (formats.length > 1) throw new CliError(`--${formats.join(' and --')} cannot be used together`);
    if (options.out !== undefined && !options.csv && !options.pdf) throw new CliError('--out needs --csv or --pdf');
    // a PDF's bytes would garble a terminal
    if (options.pdf && options.out === undefined && process.stdout.isTTY)
      throw new CliError('--pdf writes a file: give --out <file>, or send stdout to one (> evidence.pdf)');
    if (options.out !== undefined && !existsSync(dirname(resolve(options.out))))
      throw new CliError(`cannot write ${options.out}: its folder does not exist`);
    checkBody(RightsReportQuery, given({ wallId: options.wall, state: options.state }));
    const filter = {
      ...(options.wall !== undefined ? { wallId: idFilter(options.wall) } : {}),
      ...(options.state !== undefined ? { state: options.state as RightsState } : {}),
    };
    await withStore(options, async (store, config) => {
      const report = await attempt(() => manage.rightsReport(store.db, accountId, filter, Date.now()));
      if (options.json) return printRecord(report, options);
      if (!options.csv && !options.pdf) return void process.stdout.write(table(report.rows, REPORT_TABLE_COLUMNS));
      if (options.pdf) await checkReportFont(config.rights.reportFont);
      const file = options.csv
        ? manage.rightsReportCsv(report)
        : await manage.rightsReportPdfOf(store.db, report, filter, config.rights.reportFont);
      if (options.out === undefined) return void process.stdout.write(file);
      await writeFile(options.out, file);
      process.stdout.write(
        visibleLine(`wrote the evidence of ${plural(report.rows.length, 'post')} to ${options.out}`) + '\n',
      );
    });
  });

  rights
    .command('watch')
    .description(
      'one pass of the rights watcher: expire requests unanswered in time, ask for what the walls’ rules pick, ' +
        'listen for answers; exit code 1 when a network could not be read or replied on',
    )
    .option('--once', 'one pass, then exit (serve and the worker watch continuously)')
    .option('--json', 'print what it did as JSON')
    .option(...databaseOption)
    .action((options: PrintOptions & { once?: boolean }) => watchOnce(options));
}
