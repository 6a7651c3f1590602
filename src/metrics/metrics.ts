// The process's Prometheus metrics: one Registry per runtime (never prom-client's
// global one — tests build many servers in one process), with every metric
// Wallery exposes defined here, so the list in docs/operations/metrics.md and the Grafana
// dashboard (ops/grafana/wallery.json) have one place to check against.
//
// Hot paths stay cheap: the parts count in plain integer fields (`stats`)
// that the counters here read on scrape; the one metric observed per request
// (the HTTP histogram) uses label children made once and kept in an array.
// What lives in the store (feeds per state, webhook backlog) is read on
// scrape with a few aggregate queries. Labels are small fixed sets: never a
// key, a wall id or a URL.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import { mediaSummary } from '../store/media-queue.js';
import { feedStateSummary, moderationQueueSummary, webhookSummary, type FeedStateSummary } from '../store/metrics.js';
import type { Database } from '../store/schema.js';
import { METHODS, ROUTE_FAMILIES, STATUS_CLASSES } from './labels.js';

/** The series a metric has at a scrape: labels and value. */
type ScrapeRead<L extends string> = () => [Partial<Record<L, string>>, number][];

/** A cache's counts, kept by the cache itself (plain integers, no labels). */
export interface CacheProbe {
  readonly stats: { hits: number; misses: number; evictions: number };
  /** entries held now */
  readonly size: number;
  /** memory the entries take now (bytes); absent for caches bounded by count */
  readonly bytes?: number;
}

export interface QuotaStats {
  allowed: number;
  refused: number;
}

export interface IngestStats {
  polls: Record<'ok' | 'not_modified' | 'failed' | 'deferred' | 'skipped', number>;
  itemsNew: number;
  itemsUpdated: number;
}

export interface WebhookStats {
  deliveries: Record<'delivered' | 'failed' | 'gave_up', number>;
}

export interface MediaFetchStats {
  /** fetches of a source URL, by outcome */
  fetches: Record<'ready' | 'failed' | 'refused' | 'deferred' | 'skipped', number>;
  /** bytes of files this process wrote to the media storage */
  bytesWritten: number;
}

/** The image check's counts (src/media/image-check.ts): pictures classified or not, waiting posts decided. */
export interface ImageCheckCounts {
  checked: number;
  failed: number;
  decided: number;
}

/** Copies of pictures served (src/http/media/): read from the storage, or rendered on first request (AVIF, JPEG, PNG). */
export interface MediaServeStats {
  served: Record<'store' | 'rendered', number>;
}

export interface BeaconStats {
  beacons: number;
  eventsCounted: number;
  eventsDropped: number;
}

/** The moderation providers' calls (src/moderation/provider-check.ts): per provider, by outcome; and each circuit. */
export interface ModerationProviderProbe {
  readonly stats: { calls: Record<string, Record<string, number>> };
  circuits(): { provider: string; circuit: string }[];
}

/** What the pg pool tells about itself (pg.Pool's own counters). */
export interface PoolProbe {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
}

/** The parts whose counts a scrape reads; each is set by whoever builds the part, absent when not running. */
export interface MetricSources {
  responseCache?: CacheProbe | null;
  fragmentCache?: CacheProbe | null;
  keyCache?: CacheProbe | null;
  embedKeyCache?: CacheProbe | null;
  quota?: QuotaStats;
  ingest?: { readonly stats: IngestStats } | null;
  webhooks?: { readonly stats: WebhookStats } | null;
  /** the media worker (fetching pictures, and the image check beside it): its counts, and the queue read from the store on scrape */
  media?: { readonly stats: MediaFetchStats; readonly imageCheck?: { readonly stats: ImageCheckCounts } } | null;
  streams?: { readonly openStreams: number } | null;
  beacons?: BeaconStats | null;
  mediaServing?: { readonly stats: MediaServeStats } | null;
  pool?: PoolProbe | null;
  /** the provider check, where feeds are polled */
  moderationProviders?: ModerationProviderProbe | null;
  /** the CDN purge hook (CDN_PURGE): purge requests per target kind and outcome */
  cdnPurges?: { readonly stats: { purges: Record<string, Record<string, number>> } } | null;
  /** the store, read on scrape for feeds per state (when ingesting) and webhook backlog (when delivering) */
  db?: Kysely<Database>;
}

export type QueryKind = 'select' | 'insert' | 'update' | 'delete' | 'other';

