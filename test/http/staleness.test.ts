// Issue 15: no cached answer or precomputed fragment is ever served stale,
// whatever kind of write happened. The oracle: two servers on one store, one
// with every cache on (the response cache, the key cache, the per-post
// fragments) and one with none (`cache: null, keys: null, fragments: null`).
// For each kind of write the cached server is primed with every read the
// write can change (W1, C1, W2 and C2 pages of several offsets and limits,
// C5, in JSON and XML, and the embed's pages), the write is made the way a
// user makes it (API v2, management API, ingestion, the CLI in another
// process), and then every read must be byte-identical (status and body) on
// both servers, and the write visible.
import { writeFileSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/http/context.js';
import { KeyCache } from '../../src/http/key-cache.js';
import { buildServer } from '../../src/http/server.js';
import { ResponseCache } from '../../src/http/v2/response-cache.js';
import { IngestRuntime } from '../../src/ingest/runtime.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { ChangeListener } from '../../src/store/change-listener.js';
import { ChangeBus, type Change } from '../../src/store/changes.js';
import { importDataFile } from '../../src/store/datafile.js';
import type { Database } from '../../src/store/schema.js';
import type { Store } from '../../src/store/store.js';
import { rssXml, startFeeds, type FeedFixture, type RssItem } from '../ingest/fixtures/feeds.js';
import { testIngestConfig } from '../ingest/harness.js';
import { runCli } from '../helpers/cli.js';
import { registerDocument, unregisterDocument, type OpenApiDocument } from '../helpers/conformance.js';
import { call, type Res } from '../helpers/http.js';
import { eventually } from '../helpers/poll.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { testStoreKind } from '../helpers/services.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const KEY = 'Stale-main-key-0001';
/** a second key of the main account, revoked by a test */
const KEY_REVOKED = 'Stale-revoked-key-0001';
/** a third key of the main account, revoked while a read looks it up */
const KEY_RACED = 'Stale-raced-key-0001';
/** the key of the account whose plan and limit change */
const PLAN_KEY = 'Stale-plan-key-0001';
/** the key of an account that only a later import (by the CLI) creates */
const LATER_KEY = 'Stale-later-key-0001';

const MAIN = 101;
const SECOND = 102;
const LIVE = 103;
const REBORN = 104;
const PLANNER = 201;
const LATER = 301;

/** a cross-process write is seen within this (the bound of test/scale/change-propagation.test.ts) */
const VISIBLE_WITHIN_MS = 5000;

// ---------- the data ----------

const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString();

let nextMinute = 0;
function post(id: number, content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  nextMinute += 7;
  return {
    id,
    content,
    createdAt: at(nextMinute),
    networkName: 'RSS',
    postType: 1,
    media: 'text',
    authorName: `Author ${id}`,
    username: `user${id}`,
    linkUrl: `https://blog.example/${id}`,
    ...extra,
  };
}

const image = (id: number) => ({
  media: 'image',
  file: `https://cdn.example.com/${id}.jpg`,
  picture: `https://cdn.example.com/${id}.jpg`,
});

const CTA = { color: '#ffffff', background: '#0a7cff', status: 1, url: 'https://shop.example.com/a', text: 'Shop' };

const feed = (id: number, name: string, posts: unknown[], extra: Record<string, unknown> = {}) => ({
  id,
  name,
  source: 'RSS',
  sourceType: 'page',
  createdAt: '2025-06-01T00:00:00.000Z',
  updatedAt: '2025-06-01T00:00:00.000Z',
  ...extra,
  posts,
});

const wall = (id: number, accountId: number, name: string, feeds: unknown[]) => ({
  id,
  accountId,
  name,
  url: `wall-${id}`,
  profanity: 0,
  createdAt: '2025-01-01T00:00:00.000Z',
  feeds,
});

function rebornPosts(text: string) {
  nextMinute = 1000;
  return [40101, 40102, 40103, 40104, 40105, 40106].map((id) => post(id, `${text} ${id}`, id % 2 ? image(id) : {}));
}

function dataFile(feedOrigin: string) {
  const mainA = [
    post(10101, 'Tagged with two products & more', image(10101)),
    post(10102, 'Tagged with one <b>product</b>', {
      ...image(10102),
      products: [{ productId: 13, left: 50, top: 50 }],
    }),
    post(10103, 'Has a call-to-action', { cta: CTA }),
    post(10104, 'Word alpha here'),
    post(10105, 'Pinned from the start', { pin: 1 }),
    post(10106, 'Same minute as the next'),
    post(10107, 'Highlighted', { highlight: 1 }),
    post(10108, 'Plain eight', image(10108)),
    post(10109, 'Plain nine'),
    post(10110, 'Hidden at first', { hidden: true }),
    post(10111, 'Waiting for approval', { state: 'pending' }),
    post(10112, 'Rejected at first', { state: 'rejected' }),
    post(10113, 'Plain thirteen', image(10113)),
    post(10114, 'Plain fourteen'),
  ];
  mainA[0]!.products = [
    { productId: 11, left: 10, top: 20 },
    { productId: 12, left: 30.5, top: 40 },
  ];
  mainA[6]!.createdAt = mainA[5]!.createdAt; // ties are ordered by id
  const mainB = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29].map((n) =>
    post(10200 + n - 19, n === 22 ? 'Alpha and omega' : `Feed B post ${n}`, {
      ...(n % 3 === 0 ? image(10200 + n - 19) : {}),
      ...(n === 25 ? { username: 'troll', networkName: 'Mastodon' } : {}),
    }),
  );
  nextMinute = 0;
  const second = [
    feed(
      1021,
      'Feed C',
      [20101, 20102, 20103, 20104, 20105].map((id) => post(id, `Second wall ${id}`)),
    ),
    feed(
      1022,
      'Feed D',
      [20201, 20202, 20203].map((id) => post(id, `Feed D ${id}`, image(id))),
    ),
  ];
  nextMinute = 0;
  const planner = [50101, 50102, 50103, 50104].map((id) =>
    post(id, `Planner ${id}`, id === 50101 ? { products: [{ productId: 21, left: 1, top: 2 }] } : {}),
  );
  return {
    version: 1,
    accounts: [
      {
        id: 1,
        name: 'Shop',
        plan: 'enterprise',
        dailyCallLimit: 1_000_000_000,
        userKeys: [KEY, KEY_REVOKED, KEY_RACED],
      },
      { id: 2, name: 'Planner', plan: 'enterprise', dailyCallLimit: 1_000_000_000, userKeys: [PLAN_KEY] },
    ],
    products: [
      { id: 11, accountId: 1, name: 'Trail shoe', sku: 'TS-1', price: 10, currencySymbol: '€', createdAt: at(9000) },
      { id: 12, accountId: 1, name: 'Cap', sku: 'CP-1', price: 5.5, createdAt: at(9000) },
      { id: 13, accountId: 1, name: 'Bag', sku: 'BG-1', price: 30, createdAt: at(9000) },
      { id: 21, accountId: 2, name: 'Planner pen', sku: 'PP-1', price: 2, createdAt: at(9000) },
    ],
    walls: [
      wall(MAIN, 1, 'Main wall', [feed(1011, 'Feed A', mainA), feed(1012, 'Feed B', mainB)]),
      wall(SECOND, 1, 'Second wall', second),
      wall(LIVE, 1, 'Live wall', [
        feed(1031, 'Live feed', [], { connector: { kind: 'rss', url: `${feedOrigin}/live.xml` } }),
      ]),
      wall(REBORN, 1, 'Reborn wall', [feed(1041, 'Feed R', rebornPosts('First life'))]),
      wall(PLANNER, 2, 'Planner wall', [feed(2011, 'Feed P', planner)]),
    ],
  };
}

