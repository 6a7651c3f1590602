// SQLite writes are synced off the event loop (src/store/wal-sync.ts): a
// write is acknowledged only once its log is on disk, reads do not wait for
// that sync, and every acknowledged write survives a kill -9.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WalSync } from '../../src/store/wal-sync.js';
import { openStore, type Store } from '../../src/store/store.js';
import { ROOT } from '../helpers/cli.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { testStoreKind } from '../helpers/services.js';
import { watched } from '../helpers/watched.js';

const account = (id: number) => ({
  id,
  name: `account ${id}`,
  plan: 'free' as const,
  daily_call_limit: 0,
  created_at: 0,
});

describe.skipIf(testStoreKind() === 'postgres')('SQLite writes synced off the event loop', () => {
  let dir: string;
  let store: Store;

  beforeEach(async () => {
    dir = makeTempDir();
    store = openStore({ kind: 'sqlite', path: join(dir, 'wallery.db') });
    await store.migrate();
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await store.close();
    removeDir(dir);
  });

  /** Holds every sync of the log until `release` is called; `started` counts the syncs asked for. */
  function holdSyncs() {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const spy = vi.spyOn(WalSync.prototype, 'flush').mockImplementation(() => gate);
    return { release, started: () => spy.mock.calls.length };
  }

  it('commits without SQLite syncing on the thread (synchronous = NORMAL)', () => {
    expect(store.sqlite!.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('acknowledges a write only after the log is synced, and reads do not wait for the sync', async () => {
    const syncs = holdSyncs();
    const write = watched(store.db.insertInto('accounts').values(account(1)).execute());
    const inTransaction = watched(
      store.db.transaction().execute((trx) => trx.insertInto('accounts').values(account(2)).execute()),
    );
    await vi.waitFor(() => expect(syncs.started()).toBe(2));
    // committed and visible to a read at once, while neither write is acknowledged yet
    const rows = await store.db.selectFrom('accounts').select('id').orderBy('id').execute();
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
    await turn();
    expect(write.settled()).toBe(false);
    expect(inTransaction.settled()).toBe(false);
    syncs.release();
    await write.promise;
    await inTransaction.promise;
  });

  it('does not sync for reads, nor for a transaction that only read', async () => {
    const syncs = holdSyncs();
    await store.db.selectFrom('accounts').selectAll().execute();
    await store.db.transaction().execute((trx) => trx.selectFrom('accounts').selectAll().execute());
    expect(syncs.started()).toBe(0);
    syncs.release();
  });

  it('acknowledges concurrent writes (they share the syncs that follow them)', async () => {
    const flushes = Array.from({ length: 20 }, (_, i) =>
      store.db
        .insertInto('accounts')
        .values(account(i + 1))
        .execute(),
    );
    await Promise.all(flushes);
    const rows = await store.db.selectFrom('accounts').select('id').execute();
    expect(rows).toHaveLength(20);
  });

  it('keeps every acknowledged write after a kill -9 of the writing process', async () => {
    const path = join(dir, 'wallery.db');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/store/fixtures/acknowledging-writer.ts', path], {
      cwd: ROOT,
    });
    const acknowledged: number[] = [];
    let stderr = '';
    let buffered = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) acknowledged.push(Number(line.slice('ack '.length)));
    });
    const exited = once(child, 'exit');
    // killed in the middle of its writes, once it has had 200 acknowledged
    await vi.waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`the writer ended by itself:\n${stderr}`);
        expect(acknowledged.length).toBeGreaterThanOrEqual(200);
      },
      { timeout: 60_000, interval: 20 },
    );
    child.kill('SIGKILL');
    await exited;
    const stored = new Set((await store.db.selectFrom('accounts').select('id').execute()).map((r) => r.id));
    for (const id of acknowledged) expect(stored.has(id), `account ${id}`).toBe(true);
  });
});
