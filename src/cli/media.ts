// media status / retry / gc / fetch --once: the pictures of posts that the
// media worker fetches (src/media/runtime.ts), as the operator sees them.
import type { Command } from 'commander';
import { jsonLogger } from '../jobs/log.js';
import type { MediaReport } from '../media/runtime.js';
import type { MediaStorage } from '../media/types.js';
import {
  deleteUnreferencedBlobs,
  mediaSummary,
  pictureFailures,
  retryFailedPictures,
  unreferencedBlobs,
  type UnreferencedBlob,
} from '../store/media-queue.js';
import { findWall } from '../store/walls.js';
import type { Store } from '../store/store.js';
import type { Config } from '../config.js';
import {
  CliError,
  configFrom,
  databaseOption,
  loadRuntime,
  positiveInt,
  withStore,
  type StoreOptions,
} from './common.js';
import { table, type OutputOptions } from './output.js';
import { visibleJson, visibleLine } from './terminal.js';

interface WallOption extends StoreOptions, OutputOptions {
  wall?: number;
}

/** Failures `media status` lists. */
const FAILURES_SHOWN = 20;

/** The storage module pulls in the S3 SDK: loaded by the commands that need it only. */
const loadStorage = () => import('../media/services.js');

export function registerMediaCommands(program: Command) {
  const media = program
    .command('media')
    .description('the pictures of posts that Wallery copies: where fetching them stands, retries, space');

  media
    .command('status')
    .description('pictures per state, what the stored ones take, and the latest failures with their reasons')
    .option('--wall <id>', "only this wall's posts", positiveInt('--wall'))
    .option('--json', 'print JSON (the counts, the storage, the failures) instead of text')
    .option(...databaseOption)
    .action((options: WallOption) => withStore(options, (store, config) => status(store, config, options)));

  media
    .command('retry')
    .description('put failed pictures back in the queue (attempts from zero, due now); refused ones stay refused')
    .option('--wall <id>', "only this wall's posts", positiveInt('--wall'))
    .option(...databaseOption)
    .action((options: WallOption) =>
      withStore(options, async (store) => {
        await requireWall(store, options.wall);
        const { pictures } = await retryFailedPictures(store.db, Date.now(), options.wall);
        process.stdout.write(
          `${pictures} failed picture${pictures === 1 ? '' : 's'} put back in the queue${options.wall ? ` (wall ${options.wall})` : ''}\n`,
        );
      }),
    );

  media
    .command('gc')
    .description(
      'remove the stored pictures no post shows any more (after a purge, or pictures replaced), files and all',
    )
    .option('--dry-run', 'print what would be removed; remove nothing')
    .option(...databaseOption)
    .action((options: StoreOptions & { dryRun?: boolean }) =>
      withStore(options, (store, config) => gc(store, config, options.dryRun === true)),
    );

  media
    .command('fetch')
    .description(
      'fetch the pictures due now once (the worker does it continuously), show each, exit non-zero if one failed',
    )
    .option('--once', 'fetch the due pictures once and exit')
    .option(...databaseOption)
    .action((options: StoreOptions & { once?: boolean }) => fetchOnce(options));
}

async function requireWall(store: Store, wallId: number | undefined): Promise<void> {
  if (wallId !== undefined && !(await findWall(store.db, wallId))) throw new CliError(`no wall ${wallId}`);
}

