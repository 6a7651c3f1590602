// The OpenAPI 3.1 document: valid, complete (every route with its schemas),
// generated from the route schemas, with the v2 XML form described; and the
// interactive docs at /docs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../../src/http/server.js';
import { isWebRoute } from '../../../src/http/web/index.js';
import { ChangeBus } from '../../../src/store/changes.js';
import { openStore } from '../../../src/store/store.js';
import { call, expectJsonError, MSG } from '../../helpers/http.js';
import { describeSample } from '../../helpers/sample.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { startManageServer, type ManageServer } from './helpers.js';

type Json = Record<string, unknown>;
interface Header {
  required: boolean;
  schema: Json;
}
interface Operation {
  parameters?: { in: string; name: string; schema?: Json }[];
  requestBody?: { content: Record<string, { schema?: Json }> };
  responses?: Record<
    string,
    {
      description: string;
      headers?: Record<string, Header>;
      content?: Record<string, { schema?: Json; example?: unknown }>;
    }
  >;
  security?: Record<string, string[]>[];
  tags?: string[];
  summary?: string;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: Json };

const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * Excluded on purpose: the docs' own assets and the document itself; the embed's pages and files (not an API);
 * Prometheus's scrape (its text format is Prometheus's, documented in docs/operations/metrics.md).
 */
const isDocsRoute = (url: string) =>
  url === '/openapi.json' || url === '/docs' || url.startsWith('/docs/') || url === '/metrics' || isWebRoute(url);

/** A schema that says what the value holds (not just `{}` or `{ type: 'object' }`); a binary body, by its media type. */
const describesShape = (s: Json | undefined) =>
  s !== undefined &&
  [
    'properties',
    'additionalProperties',
    'items',
    'anyOf',
    'oneOf',
    'allOf',
    '$ref',
    'enum',
    'const',
    'contentMediaType',
  ].some((k) => k in s);

/** Problems of the document against the routes the server has: an empty list when every route is fully described. */
function undocumented(app: FastifyInstance, doc: Doc): string[] {
  const problems: string[] = [];
  for (const route of app.routeCatalog) {
    if (route.method === 'HEAD' || isDocsRoute(route.url)) continue;
    const name = `${route.method} ${route.url}`;
    if (route.hidden) {
      problems.push(`${name} is hidden from the document`);
      continue;
    }
    const op = doc.paths[openapiPath(route.url)]?.[route.method.toLowerCase()];
    if (!op) {
      problems.push(`${name} is not in the document`);
      continue;
    }
    if (!op.summary || !op.tags?.length) problems.push(`${name} has no summary or tag`);
    const responses = Object.entries(op.responses ?? {});
    if (!responses.some(([code]) => code.startsWith('2'))) problems.push(`${name} has no success response`);
    for (const [code, r] of responses) {
      if (code === '304') continue; // no body, by HTTP's definition
      const schemas = Object.values(r.content ?? {}).map((c) => c.schema);
      if (schemas.length === 0 || schemas.some((s) => !describesShape(s)))
        problems.push(`${name} ${code} has no schema`);
    }
    for (const param of route.url.match(/:(\w+)/g) ?? []) {
      const p = op.parameters?.find((x) => x.in === 'path' && x.name === param.slice(1));
      if (!p?.schema?.pattern) problems.push(`${name} path parameter ${param} has no schema`);
    }
    if (
      ['POST', 'PUT', 'PATCH'].includes(route.method) &&
      route.url.startsWith('/api/') &&
      !/\/(restore|purge|keys|poll|rotate-secret|test|replay)$/.test(route.url)
    ) {
      if (!op.requestBody?.content['application/json']?.schema) problems.push(`${name} has no body schema`);
    }
  }
  return problems;
}

async function validate(doc: unknown) {
  const validator = new Validator();
  const res = await validator.validate(doc as Json);
  return { ...res, version: validator.version };
}

