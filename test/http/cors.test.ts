// Embedded walls read the API from other origins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('CORS', () => {
  it('lets any origin read v2 answers and the rate-limit headers', async () => {
    const res = await call(server.baseUrl, '/api/v2/widget/posts/1?user_key=nope', {
      headers: { Origin: 'https://shop.example' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });

  it('answers a preflight on a known path with the allowed methods', async () => {
    const res = await call(server.baseUrl, '/api/v2/widget/create-post', {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
  });

  it('keeps a plain OPTIONS on a known path a 405 and on an unknown path a 404', async () => {
    const known = await call(server.baseUrl, '/api/v2/widget/create-post', { method: 'OPTIONS' });
    expect(known.status).toBe(405);
    expect(known.json()).toEqual({
      responseCode: 405,
      responseStatus: 'error',
      responseMessage: 'Method not allowed',
    });
    const unknown = await call(server.baseUrl, '/api/v2/widget/nothing', {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(unknown.status).toBe(404);
  });
});
