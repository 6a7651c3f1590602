// Today's calls in the usage report when the quota is counted in Redis: the
// live shared count, which the store's copy trails by its flush interval.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisQuota } from '../../../src/quota/redis-quota.js';
import { connectRedis, waitReady } from '../../../src/redis/client.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { TEST_REDIS_URL, testStoreKind } from '../../helpers/services.js';

describe.runIf(testStoreKind() === 'postgres')('usage today with the Redis quota', () => {
  let dir: string;
  let store: Store;
  let redis: Redis;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-usage-redis-'));
    store = openStore({ kind: 'sqlite', path: join(dir, 'u.db') });
    await store.migrate();
    redis = connectRedis(TEST_REDIS_URL, 'usage-redis-test');
    await waitReady(redis);
  });
  afterAll(async () => {
    redis?.disconnect();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is the live count, never below the stored copy', async () => {
    const prefix = `wallery:test:${process.pid}:${Date.now()}`;
    const quota = new RedisQuota(redis, store.db, {
      prefix,
      flushIntervalMs: 3_600_000,
    });
    const day = 30_000;
    expect(await quota.todayCalls(1, day, 0)).toBe(0);
    for (let i = 0; i < 4; i++) expect((await quota.consume(1, day, 1000)).allowed).toBe(true);
    expect(await quota.todayCalls(1, day, 0)).toBe(4); // not flushed to the store yet
    expect(await quota.todayCalls(1, day, 9)).toBe(9);
    await quota.close();
    await redis.del(`${prefix}:1:${day}`);
  });
});
