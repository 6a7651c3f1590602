// Contract §3: keys, plans and the daily quota — the X-RateLimit headers,
// 429 with Retry-After, the UTC day boundary, keys sharing an account's
// quota, counts surviving a restart and shared by instances of one store.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUserKey, revokeUserKey } from '../../src/store/keys.js';
import { call, expectError, get, KEYS, MSG, type Res } from '../helpers/http.js';
import { OPS, runOp } from '../helpers/ops.js';
import { describeSample, sample } from '../helpers/sample.js';
import { makeTempDir, removeDir, startTestServer, type TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
/** Thu 15 Jan 2026 12:00:00 UTC */
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const nextMidnightSec = (ms: number) => (Math.floor(ms / DAY) + 1) * (DAY / 1000);

function rateHeaders(res: Res) {
  return {
    limit: res.headers.get('x-ratelimit-limit'),
    remaining: res.headers.get('x-ratelimit-remaining'),
    reset: res.headers.get('x-ratelimit-reset'),
  };
}

const tinyW1 = (srv: TestServer, format?: string, key: string = KEYS.tiny) =>
  get(srv.baseUrl, '/api/v2/widget/wallInfo/7016', { user_key: key, format });

describeSample('keys, plans and quota of contract §3', () => {
  let srv: TestServer;
  beforeEach(async () => {
    srv = await startTestServer({ data: sample(), now: T0 });
  });
  afterEach(async () => {
    await srv?.close();
  });

  describe('plans', () => {
    it('enterprise reaches both families; widget only W; commerce only C; free nothing', async () => {
      const status = async (path: string, key: string) => (await get(srv.baseUrl, path, { user_key: key })).status;
      expect(await status('/api/v2/widget/wallInfo/7011', KEYS.ent)).toBe(200);
      expect(await status('/api/v2/commerce/getGalleryInfo/7011', KEYS.ent)).toBe(200);
      expect(await status('/api/v2/widget/wallInfo/7011', KEYS.ent2)).toBe(200);
      expect(await status('/api/v2/widget/wallInfo/7013', KEYS.wid)).toBe(200);
      expect(await status('/api/v2/commerce/getGalleryInfo/7013', KEYS.wid)).toBe(401);
      expect(await status('/api/v2/commerce/getGalleryInfo/7014', KEYS.com)).toBe(200);
      expect(await status('/api/v2/widget/wallInfo/7014', KEYS.com)).toBe(401);
      for (const op of OPS) expect((await runOp(srv.baseUrl, op, { key: KEYS.free, wallId: 7011 })).status).toBe(401);
    });

    it('a revoked key → 401, the account’s other key still works', async () => {
      expect(await revokeUserKey(srv.store.db, KEYS.ent, T0)).toBe(true);
      expectError(
        await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent }),
        'json',
        401,
        MSG.unauthorized,
      );
      expect((await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent2 })).status).toBe(200);
    });

    it('keys are stored only as SHA-256 hashes: no plaintext in the key table', async () => {
      const rows = await srv.store.db.selectFrom('user_keys').selectAll().execute();
      const dump = JSON.stringify(rows);
      for (const key of Object.values(KEYS)) {
        expect(dump).not.toContain(key);
        const hash = createHash('sha256').update(key, 'utf8').digest('hex');
        expect(rows.filter((r) => r.key_hash === hash)).toHaveLength(1);
      }
    });

    it('a key made later works at once', async () => {
      const key = await createUserKey(srv.store.db, 7002, T0);
      expect((await get(srv.baseUrl, '/api/v2/widget/wallInfo/7013', { user_key: key })).status).toBe(200);
    });

    it('a 401 carries no quota headers and counts nothing', async () => {
      const res = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7016', { user_key: 'nope' });
      expect(res.status).toBe(401);
      const first = await tinyW1(srv);
      expect(rateHeaders(first).remaining).toBe('4');
    });
  });

  describe('X-RateLimit headers on every authenticated response', () => {
    it('200, 400, 404 (wall), 404 (post), 413 and write answers all carry them and all count', async () => {
      const reset = String(nextMidnightSec(T0));
      const calls: (() => Promise<Res>)[] = [
        () => get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: KEYS.ent }),
        () => get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: KEYS.ent, limit: '0' }),
        () => get(srv.baseUrl, '/api/v2/widget/posts/7099', { user_key: KEYS.ent, format: 'xml' }),
        () => get(srv.baseUrl, '/api/v2/commerce/getGalleryProductByID/7011/1/', { user_key: KEYS.ent2 }),
        () => get(srv.baseUrl, '/api/v2/commerce/getGalleryInfo/7011', { user_key: KEYS.ent, format: 'yaml' }),
        () =>
          call(srv.baseUrl, '/api/v2/widget/create-post', {
            query: { user_key: KEYS.ent },
            body: JSON.stringify({ wallId: 7011, content: 'x'.repeat(1024 * 1024) }),
          }),
        () => call(srv.baseUrl, '/api/v2/commerce/createGalleryPost', { query: { user_key: KEYS.ent }, body: '{bad' }),
        () =>
          call(srv.baseUrl, '/api/v2/widget/create-post', {
            query: { user_key: KEYS.ent2 },
            body: { wallId: 7012, content: 'hi' },
          }),
      ];
      const statuses: number[] = [];
      let expectedRemaining = 10_000_000;
      for (const c of calls) {
        const res = await c();
        statuses.push(res.status);
        expectedRemaining -= 1;
        expect(rateHeaders(res)).toEqual({ limit: '10000000', remaining: String(expectedRemaining), reset });
      }
      expect(statuses).toEqual([200, 400, 404, 404, 400, 413, 400, 200]);
    });

    it('an account without dailyCallLimit gets the default 1000', async () => {
      const data = sample();
      data.accounts.push({ id: 7009, name: 'Default', plan: 'widget', userKeys: ['Default-key-0001'] });
      const other = await startTestServer({ data, now: T0 });
      try {
        const res = await get(other.baseUrl, '/api/v2/widget/wallInfo/7099', { user_key: 'Default-key-0001' });
        expectError(res, 'json', 404, MSG.wallNotFound);
        expect(rateHeaders(res)).toEqual({ limit: '1000', remaining: '999', reset: String(nextMidnightSec(T0)) });
      } finally {
        await other.close();
      }
    });

    it('X-RateLimit-Reset is the epoch second of the next 00:00 UTC, also one second before it', async () => {
      srv.clock.now = Date.UTC(2026, 0, 15, 23, 59, 59);
      expect(rateHeaders(await tinyW1(srv)).reset).toBe(String(Date.UTC(2026, 0, 16) / 1000));
      srv.clock.now = Date.UTC(2026, 0, 16, 0, 0, 0);
      expect(rateHeaders(await tinyW1(srv)).reset).toBe(String(Date.UTC(2026, 0, 17) / 1000));
      srv.clock.now = Date.UTC(2024, 1, 29, 7, 30, 0); // a leap day
      expect(rateHeaders(await tinyW1(srv)).reset).toBe(String(Date.UTC(2024, 2, 1) / 1000));
    });
  });

  describe('429 when the daily limit is spent (Demo Tiny: 5 a day)', () => {
    const spend = async (n: number) => {
      const out: Res[] = [];
      for (let i = 0; i < n; i++) out.push(await tinyW1(srv));
      return out;
    };

    it('calls 1–5 pass with Remaining 4..0, the 6th is 429 with Retry-After', async () => {
      const ok = await spend(5);
      expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(ok.map((r) => rateHeaders(r).remaining)).toEqual(['4', '3', '2', '1', '0']);
      expect(ok.map((r) => rateHeaders(r).limit)).toEqual(['5', '5', '5', '5', '5']);
      const res = await tinyW1(srv);
      expectError(res, 'json', 429, MSG.quota);
      expect(rateHeaders(res)).toEqual({ limit: '5', remaining: '0', reset: String(nextMidnightSec(T0)) });
      expect(res.headers.get('retry-after')).toBe(String(12 * 3600));
    });

    it('400 and 404 answers count toward the limit', async () => {
      const statuses: number[] = [];
      statuses.push((await get(srv.baseUrl, '/api/v2/widget/posts/7016', { user_key: KEYS.tiny, limit: 'x' })).status);
      statuses.push((await get(srv.baseUrl, '/api/v2/widget/posts/7099', { user_key: KEYS.tiny })).status);
      statuses.push(
        (await get(srv.baseUrl, '/api/v2/commerce/getGalleryProductByID/7016/1/', { user_key: KEYS.tiny })).status,
      );
      statuses.push(
        (await call(srv.baseUrl, '/api/v2/widget/create-post', { query: { user_key: KEYS.tiny }, body: {} })).status,
      );
      statuses.push((await tinyW1(srv)).status);
      expect(statuses).toEqual([400, 404, 404, 400, 200]);
      expectError(await tinyW1(srv), 'json', 429, MSG.quota);
    });

    it('a spent quota blocks writes: the post is not created', async () => {
      await spend(5);
      const res = await call(srv.baseUrl, '/api/v2/widget/create-post', {
        query: { user_key: KEYS.tiny },
        body: { wallId: 7016, content: 'blocked' },
      });
      expectError(res, 'json', 429);
      srv.clock.now = T0 + DAY;
      const list = await get(srv.baseUrl, '/api/v2/widget/posts/7016', { user_key: KEYS.tiny });
      const posts = (list.json() as { responseData: { posts: { content: string }[] }[] }).responseData[0]?.posts ?? [];
      expect(posts.map((p) => p.content)).not.toContain('blocked');
    });

    it('concurrent calls: exactly 5 of 20 pass', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => tinyW1(srv)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    });
  });

  describe('the UTC day boundary', () => {
    it('a spent quota resets at 00:00 UTC: Retry-After counts down to it', async () => {
      srv.clock.now = Date.UTC(2026, 0, 15, 23, 59, 0);
      for (let i = 0; i < 5; i++) expect((await tinyW1(srv)).status).toBe(200);
      const blocked = await tinyW1(srv, 'xml');
      expectError(blocked, 'xml', 429, MSG.quota);
      expect(blocked.headers.get('retry-after')).toBe('60');
      expect(rateHeaders(blocked).reset).toBe(String(Date.UTC(2026, 0, 16) / 1000));

      srv.clock.now = Date.UTC(2026, 0, 15, 23, 59, 59);
      const last = await tinyW1(srv);
      expect(last.status).toBe(429);
      expect(last.headers.get('retry-after')).toBe('1');

      srv.clock.now = Date.UTC(2026, 0, 16, 0, 0, 0);
      const fresh = await tinyW1(srv);
      expect(fresh.status).toBe(200);
      expect(rateHeaders(fresh)).toEqual({ limit: '5', remaining: '4', reset: String(Date.UTC(2026, 0, 17) / 1000) });
    });

    it('calls late in one day and early in the next are counted apart', async () => {
      srv.clock.now = Date.UTC(2026, 0, 15, 23, 59, 59, 999);
      for (let i = 0; i < 3; i++) await tinyW1(srv);
      srv.clock.now = Date.UTC(2026, 0, 16, 0, 0, 0, 0);
      expect(rateHeaders(await tinyW1(srv)).remaining).toBe('4');
      srv.clock.now = Date.UTC(2026, 0, 15, 23, 59, 59, 999); // back to the old day: its own count
      expect(rateHeaders(await tinyW1(srv)).remaining).toBe('1');
    });
  });

  describe('keys of one account share its quota', () => {
    it('the two keys of account 7001 draw down one counter', async () => {
      const a = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent });
      const b = await get(srv.baseUrl, '/api/v2/commerce/getGalleryInfo/7011', { user_key: KEYS.ent2 });
      const c = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent });
      expect([a, b, c].map((r) => rateHeaders(r).remaining)).toEqual(['9999999', '9999998', '9999997']);
    });

    it('two keys of Demo Tiny: 5 calls in all, then both are 429', async () => {
      const second = await createUserKey(srv.store.db, 7005, T0);
      const seq = [KEYS.tiny, second, KEYS.tiny, second, second];
      const remaining: (string | null)[] = [];
      for (const key of seq) {
        const res = await tinyW1(srv, undefined, key);
        expect(res.status).toBe(200);
        remaining.push(rateHeaders(res).remaining);
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      expectError(await tinyW1(srv, undefined, KEYS.tiny), 'json', 429, MSG.quota);
      expectError(await tinyW1(srv, 'xml', second), 'xml', 429, MSG.quota);
    });
  });
});

