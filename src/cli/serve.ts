// serve and start (serve with the demo data set on first start), as one
// process or as N workers on one listening socket (`--workers`, src/cluster/).
import cluster from 'node:cluster';
import type { Command } from 'commander';
import { parseHost, parsePort, parseWorkers, type Config } from '../config.js';
import { demoDataFile, demoMediaBase, DEMO_KEYS, DEMO_WALLS } from '../demo/demo-data.js';
import type { MediaServices } from '../media/types.js';
import type { ChangeBus } from '../store/changes.js';
import { loggerOptions } from '../http/logger.js';
import { fixedSelfUrl, selfBase } from '../domain/self-url.js';
import { hasAccounts } from '../store/accounts.js';
import { importDataFile } from '../store/datafile.js';
import { findKeyOwner } from '../store/keys.js';
import type { Store } from '../store/store.js';
import { configFrom, databaseOption, loadRuntime, type StoreOptions } from './common.js';
import { demoEmbedLines } from './demo-embed.js';
import { handleShutdownSignals } from './shutdown.js';

interface ServeOptions extends StoreOptions {
  port?: string;
  host?: string;
  workers?: string;
}

export function registerServeCommands(program: Command) {
  // the same server; `start` loads the demo data first
  const commands = [
    ['serve', 'migrate the database, then serve the API', false],
    ['start', 'serve, loading the demo data set into an empty database first (what `npm start` runs)', true],
  ] as const;
  for (const [name, description, demo] of commands) {
    program
      .command(name)
      .description(description)
      .option('--port <n>', 'port to listen on (default: $PORT or 3000)')
      .option('--host <h>', 'address to bind (default: $HOST or 0.0.0.0)')
      .option(
        '--workers <n>',
        demo
          ? 'processes sharing the listening socket (default: 1)'
          : 'processes sharing the listening socket (default: $WORKERS, else the cores with NODE_ENV=production, else 1)',
      )
      .option(...databaseOption)
      .action((options: ServeOptions) => serve(options, demo));
  }
}

async function serve(options: ServeOptions, demo: boolean) {
  const config = configFrom(options);
  if (options.port !== undefined) config.port = parsePort(options.port, '--port');
  if (options.host !== undefined) config.host = parseHost(options.host, '--host');
  // the demo (`npm start`) is one process unless asked
  const workers =
    options.workers !== undefined ? parseWorkers(options.workers, '--workers', 1) : demo ? 1 : config.workers;
  if (workers > 1 && cluster.isPrimary) return servePrimary(config, workers);
  // in a worker: its slot, and whether the background jobs run here (the first worker only)
  const { joinCluster, stopAccepting } = await import('../cluster/worker.js');
  const member = await joinCluster();
  const jobs = member?.jobs ?? true;
  // feed ingestion in-process unless INGEST=off (`wallery worker` runs it alone)
  const { openRuntime, guideBuilt, setDemoWalls } = await loadRuntime();
  const runtime = await openRuntime(config, {
    server: { logger: loggerOptions(config.logLevel) },
    ingest: config.ingest.enabled && jobs,
    webhooks: config.webhooks.enabled && jobs,
    // the pictures of posts are fetched where the feeds are polled
    media: config.ingest.enabled && jobs,
    ...(member ? { quota: member.quota } : {}),
  });
  const { app, ingest, webhooks, media } = runtime;
  const { store } = runtime.ctx;

  const shutdown = handleShutdownSignals({
    config: config.shutdown,
    log: app.log,
    drain: app.drain,
    close: runtime.close,
    stopAccepting: () => stopAccepting(app.server),
  });
  if (member) {
    member.relayChanges(runtime.ctx.changes);
    // one scrape answers for every worker
    if (runtime.ctx.metrics) member.shareMetrics(runtime.ctx.metrics);
    member.onLeave((how) => shutdown.begin('SIGTERM', { retire: how === 'retire' }));
    // which worker answered: for operators reading a response, and the tests that must reach each
    const slot = String(member.slot);
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('X-Wallery-Worker', slot);
      done(null, payload);
    });
  }

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  // the demo's pictures are addressed by the URL people reach this instance
  // at, known for sure only now that it listens (PORT=0 picks a free port)
  const base = selfBase(fixedSelfUrl(config.publicUrl, port));
  if (demo && jobs) await seedDemo(runtime.ctx, base);
  ingest?.start();
  webhooks?.start();
  media?.start();
  runtime.providerCheck?.start();
  runtime.tokenRefresh?.start();
  runtime.rightsWatcher?.start();
  // the primary says it once for all its workers
  if (!member) process.stdout.write(`wallery listening on http://${config.host}:${port}\n`);
  if (demo && jobs) {
    // the documentation site is linked when this install has it built (npm run docs:build)
    await printDemo(store, base, config.metrics.enabled, guideBuilt(), setDemoWalls);
  }
}