export interface MetricsOptions {
  /** 'sqlite' or 'postgres': the `store` label of the store metrics */
  store: string;
  /** Node's own metrics (event-loop delay, GC, heap, CPU): on for a real process, off for a test's many servers */
  processMetrics?: boolean;
  now?: () => number;
}

/**
 * How long a scrape waits for the store's answers (feeds per state, webhook
 * backlog). A store whose pool is exhausted is when the metrics matter most:
 * past this the scrape answers without those gauges rather than hang.
 */
export const STORE_READ_DEADLINE_MS = 1000;

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

type Observer = { observe(value: number): void };

/** One process's metrics as prom-client gives them (structured-cloneable, for the cluster's IPC). */
export type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

export class Metrics {
  readonly registry = new Registry();
  readonly sources: MetricSources = {};
  /** quota decisions, counted by the v2 auth hook */
  readonly quota: QuotaStats = { allowed: 0, refused: 0 };
  private readonly httpDuration: Histogram<'route' | 'method' | 'status_class'>;
  /** [family][method][status class] → the histogram's child, made on first use */
  private readonly httpChildren: (Observer | undefined)[][][] = ROUTE_FAMILIES.map(() => METHODS.map(() => []));
  private readonly queryChildren: Record<QueryKind, Observer>;
  private readonly now: () => number;

