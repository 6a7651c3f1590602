// backup and restore: a consistent copy of the store while it serves, and
// that copy put back (SQLite's online backup API; pg_dump and pg_restore).
import type { Command } from 'commander';
import { backupPostgres, restorePostgres, type PgToolOptions } from '../store/backup/postgres.js';
import { backupSqlite, restoreSqlite, type StoreSnapshot } from '../store/backup/sqlite.js';
import type { Store } from '../store/store.js';
import type { Config } from '../config.js';
import { configFrom, databaseOption, withUnmigratedStore, type StoreOptions } from './common.js';

interface RestoreOptions extends StoreOptions {
  force?: boolean;
  dropForeign?: boolean;
}

export function registerBackupCommands(program: Command) {
  program
    .command('backup')
    .description('write a consistent copy of the store to FILE, safe while serving and ingesting')
    .argument('<file>', 'backup file to write, mode 0600 (replaced only once the new backup is complete)')
    .option(...databaseOption)
    .action(async (file: string, options: StoreOptions) => {
      const config = configFrom(options);
      const started = performance.now();
      const snapshot =
        config.store.kind === 'sqlite'
          ? await backupSqlite(config.store.path, file)
          : await withPostgres(options, (db, url) => backupPostgres(db, url, file, pgTools(config)));
      process.stdout.write(`backed up to ${file}: ${describe(snapshot)} in ${seconds(started)}\n`);
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
    });
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
