// serve and start (serve with the demo data set on first start).
import type { Command } from 'commander';
import { parseHost, parsePort } from '../config.js';
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
      .option(...databaseOption)
      .action((options: ServeOptions) => serve(options, demo));
  }
}

async function serve(options: ServeOptions, demo: boolean) {
  const config = configFrom(options);
  if (options.port !== undefined) config.port = parsePort(options.port, '--port');
  if (options.host !== undefined) config.host = parseHost(options.host, '--host');
  // feed ingestion in-process unless INGEST=off (`wallery worker` runs it alone)
  const { openRuntime, guideBuilt, setDemoWalls } = await loadRuntime();
  const runtime = await openRuntime(config, {
    server: { logger: loggerOptions(config.logLevel) },
    ingest: config.ingest.enabled,
    webhooks: config.webhooks.enabled,
    // the pictures of posts are fetched where the feeds are polled
    media: config.ingest.enabled,
  });
  const { app, ingest, webhooks, media } = runtime;
  const { store } = runtime.ctx;

  handleShutdownSignals({ config: config.shutdown, log: app.log, drain: app.drain, close: runtime.close });

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  // the demo's pictures are addressed by the URL people reach this instance
  // at, known for sure only now that it listens (PORT=0 picks a free port)
  const base = selfBase(fixedSelfUrl(config.publicUrl, port));
  if (demo) await seedDemo(runtime.ctx, base);
  ingest?.start();
  webhooks?.start();
  media?.start();
  runtime.providerCheck?.start();
  process.stdout.write(`wallery listening on http://${config.host}:${port}\n`);
  if (demo) {
    // the documentation site is linked when this install has it built (npm run docs:build)
    await printDemo(store, base, config.metrics.enabled, guideBuilt(), setDemoWalls);
  }
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
