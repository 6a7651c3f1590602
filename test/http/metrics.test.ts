// Issue 17, metrics: `GET /metrics` over real HTTP on a runtime built the way
// `wallery serve` builds it (openRuntime, the process's configuration), after
// real traffic: the counters move by what the traffic did, label values are
// small fixed sets (never a key, a wall id or a URL), METRICS=off answers 404,
// METRICS_TOKEN guards the scrape. Runs on both stores (the postgres project
// also checks the pool gauges).
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import type { FastifyInstance } from 'fastify';
import type { IngestRuntime } from '../../src/ingest/runtime.js';
import { importDataFile } from '../../src/store/datafile.js';
import { postDefaults } from '../../src/store/post-columns.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createWebhook } from '../../src/manage/webhooks.js';
import type { WebhookRuntime } from '../../src/webhooks/runtime.js';
import { startFixture } from '../ingest/fixtures/server.js';
import { BROWSER_UA, EVENTS } from './analytics/helpers.js';
import { rssXml, startFeeds, type FeedFixture } from '../ingest/fixtures/feeds.js';
import { histogramCount, registryLabelValues, scrape, type Scrape } from '../helpers/metrics.js';
import { eventually } from '../helpers/poll.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';

const WALL = 48213;
const KEY = 'Metrics-key-secret-0001';
/** an account allowed one call a day: its second call is refused */
const TIGHT_KEY = 'Metrics-tight-key-0002';
const WRONG_KEY = 'Metrics-no-such-key-0003';
const TOKEN = 'metrics-token-0123456789abcdef';
const HTTP = 'wallery_http_request_duration_seconds';

function data(feedUrl: string) {
  const feed = (id: number, connector: unknown, enabled = true) => ({
    id,
    name: `feed ${id}`,
    source: 'Pending',
    sourceType: 'pending',
    createdAt: '2025-06-01T00:00:00.000Z',
    updatedAt: '2025-06-01T00:00:00.000Z',
    connector,
    enabled,
    posts: [],
  });
  return {
    version: 1,
    accounts: [
      { id: 7001, name: 'Metrics', plan: 'enterprise', dailyCallLimit: 1_000_000, userKeys: [KEY] },
      { id: 7002, name: 'Tight', plan: 'enterprise', dailyCallLimit: 1, userKeys: [TIGHT_KEY] },
    ],
    walls: [
      {
        id: WALL,
        accountId: 7001,
        name: 'Metrics wall',
        url: 'metrics-wall',
        createdAt: '2025-01-01T00:00:00.000Z',
        feeds: [
          feed(48301, { kind: 'rss', url: `${feedUrl}/feed.xml` }),
          feed(48302, { kind: 'rss', url: `${feedUrl}/gone.xml` }),
          feed(48303, { kind: 'rss', url: `${feedUrl}/feed.xml` }, false),
        ],
      },
      {
        id: WALL + 1,
        accountId: 7002,
        name: 'Tight wall',
        url: 'tight-wall',
        createdAt: '2025-01-01T00:00:00.000Z',
        feeds: [],
      },
    ],
  };
}

interface Instance {
  runtime: Runtime<FastifyInstance>;
  base: string;
  close(): Promise<void>;
}

/** A runtime as `serve` opens it, on a fresh store of the project's kind, with `env` added to its configuration. */
async function startInstance(env: Record<string, string>, load?: (runtime: Runtime) => Promise<void>) {
  const dir = makeTempDir();
  const pg = testStoreKind() === 'postgres' ? await createTestDatabase() : null;
  const config = loadConfig({
    DATABASE_URL: pg ? pg.url : join(dir, 'wallery.db'),
    LOG_LEVEL: 'silent',
    INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
    ...env,
  });
  const runtime = await openRuntime(config, { server: { logger: false }, ingest: true, webhooks: true });
  await load?.(runtime);
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = runtime.app.server.address() as { port: number };
  const instance: Instance = {
    runtime,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await runtime.close();
      if (pg) await dropTestDatabase(pg.name);
      removeDir(dir);
    },
  };
  return instance;
}