/**
 * The primary of `--workers N`: migrates the store once (the workers find it
 * done), counts the quota without Redis, forks and supervises the workers.
 */
async function servePrimary(config: Config, workers: number) {
  const [{ Primary }, { openStore }, { StoreQuota }, { jsonLogger }] = await Promise.all([
    import('../cluster/primary.js'),
    import('../store/store.js'),
    import('../quota/store-quota.js'),
    import('../jobs/log.js'),
  ]);
  const store = openStore(config.store, config.database);
  await store.waitUntilReachable(config.database.connectRetries);
  await store.migrate();
  const log = jsonLogger(config.logLevel);
  const primary = new Primary({
    workers,
    shutdown: config.shutdown,
    log,
    quota: config.redisUrl ? null : new StoreQuota(store.db),
    onListening: (port) =>
      process.stdout.write(`wallery listening on http://${config.host}:${port} (${workers} workers)\n`),
    close: () => store.close(),
  });
  await primary.start();
}

/**
 * The demo data set into an empty store. Its pictures (served by this
 * server under /demo-media/, which the media worker's SSRF guard would
 * refuse) go through the media pipeline from their files: the demo shows
 * Wallery's own copies. With MEDIA off they are skipped (the original URLs).
 */
async function seedDemo(ctx: { store: Store; media?: MediaServices | null; changes: ChangeBus }, base: string) {
  const { store } = ctx;
  if (await hasAccounts(store.db)) return;
  const media = demoMediaBase(base);
  const counts = await importDataFile(store, demoDataFile(Date.now(), media), Date.now(), undefined, {
    skipMedia: !ctx.media,
  });
  // loaded here only: sharp and the media worker are no part of the CLI's other commands
  const { seedDemoMedia } = await import('../media/demo-seed.js');
  const pictures = ctx.media
    ? await seedDemoMedia({ db: store.db, services: ctx.media, base: media, now: Date.now(), changes: ctx.changes })
    : null;
  process.stdout.write(
    `Loaded the demo data set: ${counts.walls} walls, ${counts.posts} posts, ${counts.products} products` +
      `${pictures ? `, ${pictures.stored} pictures stored` : ''}.\n`,
  );
}

/** The command that makes the first operator token, as printed here and as the console's sign-in says it. */
export const FIRST_TOKEN_COMMAND = 'npx wallery tokens create --name me --role admin';

async function printDemo(
  store: Store,
  base: string,
  metrics: boolean,
  guide: boolean,
  setDemoWalls: (walls: { id: number; name: string; key: string | null }[]) => void,
) {
  const lines = [
    '',
    'Wallery is serving the public API v2.',
    `Start page (console, guide, API explorer): ${base}/`,
    '',
  ];
  for (const demo of DEMO_KEYS) {
    if (await findKeyOwner(store.db, demo.key)) lines.push(`  ${demo.plan.padEnd(10)} key: ${demo.key}`);
  }
  lines.push(
    '',
    'Try:',
    `  curl '${base}/api/v2/widget/posts/${DEMO_KEYS[0]!.wallId}?user_key=${DEMO_KEYS[0]!.key}&limit=5'`,
    `  curl '${base}/api/v2/commerce/getGalleryProductByID/${DEMO_KEYS[0]!.wallId}/${DEMO_KEYS[0]!.taggedPostId}/?user_key=${DEMO_KEYS[0]!.key}&format=xml'`,
    '',
    'The operator console (walls, moderation queue, feeds, rules, products, keys, embed, analytics, audit log):',
    `  ${base}/console/`,
    `  sign in with an operator token:  ${FIRST_TOKEN_COMMAND}`,
    '',
    // the documentation, when this install has it built (npm run docs:build): the guide and the API explorer
    ...(guide
      ? ['The documentation (getting started, guides, API and configuration reference):', `  ${base}/guide/`, '']
      : []),
    'The API explorer:',
    `  ${base}/docs`,
    '',
    ...(metrics ? ['Prometheus metrics (see the documentation, Operations):', `  ${base}/metrics`, ''] : []),
    ...(await demoEmbedLines(store, base, DEMO_WALLS, setDemoWalls)),
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}
