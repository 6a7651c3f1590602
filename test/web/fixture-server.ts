// A small stand-in for the embed API (the wire contract of issue 12) until
// the real one lands: one wall, a mutable in-memory list of posts, cursor
// pages with strong ETags, and a Server-Sent Events stream. It also serves the
// built embed (through the real src/http/web routes) and host pages that put
// the element on a page, optionally with hostile CSS.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerWeb } from '../../src/http/web/index.js';
import type { EmbedPost, EmbedWall } from '../../web/embed/types.js';
import { demoDataFile } from '../../src/demo/demo-data.js';

export const WALL_ID = 7;
export const KEY = 'pk_test_fixture';

export interface Logged {
  path: string;
  status: number;
  ifNoneMatch?: string;
}

export interface Fixture {
  baseUrl: string;
  app: FastifyInstance;
  posts: EmbedPost[];
  /** 'open': streams; 'refuse': 503 in the envelope, as over the cap */
  streamMode: 'open' | 'refuse';
  log: Logged[];
  wall: Partial<EmbedWall>;
  setPosts(posts: EmbedPost[]): void;
  upsert(post: EmbedPost): void;
  remove(id: string): void;
  openStreams(): number;
  /** ends every open stream, as a restarting instance or a proxy timeout would */
  dropStreams(): void;
  close(): Promise<void>;
}

const HOUR = 3_600_000;
/** Fixed "now" of the fixture's posts, so relative times do not change during a run. */
export const BASE_TIME = Date.now();

/** The `sort` key of the contract: pinned first, then newest, then the larger id. */
export function sortKey(post: Pick<EmbedPost, 'pinned' | 'createdAt' | 'id'>): string {
  return `${post.pinned ? 1 : 0}.${String(Date.parse(post.createdAt)).padStart(15, '0')}.${post.id.padStart(12, '0')}`;
}

export function makePost(n: number, overrides: Partial<EmbedPost> = {}, media = ''): EmbedPost {
  const kinds: EmbedPost['type'][] = ['image', 'text', 'video', 'carousel'];
  const type = overrides.type ?? kinds[n % kinds.length]!;
  const pic = (i: number) => ({
    kind: 'image' as const,
    url: `${media}/demo-media/scene-${((n + i) % 12) + 1}.svg`,
    poster: null,
    alt: `Scene ${n}.${i}`,
    width: 800,
    height: 800,
  });
  const post: EmbedPost = {
    id: String(1000 + n),
    network: ['mastodon', 'bluesky', 'rss', 'instagram'][n % 4]!,
    type,
    html: `<p>Post number ${n} — <b>hello</b> from the fixture. <a href="https://example.com/${n}" rel="nofollow noopener noreferrer">link</a></p>`,
    author: {
      name: ['Ana Ruiz', 'Ben Okafor', 'Chloé Martin', 'Dev Patel'][n % 4]!,
      username: ['ana.trails', 'benruns', 'chloe_m', 'devp'][n % 4]!,
      avatar: `${media}/demo-media/avatar-${(n % 4) + 1}.svg`,
      url: `https://social.example/@u${n}`,
    },
    link: `https://social.example/p/${n}`,
    createdAt: new Date(BASE_TIME - (n + 1) * HOUR).toISOString(),
    pinned: false,
    highlighted: n % 5 === 1,
    media:
      type === 'text'
        ? []
        : type === 'video'
          ? [{ ...pic(0), kind: 'video', url: `${media}/demo-media/none-${n}.mp4`, poster: pic(0).url, alt: null }]
          : type === 'carousel'
            ? [pic(0), pic(1), pic(2)]
            : [pic(0)],
    cta:
      n % 6 === 0
        ? { text: 'Shop the look', url: `https://shop.example/look/${n}`, color: '#ffffff', background: '#1a56b8' }
        : null,
    products: [],
    sort: '',
    ...overrides,
  };
  post.sort = overrides.sort ?? sortKey(post);
  return post;
}

const envelope = (code: number, message: string) => ({
  responseCode: code,
  responseStatus: 'error',
  responseMessage: message,
});

const cursorOf = (sort: string) => Buffer.from(sort).toString('base64url');
const sortOf = (cursor: string) => Buffer.from(cursor, 'base64url').toString();

export interface HostPageOptions {
  layout?: string;
  theme?: string;
  limit?: number;
  columns?: number;
  poll?: number;
  /** extra CSS on the host page */
  css?: string;
  /** extra attributes, raw */
  attrs?: string;
}