// ---------- two servers on one store ----------

interface Srv {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * Holds back a read of the cached server (a race made deterministic): once
 * armed, the next query that returns a row `matches` resolves only when
 * `release` does — after its connection is released, so writes go on
 * meanwhile.
 */
function gated(db: Kysely<Database>) {
  const own = db.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => args.result });
  const executor = own.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  type Row = Record<string, unknown>;
  let armed: { matches: (row: Row) => boolean; reached: () => void; release: Promise<void> } | null = null;
  executor.executeQuery = (async (query: CompiledQuery) => {
    const result = await execute(query);
    if (armed && (result.rows as Row[]).some(armed.matches)) {
      const { reached, release } = armed;
      armed = null;
      reached();
      await release;
    }
    return result;
  }) as typeof executor.executeQuery;
  return {
    db: own,
    /** resolves when a read is held */
    arm: (matches: (row: Row) => boolean, release: Promise<void>) =>
      new Promise<void>((reached) => (armed = { matches, reached, release })),
  };
}

let dir: string;
let testStore: TestStore;
let fx: FeedFixture;
let cached: Srv;
let uncached: Srv;
let ingest: IngestRuntime;
let token: string;
let embedKey: { id: number; key: string };
const clock = { now: NOW };
let gate: ReturnType<typeof gated>;
const cachedChanges = new ChangeBus();
/** the caches of the cached server; their clock stands still, so nothing they hold expires during a test */
let responseCache: ResponseCache;
let keyCache: KeyCache;

