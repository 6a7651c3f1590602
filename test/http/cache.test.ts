// The response cache: strong ETags, 304s, precompressed bodies — and never a
// stale read after a write, whoever made it.
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { recordExchange } from '../helpers/conformance.js';
import { call } from '../helpers/http.js';
import { hasSampleData, loadSampleData, SKIP_NO_SAMPLE, startTestServer, type TestServer } from '../helpers/server.js';
import { testStoreKind } from '../helpers/services.js';

const KEY = 'Demo-ent-key-0001';
let server: TestServer;

beforeAll(async () => {
  if (hasSampleData) server = await startTestServer({ data: loadSampleData() });
});
afterAll(() => server?.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw HTTP GET (fetch would decode the body and hide Content-Encoding), checked against the OpenAPI document. */
async function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const raw = await new Promise<Raw>((resolve, reject) => {
    const req = httpRequest(`${server.baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
  const encoding = raw.headers['content-encoding'];
  const decoded =
    encoding === 'gzip' ? gunzipSync(raw.body) : encoding === 'br' ? brotliDecompressSync(raw.body) : raw.body;
  const seen = new Headers();
  for (const [name, value] of Object.entries(raw.headers)) if (typeof value === 'string') seen.set(name, value);
  recordExchange(server.baseUrl, {
    method: 'GET',
    url: path,
    status: raw.status,
    headers: seen,
    body: decoded.toString(),
  });
  return raw;
}

const posts = (body: Buffer) =>
  (JSON.parse(body.toString()) as { responseData: { posts: { postId: string; content: string }[] }[] }).responseData[0]!
    .posts;

async function createPost(content: string, wallId = 7011) {
  const res = await call(server.baseUrl, `/api/v2/widget/create-post?user_key=${KEY}`, { body: { wallId, content } });
  expect(res.status).toBe(200);
}

describe.skipIf(!hasSampleData)(`response cache (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`, () => {
  it('answers repeated reads with the same strong ETag and 304 on If-None-Match', async () => {
    const url = `/api/v2/widget/posts/7011?user_key=${KEY}&limit=5`;
    const first = await get(url);
    const second = await get(url);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.body.equals(first.body)).toBe(true);
    expect(first.headers['cache-control']).toBe('private, max-age=5');
    expect(first.headers.vary).toBe('Accept-Encoding');
    const revalidated = await get(url, { 'If-None-Match': String(first.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect((await get(url, { 'If-None-Match': '"other"' })).status).toBe(200);
    // a different format or family is a different entity
    const xml = await get(`${url}&format=xml`);
    expect(xml.headers.etag).not.toBe(first.headers.etag);
    // each read still counts toward the quota
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
  });

  it('sends gzip or brotli when accepted, byte-identical once decoded', async () => {
    const url = `/api/v2/commerce/getGalleryPosts/7011/?user_key=${KEY}&limit=100`;
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await get(url, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const br = await get(url, { 'Accept-Encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const refused = await get(url, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('shows a created post on the next read in both families and formats', async () => {
    const reads = [
      `/api/v2/widget/posts/7011?user_key=${KEY}&limit=500`,
      `/api/v2/widget/posts/7011?user_key=${KEY}&limit=500&format=xml`,
      `/api/v2/commerce/getGalleryPosts/7011/?user_key=${KEY}&limit=500`,
      `/api/v2/widget/wallInfo/7012?user_key=${KEY}`,
    ];
    const before = await Promise.all(reads.map((u) => get(u)));
    await createPost('cache-check-1');
    await createPost('first post on an empty wall', 7012);
    const after = await Promise.all(reads.map((u) => get(u)));
    for (const [i, res] of after.entries()) {
      expect(res.headers.etag, reads[i]).not.toBe(before[i]!.headers.etag);
    }
    expect(posts(after[0]!.body).some((p) => p.content === 'cache-check-1')).toBe(true);
    expect(after[1]!.body.toString()).toContain('cache-check-1');
    expect(after[2]!.body.toString()).toContain('cache-check-1');
    expect(after[3]!.body.toString()).toContain('"source":"Custom"');
  });

  it('answers 404 right after a delete, and again after an operator restore', async () => {
    const url = `/api/v2/widget/posts/7016?user_key=Demo-tiny-key-0001`;
    // Demo Tiny has a limit of 5 calls: spend them carefully
    expect((await get(url)).status).toBe(200);
    expect((await get(url)).status).toBe(200);
    expect((await get(`/api/v2/widget/delete/7016?user_key=Demo-tiny-key-0001`)).status).toBe(200);
    expect((await get(url)).status).toBe(404);
    if (testStoreKind() === 'sqlite') {
      // another process (the CLI) restores it: the server notices the foreign commit
      const r = await runCli(['walls', 'restore', '7016', '--database', join(server.dir, 'wallery.db')]);
      expect(r.code, r.stderr).toBe(0);
      expect((await get(url)).status).toBe(200);
    }
  });

  it.skipIf(testStoreKind() !== 'sqlite')(
    'notices a post written by another process on the same SQLite file',
    async () => {
      const url = `/api/v2/widget/posts/7011?user_key=${KEY}&limit=1`;
      const before = posts((await get(url)).body)[0]!;
      const other = new Database(join(server.dir, 'wallery.db'));
      other.prepare('update posts set content = ? where id = ?').run('edited elsewhere', Number(before.postId));
      other.close();
      expect(posts((await get(url)).body)[0]!.content).toBe('edited elsewhere');
    },
  );

  it('keeps an answer from its second call on, with one tag either way, and revalidates it before', async () => {
    const cache = server.app.ctx.cache!;
    for (const url of [
      `/api/v2/widget/posts/7011?user_key=${KEY}&limit=7&offset=1`,
      `/api/v2/widget/wallInfo/7011?user_key=${KEY}&format=xml`,
    ]) {
      const size = cache.size;
      const first = await get(url);
      expect(cache.size).toBe(size);
      // not kept, yet tagged and revalidated
      expect((await get(url, { 'If-None-Match': String(first.headers.etag) })).status).toBe(304);
      const second = await get(url);
      expect(cache.size).toBe(size + 1);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.body.equals(first.body)).toBe(true);
      expect((await get(url, { 'If-None-Match': String(first.headers.etag) })).status).toBe(304);
    }
  });

  it('drops the entries of a wall the change bus names, and only those', async () => {
    const a = `/api/v2/widget/posts/7011?user_key=${KEY}&limit=3`;
    const b = `/api/v2/widget/posts/7012?user_key=${KEY}&limit=3`;
    // an answer is kept from its second call on
    for (const url of [a, a, b, b]) await get(url);
    const cache = server.app.ctx.cache!;
    const size = cache.size;
    server.app.ctx.changes.wallChanged(7011);
    expect(cache.size).toBeLessThan(size);
    const keys = [...(cache as unknown as { lru: Map<string, unknown> }).lru.keys()];
    expect(keys.some((k) => k.includes('|7011|'))).toBe(false);
    expect(keys.some((k) => k.includes('|7012|'))).toBe(true);
  });
});
