// A fresh, migrated store of the project's kind (SQLite file, or a PostgreSQL
// database in the postgres test project), for store-level tests and for the
// CLI (`database` is what `--database` takes).
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from './services.js';

export interface TestStore {
  store: Store;
  database: string;
  close(): Promise<void>;
}

/** `dir` holds the SQLite file; the caller removes it. */
export async function openTestStore(dir: string, name = 'wallery'): Promise<TestStore> {
  if (testStoreKind() === 'sqlite') {
    const path = join(dir, `${name}.db`);
    const store = openStore({ kind: 'sqlite', path });
    await store.migrate();
    return { store, database: path, close: () => store.close() };
  }
  const db = await createTestDatabase();
  const store = openStore({ kind: 'postgres', url: db.url });
  await store.migrate();
  return {
    store,
    database: db.url,
    async close() {
      await store.close();
      await dropTestDatabase(db.name);
    },
  };
}
