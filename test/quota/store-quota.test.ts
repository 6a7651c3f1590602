// The store-backed quota: exact for one instance, never over the limit for
// several, no write per call, nothing lost across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QUOTA_BLOCK_MAX, StoreQuota } from '../../src/quota/store-quota.js';
import { openStore, type Store } from '../../src/store/store.js';
import { usageFor } from '../../src/store/usage.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-quota-'));
  store = openStore({ kind: 'sqlite', path: join(dir, 'q.db') });
  await store.migrate();
  await store.db
    .insertInto('accounts')
    .values({ id: 1, name: 'A', plan: 'enterprise', daily_call_limit: 0, created_at: 0 })
    .execute();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const DAY = 20_000;

describe('StoreQuota', () => {
  it('allows exactly the limit for one instance, under concurrency', async () => {
    const quota = new StoreQuota(store.db);
    const decisions = await Promise.all(Array.from({ length: 250 }, () => quota.consume(1, DAY, 100)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    const used = decisions
      .filter((d) => d.allowed)
      .map((d) => d.used)
      .sort((a, b) => a - b);
    expect(used).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(decisions.filter((d) => !d.allowed).every((d) => d.used === 100)).toBe(true);
    await quota.close();
    expect(await usageFor(store.db, 1, DAY)).toBe(100);
  });

  it('writes to the store once per block, not once per call', async () => {
    const quota = new StoreQuota(store.db);
    let writes = 0;
    const counting = new Proxy(store.db, {
      get(target, prop) {
        if (prop === 'insertInto') writes += 1;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const q = new StoreQuota(counting);
    for (let i = 0; i < 3 * QUOTA_BLOCK_MAX; i++) expect((await q.consume(1, DAY, 100_000_000)).allowed).toBe(true);
    expect(writes).toBe(3);
    await q.close();
    await quota.close();
  });

  it('reports today’s calls answered, without the calls it reserved ahead', async () => {
    const quota = new StoreQuota(store.db);
    for (let i = 0; i < 3; i++) expect((await quota.consume(1, DAY, 1000)).allowed).toBe(true);
    const stored = await usageFor(store.db, 1, DAY);
    expect(stored).toBeGreaterThan(3); // a block of 15 reserved
    expect(await quota.todayCalls(1, DAY, stored)).toBe(3);
    expect(await new StoreQuota(store.db).todayCalls(1, DAY, stored)).toBe(stored); // another instance knows only the store
    await quota.close();
    expect(await usageFor(store.db, 1, DAY)).toBe(3);
  });

  it('never exceeds the limit across instances and hands back unused calls on close', async () => {
    const a = new StoreQuota(store.db);
    const b = new StoreQuota(store.db);
    const decisions = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? a : b).consume(1, DAY, 1000)));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    await a.close();
    await b.close();
    expect(await usageFor(store.db, 1, DAY)).toBe(400);
    const c = new StoreQuota(store.db);
    const d = new StoreQuota(store.db);
    const more = await Promise.all(Array.from({ length: 1200 }, (_, i) => (i % 2 ? c : d).consume(1, DAY, 1000)));
    const allowed = more.filter((x) => x.allowed).length;
    expect(allowed).toBeLessThanOrEqual(600);
    expect(allowed).toBeGreaterThan(600 - 2 * 64);
    await c.close();
    await d.close();
    expect(await usageFor(store.db, 1, DAY)).toBe(400 + allowed);
  });

  it('continues from the stored count after a restart and starts over on a new day', async () => {
    const first = new StoreQuota(store.db);
    for (let i = 0; i < 7; i++) await first.consume(1, DAY, 10);
    await first.close();
    const second = new StoreQuota(store.db);
    expect(await second.consume(1, DAY, 10)).toEqual({ allowed: true, used: 8 });
    await second.consume(1, DAY, 10);
    await second.consume(1, DAY, 10);
    expect((await second.consume(1, DAY, 10)).allowed).toBe(false);
    expect(await second.consume(1, DAY + 1, 10)).toEqual({ allowed: true, used: 1 });
    await second.close();
    expect(await usageFor(store.db, 1, DAY)).toBe(10);
    expect(await usageFor(store.db, 1, DAY + 1)).toBe(1);
  });

  it('refuses everything for a limit of 0', async () => {
    const quota = new StoreQuota(store.db);
    expect(await quota.consume(1, DAY, 0)).toEqual({ allowed: false, used: 0 });
  });
});
