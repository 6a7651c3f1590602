// A fresh, migrated store of the project's kind (SQLite file, or a PostgreSQL
// database in the postgres test project), for store-level tests and for the
// CLI (`database` is what `--database` takes).
import { join } from 'node:path';
import { migrateTo } from '../../src/store/migrations.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from './services.js';

export interface TestStore {
  store: Store;
  database: string;
  close(): Promise<void>;
}

/**
 * `dir` holds the SQLite file; the caller removes it. `upTo`: migrate only
 * up to that migration (a store of an earlier version), not to the latest.
 */
export async function openTestStore(dir: string, name = 'wallery', upTo?: string): Promise<TestStore> {
  const migrate = (store: Store) => (upTo ? migrateTo(store.db as never, store.name, upTo) : store.migrate());
  if (testStoreKind() === 'sqlite') {
    const path = join(dir, `${name}.db`);
    const store = openStore({ kind: 'sqlite', path });
    await migrate(store);
    return { store, database: path, close: () => store.close() };
  }
  const db = await createTestDatabase();
  const store = openStore({ kind: 'postgres', url: db.url });
  await migrate(store);
  return {
    store,
    database: db.url,
    async close() {
      await store.close();
      await dropTestDatabase(db.name);
    },
  };
}