/** `checked`: hold its answers against the OpenAPI document (the other server's are the same bytes) */
async function serve(store: Store, parts: Partial<AppContext>, checked: boolean): Promise<Srv> {
  const ctx = { store, now: () => clock.now, changes: new ChangeBus(), shared: null, ...parts } as AppContext;
  const app = await buildServer(ctx, { embed: { rateLimitPerKey: 0, rateLimitPerIp: 0 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  if (checked) registerDocument(url, 'buildServer', () => app.swagger() as OpenApiDocument);
  return {
    app,
    url,
    async close() {
      if (checked) unregisterDocument(url);
      await app.close();
    },
  };
}

const LIVE_ITEMS: RssItem[] = [1, 2, 3, 4, 5, 6].map((i) => ({
  guid: `live-${i}`,
  title: `Live ${i}`,
  link: `https://blog.example/live/${i}`,
  pubDate: new Date(NOW - i * 60_000).toUTCString(),
  description: `Live body ${i}`,
}));

beforeAll(async () => {
  dir = makeTempDir();
  fx = await startFeeds();
  fx.documents.set('/live.xml', { body: rssXml(LIVE_ITEMS.slice(2)), type: 'application/rss+xml' });
  testStore = await openTestStore(dir);
  const { store } = testStore;
  await importDataFile(store, dataFile(fx.origin), NOW);
  responseCache = new ResponseCache(cachedChanges, { maxBytes: 64 * 1024 * 1024, ttlMs: 60_000, clock: () => 0 });
  keyCache = new KeyCache(cachedChanges, { ttlMs: 60_000, clock: () => 0 });
  // every cache on: the response cache, the key cache, and the fragments by default (undefined)
  gate = gated(store.db);
  cached = await serve(
    { ...store, db: gate.db },
    { changes: cachedChanges, cache: responseCache, keys: keyCache },
    true,
  );
  // No cache at all (`fragments` is the per-post fragment cache, null = none). It hears what the
  // cached server announces: the embed's publishable-key cache is the one a context cannot turn off.
  const uncachedChanges = new ChangeBus();
  cachedChanges.subscribe((change) => uncachedChanges.publish(change));
  uncached = await serve(
    store,
    { changes: uncachedChanges, cache: null, keys: null, fragments: null } as Partial<AppContext>,
    false,
  );
  // as openRuntime does: this process polls feeds and announces on the serving context's bus
  ingest = new IngestRuntime({
    db: store.db,
    changes: cachedChanges,
    config: testIngestConfig(),
    now: () => clock.now,
    random: () => 0.5,
    owner: 'staleness',
  });
  cached.app.ctx.ingest = ingest;
  token = (await createOperatorToken({ db: store.db, actor: CLI_ACTOR, now: NOW }, 'staleness')).token;
  const made = await manage('POST', `/walls/${MAIN}/publishable-keys`, {}, 201);
  embedKey = made as { id: number; key: string };
});

afterAll(async () => {
  await ingest?.stop();
  await cached?.close();
  await uncached?.close();
  responseCache?.close();
  keyCache?.close();
  await testStore?.close();
  await fx?.close();
  if (dir) removeDir(dir);
});

// A test that fails leaves stale entries (nothing expires): the next test starts clean, so
// a failure is reported by the test whose write caused it.
afterEach(() => cachedChanges.publish({ kind: 'all' }));

// ---------- reads ----------

type Format = 'json' | 'xml';
const FORMATS: Format[] = ['json', 'xml'];
const fmt = (f: Format) => (f === 'xml' ? '&format=xml' : '');

const W1 = (w: number, f: Format = 'json', key = KEY) => `/api/v2/widget/wallInfo/${w}?user_key=${key}${fmt(f)}`;
const C1 = (w: number, f: Format = 'json', key = KEY) =>
  `/api/v2/commerce/getGalleryInfo/${w}?user_key=${key}${fmt(f)}`;
const W2 = (w: number, page = 'limit=500', f: Format = 'json', key = KEY) =>
  `/api/v2/widget/posts/${w}?user_key=${key}&${page}${fmt(f)}`;
const C2 = (w: number, page = 'limit=500', f: Format = 'json', key = KEY) =>
  `/api/v2/commerce/getGalleryPosts/${w}/?user_key=${key}&${page}${fmt(f)}`;
const C5 = (w: number, postId: number, f: Format = 'json', key = KEY) =>
  `/api/v2/commerce/getGalleryProductByID/${w}/${postId}/?user_key=${key}${fmt(f)}`;
const EMBED_POSTS = (limit: number) => `/api/embed/v1/walls/${MAIN}/posts?key=${embedKey.key}&limit=${limit}`;

/** pages that overlap, skip and filter: a post's place and its rendering are both checked */
const PAGES = ['limit=5', 'limit=5&offset=5', 'limit=4&offset=3', 'limit=500', 'limit=100&include_only_image_posts=1'];

/** Every v2 read of a wall: W1, C1, W2 and C2 pages, C5 of `posts`, each in JSON and XML. */
function wallReads(w: number, posts: number[] = [], key = KEY): string[] {
  return FORMATS.flatMap((f) => [
    W1(w, f, key),
    C1(w, f, key),
    ...PAGES.flatMap((p) => [W2(w, p, f, key), C2(w, p, f, key)]),
    ...posts.map((id) => C5(w, id, f, key)),
  ]);
}

const C5_MAIN = [10101, 10102, 10110];
const MAIN_READS = () => [...wallReads(MAIN, C5_MAIN), EMBED_POSTS(5), EMBED_POSTS(50)];
const SECOND_READS = () => wallReads(SECOND, [20101, 20201]);
/** every read of the main account's walls (account-wide writes: products, keys) */
const ACCOUNT_READS = () => [...MAIN_READS(), ...SECOND_READS(), ...wallReads(REBORN, [40101])];

interface Seen {
  status: number;
  body: string;
}
type Reads = Map<string, Seen>;

async function readAll(srv: Srv, urls: string[]): Promise<Seen[]> {
  const out: Seen[] = [];
  for (let i = 0; i < urls.length; i += 8) {
    const batch = urls.slice(i, i + 8).map(async (u): Promise<Seen> => {
      const res = await call(srv.url, u);
      return { status: res.status, body: res.text };
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

const same = (a: Seen, b: Seen) => a.status === b.status && a.body === b.body;

/** Where the cached server's answers differ from the uncached one's, each shown around its first difference. */
function differences(urls: string[], cachedSeen: Seen[], fresh: Seen[]): string[] {
  const out: string[] = [];
  urls.forEach((url, i) => {
    const a = cachedSeen[i]!;
    const b = fresh[i]!;
    if (same(a, b)) return;
    let at = 0;
    while (at < a.body.length && a.body[at] === b.body[at]) at++;
    const around = (s: string) => JSON.stringify(s.slice(Math.max(0, at - 60), at + 60));
    out.push(`${url}\n    cached   ${a.status} …${around(a.body)}…\n    uncached ${b.status} …${around(b.body)}…`);
  });
  return out;
}

/**
 * The oracle. Primes the cached server with `reads` (checking it agrees
 * with the uncached one), makes the write, then holds every read of the
 * cached server against the uncached server's, byte for byte; at least one
 * read must have changed, and `visible` checks the change itself.
 */
async function expectFresh(reads: string[], write: () => Promise<unknown>, visible: (after: Reads) => void) {
  const before = await readAll(uncached, reads);
  // the response cache keeps an answer from its second call on
  await readAll(cached, reads);
  const primed = await readAll(cached, reads);
  expect(differences(reads, primed, before), 'the servers disagree before the write').toEqual([]);
  // the primed answers are held by the cache (nothing expires: its clock stands still); the
  // cache tells answers apart by account, not key, so the keys of one account share entries
  const held = new Set(
    reads
      .filter((u, i) => u.startsWith('/api/v2/') && before[i]!.status === 200)
      .map((u) => u.replace(/user_key=[^&]*/, '')),
  );
  expect(responseCache.size).toBeGreaterThanOrEqual(held.size);
  await write();
  const seenCached = await readAll(cached, reads);
  const seenFresh = await readAll(uncached, reads);
  expect(differences(reads, seenCached, seenFresh), 'stale answers after the write').toEqual([]);
  expect(
    reads.some((_, i) => !same(before[i]!, seenFresh[i]!)),
    'the write changed none of the reads',
  ).toBe(true);
  visible(new Map(reads.map((u, i) => [u, seenFresh[i]!])));
}

function seen(after: Reads, url: string): Seen {
  const s = after.get(url);
  if (!s) throw new Error(`not among the reads: ${url}`);
  return s;
}

type Rec = Record<string, unknown>;
const data = (after: Reads, url: string) => {
  const s = seen(after, url);
  expect(s.status, `${url}: ${s.body.slice(0, 200)}`).toBe(200);
  return (JSON.parse(s.body) as { responseData: unknown }).responseData;
};
/** W2 posts (JSON) */
const w2 = (after: Reads, url: string) => (data(after, url) as { posts: Rec[] }[])[0]!.posts;
/** C2 posts (JSON) */
const c2 = (after: Reads, url: string) => (data(after, url) as { feeds: Rec[] }[])[0]!.feeds;
const ids = (posts: Rec[]) => posts.map((p) => Number(p.postId));
const statusOf = (after: Reads, url: string) => seen(after, url).status;

// ---------- writes ----------

async function manage(method: string, path: string, body?: unknown, status = 200): Promise<unknown> {
  const res: Res = await call(cached.url, `/api/manage/v1${path}`, {
    method,
    body,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status, res.text).toBe(status);
  clock.now += 60_000;
  return res.json().responseData;
}

async function v2Write(path: string, body?: unknown): Promise<void> {
  const res = await call(cached.url, path, body === undefined ? {} : { body });
  expect(res.status, res.text).toBe(200);
  clock.now += 60_000;
}

/**
 * A write by another process on the same store. SQLite: the next read
 * notices the foreign commit itself (data_version). PostgreSQL: waits until
 * the database's notification of each change has arrived.
 */
async function elsewhere(write: () => Promise<void>, ...announces: ((c: Change) => boolean)[]): Promise<void> {
  const heard: Change[] = [];
  const stop = cachedChanges.subscribe((c) => heard.push(c));
  try {
    await write();
    if (testStoreKind() === 'postgres')
      await eventually(
        'the change announced',
        async () => heard.some((c) => c.kind === 'all') || announces.every((a) => heard.some(a)),
        (yes) => yes,
        VISIBLE_WITHIN_MS,
      );
  } finally {
    stop();
  }
}

/** The CLI, on the same store. */
const cli = (args: string[], ...announces: ((c: Change) => boolean)[]) =>
  elsewhere(
    async () => {
      const r = await runCli([...args, '--database', testStore.database]);
      expect(r.code, r.stderr).toBe(0);
    },
    ...announces,
  );

const wallIs = (w: number) => (c: Change) => c.kind === 'wall' && c.wallId === w;
const accountIs = (a: number) => (c: Change) => c.kind === 'account' && c.accountId === a;

// ---------- the tests ----------

describe('the oracle', () => {
  it('sees a stale answer when a write is not announced', async () => {
    const reads = [W2(MAIN), W2(MAIN, 'limit=500', 'xml')];
    await readAll(cached, reads);
    // a write on the cached server's own connection, announced to no one
    await testStore.store.db.updateTable('posts').set({ content: 'Silently edited' }).where('id', '=', 10114).execute();
    const found = differences(reads, await readAll(cached, reads), await readAll(uncached, reads));
    expect(found).toHaveLength(reads.length);
    cachedChanges.wallChanged(MAIN);
    expect(differences(reads, await readAll(cached, reads), await readAll(uncached, reads))).toEqual([]);
  });
});

describe('a write while a read is running', () => {
  /**
   * Starts a read on the cached server and holds it once its query for
   * `matches` rows has answered; makes the write; lets the read finish.
   * What the read had fetched before the write must not outlive it.
   */
  async function race(url: string, matches: (row: Record<string, unknown>) => boolean, write: () => Promise<unknown>) {
    let release!: () => void;
    const reached = gate.arm(matches, new Promise<void>((r) => (release = r)));
    const racing = call(cached.url, url);
    await Promise.race([
      reached,
      racing.then(() => {
        throw new Error('the read was not held');
      }),
    ]);
    try {
      await write();
    } finally {
      release();
    }
    expect((await racing).status).toBe(200);
  }

  it('the response cache does not keep an answer built from rows read before the write', async () => {
    const url = W2(MAIN, 'limit=400');
    await race(
      url,
      // the first query of the list that reads rows (the page's order, or the posts themselves)
      (row) => 'feed_name' in row,
      () => manage('PATCH', `/walls/${MAIN}/posts/10109`, { content: 'Edited while a read was running' }),
    );
    const fresh = await readAll(uncached, [url]);
    expect(fresh[0]!.body).toContain('Edited while a read was running');
    expect(differences([url], await readAll(cached, [url]), fresh), 'stale after the write').toEqual([]);
  });

  it('the key cache does not keep a key revoked while it was looked up', async () => {
    const url = W1(MAIN, 'json', KEY_RACED);
    const keys = (await manage('GET', '/accounts/1/keys')) as { data: { id: number; prefix: string }[] };
    const raced = keys.data.find((k) => KEY_RACED.startsWith(k.prefix))!;
    await race(
      url,
      (row) => 'key_hash' in row && 'daily_call_limit' in row,
      () => manage('DELETE', `/accounts/1/keys/${raced.id}`),
    );
    const fresh = await readAll(uncached, [url]);
    expect(fresh[0]!.status).toBe(401);
    expect(differences([url], await readAll(cached, [url]), fresh), 'stale after the revocation').toEqual([]);
  });
});

describe('writes through the public API v2', () => {
  it('W3 create-post', async () => {
    await expectFresh(
      MAIN_READS(),
      () => v2Write(`/api/v2/widget/create-post?user_key=${KEY}`, { wallId: MAIN, content: 'Made with W3' }),
      (after) => {
        expect(w2(after, W2(MAIN, 'limit=5')).map((p) => p.content)).toContain('Made with W3');
        expect(seen(after, C2(MAIN, 'limit=5', 'xml')).body).toContain('Made with W3');
      },
    );
  });

  it('C3 createGalleryPost with an image', async () => {
    await expectFresh(
      MAIN_READS(),
      () =>
        v2Write(`/api/v2/commerce/createGalleryPost?user_key=${KEY}`, {
          wallId: MAIN,
          content: 'Made with C3',
          postFile: 'https://cdn.example.com/c3.jpg',
        }),
      (after) => {
        expect(c2(after, C2(MAIN, 'limit=100&include_only_image_posts=1')).map((p) => p.postContent)).toContain(
          'Made with C3',
        );
      },
    );
  });

  it('W4 delete, then a restore through the management API', async () => {
    await expectFresh(
      SECOND_READS(),
      () => v2Write(`/api/v2/widget/delete/${SECOND}?user_key=${KEY}`),
      (after) => {
        for (const url of SECOND_READS()) expect(statusOf(after, url), url).toBe(404);
      },
    );
    await expectFresh(
      SECOND_READS(),
      () => manage('POST', `/walls/${SECOND}/restore`),
      (after) => expect(w2(after, W2(SECOND))).toHaveLength(8),
    );
  });

  it('C4 delete, then a restore through the management API', async () => {
    await expectFresh(
      SECOND_READS(),
      () => v2Write(`/api/v2/commerce/deleteGallery/${SECOND}?user_key=${KEY}`),
      (after) => expect(statusOf(after, C2(SECOND, 'limit=5', 'xml'))).toBe(404),
    );
    await expectFresh(
      SECOND_READS(),
      () => manage('POST', `/walls/${SECOND}/restore`),
      (after) => expect(statusOf(after, C5(SECOND, 20201, 'xml'))).toBe(200),
    );
  });
});

describe('management API: one post', () => {
  const patch = (postId: number, body: Rec) => () => manage('PATCH', `/walls/${MAIN}/posts/${postId}`, body);
  const listed = (after: Reads, id: number) => ids(w2(after, W2(MAIN))).includes(id);

  it('hide and unhide', async () => {
    await expectFresh(MAIN_READS(), patch(10101, { hidden: true }), (after) => {
      expect(listed(after, 10101)).toBe(false);
      expect(statusOf(after, C5(MAIN, 10101, 'xml'))).toBe(404);
    });
    await expectFresh(MAIN_READS(), patch(10101, { hidden: false }), (after) =>
      expect(listed(after, 10101)).toBe(true),
    );
    await expectFresh(MAIN_READS(), patch(10110, { hidden: false }), (after) => {
      expect(listed(after, 10110)).toBe(true);
      expect(statusOf(after, C5(MAIN, 10110))).toBe(200);
    });
  });

  it('reject, back to pending, approve', async () => {
    await expectFresh(MAIN_READS(), patch(10103, { state: 'rejected', reason: 'spam' }), (after) =>
      expect(listed(after, 10103)).toBe(false),
    );
    await expectFresh(MAIN_READS(), patch(10103, { state: 'approved' }), (after) =>
      expect(listed(after, 10103)).toBe(true),
    );
    await expectFresh(MAIN_READS(), patch(10105, { state: 'pending' }), (after) =>
      expect(listed(after, 10105)).toBe(false),
    );
    await expectFresh(MAIN_READS(), patch(10111, { state: 'approved', reason: 'fine' }), (after) =>
      expect(listed(after, 10111)).toBe(true),
    );
    await expectFresh(MAIN_READS(), patch(10105, { state: 'approved' }), (after) =>
      expect(listed(after, 10105)).toBe(true),
    );
  });

  it('pin and unpin: a post moves across pages', async () => {
    await expectFresh(MAIN_READS(), patch(10114, { pinned: true }), (after) =>
      expect(ids(w2(after, W2(MAIN, 'limit=5')))).toContain(10114),
    );
    await expectFresh(MAIN_READS(), patch(10114, { pinned: false }), (after) =>
      expect(ids(w2(after, W2(MAIN, 'limit=5')))).not.toContain(10114),
    );
  });

  it('highlight, call-to-action set and cleared, content', async () => {
    const one = (after: Reads, id: number) => w2(after, W2(MAIN)).find((p) => Number(p.postId) === id)!;
    await expectFresh(MAIN_READS(), patch(10102, { highlighted: true }), (after) =>
      expect(one(after, 10102).postHighlight).toBe(1),
    );
    await expectFresh(MAIN_READS(), patch(10102, { cta: { ...CTA, text: 'Buy now' } }), (after) =>
      expect(one(after, 10102).CTAtext).toBe('Buy now'),
    );
    await expectFresh(MAIN_READS(), patch(10103, { cta: null }), (after) =>
      expect(one(after, 10103).CTAtext).toBeNull(),
    );
    await expectFresh(MAIN_READS(), patch(10101, { content: 'New words & <i>markup</i>' }), (after) => {
      expect(one(after, 10101).content).toBe('New words & <i>markup</i>');
      expect(seen(after, C5(MAIN, 10101, 'xml')).body).toContain('New words');
    });
  });

  it('every bulk action', async () => {
    const posts = [10106, 10107, 10108, 10205];
    const bulk =
      (action: string, extra: Rec = {}) =>
      () =>
        manage('POST', `/walls/${MAIN}/posts/bulk`, { postIds: posts, action, ...extra });
    const shown = (after: Reads) => ids(w2(after, W2(MAIN))).filter((id) => posts.includes(id));
    const field = (after: Reads, name: string) =>
      w2(after, W2(MAIN))
        .filter((p) => posts.includes(Number(p.postId)))
        .map((p) => p[name]);
    await expectFresh(MAIN_READS(), bulk('hide'), (after) => expect(shown(after)).toEqual([]));
    await expectFresh(MAIN_READS(), bulk('unhide'), (after) => expect(shown(after)).toHaveLength(4));
    await expectFresh(MAIN_READS(), bulk('pin'), (after) => expect(field(after, 'postPin')).toEqual([1, 1, 1, 1]));
    await expectFresh(MAIN_READS(), bulk('unpin'), (after) => expect(field(after, 'postPin')).toEqual([0, 0, 0, 0]));
    await expectFresh(MAIN_READS(), bulk('highlight'), (after) =>
      expect(field(after, 'postHighlight')).toEqual([1, 1, 1, 1]),
    );
    await expectFresh(MAIN_READS(), bulk('unhighlight'), (after) =>
      expect(field(after, 'postHighlight')).toEqual([0, 0, 0, 0]),
    );
    await expectFresh(MAIN_READS(), bulk('setCta', { cta: CTA }), (after) =>
      expect(field(after, 'CTAtext')).toEqual(['Shop', 'Shop', 'Shop', 'Shop']),
    );
    await expectFresh(MAIN_READS(), bulk('clearCta'), (after) =>
      expect(field(after, 'CTAtext')).toEqual([null, null, null, null]),
    );
    await expectFresh(MAIN_READS(), bulk('reject', { reason: 'bulk' }), (after) => expect(shown(after)).toEqual([]));
    await expectFresh(MAIN_READS(), bulk('approve'), (after) => expect(shown(after)).toHaveLength(4));
  });
});

describe('management API: feeds, walls, products, tags', () => {
  it('a feed renamed, its source changed, a feed created, a feed deleted', async () => {
    await expectFresh(
      MAIN_READS(),
      () => manage('PATCH', `/walls/${MAIN}/feeds/1012`, { name: 'Feed B renamed' }),
      (after) => {
        const names = new Set(w2(after, W2(MAIN)).map((p) => p.feedName));
        expect(names).toContain('Feed B renamed');
        expect(names).not.toContain('Feed B');
      },
    );
    await expectFresh(
      MAIN_READS(),
      () => manage('PATCH', `/walls/${MAIN}/feeds/1011`, { source: 'Atom', sourceType: 'journal' }),
      (after) => expect(seen(after, W1(MAIN, 'xml')).body).toContain('journal'),
    );
    await expectFresh(
      SECOND_READS(),
      () => manage('POST', `/walls/${SECOND}/feeds`, { name: 'Feed E', source: 'RSS', sourceType: 'page' }, 201),
      (after) => expect(seen(after, C1(SECOND)).body).toContain('Feed E'),
    );
    await expectFresh(
      SECOND_READS(),
      () => manage('DELETE', `/walls/${SECOND}/feeds/1022`),
      (after) => {
        expect(ids(w2(after, W2(SECOND)))).not.toContain(20201);
        expect(statusOf(after, C5(SECOND, 20201))).toBe(404);
      },
    );
  });

  it('a wall renamed, its slug changed, its profanity flag on and off', async () => {
    await expectFresh(
      MAIN_READS(),
      () => manage('PATCH', `/walls/${MAIN}`, { name: 'Main wall, renamed', url: 'main-renamed' }),
      (after) => expect(seen(after, W2(MAIN, 'limit=5', 'xml')).body).toContain('main-renamed'),
    );
    await expectFresh(
      MAIN_READS(),
      () => manage('PATCH', `/walls/${MAIN}`, { profanity: true }),
      (after) => expect(new Set(w2(after, W2(MAIN)).map((p) => p.wallProfanity))).toEqual(new Set([1])),
    );
    await expectFresh(
      MAIN_READS(),
      () => manage('PATCH', `/walls/${MAIN}`, { profanity: false }),
      (after) => expect(new Set(w2(after, W2(MAIN)).map((p) => p.wallProfanity))).toEqual(new Set([0])),
    );
  });

  it('a wall deleted and restored through the management API', async () => {
    await expectFresh(
      SECOND_READS(),
      () => manage('DELETE', `/walls/${SECOND}`),
      (after) => expect(statusOf(after, W1(SECOND))).toBe(404),
    );
    await expectFresh(
      SECOND_READS(),
      () => manage('POST', `/walls/${SECOND}/restore`),
      (after) => expect(statusOf(after, W1(SECOND))).toBe(200),
    );
  });

  it('a product edited: name and price', async () => {
    await expectFresh(
      ACCOUNT_READS(),
      () => manage('PATCH', '/products/11', { name: 'Trail shoe II', price: 12.25 }),
      (after) => {
        const detail = data(after, C5(MAIN, 10101)) as { postProducts: Rec[] };
        expect(detail.postProducts[0]).toMatchObject({ productName: 'Trail shoe II', productPrice: 12.25 });
        expect(seen(after, EMBED_POSTS(50)).body).toContain('Trail shoe II');
      },
    );
  });

  it('product tags added, moved, removed, replaced', async () => {
    const tags = (after: Reads) =>
      (data(after, C5(MAIN, 10102)) as { postProducts: Rec[] }).postProducts.map((p) => [p.productId, p.hotspot]);
    await expectFresh(
      MAIN_READS(),
      () => manage('POST', `/walls/${MAIN}/posts/10102/products`, { productId: 11, left: 5, top: 6, position: 0 }),
      (after) =>
        expect(tags(after)).toEqual([
          [11, ['left:5%', 'top:6%']],
          [13, ['left:50%', 'top:50%']],
        ]),
    );
    await expectFresh(
      MAIN_READS(),
      () => manage('PATCH', `/walls/${MAIN}/posts/10102/products/11`, { left: 70, position: 1 }),
      (after) =>
        expect(tags(after)).toEqual([
          [13, ['left:50%', 'top:50%']],
          [11, ['left:70%', 'top:6%']],
        ]),
    );
    await expectFresh(
      MAIN_READS(),
      () => manage('DELETE', `/walls/${MAIN}/posts/10102/products/13`),
      (after) => expect(tags(after)).toEqual([[11, ['left:70%', 'top:6%']]]),
    );
    await expectFresh(
      MAIN_READS(),
      () =>
        manage('PUT', `/walls/${MAIN}/posts/10102/products`, {
          tags: [
            { productId: 12, left: 1, top: 1 },
            { productId: 13, left: 2, top: 2 },
          ],
        }),
      (after) =>
        expect(tags(after)).toEqual([
          [12, ['left:1%', 'top:1%']],
          [13, ['left:2%', 'top:2%']],
        ]),
    );
  });

  it('a product deleted: its tags go with it', async () => {
    await expectFresh(
      ACCOUNT_READS(),
      () => manage('DELETE', '/products/12'),
      (after) => {
        const detail = data(after, C5(MAIN, 10101)) as { postProductIds: string };
        expect(detail.postProductIds).toBe('11');
      },
    );
  });
});

describe('management API: rules, keys, accounts', () => {
  it('rules that reject and hold stored posts', async () => {
    const visible = (after: Reads) => ids(w2(after, W2(MAIN)));
    await expectFresh(
      MAIN_READS(),
      async () => {
        await manage('PUT', `/walls/${MAIN}/rules`, {
          rules: [
            { kind: 'keyword', action: 'reject', words: ['alpha'] },
            { kind: 'author', action: 'hold', network: 'Mastodon', usernames: ['troll'] },
          ],
        });
        await manage('POST', `/walls/${MAIN}/rules/apply`, { includeApproved: true });
      },
      (after) => {
        expect(visible(after)).not.toContain(10104);
        expect(visible(after)).not.toContain(10203);
        expect(visible(after)).not.toContain(10206);
        expect(visible(after)).toContain(10109);
      },
    );
  });

  it('a user key revoked: 401 with it, its sibling unaffected', async () => {
    const reads = [...wallReads(MAIN, [10101], KEY_REVOKED), W2(MAIN), C5(MAIN, 10101, 'xml')];
    const keys = (await manage('GET', '/accounts/1/keys')) as { data: { id: number; prefix: string }[] };
    const revoked = keys.data.find((k) => KEY_REVOKED.startsWith(k.prefix))!;
    await expectFresh(
      reads,
      () => manage('DELETE', `/accounts/1/keys/${revoked.id}`),
      (after) => {
        for (const url of wallReads(MAIN, [10101], KEY_REVOKED)) expect(statusOf(after, url), url).toBe(401);
        expect(statusOf(after, W2(MAIN))).toBe(200);
      },
    );
  });

  it('a publishable key revoked: the embed refuses it', async () => {
    await expectFresh(
      [EMBED_POSTS(5), EMBED_POSTS(50), W2(MAIN)],
      () => manage('DELETE', `/walls/${MAIN}/publishable-keys/${embedKey.id}`),
      (after) => expect(statusOf(after, EMBED_POSTS(5))).toBe(401),
    );
  });

  it('an account plan changed: widget only, none, both again', async () => {
    const reads = () => wallReads(PLANNER, [50101], PLAN_KEY);
    const widget = FORMATS.flatMap((f) => [W1(PLANNER, f, PLAN_KEY), W2(PLANNER, 'limit=5', f, PLAN_KEY)]);
    await expectFresh(
      reads(),
      () => manage('PATCH', '/accounts/2', { plan: 'widget' }),
      (after) => {
        expect(statusOf(after, C2(PLANNER, 'limit=5', 'json', PLAN_KEY))).toBe(401);
        for (const url of widget) expect(statusOf(after, url), url).toBe(200);
      },
    );
    await expectFresh(
      reads(),
      () => manage('PATCH', '/accounts/2', { plan: 'free' }),
      (after) => {
        for (const url of reads()) expect(statusOf(after, url), url).toBe(401);
      },
    );
    await expectFresh(
      reads(),
      () => manage('PATCH', '/accounts/2', { plan: 'enterprise' }),
      (after) => {
        for (const url of reads()) expect(statusOf(after, url), url).toBe(200);
      },
    );
  });

  it('an account daily limit lowered to 0, then raised', async () => {
    const reads = () => wallReads(PLANNER, [50101], PLAN_KEY);
    await expectFresh(
      reads(),
      () => manage('PATCH', '/accounts/2', { dailyCallLimit: 0 }),
      (after) => expect(statusOf(after, W1(PLANNER, 'json', PLAN_KEY))).toBe(429),
    );
    await expectFresh(
      reads(),
      () => manage('PATCH', '/accounts/2', { dailyCallLimit: 1_000_000_000 }),
      (after) => expect(statusOf(after, W1(PLANNER, 'json', PLAN_KEY))).toBe(200),
    );
  });
});

describe('ingestion', () => {
  const poll = () => async () => {
    const result = (await manage('POST', `/walls/${LIVE}/feeds/1031/poll`)) as { poll: { status: string } };
    expect(result.poll.status).toBe('ok');
  };
  const reads = () => wallReads(LIVE);
  const contents = (after: Reads) => w2(after, W2(LIVE)).map((p) => String(p.content));

  it('a poll stores new posts; an item edited upstream updates its post', async () => {
    await expectFresh(reads(), poll(), (after) => expect(contents(after)).toHaveLength(4));
    // two new items, and one already stored edited upstream
    const edited = LIVE_ITEMS.map((i) => (i.guid === 'live-4' ? { ...i, description: 'Edited upstream' } : i));
    fx.documents.set('/live.xml', { body: rssXml(edited), type: 'application/rss+xml' });
    await expectFresh(reads(), poll(), (after) => {
      expect(contents(after)).toHaveLength(6);
      expect(contents(after).some((c) => c.includes('Edited upstream'))).toBe(true);
      expect(contents(after).some((c) => c.includes('Live body 4'))).toBe(false);
    });
    // the same items again, one edited once more
    const again = edited.map((i) => (i.guid === 'live-4' ? { ...i, description: 'Edited twice' } : i));
    fx.documents.set('/live.xml', { body: rssXml(again), type: 'application/rss+xml' });
    await expectFresh(reads(), poll(), (after) => {
      expect(contents(after).some((c) => c.includes('Edited twice'))).toBe(true);
    });
  });
});

describe('another process on the same store: the CLI, a hand-made SQL edit', () => {
  let listener: ChangeListener | null = null;
  beforeAll(async () => {
    // on PostgreSQL an instance hears of other processes' writes as openRuntime arranges it
    if (testStoreKind() === 'postgres') {
      listener = new ChangeListener(cachedChanges, { url: testStore.database, connectTimeoutMs: 3000 });
      await listener.start(3);
    }
  });
  afterAll(async () => listener?.close());

  it('posts hidden, a post edited', async () => {
    await expectFresh(
      MAIN_READS(),
      () => cli(['posts', 'hide', String(MAIN), '10108', '10109'], wallIs(MAIN)),
      (after) => {
        expect(ids(w2(after, W2(MAIN)))).not.toContain(10108);
        expect(ids(w2(after, W2(MAIN)))).not.toContain(10109);
      },
    );
    await expectFresh(
      MAIN_READS(),
      () => cli(['posts', 'edit', String(MAIN), '10113', '--content', 'Edited by the CLI'], wallIs(MAIN)),
      (after) => expect(seen(after, C2(MAIN, 'limit=500', 'xml')).body).toContain('Edited by the CLI'),
    );
  });

  it('a product updated', async () => {
    await expectFresh(
      ACCOUNT_READS(),
      () => cli(['products', 'update', '13', '--name', 'Bag, renamed by the CLI', '--price', '31'], accountIs(1)),
      (after) => expect(seen(after, C5(MAIN, 10102, 'xml')).body).toContain('Bag, renamed by the CLI'),
    );
  });

  it('a post edited by hand in SQL, on a connection of its own', async () => {
    const edit = async () => {
      if (testStoreKind() === 'sqlite') {
        const other = new SqliteDatabase(testStore.database);
        other.prepare('update posts set content = ? where id = ?').run('Edited in SQL', 10114);
        other.close();
      } else {
        const other = new pg.Client({ connectionString: testStore.database });
        await other.connect();
        await other.query('update posts set content = $1 where id = $2', ['Edited in SQL', 10114]);
        await other.end();
      }
    };
    await expectFresh(
      MAIN_READS(),
      () => elsewhere(edit, wallIs(MAIN)),
      (after) => expect(seen(after, W2(MAIN, 'limit=500', 'xml')).body).toContain('Edited in SQL'),
    );
  });

  it('an import: a purged wall again with the same ids, and an account whose key was refused until then', async () => {
    const reads = () => [...wallReads(REBORN, [40101, 40102]), ...wallReads(LATER, [60101], LATER_KEY)];
    const file = join(dir, 'import.json');
    const reborn = wall(REBORN, 1, 'Reborn wall', [feed(1041, 'Feed R', rebornPosts('Second life'))]);
    nextMinute = 0;
    const later = wall(LATER, 3, 'Later wall', [feed(3011, 'Feed L', [post(60101, 'Later post')])]);
    const account = { id: 3, name: 'Later', plan: 'enterprise', dailyCallLimit: 1_000_000, userKeys: [LATER_KEY] };
    writeFileSync(file, JSON.stringify({ version: 1, accounts: [account], walls: [reborn, later] }));
    await expectFresh(
      reads(),
      async () => {
        // the wall and its posts are erased for good: the import may use their ids again
        await manage('DELETE', `/walls/${REBORN}`);
        await manage('POST', `/walls/${REBORN}/purge`);
        await cli(['import', file], wallIs(REBORN), wallIs(LATER));
      },
      (after) => {
        expect(w2(after, W2(REBORN)).map((p) => p.content)).toContain('Second life 40101');
        expect(seen(after, C5(REBORN, 40102, 'xml')).body).toContain('Second life 40102');
        for (const url of wallReads(LATER, [60101], LATER_KEY)) expect(statusOf(after, url), url).toBe(200);
      },
    );
  });
});