/** The host page of a test: the snippet of the README, plus a recorder of the element's events. */
export function hostPage(o: HostPageOptions = {}): string {
  const attr = (name: string, v: unknown) => (v === undefined ? '' : ` ${name}="${String(v)}"`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Host page</title>
<style>body{margin:0}${o.css ?? ''}</style>
<script>
  window.walleryEvents = [];
  for (const type of ['wallery:ready', 'wallery:post-added', 'wallery:post-removed'])
    document.addEventListener(type, (e) => window.walleryEvents.push({ type, t: performance.now(), id: e.detail && e.detail.post ? e.detail.post.id : e.detail && e.detail.id }));
</script>
<script type="module" src="/embed/v1/wallery.js"></script>
</head><body>
<h1 class="host-title">Host page</h1>
<wallery-wall wall="${WALL_ID}" key="${KEY}"${attr('layout', o.layout)}${attr('theme', o.theme)}${attr('limit', o.limit)}${attr('columns', o.columns)}${attr('poll', o.poll)}${o.attrs ?? ''}></wallery-wall>
</body></html>`;
}

export async function startFixture(distDir: string): Promise<Fixture> {
  const app = Fastify({ logger: false });
  const streams = new Set<ServerResponse>();
  let eventId = 0;
  const fixture: Fixture = {
    baseUrl: '',
    app,
    posts: [],
    streamMode: 'open',
    log: [],
    wall: {},
    setPosts(posts) {
      fixture.posts = [...posts];
    },
    upsert(post) {
      fixture.posts = fixture.posts.filter((p) => p.id !== post.id).concat(post);
      send('upsert', JSON.stringify(post));
    },
    remove(id) {
      fixture.posts = fixture.posts.filter((p) => p.id !== id);
      send('remove', JSON.stringify({ id }));
    },
    openStreams: () => streams.size,
    dropStreams() {
      for (const s of streams) s.end();
      streams.clear();
    },
    async close() {
      for (const s of streams) s.end();
      await app.close();
    },
  };
  const send = (event: string, data: string) => {
    eventId++;
    for (const s of streams) s.write(`event: ${event}\nid: ${eventId}\ndata: ${data}\n\n`);
  };

  await registerWeb(app, {
    distDir,
    findWall: async (idOrSlug) =>
      idOrSlug === String(WALL_ID) || idOrSlug === 'fixture-wall'
        ? { id: WALL_ID, name: 'Fixture Wall', slug: 'fixture-wall' }
        : null,
  });

  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (!path.startsWith('/api/')) return;
    const inm = request.headers['if-none-match'];
    fixture.log.push({ path, status: reply.statusCode, ifNoneMatch: typeof inm === 'string' ? inm : undefined });
  });

  type Q = { Params: { id: string }; Querystring: Record<string, string> };
  const checkKey = (id: string, key: string | undefined) =>
    key !== KEY ? envelope(401, 'key is invalid') : id !== String(WALL_ID) ? envelope(404, 'wall not found') : null;

  app.get<Q>('/api/embed/v1/walls/:id', async (request, reply) => {
    const bad = checkKey(request.params.id, request.query.key);
    if (bad) return reply.code(bad.responseCode).send(bad);
    const q = `?key=${encodeURIComponent(KEY)}`;
    const wall: EmbedWall = {
      id: WALL_ID,
      name: 'Fixture Wall',
      slug: 'fixture-wall',
      shoppable: true,
      layout: 'masonry',
      theme: 'auto',
      columns: null,
      postsUrl: `/api/embed/v1/walls/${WALL_ID}/posts${q}`,
      streamUrl: `/api/embed/v1/walls/${WALL_ID}/stream${q}`,
      ...fixture.wall,
    };
    return reply.header('Access-Control-Allow-Origin', '*').send({ wall });
  });

  app.get<Q>('/api/embed/v1/walls/:id/posts', async (request, reply) => {
    const bad = checkKey(request.params.id, request.query.key);
    if (bad) return reply.code(bad.responseCode).send(bad);
    const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 20) || 20));
    const after = request.query.cursor ? sortOf(request.query.cursor) : null;
    const sorted = [...fixture.posts].sort((a, b) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0));
    const rest = after === null ? sorted : sorted.filter((p) => p.sort < after);
    const posts = rest.slice(0, limit);
    const nextCursor = rest.length > limit ? cursorOf(posts[posts.length - 1]!.sort) : null;
    const body = JSON.stringify({ posts, nextCursor });
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Vary', 'Origin')
      .header('ETag', etag)
      .header('Cache-Control', 'public, max-age=5, stale-while-revalidate=30');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get<Q>('/api/embed/v1/walls/:id/stream', async (request, reply) => {
    const bad = checkKey(request.params.id, request.query.key);
    if (bad) return reply.code(bad.responseCode).send(bad);
    if (fixture.streamMode === 'refuse') {
      return reply.code(503).header('Retry-After', '30').send(envelope(503, 'too many open streams'));
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': '*',
      Connection: 'keep-alive',
    });
    res.write('retry: 2000\n\n');
    streams.add(res);
    request.raw.on('close', () => streams.delete(res));
  });

  app.get<{ Querystring: Record<string, string> }>('/host', async (request, reply) => {
    const q = request.query;
    const css = q.css === 'hostile' ? HOSTILE_CSS : '';
    return reply.type('text/html; charset=utf-8').send(
      hostPage({
        layout: q.layout,
        theme: q.theme,
        limit: q.limit ? Number(q.limit) : undefined,
        poll: q.poll ? Number(q.poll) : undefined,
        css,
      }),
    );
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  fixture.baseUrl = `http://127.0.0.1:${port}`;
  return fixture;
}

/** What careless or hostile host pages do to everything. */
export const HOSTILE_CSS = `
* { color: red !important; display: block !important; font-size: 40px !important; font-family: serif !important;
    line-height: 3 !important; letter-spacing: 5px !important; text-transform: uppercase !important;
    background: yellow !important; margin: 7px !important; padding: 9px !important; border: 3px dashed lime !important; }
html { font-size: 30px !important; }
article, img, button, a, p, ul, li, dialog { all: revert !important; outline: 5px solid red !important; visibility: hidden !important; }
wallery-wall { text-align: right !important; direction: ltr; word-spacing: 20px !important; }
`;

interface DemoPost {
  id: number;
  networkName: string;
  postType: number;
  content: string;
  picture: string;
  mediaFile: string;
  linkUrl: string;
  authorName: string;
  username: string;
  userPicture: string;
  createdAt: string;
  pin: number;
  highlight: number;
  hidden: boolean;
  cta: { color: string; background: string; url: string; text: string } | null;
  children: { image: string; video: string }[];
  products: { productId: number; left: number; top: number }[];
}

/** The demo wall 101 (src/demo/demo-data.ts) as the embed API would send it: for screenshots of real-looking content. */
export function demoPosts(base: string): EmbedPost[] {
  const data = demoDataFile(BASE_TIME, `${base}/demo-media`);
  const products = new Map(data.products!.map((p) => [p.id, p]));
  const wall = data.walls.find((w) => w.id === 101)!;
  return wall.feeds.flatMap((feed) =>
    (feed.posts as unknown as DemoPost[])
      .filter((p) => !p.hidden)
      .map((p) => {
        const type = (['text', 'image', 'video', 'carousel'] as const)[p.postType - 1]!;
        const post: EmbedPost = {
          id: String(p.id),
          network: p.networkName.toLowerCase(),
          type,
          html: `<p>${p.content}</p>`,
          author: { name: p.authorName, username: p.username, avatar: p.userPicture, url: null },
          link: p.linkUrl,
          createdAt: p.createdAt,
          pinned: p.pin === 1,
          highlighted: p.highlight === 1,
          media: p.children.map((c) => ({
            kind: c.video ? ('video' as const) : ('image' as const),
            url: c.video || c.image,
            poster: c.video ? c.image : null,
            alt: null,
            width: 800,
            height: 800,
          })),
          cta: p.cta ? { text: p.cta.text, url: p.cta.url, color: p.cta.color, background: p.cta.background } : null,
          products: p.products.map((t) => {
            const pr = products.get(t.productId)!;
            return {
              id: String(pr.id),
              name: pr.name,
              price: Number(pr.price).toFixed(2),
              currency: pr.currencySymbol ?? '$',
              url: pr.url ?? null,
              image: pr.image ?? null,
              left: t.left,
              top: t.top,
            };
          }),
          sort: '',
        };
        post.sort = sortKey(post);
        return post;
      }),
  );
}
