// The conformance check of the API suites (test/helpers/conformance.ts) can
// fail: real answers pass it, and each kind of departure from the OpenAPI
// document — a status, a header, a field, a media type it does not list — is
// caught, on its own checker and through the hook in `call()`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  conformanceOf,
  registerDocument,
  unregisterDocument,
  type Conformance,
  type Exchange,
  type OpenApiDocument,
} from '../helpers/conformance.js';
import { call, KEYS } from '../helpers/http.js';
import { describeSample, NOW, sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { takeViolations } from '../helpers/violations.js';

const KEY = `user_key=${KEYS.ent}`;

describeSample('the OpenAPI conformance check', () => {
  let srv: TestServer;
  let checker: Conformance;
  beforeAll(async () => {
    srv = await startTestServer({ data: sample(), now: NOW });
    checker = conformanceOf(srv.app.swagger() as OpenApiDocument);
  });
  afterAll(async () => srv?.close());

  /** A real answer, as the checker sees it (not through `call()`, so the hook stays out of it). */
  async function exchange(url: string, init: RequestInit = {}): Promise<Exchange> {
    const res = await fetch(srv.baseUrl + url, init);
    return { method: init.method ?? 'GET', url, status: res.status, headers: res.headers, body: await res.text() };
  }
  const withHeaders = (ex: Exchange, change: (h: Headers) => void): Exchange => {
    const headers = new Headers(ex.headers);
    change(headers);
    return { ...ex, headers };
  };
  const withBody = (ex: Exchange, change: (body: Record<string, unknown>) => void): Exchange => {
    const body = JSON.parse(ex.body) as Record<string, unknown>;
    change(body);
    return { ...ex, body: JSON.stringify(body) };
  };

  it('passes real answers: reads, 304, XML, errors, management, unrouted', async () => {
    const w2 = await exchange(`/api/v2/widget/posts/7011?${KEY}`);
    const answers = [
      w2,
      await exchange(`/api/v2/widget/posts/7011?${KEY}`, { headers: { 'if-none-match': w2.headers.get('etag')! } }),
      await exchange(`/api/v2/commerce/getGalleryProductByID/7011/17007/?${KEY}&format=xml`),
      await exchange(`/api/v2/widget/wallInfo/7011`),
      await exchange(`/api/manage/v1/walls`),
      await exchange(`/api/v2/nowhere?${KEY}`),
      await exchange(`/api/v2/widget/create-post?${KEY}`),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 304, 200, 401, 401, 404, 405]);
    for (const a of answers) expect(checker.check(a), a.url).toEqual([]);
  });

  it('catches a status the operation does not list', async () => {
    const ok = await exchange(`/api/v2/widget/wallInfo/7011?${KEY}`);
    expect(checker.check({ ...ok, status: 418 })).toEqual([
      `GET /api/v2/widget/wallInfo/7011?${KEY} → 418: status 418 is not documented for GET /api/v2/widget/wallInfo/{wall_id}`,
    ]);
    // 304 exists on reads only; a delete never answers it
    const deleted = await exchange(`/api/v2/widget/delete/999999?${KEY}`);
    expect(deleted.status).toBe(404);
    expect(checker.check({ ...deleted, status: 304, body: '' })[0]).toMatch(/status 304 is not documented/);
    // a request no operation matches: only the statuses components.responses marks
    expect(checker.check({ ...deleted, url: '/api/v2/nowhere', status: 500 })[0]).toMatch(
      /matches no operation, and no components.responses entry has x-status 500/,
    );
  });

  it('catches an undocumented header, a missing required one and a value its schema refuses', async () => {
    const ok = await exchange(`/api/v2/widget/wallInfo/7011?${KEY}`);
    expect(checker.check(withHeaders(ok, (h) => h.set('X-Debug', 'on')))).toEqual([
      expect.stringMatching(/header x-debug is not documented on GET \/api\/v2\/widget\/wallInfo\/\{wall_id\} 200$/),
    ]);
    expect(checker.check(withHeaders(ok, (h) => h.delete('X-RateLimit-Limit')))).toEqual([
      expect.stringMatching(/required header x-ratelimit-limit is missing$/),
    ]);
    expect(checker.check(withHeaders(ok, (h) => h.set('X-RateLimit-Remaining', 'many')))).toEqual([
      expect.stringMatching(/header x-ratelimit-remaining: "many" \/value must be integer$/),
    ]);
    expect(checker.check(withHeaders(ok, (h) => h.set('Cache-Control', 'public')))[0]).toMatch(
      /header cache-control: "public"/,
    );
    // a 401 is not counted: quota headers there would be a lie
    const unauthorized = await exchange('/api/v2/widget/wallInfo/7011');
    expect(checker.check(withHeaders(unauthorized, (h) => h.set('X-RateLimit-Limit', '1000')))[0]).toMatch(
      /header x-ratelimit-limit is not documented/,
    );
  });

  it('catches a field that should not be there, at any depth, and a missing or mistyped one', async () => {
    const info = await exchange(`/api/v2/widget/wallInfo/7011?${KEY}`);
    const feeds = (b: Record<string, unknown>) => (b.responseData as { feeds: Record<string, unknown>[] }[])[0]!.feeds;
    expect(checker.check(withBody(info, (b) => (b.debug = true)))[0]).toMatch(
      /must NOT have additional properties \(debug\)/,
    );
    expect(checker.check(withBody(info, (b) => (feeds(b)[0]!.internalId = 5)))[0]).toMatch(
      /\/responseData\/0\/feeds\/0 must NOT have additional properties \(internalId\)/,
    );
    expect(checker.check(withBody(info, (b) => delete feeds(b)[0]!.source))[0]).toMatch(
      /must have required property 'source'/,
    );
    expect(checker.check(withBody(info, (b) => (feeds(b)[0]!.feedUpdatedAt = '2024-03-01')))[0]).toMatch(
      /\/responseData\/0\/feeds\/0\/feedUpdatedAt must match pattern/,
    );
    // the status line and responseCode agree
    expect(checker.check(withBody(info, (b) => (b.responseCode = 201)))[0]).toMatch(
      /\/responseCode must be equal to one of the allowed values/,
    );
    // management records too
    const wall = await exchange('/api/manage/v1/walls/7011');
    expect(wall.status).toBe(401);
    expect(checker.check(withBody(wall, (b) => (b.fieldErrors = [])))[0]).toMatch(
      /additional properties \(fieldErrors\)/,
    );
  });

  it('catches an undocumented media type, a body where none is documented, and an XML envelope field', async () => {
    const ok = await exchange(`/api/v2/widget/wallInfo/7011?${KEY}`);
    expect(checker.check(withHeaders(ok, (h) => h.set('Content-Type', 'text/html')))[0]).toMatch(
      /media type text\/html is not documented/,
    );
    const notModified = await exchange(`/api/v2/widget/wallInfo/7011?${KEY}`, {
      headers: { 'if-none-match': ok.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
    expect(checker.check({ ...notModified, body: '{}' })[0]).toMatch(/has no content, yet a body came/);
    const xml = await exchange(`/api/v2/widget/wallInfo/7011?${KEY}&format=xml`);
    const extra = xml.body.replace('<responseStatus>', '<debug>1</debug><responseStatus>');
    expect(checker.check({ ...xml, body: extra })).toEqual([
      expect.stringMatching(/the XML envelope holds <debug>, which the schema does not name$/),
    ]);
  });
});

describeSample('the hook in call()', () => {
  let srv: TestServer;
  let fake: Server;
  let fakeUrl: string;
  beforeAll(async () => {
    srv = await startTestServer({ data: sample(), now: NOW });
    // a server that answers W1 with an undocumented header and an extra field
    const real = await fetch(`${srv.baseUrl}/api/v2/widget/wallInfo/7011?${KEY}`);
    const headers = Object.fromEntries(real.headers);
    delete headers['content-length'];
    const body = JSON.parse(await real.text()) as Record<string, unknown>;
    fake = createServer((_req, res) => {
      res.writeHead(200, { ...headers, 'content-encoding': 'identity', 'x-powered-by': 'test' });
      res.end(JSON.stringify({ ...body, debug: 1 }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const document = srv.app.swagger() as OpenApiDocument;
    registerDocument(fakeUrl, 'fake', () => document);
  });
  afterAll(async () => {
    unregisterDocument(fakeUrl);
    await new Promise((resolve) => fake?.close(resolve));
    await srv?.close();
  });

  it('records every departure of an answer call() receives (and nothing for a conforming one)', async () => {
    await call(srv.baseUrl, `/api/v2/widget/wallInfo/7011?${KEY}`);
    expect(takeViolations()).toEqual([]);
    const res = await call(fakeUrl, `/api/v2/widget/wallInfo/7011?${KEY}`);
    expect(res.status).toBe(200);
    const found = takeViolations();
    expect(found).toEqual([
      expect.stringMatching(/header content-encoding: "identity"/),
      expect.stringMatching(/header x-powered-by is not documented/),
      expect.stringMatching(/must NOT have additional properties \(debug\)/),
    ]);
  });
});
