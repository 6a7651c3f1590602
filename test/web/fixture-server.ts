// A small stand-in for the embed API (the wire contract of issue 12) for the
// browser tests that inject faults a real server does not produce on demand
// (wall.test.ts): one wall, a mutable in-memory list of posts, cursor pages
// with strong ETags, and a Server-Sent Events stream that can be dropped or
// refused with 503. It also serves the built embed (through the real
// src/http/web routes) and a host page that puts the element on a page.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Fastify from 'fastify';
import { registerWeb } from '../../src/http/web/index.js';
import type { EmbedPost, EmbedWall } from '../../web/embed/types.js';
import { hostPage } from './host-page.js';

const WALL_ID = 7;
const KEY = 'pk_test_fixture';

interface Logged {
  path: string;
  status: number;
  ifNoneMatch?: string;
}

/** A beacon the fixture's events route received, as the contract of issue 16 defines it. */
export interface Beacon {
  events: { type: string; postId?: string; productId?: number }[];
  view: string;
  contentType: string;
}

export interface Fixture {
  baseUrl: string;
  /** what POST /api/embed/v1/events received, in order */
  beacons: Beacon[];
  posts: EmbedPost[];
  /** 'open': streams; 'refuse': 503 in the envelope, as over the cap */
  streamMode: 'open' | 'refuse';
  log: Logged[];
  setPosts(posts: EmbedPost[]): void;
  upsert(post: EmbedPost): void;
  openStreams(): number;
  /** ends every open stream, as a restarting instance or a proxy timeout would */
  dropStreams(): void;
  close(): Promise<void>;
}

const HOUR = 3_600_000;
/** Fixed "now" of the fixture's posts, so relative times do not change during a run. */
const BASE_TIME = Date.now();

/** The `sort` key of the contract: pinned first, then newest, then the larger id. */
function sortKey(post: Pick<EmbedPost, 'pinned' | 'createdAt' | 'id'>): string {
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
    copy: null,
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
      avatarCopy: null,
      url: `https://social.example/@u${n}`,
    },
    link: `https://social.example/p/${n}`,
    createdAt: new Date(BASE_TIME - (n + 1) * HOUR).toISOString(),
    pinned: false,
    highlighted: n % 5 === 1,
    lang: null,
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

export async function startFixture(distDir: string): Promise<Fixture> {
  const app = Fastify({ logger: false });
  const streams = new Set<ServerResponse>();
  let eventId = 0;
  const fixture: Fixture = {
    baseUrl: '',
    beacons: [],
    posts: [],
    streamMode: 'open',
    log: [],
    setPosts(posts) {
      fixture.posts = [...posts];
    },
    upsert(post) {
      fixture.posts = fixture.posts.filter((p) => p.id !== post.id).concat(post);
      send('upsert', JSON.stringify(post));
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

  await registerWeb(app, { distDir, findWall: async () => null });

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

  // the events route of issue 16: beacons send text/plain, parsed as JSON here
  app.post<{ Querystring: Record<string, string>; Body: string }>('/api/embed/v1/events', async (request, reply) => {
    reply.header('Access-Control-Allow-Origin', '*');
    if (request.query.key !== KEY) return reply.code(401).send(envelope(401, 'key is invalid'));
    const body = JSON.parse(request.body) as Omit<Beacon, 'contentType'>;
    fixture.beacons.push({ ...body, contentType: request.headers['content-type'] ?? '' });
    return reply.code(202).send({});
  });

  app.get<{ Querystring: Record<string, string> }>('/host', async (request, reply) => {
    const q = request.query;
    return reply.type('text/html; charset=utf-8').send(
      hostPage({
        wall: WALL_ID,
        key: KEY,
        layout: q.layout,
        theme: q.theme,
        limit: q.limit ? Number(q.limit) : undefined,
        poll: q.poll ? Number(q.poll) : undefined,
        columns: q.columns ? Number(q.columns) : undefined,
        analytics: q.analytics,
        css: q.css,
      }),
    );
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  fixture.baseUrl = `http://127.0.0.1:${port}`;
  return fixture;
}
