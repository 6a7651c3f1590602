// The embed API's reads: the wall, and its posts in exactly W2's order with
// keyset cursors that neither repeat nor skip a post while posts arrive;
// products with hotspots in C5 order; strong ETags and 304; rate limits
// (per key, per IP — behind a trusted proxy, and shared by instances through
// Redis) with Retry-After, apart from the account's v2 quota.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { connectRedis, waitReady } from '../../../src/redis/client.js';
import { TEST_REDIS_URL, testStoreKind } from '../../helpers/services.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../../helpers/http.js';
import { describeSample } from '../../helpers/sample.js';
import { embedError, startEmbedServer, type EmbedServer } from './helpers.js';

interface EmbedPost {
  id: string;
  sort: string;
  products: { id: string; left: number; top: number }[];
  [field: string]: unknown;
}
interface PostsPage {
  posts: EmbedPost[];
  nextCursor: string | null;
}

/** Every visible post of the wall in W2 order (W2 pages of 500 by offset). */
async function w2Ids(s: EmbedServer, wallId: number, key: string = KEYS.ent): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const url = `${s.srv.baseUrl}/api/v2/widget/posts/${wallId}?user_key=${key}&limit=500&offset=${ids.length}`;
    const body = (await (await fetch(url)).json()) as { responseData: { posts: { postId: string }[] }[] };
    const posts = body.responseData[0]!.posts;
    ids.push(...posts.map((p) => p.postId));
    if (posts.length < 500) return ids;
  }
}

async function page(s: EmbedServer, key: string, limit: number, cursor: string | null): Promise<PostsPage> {
  const res = await s.embed('/walls/7011/posts', { key, limit: String(limit), ...(cursor ? { cursor } : {}) });
  expect(res.status, res.text).toBe(200);
  return res.json() as unknown as PostsPage;
}

