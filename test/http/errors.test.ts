// Contract §2: every error row, for every operation, in both formats; the
// status line equals responseCode; and the check order
// route → 401 → 429 → 400 → 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, expectJsonError, get, KEYS, MSG, type Res } from '../helpers/http.js';
import { OPS, READ_OPS, runOp, type Op } from '../helpers/ops.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const FORMATS = ['json', 'xml'] as const;
const MIB = 1024 * 1024;
const opsByFormat = OPS.flatMap((op) => FORMATS.map((format) => [op.id, format, op] as const));

/** A JSON body of exactly `size` bytes that is a valid create-post body apart from its size. */
function bodyOfSize(wallId: number, size: number): string {
  const head = `{"wallId":${wallId},"content":"`;
  const tail = '"}';
  return head + 'a'.repeat(size - head.length - tail.length) + tail;
}

describeSample('errors of contract §2 on the sample data', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ data: sample(), now: NOW });
  });
  afterAll(async () => {
    await srv?.close();
  });

  describe('401: key missing, unknown or plan lacking the family', () => {
    it.each(opsByFormat)('%s (%s): no user_key', async (_id, format, op) => {
      expectError(await runOp(srv.baseUrl, op, { format }), format, 401, MSG.unauthorized);
    });

    it.each(opsByFormat)('%s (%s): unknown user_key', async (_id, format, op) => {
      expectError(await runOp(srv.baseUrl, op, { format, key: 'Demo-ent-key-9999' }), format, 401, MSG.unauthorized);
    });

    it.each(opsByFormat)('%s (%s): empty user_key', async (_id, format, op) => {
      expectError(await runOp(srv.baseUrl, op, { format, key: '' }), format, 401, MSG.unauthorized);
    });

    it.each(opsByFormat)('%s (%s): free plan', async (_id, format, op) => {
      expectError(await runOp(srv.baseUrl, op, { format, key: KEYS.free }), format, 401, MSG.unauthorized);
    });

    it.each(opsByFormat)('%s (%s): a key of the other family’s plan', async (_id, format, op) => {
      const key = op.family === 'widget' ? KEYS.com : KEYS.wid;
      const wallId = op.family === 'widget' ? 7014 : 7013;
      expectError(await runOp(srv.baseUrl, op, { format, key, wallId }), format, 401, MSG.unauthorized);
    });

    it('the parameter name is user_key exactly (USER_KEY, userKey are not read)', async () => {
      for (const name of ['USER_KEY', 'userKey', 'user-key', 'key', 'api_key']) {
        const res = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { [name]: KEYS.ent });
        expectError(res, 'json', 401, MSG.unauthorized);
      }
    });

    it('a key differing only in letter case is unknown', async () => {
      expectError(
        await runOp(srv.baseUrl, OPS[0] as Op, { key: KEYS.ent.toUpperCase() }),
        'json',
        401,
        MSG.unauthorized,
      );
    });

    it('the key is read from the query only, never from a header', async () => {
      const res = await call(srv.baseUrl, '/api/v2/widget/wallInfo/7011', {
        headers: { 'x-api-key': KEYS.ent, authorization: `Bearer ${KEYS.ent}`, cookie: `user_key=${KEYS.ent}` },
      });
      expectError(res, 'json', 401, MSG.unauthorized);
    });
  });

  describe('400: a parameter or body malformed', () => {
    it.each(FORMATS)('bad limit on W2 and C2 (%s)', async (format) => {
      for (const op of OPS.filter((o) => o.id === 'W2' || o.id === 'C2')) {
        const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, format, query: { limit: '0' } });
        expectError(res, format, 400, MSG.limit);
      }
    });

    it.each(FORMATS)('bad body on W3 and C3 (%s): names the parameter', async (format) => {
      for (const op of OPS.filter((o) => o.method === 'POST')) {
        const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, format, body: { wallId: 'abc', content: 'x' } });
        expectError(res, format, 400, /wallId/);
      }
    });

    it.each(FORMATS)('malformed JSON body on W3 and C3 (%s)', async (format) => {
      for (const op of OPS.filter((o) => o.method === 'POST')) {
        const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, format, body: '{"wallId": 7011, "content": "x"' });
        expectError(res, format, 400);
      }
    });

    it.each(FORMATS)('malformed path id (%s): /wallInfo/abc → 400 naming wallId', async (format) => {
      const res = await get(srv.baseUrl, '/api/v2/widget/wallInfo/abc', { user_key: KEYS.ent, format });
      expectError(res, format, 400, /wallId/);
    });

    it.each(OPS.map((op) => [op.id, op] as const))('%s: format=yaml → 400 with a JSON body', async (_id, op) => {
      const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, format: 'yaml' });
      expectJsonError(res, 400, MSG.format);
    });

    it('format empty, format=xm, repeated format → 400 format message (JSON)', async () => {
      for (const query of ['format=', 'format=xm', 'format=xml&format=json', 'format=%20xml']) {
        const res = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', `user_key=${KEYS.ent}&${query}`);
        expectJsonError(res, 400, MSG.format);
      }
    });

    it.each(['XML', 'Xml', 'JSON', 'Json'])('format=%s is accepted (case-insensitive)', async (format) => {
      const res = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent, format });
      expect(res.status).toBe(200);
      expect(res.contentType).toBe(
        format.toLowerCase() === 'xml' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8',
      );
    });
  });

  describe('404: wall unknown, deleted or another account’s', () => {
    const cases = OPS.flatMap((op) =>
      FORMATS.flatMap((format) =>
        [
          ['7099', 'unknown'],
          ['7015', 'deleted'],
          ['7013', 'another account’s'],
          ['0', 'zero'],
          ['99999999999999999999', 'too large to exist'],
        ].map(([wallId, why]) => [op.id, format, wallId as string, why as string, op] as const),
      ),
    );
    it.each(cases)('%s (%s): wall %s (%s) → 404 Wall not found', async (_id, format, wallId, _why, op) => {
      const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, format, wallId });
      expectError(res, format, 404, MSG.wallNotFound);
    });

    it.each(FORMATS)('the deleted wall 7015 stays 404 on every operation (%s)', async (format) => {
      for (const op of OPS)
        expectError(await runOp(srv.baseUrl, op, { key: KEYS.ent, format, wallId: 7015 }), format, 404);
    });
  });

  describe('404: post unknown, hidden or not on that wall (C5)', () => {
    const c5 = (wallId: number, postId: number, format: string) =>
      get(srv.baseUrl, `/api/v2/commerce/getGalleryProductByID/${wallId}/${postId}/`, { user_key: KEYS.ent, format });
    it.each(FORMATS)('%s', async (format) => {
      expectError(await c5(7011, 12345, format), format, 404, MSG.postNotFound);
      expectError(await c5(7011, 17027, format), format, 404, MSG.postNotFound); // hidden
      expectError(await c5(7011, 17057, format), format, 404, MSG.postNotFound); // hidden
      expectError(await c5(7012, 17010, format), format, 404, MSG.postNotFound); // on 7011
      expectError(await c5(7011, 17106, format), format, 404, MSG.postNotFound); // on deleted 7015
    });
  });

  describe('404 route and 405 method', () => {
    const unknownRoutes = [
      '/',
      '/nope',
      '/api',
      '/api/v2',
      '/api/v2/widget',
      '/api/v2/widget/nope/7011',
      '/api/v2/widget/wallInfo',
      '/api/v2/widget/wallInfo/7011/extra',
      '/api/v3/widget/wallInfo/7011',
      '/api/v1/commerce/getGalleryInfo/7011',
      '/api/v2/commerce/getGalleryProductByID/7011',
      '/api/v2/Widget/wallInfo/7011',
    ];
    it.each(unknownRoutes.flatMap((p) => FORMATS.map((f) => [p, f] as const)))(
      'GET %s (%s) → 404 Not found',
      async (path, format) => {
        expectError(await get(srv.baseUrl, path, { user_key: KEYS.ent, format }), format, 404, MSG.notFound);
      },
    );

    const wrongMethods: [string, string][] = [
      ['POST', '/api/v2/widget/posts/7011'],
      ['GET', '/api/v2/widget/create-post'],
      ['PUT', '/api/v2/widget/create-post'],
      ['DELETE', '/api/v2/widget/delete/7011'],
      ['POST', '/api/v2/widget/wallInfo/7011'],
      ['GET', '/api/v2/commerce/createGalleryPost'],
      ['POST', '/api/v2/commerce/getGalleryPosts/7011/'],
      ['DELETE', '/api/v2/commerce/deleteGallery/7011'],
      ['PATCH', '/api/v2/commerce/getGalleryInfo/7011'],
      ['POST', '/api/v2/commerce/getGalleryProductByID/7011/17010/'],
    ];
    it.each(wrongMethods.flatMap(([m, p]) => FORMATS.map((f) => [m, p, f] as const)))(
      '%s %s (%s) → 405 Method not allowed',
      async (method, path, format) => {
        const res = await call(srv.baseUrl, path, { method, query: { user_key: KEYS.ent, format } });
        expectError(res, format, 405, MSG.methodNotAllowed);
      },
    );

    it('405 even with a bad key or none (route is checked first)', async () => {
      expectError(await call(srv.baseUrl, '/api/v2/widget/create-post'), 'json', 405, MSG.methodNotAllowed);
      const res = await call(srv.baseUrl, '/api/v2/widget/posts/7011', { method: 'POST', query: { user_key: 'bad' } });
      expectError(res, 'json', 405, MSG.methodNotAllowed);
    });

    it('route before format: an unknown route or wrong method with format=yaml → 404/405 in JSON', async () => {
      expectJsonError(
        await get(srv.baseUrl, '/api/v2/widget/nope/7011', { user_key: KEYS.ent, format: 'yaml' }),
        404,
        MSG.notFound,
      );
      const res = await call(srv.baseUrl, '/api/v2/widget/create-post', {
        query: { user_key: KEYS.ent, format: 'yaml' },
      });
      expectJsonError(res, 405, MSG.methodNotAllowed);
    });

    it('404 route even with a bad key or none', async () => {
      expectError(await get(srv.baseUrl, '/api/v2/widget/nope/7011'), 'json', 404, MSG.notFound);
      expectError(
        await get(srv.baseUrl, '/api/v2/widget/nope', { user_key: 'bad', format: 'xml' }),
        'xml',
        404,
        MSG.notFound,
      );
    });

    it('a wrong method on a known path did not run the operation (the wall is still there)', async () => {
      await call(srv.baseUrl, '/api/v2/widget/delete/7011', { method: 'POST', query: { user_key: KEYS.ent } });
      expect((await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent })).status).toBe(200);
    });
  });

  describe('413: request body over 1 MiB', () => {
    it.each(OPS.filter((o) => o.method === 'POST').flatMap((op) => FORMATS.map((f) => [op.id, f, op] as const)))(
      '%s (%s): 1 MiB + 1 byte → 413 Request body too large',
      async (_id, format, op) => {
        const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, format, body: bodyOfSize(7011, MIB + 1) });
        expectError(res, format, 413, MSG.tooLarge);
      },
    );

    it('a body of exactly 1 MiB is read (then refused for its content length, 400, not 413)', async () => {
      const res = await runOp(srv.baseUrl, OPS.find((o) => o.id === 'W3') as Op, {
        key: KEYS.ent,
        body: bodyOfSize(7011, MIB),
      });
      expectError(res, 'json', 400, /content/);
    });

    it('a chunked body over 1 MiB (no Content-Length) → 413', async () => {
      const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"wallId":7011,"content":"'));
        },
        pull(controller) {
          if (sent > MIB + 64 * 1024) {
            controller.enqueue(new TextEncoder().encode('"}'));
            controller.close();
            return;
          }
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      let res: Response | undefined;
      try {
        res = await fetch(`${srv.baseUrl}/api/v2/widget/create-post?user_key=${KEYS.ent}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: stream,
          duplex: 'half',
        } as RequestInit);
      } catch {
        // the server may close the connection while the client still sends;
        // then no post may have been created (checked below)
      }
      if (res) {
        expect(res.status).toBe(413);
        expect(await res.json()).toEqual({ responseCode: 413, responseStatus: 'error', responseMessage: MSG.tooLarge });
      }
      const list = await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent });
      const feeds = (list.json() as { responseData: { feeds: { source: string }[] }[] }).responseData[0]?.feeds ?? [];
      expect(feeds.some((f) => f.source === 'Custom')).toBe(false);
    });
  });

  describe('check order: route → 401 → 400 → 404', () => {
    it('bad key + bad limit → 401', async () => {
      const res = await get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: 'nope', limit: '0' });
      expectError(res, 'json', 401, MSG.unauthorized);
    });

    it('no key + format=yaml → 401 (format is a parameter, checked after the key)', async () => {
      expectJsonError(await get(srv.baseUrl, '/api/v2/widget/posts/7011', { format: 'yaml' }), 401, MSG.unauthorized);
    });

    it('bad key + unknown wall → 401', async () => {
      expectError(await get(srv.baseUrl, '/api/v2/widget/posts/7099', { user_key: 'nope', format: 'xml' }), 'xml', 401);
    });

    it('plan lacking + unknown wall → 401', async () => {
      expectError(await get(srv.baseUrl, '/api/v2/commerce/getGalleryInfo/7099', { user_key: KEYS.wid }), 'json', 401);
    });

    it('bad key + body over 1 MiB → 401', async () => {
      const res = await call(srv.baseUrl, '/api/v2/widget/create-post', {
        query: { user_key: 'nope' },
        body: bodyOfSize(7011, MIB + 10),
      });
      expectError(res, 'json', 401, MSG.unauthorized);
    });

    it('bad key + malformed JSON → 401', async () => {
      const res = await call(srv.baseUrl, '/api/v2/commerce/createGalleryPost', {
        query: { user_key: 'nope' },
        body: '{',
      });
      expectError(res, 'json', 401, MSG.unauthorized);
    });

    it.each(['W2', 'C2'])('%s: bad limit + unknown wall → 400', async (id) => {
      const op = OPS.find((o) => o.id === id) as Op;
      const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, wallId: 7099, query: { limit: '501' } });
      expectError(res, 'json', 400, MSG.limit);
    });

    it.each(['W2', 'C2'])('%s: bad date_from + deleted wall → 400', async (id) => {
      const op = OPS.find((o) => o.id === id) as Op;
      const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, wallId: 7015, query: { date_from: '31/02/2024' } });
      expectError(res, 'json', 400, /date_from/);
    });

    it.each(READ_OPS.map((o) => [o.id, o] as const))('%s: format=yaml + unknown wall → 400', async (_id, op) => {
      expectJsonError(await runOp(srv.baseUrl, op, { key: KEYS.ent, wallId: 7099, format: 'yaml' }), 400, MSG.format);
    });

    it.each(['W3', 'C3'])('%s: bad body + unknown wall → 400', async (id) => {
      const op = OPS.find((o) => o.id === id) as Op;
      const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, body: { wallId: 7099, content: '', postFile: '' } });
      expectError(res, 'json', 400);
      const res2 = await runOp(srv.baseUrl, op, { key: KEYS.ent, body: { wallId: 7099, content: 'x'.repeat(10001) } });
      expectError(res2, 'json', 400, /content/);
    });

    it.each(['W3', 'C3'])('%s: good body + unknown wall → 404', async (id) => {
      const op = OPS.find((o) => o.id === id) as Op;
      expectError(await runOp(srv.baseUrl, op, { key: KEYS.ent, wallId: 7099 }), 'json', 404, MSG.wallNotFound);
    });
  });

  describe('every error: status line equals responseCode', () => {
    it('a sample of errors of each code', async () => {
      const responses: Res[] = [
        await get(srv.baseUrl, '/api/v2/widget/posts/7011'),
        await get(srv.baseUrl, '/api/v2/widget/posts/7011', { user_key: KEYS.ent, limit: 'x', format: 'xml' }),
        await get(srv.baseUrl, '/api/v2/widget/posts/7099', { user_key: KEYS.ent }),
        await get(srv.baseUrl, '/x', { format: 'xml' }),
        await call(srv.baseUrl, '/api/v2/widget/posts/7011', { method: 'POST' }),
      ];
      for (const res of responses) {
        const code =
          res.contentType?.startsWith('application/xml') === true
            ? Number((res.xml().children.find((c) => 'responseCode' in c) as { responseCode: string }).responseCode)
            : (res.json().responseCode as number);
        expect(res.status).toBe(code);
      }
      expect(responses.map((r) => r.status)).toEqual([401, 400, 404, 404, 405]);
    });
  });
});

describeSample('500/503: internal faults leak nothing', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ data: sample(), now: NOW });
  });
  afterAll(async () => {
    await srv?.app.close();
  });

  it('with the store gone, every call answers 500 or 503 with a generic message in the envelope', async () => {
    await srv.store.close();
    for (const format of FORMATS) {
      for (const op of OPS) {
        const res = await runOp(srv.baseUrl, op, { key: KEYS.ent, format });
        expect([500, 503]).toContain(res.status);
        expectError(res, format, res.status);
        expect(res.text).not.toMatch(/sqlite|kysely|select |insert |\/tmp|\.ts:|\.js:|\bat \w|stack|driver/i);
      }
    }
  });

  it('/readyz reports the store down with 503', async () => {
    const res = await get(srv.baseUrl, '/readyz');
    expect(res.status).toBe(503);
  });
});

describe('health probes (no sample data needed)', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ now: NOW });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('/healthz → 200', async () => {
    const res = await get(srv.baseUrl, '/healthz');
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json; charset=utf-8');
  });

  it('/readyz → 200 when the store answers', async () => {
    const res = await get(srv.baseUrl, '/readyz');
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json; charset=utf-8');
  });

  it('an empty store: every key is unknown → 401', async () => {
    expectError(
      await get(srv.baseUrl, '/api/v2/widget/wallInfo/7011', { user_key: KEYS.ent }),
      'json',
      401,
      MSG.unauthorized,
    );
  });
});
