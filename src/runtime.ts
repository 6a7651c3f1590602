// The composition root: everything a Wallery process runs is built here, from
// the one configuration tree (src/config.ts) — the store, the change bus, the
// quota counter (in Redis when REDIS_URL is set, shared by every instance),
// the caches, on PostgreSQL the connection that hears of every other
// process's writes, the HTTP server, and feed ingestion. CLI commands ask for
// the parts they need and take what was built; nothing else constructs them.
import { checkReportFont } from './rights/report-pdf.js';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import { completeContext, type AppContext } from './http/context.js';
import { buildServer, type ServerOptions } from './http/server.js';

// for the start banner (the CLI reaches the server's modules only through this lazily loaded one)
export { guideBuilt, setDemoWalls } from './http/server.js';
import { IngestRuntime } from './ingest/runtime.js';
import { jsonLogger, type WorkerLogger } from './jobs/log.js';
import type { QuotaCounter } from './quota/quota.js';
import { RedisQuota } from './quota/redis-quota.js';
import { connectRedis, waitReady, watchRedis } from './redis/client.js';
import { ChangeListener } from './store/change-listener.js';
import { ChangeBus } from './store/changes.js';
import { openStore, type Store } from './store/store.js';
import { WebhookRuntime } from './webhooks/runtime.js';
import { ConnectionRefresher } from './connections/refresh.js';
import { RightsWatcher } from './rights/watcher.js';
import { secureStoredSecrets } from './webhooks/secrets-at-rest.js';
import { buildMetricsServer } from './http/metrics.js';
import { Metrics, queryKindOf } from './metrics/metrics.js';
import { MediaRuntime } from './media/runtime.js';
import { ProviderCheckRunner, providersFromConfig } from './moderation/provider-check.js';
import { openMediaServices } from './media/services.js';
import { listenUrl, type SelfUrl } from './domain/self-url.js';
import { connectionSecretKey } from './connections/secret-key.js';

export interface Runtime<
  App extends FastifyInstance | null = FastifyInstance | null,
  Ingest extends IngestRuntime | null = IngestRuntime | null,
> {
  ctx: AppContext;
  /** the HTTP server (not listening yet) when serving */
  app: App;
  /** feed ingestion (not started) when asked for; also `ctx.ingest` */
  ingest: Ingest;
  /** webhook delivery (not started) when asked for */
  webhooks: WebhookRuntime | null;
  /** the media worker (not started) when asked for and MEDIA is on */
  media: MediaRuntime | null;
  /** the provider check (not started) beside feed ingestion: posts waiting for a moderation provider decided */
  providerCheck: ProviderCheckRunner | null;
  /** the OAuth token refresh (not started) beside feed ingestion: tokens refreshed before they expire */
  tokenRefresh: ConnectionRefresher | null;
  /** the rights watcher (not started) beside feed ingestion: answers heard, requests expired, walls' asking rules */
  rightsWatcher: RightsWatcher | null;
  /** `/metrics` alone (not listening yet), for a process without the API: see RuntimeOptions.metricsServer */
  metricsServer: FastifyInstance | null;
  /**
   * Stops ingestion and webhook delivery (their leases released) while the
   * server closes (in-flight requests finish, SSE streams end, analytics
   * counts are written), then writes the quota counts back and closes the
   * rest. `onStep` hears each step done and how long it took.
   */
  close(onStep?: CloseStepListener): Promise<void>;
}

/** Told of each step of Runtime.close() once done, with its duration in ms. */
export type CloseStepListener = (step: string, ms: number) => void;

export interface RuntimeOptions {
  /**
   * Serve the API: the caches, the other processes' writes heard, and the
   * HTTP server built on the context with these options. Without it (the
   * ingestion worker, one-shot polls): no caches, nothing to listen for.
   */
  server?: ServerOptions;
  /** Build feed ingestion: `serve` with INGEST on, `wallery worker`, `wallery ingest --once`. */
  ingest?: boolean;
  /** Build webhook delivery: `serve` with WEBHOOKS on, `wallery worker`. */
  webhooks?: boolean;
  /**
   * Build the media worker (when MEDIA is on): wherever feeds are polled —
   * `serve` with INGEST on, `wallery worker` — and `wallery media fetch --once`.
   * A server gets the media storage and processing (`ctx.media`) either way.
   */
  media?: boolean;
  /**
   * Where ingestion logs when there is no server to lend its logger
   * (default: JSON lines on stderr at LOG_LEVEL).
   */
  ingestLog?: WorkerLogger;
  /**
   * Build a server of `/metrics` alone when METRICS is on and METRICS_PORT
   * set (`wallery worker`, which has no API to serve it on).
   */
  metricsServer?: boolean;
  /**
   * The quota counter when there is no Redis (default: counted in the store
   * by this process); a worker of `serve --workers N` gives the primary's.
   */
  quota?: QuotaCounter;
}

