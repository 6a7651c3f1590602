// Ingestion tests' harness: a real Wallery server (real HTTP, SQLite or — in
// the postgres project — PostgreSQL) with one wall whose feeds carry
// connectors, an ingestion runtime on the same store with an injectable
// clock, and readers for W2/C2 in both formats.
import { expect } from 'vitest';
import type { IngestConfig } from '../../src/config.js';
import { IngestRuntime, type IngestRuntimeOptions, type PollReport } from '../../src/ingest/runtime.js';
import { ChangeBus } from '../../src/store/changes.js';
import type { Resolver } from '../../src/net/guard.js';
import { call } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import type { XEl, XVal } from '../helpers/xml.js';
import { APP_PASSWORD, IDENTIFIER } from './fixtures/bluesky.js';

/** Thu 15 Jan 2026, 12:00:00 UTC: upstream fixtures post just before it. */
export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
export const KEY = 'Ingest-test-key-0001';
export const ACCOUNT = 4000;
export const WALL = 4001;

export interface FeedSpec {
  id: number;
  name: string;
  connector: unknown;
  enabled?: boolean;
  /** the feed's moderation mode (absent: the wall's) */
  moderation?: 'auto' | 'manual';
}

export function dataFile(
  feeds: FeedSpec[],
  profanity = 0,
  moderation: 'auto' | 'manual' = 'auto',
  rules: unknown[] = [],
) {
  return {
    version: 1,
    accounts: [{ id: ACCOUNT, name: 'Ingest Co', plan: 'enterprise', dailyCallLimit: 1_000_000, userKeys: [KEY] }],
    walls: [
      {
        id: WALL,
        accountId: ACCOUNT,
        name: 'Live wall',
        url: 'live-wall',
        profanity,
        ...(moderation === 'manual' ? { moderation } : {}),
        ...(rules.length > 0 ? { rules } : {}),
        createdAt: '2025-01-01T00:00:00.000Z',
        feeds: feeds.map((f) => ({
          id: f.id,
          name: f.name,
          source: 'Pending',
          sourceType: 'pending',
          createdAt: '2025-06-01T00:00:00.000Z',
          updatedAt: '2025-06-01T00:00:00.000Z',
          connector: f.connector,
          enabled: f.enabled ?? true,
          ...(f.moderation ? { moderation: f.moderation } : {}),
          posts: [],
        })),
      },
    ],
  };
}

export function testIngestConfig(over: Partial<IngestConfig> = {}): IngestConfig {
  return {
    enabled: true,
    minIntervalS: 300,
    maxIntervalS: 21_600,
    // the fixture servers listen on loopback; nothing else is allowed
    allowPrivateNetworks: ['127.0.0.0/8'],
    maxBytes: 5 * 1024 * 1024,
    timeoutMs: 5000,
    hostConcurrency: 2,
    maxItems: 500,
    parseThreads: 1,
    changesRetentionDays: 30,
    bluesky: { identifier: IDENTIFIER, appPassword: APP_PASSWORD },
    ...over,
  };
}

