// worker (ingestion only, on the schedule) and ingest --once.
import type { Command } from 'commander';
import { jsonLogger } from '../jobs/log.js';
import type { PollReport } from '../ingest/runtime.js';
import { handleShutdownSignals } from './shutdown.js';
import { visibleLine } from './terminal.js';
import { CliError, configFrom, databaseOption, loadRuntime, positiveInt, type StoreOptions } from './common.js';

interface IngestOptions extends StoreOptions {
  once?: boolean;
  feed?: number;
  force?: boolean;
}

export function registerIngestCommands(program: Command) {
  program
    .command('worker')
    .description(
      "poll feeds on their schedule, fetch their posts' pictures and deliver webhooks, without serving the API",
    )
    .option(...databaseOption)
    .action((options: StoreOptions) => worker(options));

  program
    .command('ingest')
    .description('poll feeds once: --once polls the due feeds, shows progress, and exits non-zero if a feed failed')
    .option('--once', 'poll the due feeds once and exit')
    .option('--feed <id>', 'only this feed, due or not', positiveInt('--feed'))
    .option('--force', 'poll every feed with a connector, due or not')
    .option(...databaseOption)
    .action((options: IngestOptions) => ingestOnce(options));
}

async function worker(options: StoreOptions) {
  const config = configFrom(options);
  const { openRuntime } = await loadRuntime();
  const runtime = await openRuntime(config, { ingest: true, webhooks: true, media: true, metricsServer: true });
  const { ingest, webhooks, media, metricsServer } = runtime;
  handleShutdownSignals({ config: config.shutdown, log: jsonLogger(config.logLevel), close: runtime.close });
  // METRICS_PORT: the worker has no API to serve /metrics on, so it listens for scrapes on a port of its own
  if (metricsServer) {
    await metricsServer.listen({ port: config.metrics.port!, host: config.host });
    const { port } = metricsServer.server.address() as { port: number };
    process.stdout.write(`wallery worker: metrics on http://${config.host}:${port}/metrics\n`);
  }
  ingest.start();
  webhooks?.start();
  media?.start();
  runtime.providerCheck?.start();
  runtime.tokenRefresh?.start();
  runtime.rightsWatcher?.start();
  process.stdout.write(
    `wallery worker: polling feeds on their schedule${media ? ", fetching their posts' pictures" : ''} and delivering webhooks (SIGINT or SIGTERM stops)\n`,
  );
}

function describe(r: PollReport): string {
  const what = `feed ${r.feedId}${r.kind ? ` (${r.kind})` : ''}`;
  switch (r.status) {
    case 'ok':
      return `${what}: ${r.inserted} new, ${r.updated} updated${r.skippedItems ? `, ${r.skippedItems} unreadable left out` : ''}${r.withheldItems ? `, ${r.withheldItems} withheld (their authors opted out of public display)` : ''}${r.warnings.map((w) => `; warning: ${w}`).join('')}`;
    case 'not_modified':
      return `${what}: not modified`;
    case 'deferred':
      return `${what}: deferred — ${r.message}`;
    case 'skipped':
      return `${what}: skipped — ${r.message}`;
    case 'failed':
      return `${what}: FAILED — ${r.message}${r.inserted + r.updated ? ` (${r.inserted} new, ${r.updated} updated before)` : ''}`;
  }
}

async function ingestOnce(options: IngestOptions) {
  if (!options.once) throw new CliError('ingest needs --once (`wallery worker` polls continuously)');
  const config = configFrom(options);
  // progress goes to stdout; the log only says what went wrong
  const { openRuntime } = await loadRuntime();
  const runtime = await openRuntime(config, {
    ingest: true,
    ingestLog: jsonLogger(config.logLevel === 'info' ? 'warn' : config.logLevel),
  });
  const { ingest } = runtime;
  let reports: PollReport[];
  try {
    let done = 0;
    let total = 0;
    reports = await ingest.runOnce({
      feedId: options.feed,
      force: options.force,
      onStart: (ids) => {
        total = ids.length;
        process.stdout.write(total === 0 ? 'no feed is due\n' : `polling ${total} feed${total === 1 ? '' : 's'}\n`);
      },
      onReport: (r) => {
        done++;
        // a feed's messages may quote what upstream sent
        const line = `[${done}/${total}] ${visibleLine(describe(r))}\n`;
        (r.status === 'failed' ? process.stderr : process.stdout).write(line);
      },
    });
    // the new posts that wait for a moderation provider are decided before the command ends
    await runtime.providerCheck?.runOnce();
  } finally {
    await runtime.close();
  }
  if (
    options.feed !== undefined &&
    reports[0]?.status === 'skipped' &&
    reports[0].message !== 'another poller holds this feed'
  ) {
    throw new CliError(`feed ${options.feed}: ${reports[0].message}`);
  }
  const sum = (k: 'inserted' | 'updated') => reports.reduce((n, r) => n + r[k], 0);
  const failed = reports.filter((r) => r.status === 'failed').length;
  if (reports.length > 0) {
    process.stdout.write(
      `polled ${reports.length} feed${reports.length === 1 ? '' : 's'}: ${sum('inserted')} new, ${sum('updated')} updated, ${failed} failed\n`,
    );
  }
  if (failed > 0) process.exitCode = 1;
}