async function status(store: Store, config: Config, options: WallOption): Promise<void> {
  await requireWall(store, options.wall);
  const now = Date.now();
  const summary = await mediaSummary(store.db, now, options.wall);
  const failures = await pictureFailures(store.db, FAILURES_SHOWN, options.wall);
  const { describeMediaStorage } = await loadStorage();
  const where = config.media.enabled ? describeMediaStorage(config) : null;
  if (options.json) {
    process.stdout.write(`${visibleJson({ enabled: config.media.enabled, storage: where, ...summary, failures })}\n`);
    return;
  }
  const p = summary.pictures;
  const lines = [
    config.media.enabled ? `media: on, stored in ${where}` : 'media: off (MEDIA=off): posts show their original URLs',
    `pictures: ${p.pending} pending (${summary.due} due now), ${p.ready} ready, ${p.failed} failed, ${p.refused} refused, ${p.skipped} skipped`,
    `stored: ${summary.blobs} picture${summary.blobs === 1 ? '' : 's'}, ${size(summary.bytes)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (failures.length === 0) return;
  process.stdout.write(`\nlatest failures (\`wallery media retry\` puts failed ones back):\n`);
  process.stdout.write(
    table(
      failures.map((f) => ({
        post: f.postId,
        wall: f.wallId,
        slot: f.slot,
        state: f.state,
        attempts: f.attempts,
        at: new Date(f.updatedAt).toISOString(),
        reason: f.reason,
        source: f.sourceUrl,
      })),
      ['post', 'wall', 'slot', 'state', 'attempts', 'at', 'reason', 'source'],
    ),
  );
}

/** The keys of a stored picture's files: everything under its hash (renditions made on request too). */
async function keysOf(storage: MediaStorage, hash: string): Promise<{ key: string; size: number }[]> {
  const out: { key: string; size: number }[] = [];
  for await (const entry of storage.list(`${hash.slice(0, 2)}/${hash}/`)) out.push(entry);
  return out;
}

async function gc(store: Store, config: Config, dryRun: boolean): Promise<void> {
  const unreferenced = await unreferencedBlobs(store.db);
  if (unreferenced.length === 0) {
    process.stdout.write('nothing to remove: every stored picture is shown by a post\n');
    return;
  }
  const { openMediaStorage, describeMediaStorage } = await loadStorage();
  const storage = openMediaStorage(config);
  try {
    if (dryRun) {
      let files = 0;
      let bytes = 0;
      for (const blob of unreferenced) {
        const keys = await keysOf(storage, blob.hash);
        files += keys.length;
        bytes += keys.reduce((n, k) => n + k.size, 0);
      }
      process.stdout.write(
        `would remove ${count(unreferenced)} no post shows (dry run: nothing removed): ${files} files, ${size(bytes)} in ${describeMediaStorage(config)}\n`,
      );
      return;
    }
    // the rows first, each only if still unreferenced: a picture shown again meanwhile keeps its files
    const removed = new Set(
      await deleteUnreferencedBlobs(
        store.db,
        unreferenced.map((b) => b.hash),
      ),
    );
    let files = 0;
    let bytes = 0;
    for (const blob of unreferenced.filter((b: UnreferencedBlob) => removed.has(b.hash))) {
      const keys = await keysOf(storage, blob.hash);
      await storage.delete(keys.map((k) => k.key));
      files += keys.length;
      bytes += keys.reduce((n, k) => n + k.size, 0);
    }
    process.stdout.write(
      `removed ${count([...removed])} no post showed: ${files} files, ${size(bytes)} freed in ${describeMediaStorage(config)}\n`,
    );
  } finally {
    await storage.close();
  }
}

const count = (items: readonly unknown[]) => `${items.length} stored picture${items.length === 1 ? '' : 's'}`;

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${bytes} bytes`;
}

function describe(r: MediaReport): string {
  switch (r.status) {
    case 'ready':
      return `${r.url}: stored (${r.pictures} picture${r.pictures === 1 ? '' : 's'})`;
    case 'failed':
      return `${r.url}: FAILED${r.gaveUp ? ', given up' : ', will be retried'} — ${r.message}`;
    case 'refused':
      return `${r.url}: refused — ${r.message}`;
    case 'deferred':
      return `${r.url}: deferred — ${r.message}`;
    case 'skipped':
      return `${r.url}: skipped — ${r.message}`;
  }
}

async function fetchOnce(options: StoreOptions & { once?: boolean }): Promise<void> {
  if (!options.once) throw new CliError('media fetch needs --once (`wallery worker` fetches continuously)');
  const config = configFrom(options);
  if (!config.media.enabled) throw new CliError('MEDIA is off: pictures are not copied');
  const { openRuntime } = await loadRuntime();
  // progress goes to stdout; the log only says what went wrong
  const runtime = await openRuntime(config, {
    media: true,
    ingestLog: jsonLogger(config.logLevel === 'info' ? 'error' : config.logLevel),
  });
  let reports: MediaReport[];
  try {
    let done = 0;
    let total = 0;
    reports = await runtime.media!.runOnce({
      onStart: (urls) => {
        total = urls.length;
        process.stdout.write(
          total === 0 ? 'no picture is due\n' : `fetching ${total} picture${total === 1 ? '' : 's'}\n`,
        );
      },
      onReport: (r) => {
        done++;
        // a reason may quote what upstream sent
        const line = `[${done}/${total}] ${visibleLine(describe(r))}\n`;
        (r.status === 'failed' ? process.stderr : process.stdout).write(line);
      },
    });
  } finally {
    await runtime.close();
  }
  const by = (s: MediaReport['status']) => reports.filter((r) => r.status === s).length;
  if (reports.length > 0)
    process.stdout.write(
      `fetched ${reports.length}: ${by('ready')} stored, ${by('refused')} refused, ${by('failed')} failed, ${by('deferred') + by('skipped')} left for later\n`,
    );
  if (by('failed') > 0) process.exitCode = 1;
}
