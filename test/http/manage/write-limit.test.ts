// The per-token write rate limit of the management API (MANAGE_WRITE_RATE_LIMIT):
// the write after the limit is a 429 in the API's envelope with Retry-After,
// reads go on, and another token still writes; with a shared Redis, instances
// count together.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, waitReady } from '../../../src/redis/client.js';
import { call, type Res } from '../../helpers/http.js';
import { describeSample, sample } from '../../helpers/sample.js';
import { makeTempDir, removeDir, startTestServer, type TestServer } from '../../helpers/server.js';
import { TEST_REDIS_URL, testStoreKind } from '../../helpers/services.js';
import { BASE, data, failure, makeToken } from './helpers.js';

const LIMIT = 3;
const api = (srv: TestServer, token: string, method: string, path: string, body?: unknown) =>
  call(srv.baseUrl, BASE + path, { method, body, headers: { authorization: `Bearer ${token}` } });

/** A 429 of the limit: the envelope, and Retry-After within the minute. */
function limited(res: Res): void {
  failure(res, 429, /^too many writes with this token: at most 3 a minute; retry in \d+ s$/);
  const wait = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After ${wait}`).toBe(true);
}

describeSample('management writes per token and minute', () => {
  describe.runIf(testStoreKind() === 'sqlite')('counted in memory', () => {
    let srv: TestServer;
    let a: string;
    let b: string;
    beforeAll(async () => {
      srv = await startTestServer({ data: sample(), manage: { writeRateLimit: LIMIT } });
      a = (await makeToken(srv, 'busy')).token;
      b = (await makeToken(srv, 'other')).token;
    });
    afterAll(async () => srv?.close());

    it('the write after the limit is refused (429, Retry-After) and not done; reads go on; another token writes', async () => {
      for (let i = 1; i <= LIMIT; i++) data(await api(srv, a, 'PATCH', '/walls/7011', { name: `Renamed ${i}` }));
      const audited = await srv.store.db.selectFrom('audit_log').select('id').execute();
      limited(await api(srv, a, 'PATCH', '/walls/7011', { name: 'One too many' }));
      limited(await api(srv, a, 'POST', '/walls/7011/posts/bulk', { postIds: [17001], action: 'hide' }));
      expect(data<{ name: string }>(await api(srv, a, 'GET', '/walls/7011')).name).toBe(`Renamed ${LIMIT}`);
      expect(await srv.store.db.selectFrom('audit_log').select('id').execute()).toEqual(audited);
      expect(data<{ name: string }>(await api(srv, b, 'PATCH', '/walls/7011', { name: 'By another token' })).name).toBe(
        'By another token',
      );
    });
  });

  describe.runIf(testStoreKind() === 'postgres')('counted in the shared Redis', () => {
    let dir: string;
    let redis: Redis;
    let one: TestServer;
    let two: TestServer;
    beforeAll(async () => {
      redis = connectRedis(TEST_REDIS_URL, 'write-limit-test');
      await waitReady(redis);
      const shared = { redis, prefix: `wallery:test:${randomBytes(4).toString('hex')}` };
      dir = makeTempDir();
      one = await startTestServer({ dir, data: sample(), shared, manage: { writeRateLimit: LIMIT } });
      two = await startTestServer({ dir, shared, manage: { writeRateLimit: LIMIT } });
    });
    afterAll(async () => {
      await two?.close();
      await one?.close();
      redis?.disconnect();
      if (dir) removeDir(dir);
    });

    it('two instances allow the limit between them, not twice it', async () => {
      const { token } = await makeToken(one, 'busy');
      const { token: other } = await makeToken(one, 'other');
      data(await api(one, token, 'PATCH', '/walls/7011', { name: 'Once' }));
      data(await api(two, token, 'PATCH', '/walls/7011', { name: 'Twice' }));
      data(await api(one, token, 'PATCH', '/walls/7011', { name: 'Thrice' }));
      limited(await api(two, token, 'PATCH', '/walls/7011', { name: 'One too many' }));
      limited(await api(one, token, 'PATCH', '/walls/7011', { name: 'One too many' }));
      data(await api(two, other, 'PATCH', '/walls/7011', { name: 'By another token' }));
    });
  });
});