export interface Harness {
  server: TestServer;
  clock: { now: number };
  changes: ChangeBus;
  /** wall ids announced on the change bus, in order */
  changed: number[];
  runtime: IngestRuntime;
  /** polls due feeds (or one feed, forced) once */
  poll(feedId?: number): Promise<PollReport[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  profanity?: number;
  /** the wall's moderation mode (default auto) */
  moderation?: 'auto' | 'manual';
  /** the wall's moderation rules (the wire form of GET …/rules), given in the data file */
  rules?: unknown[];
  config?: Partial<IngestConfig>;
  resolve?: Resolver;
  runtime?: Partial<IngestRuntimeOptions>;
}

export async function startHarness(feeds: FeedSpec[], options: HarnessOptions = {}): Promise<Harness> {
  const server = await startTestServer({
    data: dataFile(feeds, options.profanity ?? 0, options.moderation, options.rules),
    now: NOW,
  });
  const clock = { now: NOW };
  const changes = new ChangeBus();
  const changed: number[] = [];
  changes.subscribe((c) => {
    if (c.kind === 'wall') changed.push(c.wallId);
  });
  const runtime = new IngestRuntime({
    db: server.store.db,
    changes,
    config: testIngestConfig(options.config),
    now: () => clock.now,
    random: () => 0.5,
    resolve: options.resolve,
    owner: 'test-poller',
    ...(options.runtime ?? {}),
  });
  // as openRuntime does: the management API reaches ingestion through the context
  server.app.ctx.ingest = runtime;
  return {
    server,
    clock,
    changes,
    changed,
    runtime,
    poll: (feedId) => runtime.runOnce(feedId === undefined ? {} : { feedId }),
    async close() {
      await runtime.stop();
      await server.close();
    },
  };
}

// ---------- reading the wall through the API ----------

export type Rec = Record<string, unknown>;

/** W2 posts (JSON). */
export async function widgetPosts(h: Harness, query: Record<string, string> = {}): Promise<Rec[]> {
  const res = await call(h.server.baseUrl, `/api/v2/widget/posts/${WALL}`, {
    query: { user_key: KEY, limit: '500', ...query },
  });
  expect(res.status, res.text).toBe(200);
  return (res.json().responseData as { posts: Rec[] }[])[0]!.posts;
}

/** C2 posts (JSON). */
export async function commercePosts(h: Harness, query: Record<string, string> = {}): Promise<Rec[]> {
  const res = await call(h.server.baseUrl, `/api/v2/commerce/getGalleryPosts/${WALL}/`, {
    query: { user_key: KEY, limit: '500', ...query },
  });
  expect(res.status, res.text).toBe(200);
  return (res.json().responseData as { feeds: Rec[] }[])[0]!.feeds;
}

function xmlRecords(children: XEl[], name: string): Rec[] {
  const data = children.find((c) => 'responseData' in c)?.responseData as XEl[];
  return data
    .filter((c) => name in c)
    .map((c) => {
      const rec: Rec = {};
      for (const field of c[name] as XEl[]) {
        const [k, v] = Object.entries(field)[0] as [string, XVal];
        rec[k] = typeof v === 'string' ? v : v.map((e) => Object.entries(e)[0]![1]);
      }
      return rec;
    });
}

export async function widgetPostsXml(h: Harness): Promise<Rec[]> {
  const res = await call(h.server.baseUrl, `/api/v2/widget/posts/${WALL}`, {
    query: { user_key: KEY, limit: '500', format: 'xml' },
  });
  expect(res.status, res.text).toBe(200);
  return xmlRecords(res.xml().children, 'posts');
}

export async function commercePostsXml(h: Harness): Promise<Rec[]> {
  const res = await call(h.server.baseUrl, `/api/v2/commerce/getGalleryPosts/${WALL}/`, {
    query: { user_key: KEY, limit: '500', format: 'xml' },
  });
  expect(res.status, res.text).toBe(200);
  return xmlRecords(res.xml().children, 'feeds');
}

/** A JSON record as the XML form prints it (contract §1): scalars as text, childNode flattened. */
export function asXmlText(rec: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(rec)) {
    // an empty childNode list is one empty element (contract §1)
    if (k === 'childNode')
      out[k] =
        (v as { image: string; video: string }[]).length === 0
          ? ''
          : (v as { image: string; video: string }[]).flatMap((c) => [c.image, c.video]);
    else out[k] = v === null ? 'null' : typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

/**
 * Checks W2 and C2 in JSON and XML agree with each other and returns the
 * widget JSON posts keyed by `postLinkUrl` (the upstream permalink).
 */
export async function wallPosts(h: Harness): Promise<Map<string, { widget: Rec; commerce: Rec }>> {
  const [w, c, wx, cx] = await Promise.all([widgetPosts(h), commercePosts(h), widgetPostsXml(h), commercePostsXml(h)]);
  expect(wx).toEqual(w.map(asXmlText));
  expect(cx).toEqual(c.map(asXmlText));
  expect(c.map((p) => String(p.postId))).toEqual(w.map((p) => p.postId));
  const out = new Map<string, { widget: Rec; commerce: Rec }>();
  w.forEach((p, i) => out.set(String(p.postLinkUrl), { widget: p, commerce: c[i]! }));
  return out;
}

/** All stored posts of a feed (hidden ones too), straight from the store. */
export async function storedPosts(h: Harness, feedId: number) {
  return h.server.store.db
    .selectFrom('posts')
    .selectAll()
    .where('feed_id', '=', feedId)
    .orderBy('external_id')
    .execute();
}

export async function ingestState(h: Harness, feedId: number) {
  return h.server.store.db
    .selectFrom('feed_ingest_state')
    .selectAll()
    .where('feed_id', '=', feedId)
    .executeTakeFirstOrThrow();
}

/** Sets moderation state on a post as an operator would. */
export async function moderate(h: Harness, postId: number) {
  await h.server.store.db
    .updateTable('posts')
    .set({
      pin: 1,
      highlight: 1,
      has_cta: 1,
      cta_color: '#fff',
      cta_background: '#000',
      cta_status: 1,
      cta_url: 'https://shop.example/x',
      cta_text: 'Buy',
    })
    .where('id', '=', postId)
    .execute();
  const product = await h.server.store.db
    .insertInto('products')
    .values({
      account_id: ACCOUNT,
      name: 'Trail shoe',
      sku: 'TS-1',
      price: 99,
      currency_symbol: '€',
      currency: 'EUR',
      discount: 0,
      discount_currency_symbol: '',
      discount_currency: '',
      url: 'https://shop.example/ts1',
      image: 'https://shop.example/ts1.jpg',
      store_shop_name: '',
      store_product_id: '',
      store_product_type: '',
      created_at: NOW,
      updated_at: NOW,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.server.store.db
    .insertInto('post_products')
    .values({ post_id: postId, product_id: product.id, position: 0, left_pct: 10, top_pct: 20 })
    .execute();
}

/** The moderation state an edit must keep. */
export async function moderation(h: Harness, postId: number) {
  const p = await h.server.store.db
    .selectFrom('posts')
    .select(['hidden', 'pin', 'highlight', 'has_cta', 'cta_url', 'cta_text'])
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  const tags = await h.server.store.db
    .selectFrom('post_products')
    .select(['product_id', 'position'])
    .where('post_id', '=', postId)
    .execute();
  return { ...p, tags };
}

/** Moves the clock to the feed's next scheduled poll. */
export async function untilDue(h: Harness, feedId: number): Promise<void> {
  h.clock.now = Math.max(h.clock.now, (await ingestState(h, feedId)).next_poll_at);
}