describeSample('the OpenAPI document', () => {
  let m: ManageServer;
  let doc: Doc;
  beforeAll(async () => {
    m = await startManageServer();
    const res = await fetch(`${m.srv.baseUrl}/openapi.json`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    doc = (await res.json()) as Doc;
  });
  afterAll(async () => m?.close());

  it('validates as OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const res = await validate(doc);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(res.version).toBe('3.1');
  });

  it('describes every route the server has, with its schemas', () => {
    const routes = m.srv.app.routeCatalog.filter((r) => r.method !== 'HEAD' && !isDocsRoute(r.url));
    expect(routes.length).toBeGreaterThan(40);
    expect(undocumented(m.srv.app, doc)).toEqual([]);
    // and nothing else: every documented operation is a route
    const known = new Set(routes.map((r) => `${r.method.toLowerCase()} ${openapiPath(r.url)}`));
    for (const [path, ops] of Object.entries(doc.paths))
      for (const method of Object.keys(ops)) expect(known).toContain(`${method} ${path}`);
  });

  it('describes both forms of every v2 response, with rendered examples', () => {
    const v2 = Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/v2/'));
    expect(v2).toHaveLength(9);
    for (const [path, ops] of v2) {
      for (const op of Object.values(ops)) {
        expect(op.security, path).toEqual([{ userKey: [] }]);
        expect(
          op.parameters?.some((p) => p.name === 'user_key'),
          path,
        ).toBe(false);
        expect(
          op.parameters?.some((p) => p.name === 'format'),
          path,
        ).toBe(true);
        for (const [code, r] of Object.entries(op.responses!)) {
          // 304 has no body; 408 and 431 come before `format` is read: JSON only
          if (['304', '408', '431'].includes(code)) {
            expect(r.content?.['application/xml'], `${path} ${code}`).toBeUndefined();
            continue;
          }
          const xml = r.content?.['application/xml'];
          expect(xml?.schema?.description, `${path} ${code}`).toMatch(/root element `xml`/);
          expect(xml?.schema?.xml).toEqual({ name: 'xml' });
          expect(r.content?.['application/json']?.schema).toBeDefined();
          if (code === '200' || code === '401') {
            expect(String(xml?.example), `${path} ${code}`).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<xml>/);
            expect(r.content?.['application/json']?.example, `${path} ${code}`).toBeDefined();
          }
        }
      }
    }
    const c5 = doc.paths['/api/v2/commerce/getGalleryProductByID/{wall_id}/{post_id}/']!.get!.responses!['200']!;
    expect(String(c5.content!['application/xml']!.example)).toContain('<hotspot>left:40%</hotspot>');
    expect(c5.content!['application/json']!.example).toMatchObject({ responseData: { postProductIds: '5001' } });
  });

  it('describes the management API: token security, fieldErrors, examples', () => {
    const manage = Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/manage/v1/'));
    expect(manage.flatMap(([, ops]) => Object.keys(ops)).length).toBeGreaterThanOrEqual(30);
    for (const [path, ops] of manage) {
      for (const op of Object.values(ops)) {
        expect(op.security, path).toEqual([{ operatorToken: [] }]);
        const bad = op.responses!['400']!.content!['application/json']!.schema as { properties: Json };
        expect(Object.keys(bad.properties), path).toContain('fieldErrors');
        expect(op.responses!['401'], path).toBeDefined();
      }
    }
    expect(doc.components.securitySchemes).toMatchObject({ operatorToken: { type: 'http', scheme: 'bearer' } });
    const createWall = doc.paths['/api/manage/v1/walls']!.post!.requestBody!.content['application/json']!;
    expect(JSON.stringify(createWall)).toContain('harbour-festival-2026');
    const bulk = doc.paths['/api/manage/v1/walls/{wallId}/posts/bulk']!.post!;
    expect(JSON.stringify(bulk.requestBody)).toContain('"maxItems":500');
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op, responses: op.responses! })),
    );
  const EMBED_READS = ['/api/embed/v1/walls/{wallId}', '/api/embed/v1/walls/{wallId}/posts'];
  /** the copies of pictures: immutable files, revalidated by their ETag */
  const FILE_READS = ['/media/{hash}/{name}'];
  const V2_READS = [
    '/api/v2/widget/wallInfo/{wall_id}',
    '/api/v2/widget/posts/{wall_id}',
    '/api/v2/commerce/getGalleryInfo/{wall_id}',
    '/api/v2/commerce/getGalleryPosts/{wall_id}/',
    '/api/v2/commerce/getGalleryProductByID/{wall_id}/{post_id}/',
  ];
  const headerNames = (r: { headers?: Record<string, Header> } | undefined) => Object.keys(r?.headers ?? {});
  const required = (r: { headers?: Record<string, Header> } | undefined) =>
    Object.entries(r?.headers ?? {})
      .filter(([, h]) => h.required)
      .map(([name]) => name);

  it('lists every status the server layer can answer: 413 where a body is read, 408/431 always, 500/503 on the APIs', () => {
    for (const { path, method, responses } of operations()) {
      const codes = Object.keys(responses);
      const name = `${method} ${path}`;
      expect(codes, name).toEqual(expect.arrayContaining(['400', '408', '431']));
      if (path.startsWith('/api/')) expect(codes, name).toEqual(expect.arrayContaining(['401', '500', '503']));
      expect(codes.includes('413'), name).toBe(method !== 'get');
      // the embed API has its own rate limits; the management API limits each token's writes
      expect(codes.includes('429'), name).toBe(
        path.startsWith('/api/v2/') ||
          path.startsWith('/api/embed/') ||
          (path.startsWith('/api/manage/') && method !== 'get'),
      );
      // 409 only where something is written; 404 only where a record is named
      if (path.startsWith('/api/manage/')) expect(codes.includes('409'), name).toBe(method !== 'get');
      if (path.startsWith('/api/manage/') && path.includes('{')) expect(codes, name).toContain('404');
    }
    expect(Object.keys(doc.paths['/api/manage/v1/accounts']!.get!.responses!)).not.toContain('404');
  });

  it('lists 304 with its validators on the v2 reads that send an ETag, and nowhere else', () => {
    for (const { path, method, responses } of operations()) {
      const read = V2_READS.includes(path);
      expect('304' in responses, `${method} ${path}`).toBe(
        read || EMBED_READS.includes(path) || FILE_READS.includes(path),
      );
      if (!read) continue;
      expect(responses['304']!.content, path).toBeUndefined();
      expect(required(responses['304']), path).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'Vary']));
      expect(headerNames(responses['200']), path).toEqual(
        expect.arrayContaining(['ETag', 'Cache-Control', 'Vary', 'Content-Encoding']),
      );
    }
  });

  it('documents the response headers: quota, Retry-After, CORS, WWW-Authenticate, and the unrouted answers', () => {
    for (const { path, responses } of operations().filter((o) => o.path.startsWith('/api/v2/'))) {
      const quota = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
      const cors = ['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers'];
      expect(required(responses['200']), path).toEqual(expect.arrayContaining([...quota, ...cors]));
      expect(required(responses['429']), path).toEqual(expect.arrayContaining([...quota, 'Retry-After']));
      expect(headerNames(responses['401']), path).toEqual(cors); // not counted: no quota headers
      expect(headerNames(responses['431']), path).toEqual([]);
    }
    for (const { path, method, responses } of operations().filter((o) => o.path.startsWith('/api/manage/'))) {
      expect(required(responses['401']), path).toEqual(['WWW-Authenticate']);
      if (method !== 'get') expect(required(responses['429']), `${method} ${path}`).toEqual(['Retry-After']);
    }
    const unrouted = doc.components.responses as Record<
      string,
      { 'x-status': number; headers?: Record<string, Header> }
    >;
    expect(Object.values(unrouted).map((r) => r['x-status'])).toEqual(expect.arrayContaining([204, 400, 404, 405]));
    expect(required(unrouted.MethodNotAllowed)).toEqual(['Allow']);
  });

  it('lists text/plain next to JSON for W3/C3 bodies (read as JSON either way)', () => {
    for (const path of ['/api/v2/widget/create-post', '/api/v2/commerce/createGalleryPost']) {
      const content = doc.paths[path]!.post!.requestBody!.content;
      expect(Object.keys(content)).toEqual(['application/json', 'text/plain']);
      expect(content['text/plain']!.schema).toEqual(content['application/json']!.schema);
    }
  });

  it('forbids extra properties in every response object (the audit summary is the one open map)', () => {
    const open: string[] = [];
    const walk = (schema: unknown, at: string): void => {
      if (Array.isArray(schema)) return schema.forEach((s, i) => walk(s, `${at}/${i}`));
      if (schema === null || typeof schema !== 'object') return;
      const node = schema as Json;
      if ((node.type === 'object' || 'properties' in node) && node.additionalProperties !== false) open.push(at);
      for (const [key, value] of Object.entries(node)) if (key !== 'example') walk(value, `${at}/${key}`);
    };
    for (const { path, method, responses } of operations())
      for (const [code, r] of Object.entries(responses))
        for (const [media, c] of Object.entries(r.content ?? {})) walk(c.schema, `${method} ${path} ${code} ${media}`);
    const summary = 'properties/data/items/properties/summary';
    expect(open).toEqual([`get /api/manage/v1/audit 200 application/json/properties/responseData/${summary}`]);
  });

  it('serves the interactive docs at /docs, reading /openapi.json', async () => {
    const page = await fetch(`${m.srv.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/swagger/i);
    const init = await fetch(`${m.srv.baseUrl}/docs/static/swagger-initializer.js`);
    expect(init.status).toBe(200);
    expect(await init.text()).toContain('/openapi.json');
  });
});

describe('the interactive docs’ own addresses', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv?.close());

  it.each(['GET', 'HEAD'])('%s of a missing asset under /docs/static/ → 404 (not 405)', async (method) => {
    for (const path of ['/docs/static/missing.js', '/docs/static/theme/none.css', '/docs/static/a/b/c']) {
      const res = await call(srv.baseUrl, path, { method });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('allow'), path).toBeNull();
      if (method === 'GET') expectJsonError(res, 404, MSG.notFound);
    }
  });

  it('an asset that exists is served; another method on it → 405 with Allow', async () => {
    expect((await call(srv.baseUrl, '/docs/static/swagger-ui.css')).status).toBe(200);
    const res = await call(srv.baseUrl, '/docs/static/swagger-ui.css', { method: 'POST', body: '{}' });
    expectJsonError(res, 405, MSG.methodNotAllowed);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it.each([
    ['/docs/static/index.html', '/docs/'],
    ['/docs/static/index.html?a=1', '/docs/?a=1'],
    ['/docs/static/index.html/', '/docs/'],
    ['/docs/static/index.html/?a=1&b=2', '/docs/?a=1&b=2'],
  ])('%s redirects once, to the page (%s)', async (from, to) => {
    const res = await fetch(`${srv.baseUrl}${from}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(to);
    const page = await fetch(`${srv.baseUrl}${from}`);
    expect(page.status).toBe(200);
    expect(page.url).toBe(`${srv.baseUrl}${to}`);
    expect(await page.text()).toMatch(/swagger/i);
  });
});

describe('the completeness check', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails for a route without schemas', async () => {
    const store = openStore({ kind: 'sqlite', path: join(dir, 'w.db') });
    await store.migrate();
    const app = await buildServer({ store, now: Date.now, changes: new ChangeBus() });
    try {
      app.get('/api/manage/v1/undocumented/:id', async () => ({ ok: true }));
      app.post(
        '/api/v2/widget/bare',
        { schema: { summary: 'bare', tags: ['widget'], response: { 200: { type: 'object' } } } },
        async () => ({}),
      );
      await app.ready();
      const doc = app.swagger() as unknown as Doc;
      expect((await validate(doc)).valid).toBe(true);
      expect(undocumented(app, doc)).toEqual([
        'GET /api/manage/v1/undocumented/:id has no summary or tag',
        'GET /api/manage/v1/undocumented/:id 200 has no schema',
        'GET /api/manage/v1/undocumented/:id path parameter :id has no schema',
        'POST /api/v2/widget/bare 200 has no schema',
        'POST /api/v2/widget/bare has no body schema',
      ]);
    } finally {
      await app.close();
      await store.close();
    }
  });
});
