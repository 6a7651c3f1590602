// The store: one Kysely instance on SQLite or PostgreSQL, migrated on open.
import { sql } from 'kysely';
import type { StoreUrl } from '../config.js';
import { openDialect, type DialectHandle } from './dialect.js';
import { migrateToLatest } from './migrations.js';

export interface Store extends DialectHandle {
  migrate(): Promise<string[]>;
  /** true when the store answers a trivial query */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export function openStore(url: StoreUrl): Store {
  const handle = openDialect(url);
  return {
    ...handle,
    migrate: () => migrateToLatest(handle.db as never, handle.name),
    async ping() {
      try {
        await sql`select 1`.execute(handle.db);
        return true;
      } catch {
        return false;
      }
    },
    close: () => handle.db.destroy(),
  };
}