export function openRuntime(
  config: Config,
  options: RuntimeOptions & { server: ServerOptions },
): Promise<Runtime<FastifyInstance>>;
export function openRuntime(
  config: Config,
  options: RuntimeOptions & { ingest: true },
): Promise<Runtime<null, IngestRuntime>>;
export function openRuntime(config: Config, options?: RuntimeOptions): Promise<Runtime>;
export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  await checkReportFont(config.rights.reportFont);
  const serving = options.server !== undefined;
  // connections are never stored plain: SECRET_KEY, else the key file (made once), else none (PostgreSQL)
  const connectionKey = connectionSecretKey(config.connections);
  const { store, metrics } = await openMeteredStore(config);
  // the listen address: the server's port once it listens (PORT=0 picks one), else the configured one
  let app: FastifyInstance | null = null;
  const self: SelfUrl = {
    publicUrl: config.publicUrl,
    listening: () => {
      const address = app?.server.address();
      return listenUrl(address && typeof address === 'object' ? address.port : config.port);
    },
  };
  const shared = await connectShared(config, store);
  const { redis } = shared;
  const quota = shared.quota ?? options.quota;
  const ctx: AppContext = {
    store,
    now: Date.now,
    changes: new ChangeBus(),
    quota,
    shared: redis ? { redis, prefix: config.redisPrefix } : null,
    // undefined: made by completeContext; null: none
    cache: serving ? undefined : null,
    fragments: serving ? undefined : null,
    keys: serving ? undefined : null,
    ingest: null,
    webhooks: config.webhooks,
    connectionKey,
    metrics,
    // the storage and processing every server serves pictures with, and the worker fetches them with
    media: null,
    self,
    // the names only: what a provider rule may name (the URLs and keys stay with the worker)
    moderationProviders: config.moderation.providers.map((p) => p.name),
    // the OAuth connect flow: the apps, where their networks may be reached
    oauth: {
      config: config.oauth,
      allowPrivateNetworks: config.ingest.allowPrivateNetworks,
    },
    // a request asked through the management API is first read after this long, as the watcher's are
    rightsListenMs: config.rights.listenS * 1000,
    ...(config.rights.reportFont ? { rightsReportFont: config.rights.reportFont } : {}),
  };
  const mediaServices = config.media.enabled && (serving || options.media) ? openMediaServices(config) : null;
  ctx.media = mediaServices;
  completeContext(ctx, config);
  const listener = serving ? await listenForOtherWriters(config, ctx) : null;
  app = options.server
    ? await buildServer(ctx, {
        embed: { ...config.embed, cacheTtlMs: config.cacheTtlMs },
        manage: { writeRateLimit: config.manageWriteRateLimit },
        trustProxy: config.trustProxy,
        metrics: config.metrics,
        web: config.web,
        cdn: config.cdn,
        ...options.server,
      })
    : null;
  // the workers log through the server's logger when there is one
  const workerLog = (component: string) =>
    app ? app.log.child({ component }) : (options.ingestLog ?? jsonLogger(config.logLevel));
  // Built after the server; the routes read `ctx.ingest` when called, so they find it.
  const ingest = options.ingest
    ? new IngestRuntime({
        db: store.db,
        changes: ctx.changes,
        config: config.ingest,
        secretKey: connectionKey,
        log: workerLog('ingest'),
      })
    : null;
  ctx.ingest = ingest;
  const webhookLog = workerLog('webhooks');
  const webhooks = options.webhooks
    ? new WebhookRuntime({
        db: store.db,
        config: config.webhooks,
        log: webhookLog,
        self,
        connections: config.connections,
      })
    : null;
  const media =
    options.media && mediaServices
      ? new MediaRuntime({
          db: store.db,
          changes: ctx.changes,
          config: config.media,
          services: mediaServices,
          // pictures come from where feeds do: the operator's one choice of reachable networks
          allowPrivateNetworks: config.ingest.allowPrivateNetworks,
          log: workerLog('media'),
        })
      : null;
  // wherever feeds are polled (new posts come from there), even with no provider configured:
  // a post whose rule names one no longer configured is held for a human, not left waiting
  const providerCheck = options.ingest
    ? new ProviderCheckRunner({
        db: store.db,
        providers: providersFromConfig(config.moderation.providers),
        now: Date.now,
        log: workerLog('moderation'),
        announce: (wallId) => ctx.changes.wallChanged(wallId),
      })
    : null;
  // wherever feeds are polled: the tokens they poll with are refreshed before they expire
  const tokenRefresh = options.ingest
    ? new ConnectionRefresher({
        db: store.db,
        oauth: config.oauth,
        secretKey: connectionKey,
        allowPrivateNetworks: config.ingest.allowPrivateNetworks,
        log: workerLog('connections'),
      })
    : null;
  // wherever feeds are polled: the authors' answers to rights requests are heard
  const rightsWatcher = options.ingest
    ? new RightsWatcher({
        db: store.db,
        secretKey: connectionKey,
        allowPrivateNetworks: config.ingest.allowPrivateNetworks,
        changes: ctx.changes,
        tickMs: config.rights.tickS * 1000,
        listenMs: config.rights.listenS * 1000,
        log: workerLog('rights'),
      })
    : null;
  // serve, start and the worker: plain-text signing secrets are encrypted once a key is set, or warned of
  if (serving || options.webhooks) await secureStoredSecrets(store.db, config.webhooks.secretKey, webhookLog);
  if (metrics) Object.assign(metrics.sources, { ingest, webhooks, media, moderationProviders: providerCheck });
  // Redis's outages from now on, one line each in the log this process writes
  if (redis) watchRedis(redis, app ? app.log : (options.ingestLog ?? jsonLogger(config.logLevel)));
  const metricsServer =
    options.metricsServer && metrics && config.metrics.port !== null
      ? await buildMetricsServer(metrics, config.metrics)
      : null;
  const parts = { ctx, app, ingest, webhooks, media, providerCheck, tokenRefresh, rightsWatcher, metricsServer };
  return {
    ...parts,
    close: (onStep = () => undefined) => closeRuntime({ ...parts, listener, redis, mediaServices }, onStep),
  };
}

