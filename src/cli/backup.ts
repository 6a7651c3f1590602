// backup and restore: a consistent copy of the store while it serves, and
// that copy put back (SQLite's online backup API; pg_dump and pg_restore).
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { backupPostgres, restorePostgres, type PgToolOptions } from '../store/backup/postgres.js';
import { backupSqlite, restoreSqlite, type StoreSnapshot } from '../store/backup/sqlite.js';
import type { Store } from '../store/store.js';
import type { Config } from '../config.js';
import { configFrom, databaseOption, withUnmigratedStore, type StoreOptions } from './common.js';

interface RestoreOptions extends StoreOptions {
  force?: boolean;
  dropForeign?: boolean;
  /** false: --no-media */
  media?: boolean;
}

interface BackupOptions extends StoreOptions {
  /** true: --media (S3 too); false: --no-media; absent: the media folder only */
  media?: boolean;
}

export function registerBackupCommands(program: Command) {
  program
    .command('backup')
    .description('write a consistent copy of the store to FILE, safe while serving and ingesting')
    .argument('<file>', 'backup file to write, mode 0600 (replaced only once the new backup is complete)')
    .option(
      '--media',
      "also copy the pictures when they are kept in S3 (MEDIA_S3_BUCKET) into FILE.media/; the media folder's always are",
    )
    .option('--no-media', 'leave the pictures out (the store alone)')
    .option(...databaseOption)
    .action(async (file: string, options: BackupOptions) => {
      const config = configFrom(options);
      const started = performance.now();
      const snapshot =
        config.store.kind === 'sqlite'
          ? await backupSqlite(config.store.path, file)
          : await withPostgres(options, (db, url) => backupPostgres(db, url, file, pgTools(config)));
      process.stdout.write(`backed up to ${file}: ${describe(snapshot)} in ${seconds(started)}\n`);
      // after the store's snapshot: every picture it shows was stored before it, so its files are copied
      await backupMedia(config, file, options.media);
    });

  program
    .command('restore')
    .description('replace the store with a backup made by `wallery backup` (stop the service first)')
    .argument('<file>', 'backup file')
    .option('--force', 'replace a store that holds data (accounts, walls or posts)')
    .option(
      '--drop-foreign',
      'restore a backup holding schema objects no migration creates (triggers, functions, tables…) without them, instead of refusing it',
    )
    .option('--no-media', 'leave the pictures of FILE.media/ out (the store alone)')
    .option(...databaseOption)
    .action(async (file: string, options: RestoreOptions) => {
      const config = configFrom(options);
      const choices = { force: options.force === true, dropForeign: options.dropForeign === true };
      const started = performance.now();
      const result =
        config.store.kind === 'sqlite'
          ? await restoreSqlite(file, config.store.path, choices)
          : await withPostgres(options, (db, url, migrate) =>
              restorePostgres(db, url, file, choices, migrate, pgTools(config)),
            );
      const migrated = result.migrated.length > 0 ? `, migrated: ${result.migrated.join(', ')}` : '';
      const dropped = result.dropped.length > 0 ? `, left out: ${result.dropped.join(', ')}` : '';
      const into = config.store.kind === 'sqlite' ? config.store.path : 'the PostgreSQL database';
      process.stdout.write(
        `restored ${file} into ${into}: ${describe(result)}${migrated}${dropped} in ${seconds(started)}\n`,
      );
      if (options.media !== false) await restoreMedia(config, file);
    });
}

/** The media module pulls in the S3 SDK: loaded when pictures are copied only. */
const loadMedia = async () => ({ ...(await import('../media/services.js')), ...(await import('../media/backup.js')) });

/**
 * The pictures into FILE.media/: always from the media folder; from an S3
 * bucket only with --media (a bucket is backed up with its own tools:
 * versioning, replication); never with --no-media or MEDIA off.
 */
async function backupMedia(config: Config, file: string, wanted: boolean | undefined): Promise<void> {
  if (wanted === false || !config.media.enabled) return;
  const m = await loadMedia();
  if (config.media.storage.kind === 's3' && wanted !== true) {
    process.stdout.write(
      `media: not copied, they are in ${m.describeMediaStorage(config)}: back the bucket up with its own tools (versioning, replication), or add --media to copy them into ${m.mediaBackupDir(file)}\n`,
    );
    return;
  }
  const started = performance.now();
  const from = m.openMediaStorage(config);
  const to = m.openMediaStorage({
    ...config,
    media: { ...config.media, storage: { kind: 'folder', dir: m.mediaBackupDir(file) } },
  });
  try {
    const copy = await m.copyMediaFiles(from, to);
    // no picture stored (yet): nothing to say
    if (copy.files + copy.kept === 0) return;
    process.stdout.write(
      `media: ${copy.files} files (${size(copy.bytes)}) copied into ${m.mediaBackupDir(file)}, ${copy.kept} there already, in ${seconds(started)}\n`,
    );
  } finally {
    await from.close();
    await to.close();
  }
}

/** FILE.media/'s pictures into the media storage (the folder or the bucket), the ones it lacks. */
async function restoreMedia(config: Config, file: string): Promise<void> {
  const m = await loadMedia();
  const dir = m.mediaBackupDir(file);
  if (!existsSync(dir)) return;
  if (!config.media.enabled) {
    process.stdout.write(`media: MEDIA is off, the pictures of ${dir} are not restored\n`);
    return;
  }
  const started = performance.now();
  const from = m.openMediaStorage({ ...config, media: { ...config.media, storage: { kind: 'folder', dir } } });
  const to = m.openMediaStorage(config);
  try {
    const copy = await m.copyMediaFiles(from, to);
    process.stdout.write(
      `media: ${copy.files} files (${size(copy.bytes)}) restored into ${m.describeMediaStorage(config)}, ${copy.kept} there already, in ${seconds(started)}\n`,
    );
  } finally {
    await from.close();
    await to.close();
  }
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} kB`;
}

/** The PostgreSQL store as it is (a backup reads the schema it finds; a restore migrates after). */
function withPostgres<T>(
  options: StoreOptions,
  fn: (db: Store['db'], url: string, migrate: () => Promise<string[]>) => Promise<T>,
): Promise<T> {
  return withUnmigratedStore(options, (store, config) => {
    if (config.store.kind !== 'postgres') throw new Error('withPostgres needs a PostgreSQL store');
    return fn(store.db, config.store.url, () => store.migrate());
  });
}

function pgTools(config: Config): PgToolOptions {
  return { binDir: config.pgBinDir, say: (line) => process.stderr.write(`${line}\n`) };
}

function describe(s: StoreSnapshot): string {
  const size =
    s.bytes >= 1024 * 1024 ? `${(s.bytes / 1024 / 1024).toFixed(1)} MB` : `${(s.bytes / 1024).toFixed(1)} kB`;
  const integrity = s.integrity === null ? '' : `, integrity ${s.integrity}`;
  return `${size} (${s.bytes} bytes), ${s.posts} posts, schema ${s.schema}${integrity}`;
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(2)} s`;
}
