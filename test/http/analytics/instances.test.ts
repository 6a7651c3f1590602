// Two instances on one PostgreSQL store and one Redis, taking beacons at the
// same time and flushing at the same time: the counters are the exact sum —
// nothing counted twice (additive upserts; a beacon resent to the other
// instance is a repeat for both, through Redis), nothing lost.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDay } from '../../../src/domain/dates.js';
import { connectRedis, waitReady } from '../../../src/redis/client.js';
import { NOW } from '../../helpers/sample.js';
import { hasSampleData, makeTempDir, removeDir, startTestServer, type TestServer } from '../../helpers/server.js';
import { TEST_REDIS_URL, testStoreKind } from '../../helpers/services.js';
import { startEmbedServer, type EmbedServer } from '../embed/helpers.js';
import { beacon, counters } from './helpers.js';

const POSTS = ['17001', '17004', '17007', '17010', '17013', '17019', '17022', '17025'];

describe.runIf(testStoreKind() === 'postgres' && hasSampleData)(
  'analytics on two instances (PostgreSQL + Redis)',
  () => {
    let dir: string;
    let redis: Redis;
    let a: EmbedServer;
    let b: TestServer;
    beforeAll(async () => {
      dir = makeTempDir();
      redis = connectRedis(TEST_REDIS_URL, 'analytics-instances-test');
      await waitReady(redis);
      const shared = { redis, prefix: `wallery:test:analytics:${process.pid}:${Date.now()}` };
      a = await startEmbedServer({ dir, shared, embed: { analyticsFlushMs: 200 } });
      b = await startTestServer({ dir, shared, now: NOW, embed: { analyticsFlushMs: 200 } });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
      redis?.disconnect();
      if (dir) removeDir(dir);
    });

    it('count every beacon once, whichever instance took it, with both writing at once', async () => {
      const { key } = await a.makeKey(7011);
      const beacons = Array.from({ length: 60 }, (_, i) => ({
        view: `instances-view-${i}-${process.pid}`,
        events: Array.from({ length: 50 }, (_, j) => ({
          type: j % 5 === 0 ? 'impression' : 'click',
          postId: POSTS[(i + j) % POSTS.length]!,
        })),
      }));
      // what each beacon adds: clicks all, impressions once per (view, post)
      const expected = new Map<string, number>();
      for (const bcn of beacons) {
        const seen = new Set<string>();
        for (const e of bcn.events) {
          if (e.type === 'impression' && seen.has(e.postId)) continue;
          if (e.type === 'impression') seen.add(e.postId);
          const k = `${e.type}|${e.postId}`;
          expected.set(k, (expected.get(k) ?? 0) + 1);
        }
      }
      // every beacon to one instance, every third also resent to the other; all at once, flushes racing them
      const sends = beacons.flatMap((bcn, i) => {
        const first = i % 2 === 0 ? a.srv.baseUrl : b.baseUrl;
        const other = i % 2 === 0 ? b.baseUrl : a.srv.baseUrl;
        return i % 3 === 0 ? [beacon(first, key, bcn), beacon(other, key, bcn)] : [beacon(first, key, bcn)];
      });
      const flushes = Array.from({ length: 5 }, () =>
        Promise.all([a.srv.app.ctx.analytics!.aggregator.flush(), b.app.ctx.analytics!.aggregator.flush()]),
      );
      const results = await Promise.all(sends);
      await Promise.all(flushes);
      expect(results.map((r) => r.status).filter((s) => s !== 202)).toEqual([]);
      await Promise.all([a.srv.app.ctx.analytics!.aggregator.flush(), b.app.ctx.analytics!.aggregator.flush()]);

      const rows = await counters(a.srv.store.db, 7011);
      expect(rows.every((r) => r.day === utcDay(NOW) && r.product_id === 0)).toBe(true);
      const got = new Map(rows.map((r) => [`${r.type}|${r.post_id}`, r.n]));
      expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected));
      const total = [...expected.values()].reduce((x, y) => x + y, 0);
      const report = await a.manage('GET', '/walls/7011/analytics');
      const totals = (report.json().responseData as { totals: { impressions: number; clicks: number } }).totals;
      expect(totals.impressions + totals.clicks).toBe(total);
    });

    it('keep no client address in Redis: the beacons’ limiter keys hold a digest of it', async () => {
      const keys = await redis.keys(`${(a.srv.app.ctx.shared as { prefix: string }).prefix}:*`);
      expect(keys.some((k) => k.includes('events-ip:'))).toBe(true);
      expect(keys.some((k) => k.includes('events-seen:'))).toBe(true);
      expect(keys.filter((k) => k.includes('127.0.0.1') || k.includes('::1'))).toEqual([]);
    });
  },
);