  constructor(options: MetricsOptions) {
    this.now = options.now ?? Date.now;
    this.sources.quota = this.quota;
    const register = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });

    this.httpDuration = new Histogram({
      name: 'wallery_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, per route family, method and status class (its _count is the request count)',
      labelNames: ['route', 'method', 'status_class'],
      buckets: SECONDS_BUCKETS,
      registers: register,
    });

    const queries = new Histogram({
      name: 'wallery_store_query_duration_seconds',
      help: 'Time a store query took, per kind of statement',
      labelNames: ['store', 'kind'],
      buckets: QUERY_BUCKETS,
      registers: register,
    });
    const kind = (k: QueryKind) => queries.labels(options.store, k);
    this.queryChildren = {
      select: kind('select'),
      insert: kind('insert'),
      update: kind('update'),
      delete: kind('delete'),
      other: kind('other'),
    };

    // the pool first: collected in this order, its counts are read before the
    // scrape's own store queries (feeds, webhooks) wait for a connection
    this.definePool(options.store);
    this.defineCaches();
    this.defineQuota();
    this.defineIngest();
    this.defineWebhooks();
    this.defineCdn();
    this.defineMedia();
    this.defineModeration();
    this.defineEmbed();
    this.defineMediaServing();
    this.defineModerationProviders();
  }

  /** One answered request; `family` is an index into ROUTE_FAMILIES, `statusCode` the answer's. */
  observeRequest(family: number, method: string, statusCode: number, seconds: number): void {
    const m = methodIndex(method);
    const s = Math.min(4, Math.max(0, Math.floor(statusCode / 100) - 1));
    const row = this.httpChildren[family]![m]!;
    let child = row[s];
    if (!child) {
      child = row[s] = this.httpDuration.labels(ROUTE_FAMILIES[family]!, METHODS[m]!, STATUS_CLASSES[s]!);
    }
    child.observe(seconds);
  }

  observeQuery(kind: QueryKind, seconds: number): void {
    this.queryChildren[kind].observe(seconds);
  }

  /**
   * In a worker of `serve --workers N`: a scrape (which reaches one worker)
   * answers for all of them — `gather` asks the primary for every worker's
   * snapshot, and the series are summed (prom-client's cluster aggregation).
   */
  private gather: (() => Promise<WorkerMetrics[]>) | null = null;

  gatherFromCluster(gather: () => Promise<WorkerMetrics[]>): void {
    this.gather = gather;
  }

  /** This process's series, as a sibling's scrape collects them. */
  snapshot(): Promise<WorkerMetrics> {
    return this.registry.getMetricsAsJSON();
  }

  /** The text a scrape receives, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    if (this.gather) {
      const aggregated = AggregatorRegistry.aggregate(await this.gather());
      return { body: await aggregated.metrics(), contentType: aggregated.contentType };
    }
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  private defineCaches() {
    const caches: [string, keyof MetricSources][] = [
      ['response', 'responseCache'],
      ['fragment', 'fragmentCache'],
      ['key', 'keyCache'],
      ['embed_key', 'embedKeyCache'],
    ];
    const present = () =>
      caches.flatMap(([cache, source]) => {
        const probe = this.sources[source] as CacheProbe | null | undefined;
        return probe ? [{ cache, probe }] : [];
      });
    this.totals('wallery_cache_hits_total', 'Lookups answered from a cache', ['cache'], () =>
      present().map(({ cache, probe }) => [{ cache }, probe.stats.hits]),
    );
    this.totals('wallery_cache_misses_total', 'Lookups a cache could not answer', ['cache'], () =>
      present().map(({ cache, probe }) => [{ cache }, probe.stats.misses]),
    );
    this.totals(
      'wallery_cache_evictions_total',
      'Entries a cache dropped to make room (not invalidations or expiry)',
      ['cache'],
      () => present().map(({ cache, probe }) => [{ cache }, probe.stats.evictions]),
    );
    this.gauge('wallery_cache_entries', 'Entries a cache holds', ['cache'], () =>
      present().map(({ cache, probe }) => [{ cache }, probe.size]),
    );
    this.gauge('wallery_cache_size_bytes', 'Memory the entries of a size-bounded cache take', ['cache'], () =>
      present().flatMap(({ cache, probe }) => (probe.bytes === undefined ? [] : [[{ cache }, probe.bytes]])),
    );
  }

  private defineQuota() {
    this.totals(
      'wallery_quota_decisions_total',
      'Daily-quota decisions of v2 calls: allowed or refused (429)',
      ['decision'],
      () => [
        [{ decision: 'allowed' }, this.quota.allowed],
        [{ decision: 'refused' }, this.quota.refused],
      ],
    );
  }

  private defineIngest() {
    const stats = () => this.sources.ingest?.stats;
    this.totals('wallery_ingest_polls_total', 'Feed polls, by result', ['result'], () => {
      const s = stats();
      return s ? Object.entries(s.polls).map(([result, n]) => [{ result }, n]) : [];
    });
    this.totals(
      'wallery_ingest_items_total',
      'Upstream items written by polls: new posts or updated ones',
      ['change'],
      () => {
        const s = stats();
        return s
          ? [
              [{ change: 'new' }, s.itemsNew],
              [{ change: 'updated' }, s.itemsUpdated],
            ]
          : [];
      },
    );
    // one query fills all three (their collects run together, so they share it)
    const read = shared(() =>
      this.sources.ingest && this.sources.db ? feedStateSummary(this.sources.db, this.now()) : null,
    );
    const registry = this.registry;
    const perState = (name: string, help: string, pick: (s: FeedStateSummary) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['state'],
        registers: [registry],
        async collect() {
          this.reset();
          for (const s of (await read()) ?? []) this.set({ state: s.state }, pick(s));
        },
      });
    perState(
      'wallery_ingest_feeds',
      'Feeds with a connector, per state (read from the store on scrape)',
      (s) => s.feeds,
    );
    perState('wallery_ingest_feeds_due', 'Feeds whose next poll time has passed, per state', (s) => s.due);
    perState(
      'wallery_ingest_poll_lag_seconds',
      'How far past its next poll time the most overdue feed is, per state',
      (s) => s.lagMs / 1000,
    );
  }

  private defineCdn() {
    this.totals(
      'wallery_cdn_purges_total',
      'CDN purge requests, by target kind and outcome: purged, retried (a failed attempt tried again), failed (given up)',
      ['target', 'outcome'],
      () =>
        Object.entries(this.sources.cdnPurges?.stats.purges ?? {}).flatMap(([target, byOutcome]) =>
          Object.entries(byOutcome).map(([outcome, n]): [Record<string, string>, number] => [{ target, outcome }, n]),
        ),
    );
  }

  private defineWebhooks() {
    this.totals('wallery_webhook_deliveries_total', 'Webhook delivery attempts, by outcome', ['outcome'], () => {
      const s = this.sources.webhooks?.stats;
      return s ? Object.entries(s.deliveries).map(([outcome, n]) => [{ outcome }, n]) : [];
    });
    const read = shared(() => (this.sources.webhooks && this.sources.db ? webhookSummary(this.sources.db) : null));
    const registry = this.registry;
    new Gauge({
      name: 'wallery_webhook_backlog_events',
      help: 'Change-log entries after the cursors of the endpoints still delivering (an upper bound of the events waiting)',
      registers: [registry],
      async collect() {
        this.reset();
        const s = await read();
        if (s) this.set(s.backlog);
      },
    });
    new Gauge({
      name: 'wallery_webhook_endpoints',
      help: 'Webhook endpoints per state (paused: switched off by their owner)',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        this.reset();
        const s = await read();
        for (const [state, n] of Object.entries(s?.endpoints ?? {})) this.set({ state }, n);
      },
    });
  }

  private defineMedia() {
    this.totals(
      'wallery_media_fetches_total',
      'Fetches of a picture source URL (one serves every post showing it), by outcome',
      ['outcome'],
      () => {
        const s = this.sources.media?.stats;
        return s ? Object.entries(s.fetches).map(([outcome, n]) => [{ outcome }, n]) : [];
      },
    );
    this.totals('wallery_media_written_bytes_total', 'Bytes of picture files written to the media storage', [], () => {
      const s = this.sources.media?.stats;
      return s ? [[{}, s.bytesWritten]] : [];
    });
    // one query fills the three (their collects run together, so they share it)
    const read = shared(() =>
      this.sources.media && this.sources.db ? mediaSummary(this.sources.db, this.now()) : null,
    );
    const registry = this.registry;
    new Gauge({
      name: 'wallery_media_pictures',
      help: 'Pictures of posts per state: pending, ready, failed, refused, skipped (read from the store on scrape)',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        this.reset();
        const s = await read();
        for (const [state, n] of Object.entries(s?.pictures ?? {})) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'wallery_media_pictures_due',
      help: 'Pending pictures whose next attempt time has passed (the queue a worker has to catch up on)',
      registers: [registry],
      async collect() {
        this.reset();
        const s = await read();
        if (s) this.set(s.due);
      },
    });
    new Gauge({
      name: 'wallery_media_stored_bytes',
      help: 'What the stored pictures take in the media storage (their files), per distinct picture once',
      registers: [registry],
      async collect() {
        this.reset();
        const s = await read();
        if (s) this.set(s.bytes);
      },
    });
  }

  /** Automatic moderation: the image check's work, and why the posts in the approval queues are there. */
  private defineModeration() {
    const checks = () => this.sources.media?.imageCheck?.stats;
    this.totals(
      'wallery_image_checks_total',
      'Stored pictures the image check looked at: classified, or not (then their posts stay held for a person)',
      ['outcome'],
      () => {
        const s = checks();
        return s
          ? [
              [{ outcome: 'classified' }, s.checked],
              [{ outcome: 'failed' }, s.failed],
            ]
          : [];
      },
    );
    this.totals(
      'wallery_image_check_decisions_total',
      "Posts that waited for the image check and were then decided by their wall's rules",
      [],
      () => {
        const s = checks();
        return s ? [[{}, s.decided]] : [];
      },
    );
    const read = shared(() => (this.sources.db ? moderationQueueSummary(this.sources.db) : null));
    const registry = this.registry;
    new Gauge({
      name: 'wallery_moderation_queue_posts',
      help:
        'Pending posts of live walls by why they wait: mode (manual moderation), rule (a word rule), ' +
        'automatic (an explained rule: image, language, spam…), check (waiting for an automatic check), person',
      labelNames: ['reason'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const [reason, n] of Object.entries((await read()) ?? {})) this.set({ reason }, n);
      },
    });
  }

  private defineEmbed() {
    this.gauge('wallery_sse_streams_open', 'Embed SSE streams open on this instance', [], () => {
      const hub = this.sources.streams;
      return hub ? [[{}, hub.openStreams]] : [];
    });
    this.totals('wallery_analytics_beacons_total', 'Analytics beacons received and read', [], () => {
      const b = this.sources.beacons;
      return b ? [[{}, b.beacons]] : [];
    });
    this.totals(
      'wallery_analytics_events_total',
      'Analytics events of beacons: counted, or dropped (unknown post or product, resent, wall gone)',
      ['result'],
      () => {
        const b = this.sources.beacons;
        return b
          ? [
              [{ result: 'counted' }, b.eventsCounted],
              [{ result: 'dropped' }, b.eventsDropped],
            ]
          : [];
      },
    );
  }

  private defineMediaServing() {
    this.totals(
      'wallery_media_served_total',
      'Copies of pictures served (200): from the media storage, or rendered from the master on first request',
      ['source'],
      () => {
        const s = this.sources.mediaServing?.stats;
        return s ? Object.entries(s.served).map(([source, n]) => [{ source }, n]) : [];
      },
    );
  }

  private defineModerationProviders() {
    this.totals(
      'wallery_moderation_provider_calls_total',
      'Calls to a moderation provider, by provider and outcome: answered, timeout, outage, circuit_open (not sent), over_budget (not sent), bad_answer',
      ['provider', 'outcome'],
      () =>
        Object.entries(this.sources.moderationProviders?.stats.calls ?? {}).flatMap(([provider, byOutcome]) =>
          Object.entries(byOutcome).map(([outcome, n]): [Record<string, string>, number] => [
            { provider, outcome: outcome.replace(/ /g, '_') },
            n,
          ]),
        ),
    );
    this.gauge(
      'wallery_moderation_provider_circuit',
      "A moderation provider's circuit breaker: 1 for its state now (closed, open, half_open, isolated), 0 for the others",
      ['provider', 'state'],
      () =>
        (this.sources.moderationProviders?.circuits() ?? []).flatMap(({ provider, circuit }) =>
          ['closed', 'open', 'half-open', 'isolated'].map((state): [Record<string, string>, number] => [
            { provider, state: state.replace('-', '_') },
            state === circuit ? 1 : 0,
          ]),
        ),
    );
  }

  private definePool(store: string) {
    this.gauge(
      'wallery_store_pool_connections',
      'PostgreSQL pool connections, in use or idle',
      ['store', 'state'],
      () => {
        const p = this.sources.pool;
        return p
          ? [
              [{ store, state: 'in_use' }, p.totalCount - p.idleCount],
              [{ store, state: 'idle' }, p.idleCount],
            ]
          : [];
      },
    );
    this.gauge('wallery_store_pool_waiting', 'Queries waiting for a PostgreSQL pool connection', ['store'], () => {
      const p = this.sources.pool;
      return p ? [[{ store }, p.waitingCount]] : [];
    });
    this.gauge('wallery_store_pool_max_connections', 'The PostgreSQL pool size (DATABASE_POOL_SIZE)', ['store'], () => {
      const p = this.sources.pool;
      return p ? [[{ store }, p.options.max ?? 10]] : [];
    });
  }

  /** A counter whose values are totals the parts keep, read on scrape. */
  private totals<L extends string>(name: string, help: string, labelNames: L[], read: ScrapeRead<L>) {
    new Counter<L>(this.readOnScrape(name, help, labelNames, read, (counter, labels, n) => counter.inc(labels, n)));
  }

  /** A gauge set on scrape; a series absent from `read` is not exposed. */
  private gauge<L extends string>(name: string, help: string, labelNames: L[], read: ScrapeRead<L>) {
    new Gauge<L>(this.readOnScrape(name, help, labelNames, read, (gauge, labels, n) => gauge.set(labels, n)));
  }

  /** The settings of a metric rewritten on each scrape: emptied, then every series `read` gives put back. */
  private readOnScrape<L extends string, M extends { reset(): void }>(
    name: string,
    help: string,
    labelNames: L[],
    read: ScrapeRead<L>,
    put: (metric: M, labels: Partial<Record<L, string>>, n: number) => void,
  ) {
    return {
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect(this: M) {
        this.reset();
        for (const [labels, n] of read()) put(this, labels, n);
      },
    };
  }
}