describeSample('embed reads', () => {
  let s: EmbedServer;
  let key: string;
  beforeAll(async () => {
    // the paging property makes hundreds of requests; the rate limits have their own suite
    s = await startEmbedServer({ embed: { rateLimitPerIp: 0, rateLimitPerKey: 0 } });
    key = (await s.makeKey(7011)).key;
  });
  afterAll(async () => s?.close());

  it('wall info: name, slug, layout hints and the URLs of posts and stream', async () => {
    const res = await s.embed('/walls/7011', { key });
    expect(res.status).toBe(200);
    const q = `?key=${encodeURIComponent(key)}`;
    expect(res.json()).toEqual({
      wall: {
        id: 7011,
        name: 'Demo Summer Wall',
        slug: expect.any(String),
        shoppable: true,
        layout: 'masonry',
        theme: 'auto',
        columns: null,
        branding: {
          accent: null,
          background: null,
          cardBackground: null,
          text: null,
          font: 'system',
          radius: null,
          cardStyle: 'elevated',
          logoUrl: null,
          callToPost: null,
          infoUrl: null,
          vars: {},
        },
        postsUrl: `/api/embed/v1/walls/7011/posts${q}`,
        streamUrl: `/api/embed/v1/walls/7011/stream${q}`,
      },
    });
  });

  it('wall info gives the wall’s own layout, theme and columns once an operator sets them; null gives them back', async () => {
    const set = await s.manage('PATCH', '/walls/7012', { layout: 'event', theme: 'dark', columns: 3 });
    expect(set.status, set.text).toBe(200);
    expect(set.json()).toMatchObject({ responseData: { layout: 'event', theme: 'dark', columns: 3 } });
    const key12 = (await s.makeKey(7012)).key;
    const info = async () => (await s.embed('/walls/7012', { key: key12 })).json() as { wall: Record<string, unknown> };
    expect((await info()).wall).toMatchObject({ layout: 'event', theme: 'dark', columns: 3 });
    // the hosted page lays it out as the wall says when the URL does not choose
    const page = await fetch(`${s.srv.baseUrl}/walls/7012?key=${encodeURIComponent(key12)}`);
    expect(await page.text()).toContain('layout="event"');
    // bad values are named, every one
    const bad = await s.manage('PATCH', '/walls/7012', { layout: 'spiral', theme: 'neon', columns: 9 });
    expect(bad.status).toBe(400);
    const named = (bad.json() as { fieldErrors: { field: string }[] }).fieldErrors.map((e) => e.field);
    expect(named.sort()).toEqual(['columns', 'layout', 'theme']);
    const reset = await s.manage('PATCH', '/walls/7012', { layout: null, theme: null, columns: null });
    expect(reset.status).toBe(200);
    expect((await info()).wall).toMatchObject({ layout: 'masonry', theme: 'auto', columns: null });
  });

  it('wall info gives the wall’s branding as the operator set it, normalised', async () => {
    const branding = {
      accent: '#E4572E',
      background: '#111',
      cardBackground: '#1b1e24',
      text: '#f5f5f5',
      font: 'geometric',
      radius: 0,
      cardStyle: 'flat',
      logoUrl: 'https://example.org/logo.svg',
      callToPost: 'Post with #harborfest',
      infoUrl: 'https://example.org/join',
      vars: { '--wallery-font-size': '17px' },
    };
    const set = await s.manage('PATCH', '/walls/7013', { branding });
    expect(set.status, set.text).toBe(200);
    const key13 = (await s.makeKey(7013)).key;
    const wall = ((await s.embed('/walls/7013', { key: key13 })).json() as { wall: { branding: unknown } }).wall;
    expect(wall.branding).toEqual({ ...branding, accent: '#e4572e', background: '#111111' });
  });

  it('pages reach every visible post once, in exactly W2 order, and `sort` orders them too', async () => {
    const expected = await w2Ids(s, 7011);
    expect(expected.length).toBeGreaterThan(20);
    const seen: EmbedPost[] = [];
    let cursor: string | null = null;
    do {
      const p: PostsPage = await page(s, key, 7, cursor);
      seen.push(...p.posts);
      cursor = p.nextCursor;
    } while (cursor !== null);
    expect(seen.map((p) => p.id)).toEqual(expected);
    const sorts = seen.map((p) => p.sort);
    expect([...sorts].sort().reverse()).toEqual(sorts);
    expect((await page(s, key, 100, null)).posts.map((p) => p.id)).toEqual(expected.slice(0, 100));
    expect((await s.embed('/walls/7011/posts', { key })).json().posts).toHaveLength(20);
  });

  it('products carry their hotspots in C5 order', async () => {
    const all = (await page(s, key, 100, null)).posts;
    const tagged = all.filter((p) => p.products.length > 0);
    expect(tagged.length).toBeGreaterThan(2);
    for (const post of tagged.slice(0, 4)) {
      const c5 = await fetch(
        `${s.srv.baseUrl}/api/v2/commerce/getGalleryProductByID/7011/${post.id}/?user_key=${KEYS.ent}`,
      );
      const products = (
        (await c5.json()) as { responseData: { postProducts: { productId: number; hotspot: string[] }[] } }
      ).responseData.postProducts;
      expect(post.products.map((p) => [p.id, `left:${p.left}%`, `top:${p.top}%`])).toEqual(
        products.map((p) => [String(p.productId), ...p.hotspot]),
      );
    }
  });

  it('cursor paging reaches every post exactly once while posts are created between pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ limit: fc.integer({ min: 10, max: 50 }), inserts: fc.integer({ min: 0, max: 2 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (steps) => {
          const before = await w2Ids(s, 7011);
          const seen: string[] = [];
          let cursor: string | null = null;
          let i = 0;
          do {
            const step = steps[i++ % steps.length]!;
            const p: PostsPage = await page(s, key, step.limit, cursor);
            seen.push(...p.posts.map((x) => x.id));
            cursor = p.nextCursor;
            for (let n = 0; n < step.inserts; n++) {
              s.srv.clock.now += 1000;
              const res = await fetch(`${s.srv.baseUrl}/api/v2/widget/create-post?user_key=${KEYS.ent}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ wallId: 7011, content: `arrived while scrolling ${n}` }),
              });
              expect(res.status).toBe(200);
            }
          } while (cursor !== null);
          expect(new Set(seen).size).toBe(seen.length);
          expect(seen).toEqual(before);
        },
      ),
      { numRuns: 5 },
    );
  });

  it('answers carry a strong ETag and CDN-friendly Cache-Control; If-None-Match gets a 304 until the wall changes', async () => {
    // the first 100 hold the newest unpinned post (the wall has fewer pinned ones)
    const first = await s.embed('/walls/7011/posts', { key, limit: '100' });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe(
      'public, max-age=5, s-maxage=5, stale-while-revalidate=30, stale-if-error=86400',
    );
    expect(first.headers.get('surrogate-key')).toMatch(/^wallery wallery-a\d+ wallery-w7011$/);
    const again = await s.embed('/walls/7011/posts', { key, limit: '100' }, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const info = await s.embed('/walls/7011', { key });
    expect((await s.embed('/walls/7011', { key }, { 'if-none-match': info.headers.get('etag')! })).status).toBe(304);
    s.srv.clock.now += 1000;
    await fetch(`${s.srv.baseUrl}/api/v2/widget/create-post?user_key=${KEYS.ent}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallId: 7011, content: 'new on top' }),
    });
    const changed = await s.embed('/walls/7011/posts', { key, limit: '100' }, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('a CORS preflight is allowed for the key’s origins only', async () => {
    const { key: shopKey } = await s.makeKey(7011, ['https://shop.example']);
    const preflight = (origin: string) =>
      fetch(`${s.srv.baseUrl}/api/embed/v1/walls/7011/posts?key=${shopKey}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
      });
    const ok = await preflight('https://shop.example');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/If-None-Match/);
    const refused = await preflight('https://evil.example');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describeSample('embed rate limits', () => {
  let s: EmbedServer;
  beforeAll(async () => {
    s = await startEmbedServer({ embed: { rateLimitPerKey: 4, rateLimitPerIp: 1000, rateLimitWindowMs: 60_000 } });
  });
  afterAll(async () => s?.close());

  it('per key: pages the cache lacks spend its budget (429 in the envelope with Retry-After); the wall and its first pages never do; other keys go on; the v2 daily quota is untouched', async () => {
    // account 7005 may make 5 v2 calls a day; its wall 7016 serves many more embed views
    const tiny = await s.makeKey(7016);
    const first = await s.embed('/walls/7016/posts', { key: tiny.key, limit: '1' });
    const cursor = (first.json() as { nextCursor: string }).nextCursor;
    // four pages after the first, each a different size: read from the store
    for (let limit = 1; limit <= 4; limit++)
      expect((await s.embed('/walls/7016/posts', { key: tiny.key, limit: String(limit), cursor })).status).toBe(200);
    const limited = await s.embed('/walls/7016/posts', { key: tiny.key, limit: '5', cursor });
    embedError(limited, 429, /Too many requests/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // what every visitor reads is served, however many come
    for (let limit = 1; limit <= 10; limit++) {
      expect((await s.embed('/walls/7016/posts', { key: tiny.key, limit: String(limit) })).status).toBe(200);
      expect((await s.embed('/walls/7016', { key: tiny.key })).status).toBe(200);
    }
    const other = await s.makeKey(7016);
    expect((await s.embed('/walls/7016', { key: other.key })).status).toBe(200);
    const v2 = await fetch(`${s.srv.baseUrl}/api/v2/widget/posts/7016?user_key=${KEYS.tiny}`);
    expect(v2.status).toBe(200);
    expect(v2.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  describe('per IP', () => {
    let t: EmbedServer;
    beforeAll(async () => {
      t = await startEmbedServer({ embed: { rateLimitPerKey: 1000, rateLimitPerIp: 3, rateLimitWindowMs: 60_000 } });
    });
    afterAll(async () => t?.close());

    it('counts every request of the address, whatever the key, bad keys too', async () => {
      const a = await t.makeKey(7011);
      const b = await t.makeKey(7011);
      expect((await t.embed('/walls/7011', { key: a.key })).status).toBe(200);
      expect((await t.embed('/walls/7011', { key: b.key })).status).toBe(200);
      expect((await t.embed('/walls/7011', { key: 'pk_guess' })).status).toBe(401);
      const limited = await t.embed('/walls/7011', { key: a.key });
      embedError(limited, 429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('believes no X-Forwarded-For unless TRUST_PROXY says so', async () => {
      const k = await t.makeKey(7011);
      const from = (ip: string) => t.embed('/walls/7011', { key: k.key }, { 'x-forwarded-for': ip });
      // the earlier test spent this address's 3 requests: another claimed address does not help
      embedError(await from('198.51.100.7'), 429);
    });
  });

  describe('per IP behind a trusted proxy (TRUST_PROXY)', () => {
    let p: EmbedServer;
    beforeAll(async () => {
      p = await startEmbedServer({
        embed: { rateLimitPerKey: 1000, rateLimitPerIp: 2, rateLimitWindowMs: 60_000 },
        trustProxy: ['127.0.0.1'],
      });
    });
    afterAll(async () => p?.close());

    it('counts the client the proxy names, each apart', async () => {
      const k = await p.makeKey(7011);
      const from = (ip: string) => p.embed('/walls/7011', { key: k.key }, { 'x-forwarded-for': ip });
      expect((await from('203.0.113.5')).status).toBe(200);
      expect((await from('203.0.113.5')).status).toBe(200);
      embedError(await from('203.0.113.5'), 429);
      expect((await from('203.0.113.6')).status).toBe(200);
    });
  });

  // REDIS_URL: the limits are counted in Redis, once for all instances
  describe.runIf(testStoreKind() === 'postgres')('shared by instances (Redis)', () => {
    let redis: Redis;
    let a: EmbedServer;
    let b: EmbedServer;
    beforeAll(async () => {
      redis = connectRedis(TEST_REDIS_URL, 'embed-rate-test');
      await waitReady(redis);
      const shared = { redis, prefix: `erl-${randomBytes(4).toString('hex')}` };
      const embed = { rateLimitPerKey: 1000, rateLimitPerIp: 3, rateLimitWindowMs: 60_000 };
      [a, b] = await Promise.all([startEmbedServer({ embed, shared }), startEmbedServer({ embed, shared })]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      redis?.disconnect();
    });

    it('allows the limit across both, not the limit on each', async () => {
      const [ka, kb] = await Promise.all([a.makeKey(7011), b.makeKey(7011)]);
      expect((await a.embed('/walls/7011', { key: ka.key })).status).toBe(200);
      expect((await b.embed('/walls/7011', { key: kb.key })).status).toBe(200);
      expect((await a.embed('/walls/7011', { key: ka.key })).status).toBe(200);
      const limited = await b.embed('/walls/7011', { key: kb.key });
      embedError(limited, 429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});