type Counts = Map<string, number>;
const FAMILIES = ['v2_widget', 'v2_commerce', 'manage', 'embed', 'unmatched', 'health', 'metrics'];

/** Requests per `family|status class` so far (GET), from the registry /metrics renders. */
async function requestCounts(instance: Instance): Promise<Counts> {
  const registry = instance.runtime.ctx.metrics!.registry;
  const out: Counts = new Map();
  for (const route of FAMILIES)
    for (const status of ['2xx', '4xx'])
      out.set(
        `${route}|${status}`,
        await histogramCount(registry, HTTP, { route, method: 'GET', status_class: status }),
      );
  return out;
}

describe('GET /metrics', () => {
  let feeds: FeedFixture;
  let server: Instance;
  let before: Scrape;
  let after: Scrape;
  let requestsBefore: Counts;
  let requestsAfter: Counts;
  const statuses: number[] = [];

  beforeAll(async () => {
    feeds = await startFeeds();
    feeds.documents.set('/feed.xml', {
      body: rssXml([
        {
          guid: 'a',
          title: 'A',
          link: 'https://blog.example/a',
          pubDate: 'Thu, 15 Jan 2026 10:00:00 GMT',
          description: 'a',
        },
        {
          guid: 'b',
          title: 'B',
          link: 'https://blog.example/b',
          pubDate: 'Thu, 15 Jan 2026 11:00:00 GMT',
          description: 'b',
        },
      ]),
      type: 'application/rss+xml',
    });
    // cached answers live an hour: however slow a loaded machine, a hit below is not an expired entry's miss
    server = await startInstance({ CACHE_TTL_MS: '3600000' }, async (runtime) => {
      await importDataFile(runtime.ctx.store, data(feeds.origin), Date.now());
    });
    const get = async (path: string) => {
      const res = await fetch(`${server.base}${path}`);
      await res.arrayBuffer();
      statuses.push(res.status);
      return res.status;
    };
    before = await scrape(`${server.base}/metrics`);
    requestsBefore = await requestCounts(server);
    // v2 widget: three reads of one page (the response cache keeps it from the second on)
    for (let i = 0; i < 3; i++) expect(await get(`/api/v2/widget/posts/${WALL}?user_key=${KEY}`)).toBe(200);
    expect(await get(`/api/v2/widget/posts/${WALL}?user_key=${WRONG_KEY}`)).toBe(401);
    expect(await get(`/api/v2/widget/posts/${WALL + 1}?user_key=${TIGHT_KEY}`)).toBe(200);
    expect(await get(`/api/v2/widget/posts/${WALL + 1}?user_key=${TIGHT_KEY}`)).toBe(429);
    expect(await get(`/api/v2/commerce/getGalleryInfo/${WALL}?user_key=${KEY}`)).toBe(200);
    expect(await get(`/api/manage/v1/walls/${WALL}`)).toBe(401);
    expect(await get(`/api/embed/v1/walls/${WALL}?key=pk_nothing`)).toBe(401);
    expect(await get(`/no/such/path/${WALL}`)).toBe(404);
    expect(await get('/healthz')).toBe(200);
    const polls = await (server.runtime.ingest as IngestRuntime).runOnce();
    expect(polls.map((p) => p.status).sort()).toEqual(['failed', 'ok']);
    // an answer is counted once sent: wait for the last one to show rather than assume it has
    await eventually(
      'the last request counted',
      async () => (requestsAfter = await requestCounts(server)),
      (c) => c.get('health|2xx') === 1,
      30_000,
    );
    after = await scrape(`${server.base}/metrics`);
  });

  afterAll(async () => {
    await server?.close();
    await feeds?.close();
  });

  it('counts requests per route family, method and status class', () => {
    const delta = (route: string, status: string) =>
      requestsAfter.get(`${route}|${status}`)! - requestsBefore.get(`${route}|${status}`)!;
    expect(delta('v2_widget', '2xx')).toBe(4);
    expect(delta('v2_widget', '4xx')).toBe(2);
    expect(delta('v2_commerce', '2xx')).toBe(1);
    expect(delta('manage', '4xx')).toBe(1);
    expect(delta('embed', '4xx')).toBe(1);
    expect(delta('unmatched', '4xx')).toBe(1);
    expect(delta('health', '2xx')).toBe(1);
    // the scrape before the traffic was counted too, under its own family
    expect(requestsAfter.get('metrics|2xx')).toBeGreaterThanOrEqual(1);
    expect(after.families.get(HTTP)?.type).toBe('HISTOGRAM');
    expect(after.text).toMatch(
      /^wallery_http_request_duration_seconds_count\{route="v2_widget",method="GET",status_class="2xx"\} \d+$/m,
    );
  });

  it('counts quota decisions and cache hits and misses', () => {
    const delta = (name: string, labels: Record<string, string>) =>
      (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    // three calls of KEY, one of the tight key allowed and one refused, one commerce call
    expect(delta('wallery_quota_decisions_total', { decision: 'allowed' })).toBe(5);
    expect(delta('wallery_quota_decisions_total', { decision: 'refused' })).toBe(1);
    // the page asked three times: built twice (kept from its second asking on), then answered from the cache
    expect(delta('wallery_cache_hits_total', { cache: 'response' })).toBe(1);
    expect(delta('wallery_cache_misses_total', { cache: 'response' })).toBeGreaterThanOrEqual(3);
    // every v2 call looks its key up once: KEY (4 calls) misses once, the tight key once, the wrong key once
    expect(delta('wallery_cache_misses_total', { cache: 'key' })).toBe(3);
    expect(delta('wallery_cache_hits_total', { cache: 'key' })).toBe(4);
    expect(after.value('wallery_cache_entries', { cache: 'key' })).toBe(2);
    // ingestion wrote to the wall since: its cached pages were dropped (invalidated, not evicted)
    expect(after.value('wallery_cache_entries', { cache: 'response' })).toBe(0);
    expect(after.value('wallery_cache_size_bytes', { cache: 'response' })).toBe(0);
    expect(after.value('wallery_cache_evictions_total', { cache: 'response' })).toBe(0);
  });

  it('counts polls by result and items written, and feeds per state from the store', () => {
    expect(after.value('wallery_ingest_polls_total', { result: 'ok' })).toBe(1);
    expect(after.value('wallery_ingest_polls_total', { result: 'failed' })).toBe(1);
    expect(after.value('wallery_ingest_items_total', { change: 'new' })).toBe(2);
    expect(after.value('wallery_ingest_items_total', { change: 'updated' })).toBe(0);
    expect(after.value('wallery_ingest_feeds', { state: 'healthy' })).toBe(2);
    expect(after.value('wallery_ingest_feeds', { state: 'disabled' })).toBe(1);
    // both were just polled: none is due, nothing is late
    expect(after.value('wallery_ingest_feeds_due', { state: 'healthy' })).toBe(0);
    expect(after.value('wallery_ingest_poll_lag_seconds', { state: 'healthy' })).toBe(0);
    expect(after.value('wallery_webhook_backlog_events')).toBe(0);
    expect(after.value('wallery_webhook_endpoints', { state: 'active' })).toBe(0);
    expect(after.value('wallery_sse_streams_open')).toBe(0);
  });

  it('shows why the pending posts wait, from the store', async () => {
    const db = server.runtime.ctx.store.db;
    const feed = await db.selectFrom('feeds').select('id').where('wall_id', '=', WALL).executeTakeFirstOrThrow();
    const waiting = [
      { decided_by: null, decision_detail: null }, // manual moderation
      { decided_by: 'rule:r1', decision_detail: null }, // a word rule
      { decided_by: 'rule:r2', decision_detail: '{"rule":"r2","kind":"language"}' },
      { decided_by: 'rule:r3', decision_detail: '{"rule":"r3","kind":"image"}' },
      { decided_by: 'check:image', decision_detail: null },
      { decided_by: 'alice', decision_detail: null },
    ];
    const ids = [];
    for (const [i, w] of waiting.entries())
      ids.push(
        (
          await db
            .insertInto('posts')
            .values({
              ...postDefaults(),
              wall_id: WALL,
              feed_id: feed.id,
              external_id: `queue-${i}`,
              created_at: 1,
              updated_at: 1,
              state: 'pending',
              ...w,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    try {
      const s = await scrape(`${server.base}/metrics`);
      const queue = (reason: string) => s.value('wallery_moderation_queue_posts', { reason });
      expect([queue('mode'), queue('rule'), queue('automatic'), queue('check'), queue('person')]).toEqual([
        1, 1, 2, 1, 1,
      ]);
    } finally {
      await db.deleteFrom('posts').where('id', 'in', ids).execute();
    }
  });

  it('shows how late overdue feeds are, per state', async () => {
    const db = server.runtime.ctx.store.db;
    const overdueMs = 600_000;
    // the feed that failed is failing now, and ten minutes overdue
    await db
      .updateTable('feed_ingest_state')
      .set({ failing: 1, next_poll_at: Date.now() - overdueMs })
      .where('feed_id', '=', 48302)
      .execute();
    try {
      const s = await scrape(`${server.base}/metrics`);
      expect(s.value('wallery_ingest_feeds', { state: 'healthy' })).toBe(1);
      expect(s.value('wallery_ingest_feeds', { state: 'failing' })).toBe(1);
      expect(s.value('wallery_ingest_feeds_due', { state: 'failing' })).toBe(1);
      expect(s.value('wallery_ingest_feeds_due', { state: 'healthy' })).toBe(0);
      const lag = s.value('wallery_ingest_poll_lag_seconds', { state: 'failing' })!;
      expect(lag).toBeGreaterThanOrEqual(overdueMs / 1000);
      expect(lag).toBeLessThan(overdueMs / 1000 + 60);
      expect(s.value('wallery_ingest_poll_lag_seconds', { state: 'healthy' })).toBe(0);
    } finally {
      await db
        .updateTable('feed_ingest_state')
        .set({ failing: 0, next_poll_at: Date.now() + 3_600_000 })
        .where('feed_id', '=', 48302)
        .execute();
    }
  });

  it('times store queries by kind, and shows the pool on PostgreSQL', async () => {
    const store = testStoreKind();
    const registry = server.runtime.ctx.metrics!.registry;
    const queries = (kind: string) => histogramCount(registry, 'wallery_store_query_duration_seconds', { store, kind });
    expect(await queries('select')).toBeGreaterThan(0);
    expect(await queries('insert')).toBeGreaterThan(0);
    expect(await queries('update')).toBeGreaterThan(0);
    expect(after.families.get('wallery_store_query_duration_seconds')?.type).toBe('HISTOGRAM');
    if (store === 'postgres') {
      expect(after.value('wallery_store_pool_max_connections', { store })).toBe(10);
      const inUse = after.value('wallery_store_pool_connections', { store, state: 'in_use' })!;
      const idle = after.value('wallery_store_pool_connections', { store, state: 'idle' })!;
      expect(inUse + idle).toBeGreaterThan(0);
      expect(after.value('wallery_store_pool_waiting', { store })).toBeGreaterThanOrEqual(0);
    } else {
      expect(after.families.has('wallery_store_pool_connections')).toBe(true);
      expect(after.value('wallery_store_pool_connections', { store })).toBeUndefined();
    }
  });

  it("exposes Node's event-loop delay, GC and heap", () => {
    for (const name of [
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(after.families.has(name), name).toBe(true);
  });

  it('counts analytics beacons and their events, and the SSE streams open', async () => {
    const db = server.runtime.ctx.store.db;
    const { key } = await createPublishableKey({ db, actor: CLI_ACTOR, now: Date.now() }, WALL, {});
    const metrics = () => scrape(`${server.base}/metrics`);
    // a wall load (counted) and a click on a post the wall does not have (dropped)
    const res = await fetch(`${server.base}${EVENTS}?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER_UA },
      body: JSON.stringify({ events: [{ type: 'wall_load' }, { type: 'click', postId: '999999' }] }),
    });
    expect(res.ok).toBe(true);
    await res.arrayBuffer();
    const counted = await metrics();
    expect(counted.value('wallery_analytics_beacons_total')).toBe(1);
    expect(counted.value('wallery_analytics_events_total', { result: 'counted' })).toBe(1);
    expect(counted.value('wallery_analytics_events_total', { result: 'dropped' })).toBe(1);
    expect(counted.value('wallery_cache_misses_total', { cache: 'embed_key' })).toBeGreaterThanOrEqual(1);

    const viewer = new AbortController();
    const stream = await fetch(`${server.base}/api/embed/v1/walls/${WALL}/stream?key=${key}`, {
      signal: viewer.signal,
    });
    expect(stream.status).toBe(200);
    try {
      await eventually('the stream counted', metrics, (s) => s.value('wallery_sse_streams_open') === 1, 30_000);
    } finally {
      viewer.abort();
    }
    await eventually('the stream gone', metrics, (s) => s.value('wallery_sse_streams_open') === 0, 30_000);
    const registry = server.runtime.ctx.metrics!.registry;
    // the beacon under its own family; the stream once it ended, under the stream's
    expect(await histogramCount(registry, HTTP, { route: 'embed_events', status_class: '2xx' })).toBe(1);
    await eventually(
      'the ended stream timed',
      () => histogramCount(registry, HTTP, { route: 'embed_stream', status_class: '2xx' }),
      (n) => n === 1,
      30_000,
    );
  });

  it('counts webhook deliveries, and shows the backlog from the store', async () => {
    const receiver = await startFixture(() => ({ status: 204, headers: {}, body: '' }));
    try {
      const op = { db: server.runtime.ctx.store.db, actor: CLI_ACTOR, now: Date.now() };
      await createWebhook(
        op,
        { accountId: 7001, url: `${receiver.origin}/hook`, events: ['post.created'] },
        { secretKey: null, allowPrivateNetworks: ['127.0.0.0/8'] },
      );
      const metrics = () => scrape(`${server.base}/metrics`);
      const idle = await metrics();
      expect(idle.value('wallery_webhook_endpoints', { state: 'active' })).toBe(1);
      expect(idle.value('wallery_webhook_backlog_events')).toBe(0);
      // a new item upstream: a post created, an event for the endpoint
      feeds.documents.set('/feed.xml', {
        body: rssXml([
          {
            guid: 'c',
            title: 'C',
            link: 'https://blog.example/c',
            pubDate: 'Thu, 15 Jan 2026 12:00:00 GMT',
            description: 'c',
          },
        ]),
        type: 'application/rss+xml',
      });
      const [poll] = await (server.runtime.ingest as IngestRuntime).runOnce({ feedId: 48301, force: true });
      expect(poll!.inserted).toBe(1);
      const waiting = await metrics();
      expect(waiting.value('wallery_webhook_backlog_events')).toBeGreaterThanOrEqual(1);
      expect(waiting.value('wallery_ingest_items_total', { change: 'new' })).toBe(3);
      await (server.runtime.webhooks as WebhookRuntime).runOnce();
      expect(receiver.requests.length).toBe(1);
      const delivered = await metrics();
      expect(delivered.value('wallery_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1);
      expect(delivered.value('wallery_webhook_deliveries_total', { outcome: 'failed' })).toBe(0);
      expect(delivered.value('wallery_webhook_backlog_events')).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it('never labels with a key, a wall id or a URL', async () => {
    const values = await registryLabelValues(server.runtime.ctx.metrics!.registry);
    expect(values.length).toBeGreaterThan(100);
    const text = (await scrape(`${server.base}/metrics`)).text;
    const { keys } = await server.runtime.ctx.store.db
      .selectFrom('publishable_keys')
      .select((eb) => eb.fn.countAll<number>().as('keys'))
      .executeTakeFirstOrThrow();
    expect(Number(keys)).toBeGreaterThan(0);
    for (const secret of [KEY, TIGHT_KEY, WRONG_KEY, 'pk_', String(WALL), String(WALL + 1), feeds.origin])
      expect(text).not.toContain(secret);
    for (const value of values) {
      expect(value).not.toMatch(/\//);
      expect(value).not.toMatch(/^\d{3,}$/);
    }
    // every route label is one of the fixed families
    const routes = [...after.text.matchAll(/\broute="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(routes)).toEqual(new Set(FAMILIES));
  });
});

describe.runIf(testStoreKind() === 'postgres')('the PostgreSQL pool', () => {
  it('shows connections in use and queries waiting, and a scrape still answers when the pool is exhausted', async () => {
    const server = await startInstance({ DATABASE_POOL_SIZE: '2' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const db = server.runtime.ctx.store.db;
    try {
      // both connections taken until the gate opens, and a third query in line for one
      const held = [0, 1].map(() => db.connection().execute(() => gate));
      const queued = sql`select 1`.execute(db);
      let seen: Scrape | undefined;
      await eventually(
        'the pool seen exhausted',
        async () => (seen = await scrape(`${server.base}/metrics`)),
        (s) =>
          s.value('wallery_store_pool_connections', { state: 'in_use' }) === 2 &&
          (s.value('wallery_store_pool_waiting') ?? 0) >= 1,
        30_000,
      );
      expect(seen!.value('wallery_store_pool_connections', { state: 'idle' })).toBe(0);
      expect(seen!.value('wallery_store_pool_max_connections')).toBe(2);
      // the store could not answer the scrape's own queries in time: those gauges are left out, the rest is there
      expect(seen!.value('wallery_ingest_feeds', { state: 'healthy' })).toBeUndefined();
      expect(seen!.families.has('wallery_cache_hits_total')).toBe(true);
      release();
      await Promise.all([...held, queued]);
      await eventually(
        'the pool seen free again',
        () => scrape(`${server.base}/metrics`),
        (s) =>
          s.value('wallery_store_pool_waiting') === 0 && s.value('wallery_ingest_feeds', { state: 'healthy' }) === 0,
        30_000,
      );
    } finally {
      release();
      await server.close();
    }
  });
});

describe('METRICS and METRICS_TOKEN', () => {
  it('METRICS=off: no /metrics (404), nothing counted', async () => {
    const server = await startInstance({ METRICS: 'off' });
    try {
      const res = await fetch(`${server.base}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ responseCode: 404 });
      expect(server.runtime.ctx.metrics).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('METRICS_TOKEN: 401 in the envelope without the bearer token or with another, 200 with it', async () => {
    const server = await startInstance({ METRICS_TOKEN: TOKEN });
    try {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong-token-0123456789' },
        // the token without the Bearer scheme
        { authorization: TOKEN },
      ];
      for (const headers of attempts) {
        const res = await fetch(`${server.base}/metrics`, { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
        const body = (await res.json()) as { responseCode: number; responseMessage: string };
        expect(body).toMatchObject({ responseCode: 401 });
        expect(body.responseMessage).not.toContain(TOKEN);
      }
      const ok = await scrape(`${server.base}/metrics`, { authorization: `Bearer ${TOKEN}` });
      expect(ok.families.has(HTTP)).toBe(true);
      // the refused scrapes were counted, under their family and class
      const registry = server.runtime.ctx.metrics!.registry;
      expect(await histogramCount(registry, HTTP, { route: 'metrics', status_class: '4xx' })).toBe(3);
    } finally {
      await server.close();
    }
  });
});
