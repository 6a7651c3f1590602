// What every route needs: the store and a clock (injectable for tests), and
// the parts a serving context is made of. `openRuntime` (src/runtime.ts)
// builds them from the configuration; `completeContext` is the one place each
// default part is made, for the runtime and for a test's bare context alike.
import { DEFAULT_CACHE_TTL_MS, DEFAULT_FRAGMENT_CACHE_MB, DEFAULT_RESPONSE_CACHE_MB } from '../config.js';
import type { MediaServices } from '../media/types.js';
import type { SelfUrl } from '../domain/self-url.js';
import type { ConnectSettings } from '../connections/oauth-flow.js';
import type { Redis } from 'ioredis';
import type { IngestRuntime } from '../ingest/runtime.js';
import type { EventRecorder } from '../analytics/events.js';
import type { WebhookSettings } from '../manage/webhooks.js';
import type { QuotaCounter } from '../quota/quota.js';
import { StoreQuota } from '../quota/store-quota.js';
import { ResponseCache } from './v2/response-cache.js';
import { FragmentCache } from './v2/fragments.js';
import { KeyCache } from './key-cache.js';
import type { ChangeBus } from '../store/changes.js';
import type { Store } from '../store/store.js';
import type { KeyOwner } from '../store/keys.js';
import type { Format } from './envelope.js';
import { Metrics } from '../metrics/metrics.js';

export interface AppContext {
  store: Store;
  /** epoch milliseconds; tests inject a fixed or moving clock */
  now: () => number;
  /** announce every write a reader could see (cache invalidation) */
  changes: ChangeBus;
  /** daily call counter; defaults to counting in the store */
  quota?: QuotaCounter;
  /** the Redis every instance shares (REDIS_URL), with the deployment's key prefix; null or absent: none */
  shared?: { redis: Redis; prefix: string } | null;
  /** rendered v2 reads; undefined → a default cache, null → no caching */
  cache?: ResponseCache | null;
  /** rendered posts reused across list pages; undefined → a default cache, null → render every post */
  fragments?: FragmentCache | null;
  /** key → account answers; undefined → a default cache, null → a store query per call */
  keys?: KeyCache | null;
  /** true once after another process wrote to the store (SQLite); set by buildServer */
  externalWrites?: () => boolean;
  /** this process's feed ingestion (serve with INGEST on); undefined or null → none */
  ingest?: IngestRuntime | null;
  /** analytics beacons → counters (made by the embed API; tests call `analytics.aggregator.flush()`) */
  analytics?: EventRecorder | null;
  /** what a webhook test or replay sent from a request needs (WEBHOOK_* settings); undefined → the defaults */
  webhooks?: WebhookSettings;
  /**
   * The key connections' secrets are sealed with (SECRET_KEY, else the key
   * file: src/connections/secret-key.ts); undefined or null → none: storing a
   * connection is refused
   */
  connectionKey?: Buffer | null;
  /** this process's Prometheus metrics; undefined → a registry of its own, null → none (METRICS=off) */
  metrics?: Metrics | null;
  /** the media storage and processing (src/media/); undefined or null → no media pipeline: posts show their original URLs */
  media?: MediaServices | null;
  /**
   * Where this instance is reached (PUBLIC_URL; the listen address): the base
   * of the URLs it gives of itself (src/domain/self-url.ts). Undefined → no
   * PUBLIC_URL, and a request's origin (the listen address, where there is no request).
   */
  self?: SelfUrl;
  /** the names of the moderation providers configured (MODERATION_PROVIDERS): what a `provider` rule may name; undefined → none */
  moderationProviders?: readonly string[];
  /**
   * The OAuth connect flow (src/connections/oauth-flow.ts): the operator's
   * apps (OAUTH_*) and the addresses token endpoints may be at (connections
   * are sealed with `connectionKey`). Undefined → no apps configured, public addresses only.
   */
  oauth?: ConnectSettings;
  /** how often a rights request waiting for its answer is read (RIGHTS_LISTEN_SECONDS); undefined → the default (src/rights/service.ts LISTEN_MS) */
  rightsListenMs?: number;
  /** the font the rights evidence report's PDF draws the authors' words with (RIGHTS_REPORT_FONT); undefined → DejaVu Sans (src/rights/report-pdf.ts) */
  rightsReportFont?: string;
}

export interface CacheSettings {
  /** memory for rendered v2 reads; 0 → no response cache */
  responseCacheBytes: number;
  /** memory for rendered posts; 0 → no fragment cache */
  fragmentCacheBytes: number;
  /** longest life of a cached answer, ms */
  cacheTtlMs: number;
}

export const DEFAULT_CACHE_SETTINGS: CacheSettings = {
  responseCacheBytes: DEFAULT_RESPONSE_CACHE_MB * 1024 * 1024,
  fragmentCacheBytes: DEFAULT_FRAGMENT_CACHE_MB * 1024 * 1024,
  cacheTtlMs: DEFAULT_CACHE_TTL_MS,
};

/**
 * Makes each part of `ctx` left undefined: the quota counter (counting in the
 * store), the response cache (invalidated by the change bus, which also hears
 * of other processes' writes: PostgreSQL notifications, SQLite's
 * `externalWrites` in the v2 hook), the fragment cache (rendered posts and
 * the order of walls' first posts: src/http/v2/fragments.ts) and the key cache. Returns what closes the
 * parts it made, and only those.
 */
export function completeContext(
  ctx: AppContext,
  settings: CacheSettings = DEFAULT_CACHE_SETTINGS,
): () => Promise<void> {
  const made: { close(): unknown }[] = [];
  if (ctx.quota === undefined) made.push((ctx.quota = new StoreQuota(ctx.store.db)));
  // a cache of 0 bytes is none (null)
  const sized = <C extends { close(): unknown }>(
    maxBytes: number,
    make: (size: { maxBytes: number; ttlMs: number }) => C,
  ): C | null => {
    if (maxBytes <= 0) return null;
    const cache = make({ maxBytes, ttlMs: settings.cacheTtlMs });
    made.push(cache);
    return cache;
  };
  if (ctx.cache === undefined)
    ctx.cache = sized(settings.responseCacheBytes, (size) => new ResponseCache(ctx.changes, size));
  if (ctx.fragments === undefined)
    ctx.fragments = sized(settings.fragmentCacheBytes, (size) => new FragmentCache(ctx.changes, size));
  if (ctx.keys === undefined) made.push((ctx.keys = new KeyCache(ctx.changes, { ttlMs: settings.cacheTtlMs })));
  if (ctx.metrics === undefined) ctx.metrics = new Metrics({ store: ctx.store.name });
  if (ctx.metrics) {
    Object.assign(ctx.metrics.sources, {
      responseCache: ctx.cache,
      fragmentCache: ctx.fragments,
      keyCache: ctx.keys,
      pool: ctx.store.pool ?? null,
      db: ctx.store.db,
    });
  }
  return async () => {
    for (const part of made) await part.close();
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** response format from `format` (json when absent or invalid) */
    format: Format;
    /** the authenticated account, set by the v2 auth hook */
    caller: KeyOwner;
  }
  interface FastifyContextConfig {
    /** API family of a v2 route, checked against the caller's plan */
    family?: 'widget' | 'commerce';
    /** the embed's analytics beacons: the wall is the key's, the analytics rate limits apply */
    embedEvents?: boolean;
  }
}