/** The store, migrated, reporting each query's duration to the metrics (made first for that) when they are on. */
async function openMeteredStore(config: Config) {
  const metrics = config.metrics.enabled ? new Metrics({ store: config.store.kind, processMetrics: true }) : null;
  const store = openStore(
    config.store,
    config.database,
    metrics ? (kind, ms) => metrics.observeQuery(queryKindOf(kind), ms / 1000) : undefined,
  );
  await store.waitUntilReachable(config.database.connectRetries);
  await store.migrate();
  return { store, metrics };
}

/** Redis and the quota counter kept there, when REDIS_URL is set; none otherwise. */
async function connectShared(
  config: Config,
  store: Store,
): Promise<{ redis: Redis | null; quota: AppContext['quota'] }> {
  if (!config.redisUrl) return { redis: null, quota: undefined };
  const redis = connectRedis(config.redisUrl, config.redisPrefix);
  try {
    await waitReady(redis);
  } catch (err) {
    // one line naming Redis (RedisUnavailableError), then nothing left open
    redis.disconnect();
    await store.close();
    throw err;
  }
  return { redis, quota: new RedisQuota(redis, store.db, { prefix: `${config.redisPrefix}:quota` }) };
}

/**
 * Caches hear of every write, whoever made it: this instance's own on the
 * change bus; on PostgreSQL every other process's through the database's
 * notifications (this listener); on SQLite through data_version (see
 * buildServer). And whatever becomes of those messages, an entry lives
 * CACHE_TTL_MS at most.
 */
async function listenForOtherWriters(config: Config, ctx: AppContext): Promise<ChangeListener | null> {
  if (config.store.kind !== 'postgres') return null;
  const listener = new ChangeListener(ctx.changes, {
    url: config.store.url,
    connectTimeoutMs: config.database.connectTimeoutMs,
    log: jsonLogger(config.logLevel),
  });
  await listener.start(config.database.connectRetries);
  return listener;
}

/** Stops what openRuntime started, in order, reporting each step and how long it took. */
async function closeRuntime(
  parts: Omit<Runtime, 'close'> & {
    listener: ChangeListener | null;
    redis: Redis | null;
    mediaServices: { close(): Promise<void> } | null;
  },
  onStep: (name: string, ms: number) => void,
): Promise<void> {
  const {
    ctx,
    app,
    ingest,
    webhooks,
    media,
    providerCheck,
    tokenRefresh,
    rightsWatcher,
    metricsServer,
    listener,
    redis,
    mediaServices,
  } = parts;
  const step = async (name: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    onStep(name, Math.round(performance.now() - started));
  };
  // Neither waits for the other: polls and deliveries are cut short
  // (their leases given back, so another process takes them at once),
  // while requests get until the shutdown timeout.
  await Promise.all([
    (ingest || webhooks) &&
      step('ingestion and webhook delivery stopped, their leases released', () =>
        Promise.all([webhooks?.stop(), ingest?.stop()]),
      ),
    media && step('media fetching stopped, its leases released', () => media.stop()),
    providerCheck && step('provider check stopped', () => providerCheck.stop()),
    tokenRefresh && step('token refresh stopped, its leases released', () => tokenRefresh.stop()),
    rightsWatcher && step('rights watcher stopped, its leases released', () => rightsWatcher.stop()),
    metricsServer && step('metrics server closed', () => metricsServer.close()),
    app &&
      step('HTTP server closed: in-flight requests answered, SSE streams ended, analytics counts written', () =>
        app.close(),
      ),
  ]);
  // after the server: its last requests may still read pictures
  if (mediaServices) await step('media processing and storage closed', () => mediaServices.close());
  await step('quota counts written, caches closed', async () => {
    ctx.cache?.close();
    ctx.keys?.close();
    await listener?.close();
    await ctx.quota?.close();
  });
  await step('store and Redis closed', async () => {
    redis?.disconnect();
    await ctx.store.close();
  });
}