/**
 * A store read shared by whoever asks while it runs (the gauges of one
 * scrape, and a later scrape while a slow one still waits for the store, so
 * an exhausted pool never gets a pile of them), each waiting at most
 * STORE_READ_DEADLINE_MS for it: null when it failed or is late, or when
 * `query` has nothing to read (null).
 */
function shared<T>(query: () => Promise<T> | null): () => Promise<T | null> {
  let running: Promise<T> | null = null;
  return async () => {
    if (!running) {
      const started = query();
      if (!started) return null;
      running = started.finally(() => (running = null));
    }
    return withDeadline(running).catch(() => null);
  };
}

/** The store's answer, or a rejection once STORE_READ_DEADLINE_MS passed (the query itself runs on). */
async function withDeadline<T>(query: Promise<T>): Promise<T> {
  const timeout = new AbortController();
  try {
    return await Promise.race([
      query,
      sleep(STORE_READ_DEADLINE_MS, undefined, { signal: timeout.signal }).then(() => {
        throw new Error('the store did not answer in time');
      }),
    ]);
  } finally {
    timeout.abort();
  }
}

function methodIndex(method: string): number {
  const i = METHODS.indexOf(method as (typeof METHODS)[number]);
  return i === -1 ? METHODS.length - 1 : i;
}

/** The kind of a statement from the query tree Kysely built (no SQL text parsing). */
export function queryKindOf(nodeKind: string): QueryKind {
  switch (nodeKind) {
    case 'SelectQueryNode':
      return 'select';
    case 'InsertQueryNode':
      return 'insert';
    case 'UpdateQueryNode':
      return 'update';
    case 'DeleteQueryNode':
      return 'delete';
    default:
      return 'other';
  }
}
