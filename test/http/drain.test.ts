// A server shutting down (src/http/drain.ts), phase by phase, over real HTTP:
// unready — /readyz 503, requests still served, every answer closing its
// connection; closing — every request refused with a 503 in its own API's
// envelope (v2 JSON and XML, management, embed), with Retry-After and
// Connection: close, its handler never run. The whole sequence in a real
// process: test/cli/shutdown.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, KEYS, type Res } from '../helpers/http.js';
import { describeSample } from '../helpers/sample.js';
import { startEmbedServer, embedError, type EmbedServer } from './embed/helpers.js';

const SHUTTING_DOWN = 'Service unavailable: this instance is shutting down; retry';

/** A refusal of a closing server: Retry-After: 1 and Connection: close. */
function expectRefusalHeaders(res: Res): void {
  expect({ retryAfter: res.headers.get('retry-after'), connection: res.headers.get('connection') }).toEqual({
    retryAfter: '1',
    connection: 'close',
  });
}

async function usageCalls(s: EmbedServer): Promise<number> {
  const rows = await s.srv.store.db.selectFrom('usage_daily').select('calls').where('account_id', '=', 7001).execute();
  return rows.reduce((n, r) => n + Number(r.calls), 0);
}

describeSample('a server shutting down', () => {
  let s: EmbedServer;
  let key: string;
  beforeAll(async () => {
    s = await startEmbedServer();
    key = (await s.makeKey(7011)).key;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('serving: ready, keep-alive answers', async () => {
    const ready = await call(s.srv.baseUrl, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', store: 'ok' });
    const read = await call(s.srv.baseUrl, '/api/v2/widget/wallInfo/7011', { query: { user_key: KEYS.ent } });
    expect(read.status).toBe(200);
    expect(read.headers.get('connection')).toBe('keep-alive');
  });

  it('unready: /readyz answers 503 while requests are still served, each answer closing its connection', async () => {
    s.srv.app.drain.unready();
    const ready = await call(s.srv.baseUrl, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', store: 'ok', shutdown: 'draining' });
    expect(ready.headers.get('connection')).toBe('close');
    const alive = await call(s.srv.baseUrl, '/healthz');
    expect(alive.status).toBe(200);

    const read = await call(s.srv.baseUrl, '/api/v2/widget/wallInfo/7011', { query: { user_key: KEYS.ent } });
    expect(read.status).toBe(200);
    expect(read.headers.get('connection')).toBe('close');
    const manage = await s.manage('GET', '/walls/7011');
    expect(manage.status).toBe(200);
    expect(manage.headers.get('connection')).toBe('close');
    const embed = await s.embed('/walls/7011', { key });
    expect(embed.status).toBe(200);
    expect(embed.headers.get('connection')).toBe('close');
  });

  describe('closing: every request refused in its API’s envelope', () => {
    beforeAll(() => s.srv.app.drain.close());

    it.each(['json', 'xml'] as const)('v2 read and write (%s), not counted on the quota', async (format) => {
      const before = await usageCalls(s);
      const read = await call(s.srv.baseUrl, '/api/v2/widget/wallInfo/7011', {
        query: { user_key: KEYS.ent, format },
      });
      expectError(read, format, 503, SHUTTING_DOWN);
      expectRefusalHeaders(read);
      expect(read.headers.get('access-control-allow-origin')).toBe('*');
      const write = await call(s.srv.baseUrl, '/api/v2/widget/create-post', {
        query: { user_key: KEYS.ent, format },
        body: { wallId: 7011, content: 'never written' },
      });
      expectError(write, format, 503, SHUTTING_DOWN);
      expectRefusalHeaders(write);
      // the handlers never ran: nothing counted, nothing written
      expect(await usageCalls(s)).toBe(before);
      const written = await s.srv.store.db
        .selectFrom('posts')
        .select('id')
        .where('content', '=', 'never written')
        .execute();
      expect(written).toEqual([]);
    });

    it('management API: its envelope', async () => {
      const res = await s.manage('PATCH', '/walls/7011', { name: 'never renamed' });
      expect(res.status).toBe(503);
      expect(res.contentType).toBe('application/json; charset=utf-8');
      expect(res.json()).toStrictEqual({ responseCode: 503, responseStatus: 'error', responseMessage: SHUTTING_DOWN });
      expectRefusalHeaders(res);
    });

    it('embed API: posts and the stream', async () => {
      for (const path of ['/walls/7011/posts', '/walls/7011/stream']) {
        const res = await s.embed(path, { key });
        embedError(res, 503, /shutting down/);
        expectRefusalHeaders(res);
      }
    });

    it('a path no route has: the same 503, not a 404', async () => {
      const res = await call(s.srv.baseUrl, '/api/v2/no-such-thing', { query: { format: 'xml' } });
      expectError(res, 'xml', 503, SHUTTING_DOWN);
      expectRefusalHeaders(res);
    });

    it('the probes answer on their own terms: alive, not ready', async () => {
      const alive = await call(s.srv.baseUrl, '/healthz');
      expect(alive.status).toBe(200);
      const ready = await call(s.srv.baseUrl, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', store: 'ok', shutdown: 'draining' });
    });
  });
});
