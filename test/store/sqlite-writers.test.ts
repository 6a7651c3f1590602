// Two processes writing one SQLite file, played by two stores (two
// connections) in one process: a write waits for the other's write lock, and
// waits without freezing the event loop (the holder here is released by it).
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_OPTIONS } from '../../src/config.js';
import { isSqliteBusy } from '../../src/store/dialect.js';
import type { Database } from '../../src/store/schema.js';
import { openStore, type Store } from '../../src/store/store.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { testStoreKind } from '../helpers/services.js';
import { watched } from '../helpers/watched.js';

const ACCOUNT = 1;

/** Reads the account's counter, then writes it back plus one: a read-then-write transaction body. */
async function bump(trx: Kysely<Database>): Promise<void> {
  const row = await trx
    .selectFrom('accounts')
    .select('daily_call_limit')
    .where('id', '=', ACCOUNT)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('accounts')
    .set({ daily_call_limit: row.daily_call_limit + 1 })
    .where('id', '=', ACCOUNT)
    .execute();
}

async function counter(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom('accounts')
    .select('daily_call_limit')
    .where('id', '=', ACCOUNT)
    .executeTakeFirstOrThrow();
  return row.daily_call_limit;
}

describe.skipIf(testStoreKind() === 'postgres')('SQLite writers in two processes', () => {
  let dir: string;
  let holder: Store;
  const others: Store[] = [];

  /** A second connection to the file, as another process would open it. */
  function other(busyTimeoutMs = DEFAULT_DATABASE_OPTIONS.busyTimeoutMs): Store {
    const store = openStore(
      { kind: 'sqlite', path: join(dir, 'wallery.db') },
      { ...DEFAULT_DATABASE_OPTIONS, busyTimeoutMs },
    );
    others.push(store);
    return store;
  }

  /**
   * Starts a write transaction on `holder` that bumps the counter and keeps
   * the write lock until `release` is called; resolves once it holds it.
   */
  async function holdWriteLock(): Promise<{ release: () => void; committed: Promise<void> }> {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const committed = holder.db.transaction().execute(async (trx) => {
      await bump(trx);
      holding();
      await gate;
    });
    await held;
    return { release, committed };
  }

  beforeEach(async () => {
    dir = makeTempDir();
    holder = openStore({ kind: 'sqlite', path: join(dir, 'wallery.db') });
    await holder.migrate();
    await holder.db
      .insertInto('accounts')
      .values({ id: ACCOUNT, name: 'Counter', plan: 'free', daily_call_limit: 0, created_at: 0 })
      .execute();
  });

  afterEach(async () => {
    for (const store of others.splice(0)) await store.close();
    await holder.close();
    removeDir(dir);
  });

  it('a read-then-write transaction waits for the other write, then builds on it', async () => {
    const waiter = other();
    const { release, committed } = await holdWriteLock();
    const second = watched(waiter.db.transaction().execute(bump));
    // Everything the second transaction can do without the lock is done
    // before the next turn of the event loop: it must still be waiting.
    await turn();
    expect(second.settled()).toBe(false);
    release();
    await committed;
    await second.promise;
    // it read after the first committed: no update was lost
    expect(await counter(waiter)).toBe(2);
  });

  it('a write on its own waits for the other write without blocking the event loop', async () => {
    const waiter = other();
    const { release, committed } = await holdWriteLock();
    const write = watched(
      waiter.db.updateTable('accounts').set({ name: 'Renamed' }).where('id', '=', ACCOUNT).execute(),
    );
    await turn();
    expect(write.settled()).toBe(false);
    // the holder can only be released because the event loop still runs
    release();
    await committed;
    await write.promise;
    const row = await waiter.db.selectFrom('accounts').select(['name', 'daily_call_limit']).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Renamed', daily_call_limit: 1 });
  });

  it('a read-only transaction does not wait for a writer', async () => {
    const reader = other(0);
    const { release, committed } = await holdWriteLock();
    // with no patience at all it still reads: the snapshot before the holder's write
    const seen = await reader.db
      .transaction()
      .setAccessMode('read only')
      .execute((trx) => trx.selectFrom('accounts').select('daily_call_limit').executeTakeFirstOrThrow());
    expect(seen.daily_call_limit).toBe(0);
    release();
    await committed;
  });

  it('a write that waits longer than its busy timeout fails as busy and changes nothing', async () => {
    const impatient = other(100);
    const { release, committed } = await holdWriteLock();
    const failure = await impatient.db
      .transaction()
      .execute(bump)
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isSqliteBusy(failure), String(failure)).toBe(true);
    release();
    await committed;
    expect(await counter(impatient)).toBe(1);
  });
});