describeSample('a spent quota (Demo Tiny after 5 calls) on every operation', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ data: sample(), now: T0 });
    for (let i = 0; i < 5; i++) expect((await tinyW1(srv)).status).toBe(200);
    expect((await tinyW1(srv)).status).toBe(429);
  });
  afterAll(async () => {
    await srv?.close();
  });

  it.each(OPS.flatMap((op) => (['json', 'xml'] as const).map((f) => [op.id, f, op] as const)))(
    'spent: %s (%s) → 429 with quota headers',
    async (_id, format, op) => {
      const res = await runOp(srv.baseUrl, op, { key: KEYS.tiny, format, wallId: 7016 });
      expectError(res, format, 429, MSG.quota);
      expect(res.headers.get('retry-after')).toBe(String(12 * 3600));
      expect(rateHeaders(res).remaining).toBe('0');
    },
  );

  it('order: spent quota + bad limit / unknown wall / bad body / huge body → 429', async () => {
    expectError(await get(srv.baseUrl, '/api/v2/widget/posts/7016', { user_key: KEYS.tiny, limit: '0' }), 'json', 429);
    expectError(
      await get(srv.baseUrl, '/api/v2/commerce/getGalleryPosts/7016/', { user_key: KEYS.tiny, date_from: 'x' }),
      'json',
      429,
    );
    expectError(await get(srv.baseUrl, '/api/v2/widget/wallInfo/7099', { user_key: KEYS.tiny }), 'json', 429);
    expectError(
      await get(srv.baseUrl, '/api/v2/widget/wallInfo/7016', { user_key: KEYS.tiny, format: 'yaml' }),
      'json',
      429,
    );
    const bad = await call(srv.baseUrl, '/api/v2/widget/create-post', { query: { user_key: KEYS.tiny }, body: '{' });
    expectError(bad, 'json', 429);
    const huge = await call(srv.baseUrl, '/api/v2/commerce/createGalleryPost', {
      query: { user_key: KEYS.tiny, format: 'xml' },
      body: JSON.stringify({ wallId: 7016, content: 'x'.repeat(1024 * 1024 + 1) }),
    });
    expectError(huge, 'xml', 429, MSG.quota);
  });

  it('order: a bad key is 401 and a bad route 404/405 even when the quota is spent', async () => {
    expectError(await get(srv.baseUrl, '/api/v2/widget/wallInfo/7016', { user_key: 'nope' }), 'json', 401);
    expectError(
      await get(srv.baseUrl, '/api/v2/widget/nothing/7016', { user_key: KEYS.tiny }),
      'json',
      404,
      MSG.notFound,
    );
    const res = await call(srv.baseUrl, '/api/v2/widget/wallInfo/7016', {
      method: 'POST',
      query: { user_key: KEYS.tiny },
    });
    expectError(res, 'json', 405, MSG.methodNotAllowed);
  });

  it('another account is not affected', async () => {
    expect((await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent })).status).toBe(200);
  });
});

