// The store: one Kysely instance on SQLite or PostgreSQL, migrated on open.
import { sql } from 'kysely';
import pRetry from 'p-retry';
import type { DatabaseOptions, StoreUrl } from '../config.js';
import { openDialect, type DialectHandle, type QueryObserver } from './dialect.js';
import { migrateToLatest, pendingMigrations, type PendingMigration } from './migrations.js';

export interface Store extends DialectHandle {
  /** applies the pending migrations; refuses a schema newer than this code (SchemaTooNewError) */
  migrate(): Promise<string[]>;
  /** what `migrate` would apply, with its SQL; changes nothing */
  pendingMigrations(): Promise<PendingMigration[]>;
  /** true when the store answers a trivial query */
  ping(): Promise<boolean>;
  /** start-up: waits for the store with exponential backoff, `retries` times */
  waitUntilReachable(retries: number): Promise<void>;
  close(): Promise<void>;
}

export function openStore(url: StoreUrl, options?: DatabaseOptions, onQuery?: QueryObserver): Store {
  const handle = openDialect(url, options, onQuery);
  return {
    ...handle,
    migrate: () => migrateToLatest(handle.db as never, handle.name),
    pendingMigrations: () => pendingMigrations(handle.db as never, handle.name),
    async ping() {
      try {
        await sql`select 1`.execute(handle.db);
        return true;
      } catch {
        return false;
      }
    },
    async waitUntilReachable(retries: number) {
      await pRetry(() => sql`select 1`.execute(handle.db), { retries, minTimeout: 250, maxTimeout: 5000 });
    },
    close: () => handle.db.destroy(),
  };
}