describeSample('quota counts are durable and shared through the store', () => {
  let dir: string;
  const servers: TestServer[] = [];
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close().catch(() => undefined);
    removeDir(dir);
  });

  it('counts survive a restart on the same SQLite file', async () => {
    const first = await startTestServer({ data: sample(), now: T0, dir });
    servers.push(first);
    for (let i = 0; i < 3; i++) expect((await tinyW1(first)).status).toBe(200);
    await first.close();

    const second = await startTestServer({ now: T0 + 60_000, dir });
    servers.push(second);
    const r4 = await tinyW1(second);
    expect(r4.status).toBe(200);
    expect(rateHeaders(r4).remaining).toBe('1');
    expect((await tinyW1(second)).status).toBe(200);
    expectError(await tinyW1(second), 'json', 429, MSG.quota);
    await second.close();

    // and the spent state itself survives a restart
    const third = await startTestServer({ now: T0 + 120_000, dir });
    servers.push(third);
    expectError(await tinyW1(third), 'json', 429, MSG.quota);
  });

  it('two instances on one store share the count', async () => {
    const a = await startTestServer({ data: sample(), now: T0, dir });
    servers.push(a);
    const b = await startTestServer({ now: T0, dir });
    servers.push(b);
    const seq = [a, b, a, b, b];
    expect((await Promise.all(seq.map((s) => tinyW1(s)))).every((r) => r.status === 200)).toBe(true);
    expectError(await tinyW1(a), 'json', 429, MSG.quota);
    expectError(await tinyW1(b), 'json', 429, MSG.quota);
  });
});
