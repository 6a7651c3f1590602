// Configuration from the environment, validated once at start: one tree
// (`loadConfig`) holding every setting, the ingestion section included, read
// with one set of setting parsers. A bad value throws a ConfigError whose
// message names the variable; the CLI prints that one line and exits non-zero.
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { DEFAULT_PORT } from './domain/self-url.js';
import { PROVIDER_NAME, PROVIDER_PROTOCOLS, type ProviderProtocol } from './domain/provider-rules.js';
import {
  DEFAULT_PURGED_SHARED_MAX_AGE,
  DEFAULT_SHARED_MAX_AGE,
  DEFAULT_TAG_PREFIX,
  TAG_PATTERN,
  type CdnCaching,
} from './cdn/tags.js';
import type { PurgeTargetSpec } from './cdn/targets.js';
import { OAUTH_APP_INFO, OAUTH_APPS, type OAuthAppName } from './connections/networks.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type StoreUrl = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export interface DatabaseOptions {
  /** PostgreSQL connections per instance */
  poolSize: number;
  /** PostgreSQL statement_timeout; a stuck query fails instead of hanging a request */
  statementTimeoutMs: number;
  /** how long to wait for a PostgreSQL connection before answering 503 */
  connectTimeoutMs: number;
  /** start-up attempts to reach the store before giving up (exponential backoff) */
  connectRetries: number;
  /** SQLite: how long a write waits for another process's write to finish before it fails (503 / CLI error) */
  busyTimeoutMs: number;
}

export const DEFAULT_DATABASE_OPTIONS: DatabaseOptions = {
  poolSize: 10,
  statementTimeoutMs: 10_000,
  connectTimeoutMs: 3_000,
  connectRetries: 8,
  busyTimeoutMs: 5_000,
};

/** A revoked key or a hidden post is gone from every instance within this, notification or not. */
export const DEFAULT_CACHE_TTL_MS = 5_000;

/** RESPONSE_CACHE_MB's default */
export const DEFAULT_RESPONSE_CACHE_MB = 64;

/** FRAGMENT_CACHE_MB's default */
export const DEFAULT_FRAGMENT_CACHE_MB = 32;

/**
 * MANAGE_WRITE_RATE_LIMIT's default: 20 writes a second kept up for a
 * minute. A moderator clearing a queue with the console's keys writes about
 * 37 a second for a few hundred posts, which this lets through; a script
 * writing in a loop is held to it.
 */
export const DEFAULT_MANAGE_WRITE_RATE_LIMIT = 1200;

export interface Config {
  store: StoreUrl;
  database: DatabaseOptions;
  /** redis:// URL; holds the daily quota counters shared by every instance */
  redisUrl: string | null;
  /** prefix of every Redis key, so deployments can share one Redis */
  redisPrefix: string;
  /** memory for rendered v2 reads; 0 turns the response cache off */
  responseCacheBytes: number;
  /** memory for rendered posts reused across list pages; 0 turns the fragment cache off */
  fragmentCacheBytes: number;
  /**
   * Longest life of a cached key lookup or rendered read (ms): how stale an
   * answer can be at most, even when the notification of a change was lost.
   */
  cacheTtlMs: number;
  /** MANAGE_WRITE_RATE_LIMIT: management API writes per minute per operator token (0: no limit) */
  manageWriteRateLimit: number;
  port: number;
  host: string;
  /**
   * WORKERS: how many processes `serve` runs on the one listening socket
   * (src/cluster/); 1 is a single process, no cluster.
   */
  workers: number;
  /**
   * The address people reach this instance at (printed URLs, the demo data's
   * pictures); null: http://localhost:PORT, the port it listens on.
   */
  publicUrl: string | null;
  /** which proxies in front are believed about the client's address (X-Forwarded-For), Fastify's `trustProxy` */
  trustProxy: TrustProxy;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** PG_BIN_DIR: the folder holding pg_dump and pg_restore (`wallery backup`/`restore`); null: found on PATH */
  pgBinDir: string | null;
  /** feed ingestion (`serve` with INGEST on, `wallery worker`, `wallery ingest --once`) */
  ingest: IngestConfig;
  /** the media pipeline: pictures of posts fetched, processed and stored (src/media/) */
  media: MediaConfig;
  /** the moderation providers `provider` rules may ask (src/moderation/) */
  moderation: ModerationConfig;
  /** the embed API (publishable keys, SSE streams) */
  embed: EmbedConfig;
  /** webhook delivery (src/webhooks/) */
  webhooks: WebhookConfig;
  /** an account's connections to networks: the key their secrets are sealed with, the expiry warnings (src/connections/) */
  connections: ConnectionConfig;
  /** the rights watcher's timing (src/rights/watcher.ts), beside feed ingestion */
  rights: RightsConfig;
  /** what SIGTERM/SIGINT do (src/cli/shutdown.ts) */
  shutdown: ShutdownConfig;
  /** `GET /metrics` (src/metrics/) */
  metrics: MetricsConfig;
  /** OpenTelemetry tracing (src/tracing.ts): on when OTEL_EXPORTER_OTLP_ENDPOINT is set */
  tracing: { endpoint: string | null };
  /** the pages and files for browsers (src/http/web/) */
  web: WebConfig;
  /** what CDNs are told (s-maxage, tags) and where purges go (src/cdn/) */
  cdn: CdnConfig;
  /** the operator's OAuth apps the console's Connect buttons sign in with (src/connections/) */
  oauth: OAuthConfig;
}

/** One OAuth app of the operator's (OAUTH_<APP>_CLIENT_ID, _CLIENT_SECRET, _BASE_URL). */
export interface OAuthAppConfig {
  clientId: string;
  clientSecret: string;
  /**
   * OAUTH_<APP>_BASE_URL: every endpoint of the app's networks (sign-in page,
   * token, API) on this origin, same paths — a test or self-hosted server; null: the real ones
   */
  baseUrl: string | null;
}

export interface OAuthConfig {
  /** the apps with a client id and secret set; an app left out has no Connect button */
  apps: Partial<Record<OAuthAppName, OAuthAppConfig>>;
}

/** The OAuth apps configured: both halves of a client set, or neither (one alone is a mistake, refused). */
export function loadOAuthConfig(env: NodeJS.ProcessEnv = process.env): OAuthConfig {
  const apps: OAuthConfig['apps'] = {};
  for (const app of OAUTH_APPS) {
    const prefix = `OAUTH_${app.toUpperCase()}`;
    const clientId = (env[`${prefix}_CLIENT_ID`] ?? '').trim();
    const clientSecret = (env[`${prefix}_CLIENT_SECRET`] ?? '').trim();
    const baseUrl = parsePublicUrl(env[`${prefix}_BASE_URL`], `${prefix}_BASE_URL`);
    if ((clientId === '') !== (clientSecret === ''))
      throw new ConfigError(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
    if (clientId !== '') apps[app] = { clientId, clientSecret, baseUrl };
  }
  return { apps };
}

export interface CdnConfig extends CdnCaching {
  /** CDN_PURGE: where every change is purged by tag; empty: nowhere */
  targets: PurgeTargetSpec[];
}

const CDN_KINDS = ['varnish', 'cloudflare', 'fastly', 'bunny'] as const;
const CDN_SECRETS = { cloudflare: 'CDN_CLOUDFLARE_TOKEN', fastly: 'CDN_FASTLY_KEY', bunny: 'CDN_BUNNY_KEY' } as const;

/** A CDN's token: printable ASCII without spaces; required once a target of its kind is listed. */
function cdnSecret(env: NodeJS.ProcessEnv, kind: keyof typeof CDN_SECRETS): string {
  const name = CDN_SECRETS[kind];
  const raw = (env[name] ?? '').trim();
  if (!/^[\x21-\x7e]+$/.test(raw))
    throw new ConfigError(`${name} must be set (printable, no spaces) for a ${kind} target in CDN_PURGE`);
  return raw;
}

/** CDN_PURGE: comma-separated `varnish:URL`, `cloudflare:ZONE_ID`, `fastly:SERVICE_ID`, `bunny:PULL_ZONE_ID`. */
export function parseCdnTargets(value: string | undefined, env: NodeJS.ProcessEnv = process.env): PurgeTargetSpec[] {
  const name = 'CDN_PURGE';
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return items.map((item): PurgeTargetSpec => {
    const colon = item.indexOf(':');
    const kind = item.slice(0, colon).toLowerCase();
    const rest = item.slice(colon + 1).trim();
    if (colon < 0 || !(CDN_KINDS as readonly string[]).includes(kind) || rest === '')
      throw new ConfigError(
        `${name} must list targets like varnish:http://host:6081, cloudflare:ZONE_ID, fastly:SERVICE_ID or bunny:PULL_ZONE_ID`,
      );
    if (kind === 'varnish') {
      const url = httpUrl(rest, `${name}'s varnish target`);
      return { kind, url: url.href };
    }
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(rest))
      throw new ConfigError(`${name}'s ${kind} target must name an id of letters, digits, - or _`);
    if (kind === 'cloudflare') return { kind, zoneId: rest, token: cdnSecret(env, kind) };
    if (kind === 'fastly') return { kind, serviceId: rest, key: cdnSecret(env, kind) };
    return { kind: 'bunny', pullZoneId: rest, key: cdnSecret(env, 'bunny') };
  });
}

export function loadCdnConfig(env: NodeJS.ProcessEnv = process.env): CdnConfig {
  // each secret is read whether or not a target of its kind is listed (what loadConfig reads is what SETTINGS lists)
  const secrets = {
    CDN_CLOUDFLARE_TOKEN: env.CDN_CLOUDFLARE_TOKEN,
    CDN_FASTLY_KEY: env.CDN_FASTLY_KEY,
    CDN_BUNNY_KEY: env.CDN_BUNNY_KEY,
  };
  const targets = parseCdnTargets(env.CDN_PURGE, secrets);
  const tagPrefix = (env.CDN_TAG_PREFIX ?? '').trim() || DEFAULT_TAG_PREFIX;
  if (!TAG_PATTERN.test(tagPrefix) || tagPrefix.length > 24)
    throw new ConfigError('CDN_TAG_PREFIX must be 1 to 24 lowercase letters, digits or -');
  const fallback = targets.length > 0 ? DEFAULT_PURGED_SHARED_MAX_AGE : DEFAULT_SHARED_MAX_AGE;
  return {
    targets,
    tagPrefix,
    sharedMaxAge: intSetting(env.CDN_MAX_AGE, 'CDN_MAX_AGE', fallback, 0, 31_536_000),
  };
}

export interface WebConfig {
  /** WEB_SOURCE_MAPS=public: the built scripts' source maps are served (and linked by a SourceMap header) */
  sourceMaps: boolean;
  /** LANDING_REDIRECT: where a browser opening `/` is sent (302); null: the start page */
  landingRedirect: string | null;
}

/** WEB_SOURCE_MAPS: `public` serves the source maps, `off` (the default) keeps them private. */
export function parseSourceMaps(value: string | undefined, name = 'WEB_SOURCE_MAPS'): boolean {
  const raw = (value ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'off') return false;
  if (raw === 'public') return true;
  throw new ConfigError(`${name} must be public or off`);
}

export function loadWebConfig(env: NodeJS.ProcessEnv = process.env): WebConfig {
  return {
    sourceMaps: parseSourceMaps(env.WEB_SOURCE_MAPS),
    landingRedirect: parseLandingRedirect(env.LANDING_REDIRECT),
  };
}

/** An absolute http(s) URL (a query is kept); unset: none. */
export function parseLandingRedirect(value: string | undefined, name = 'LANDING_REDIRECT'): string | null {
  const raw = (value ?? '').trim();
  if (raw === '') return null;
  const url = httpUrl(raw, name);
  if (url.username !== '' || url.password !== '')
    throw new ConfigError(`${name} must be an http(s) URL without credentials`);
  return url.href;
}

export interface MetricsConfig {
  /** METRICS: serve `/metrics` (on by default) */
  enabled: boolean;
  /** METRICS_TOKEN: when set, `/metrics` needs `Authorization: Bearer <token>` */
  token: string | null;
  /** METRICS_PORT: where `wallery worker` serves `/metrics` (null: it does not) */
  port: number | null;
}

export interface ShutdownConfig {
  /**
   * SHUTDOWN_DELAY_MS: after the signal, /readyz answers 503 while every other
   * request is still served this long, so a balancer whose view of the
   * instance lags (Kubernetes endpoints) stops sending before it stops accepting
   */
  delayMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long in-flight work may take to finish after the delay; past it the process exits 1 */
  timeoutMs: number;
}

export const SHUTDOWN_DEFAULTS: ShutdownConfig = { delayMs: 0, timeoutMs: 10_000 };

export interface WebhookConfig {
  /** WEBHOOKS: deliver inside `serve` (the worker always does) */
  enabled: boolean;
  /**
   * SECRET_KEY (or its older name WEBHOOK_SECRET_KEY): 32 bytes (base64) that
   * encrypt signing secrets at rest; null: stored as they are
   */
  secretKey: Buffer | null;
  /** WEBHOOK_TICK_MS: how often a worker looks for endpoints with events to send */
  tickMs: number;
  /** WEBHOOK_RETRY_MIN_S / WEBHOOK_RETRY_MAX_S: backoff bounds after a failed attempt */
  retryMinS: number;
  retryMaxS: number;
  /** WEBHOOK_GIVE_UP_S: how long an event is retried before the endpoint is disabled */
  giveUpS: number;
  /** WEBHOOK_TIMEOUT_MS: time cap of one delivery */
  timeoutMs: number;
  /** WEBHOOK_LEASE_MS: how long a worker holds an endpoint (more than the timeout) */
  leaseMs: number;
  /**
   * WEBHOOK_ALLOW_PRIVATE_NETWORKS: the non-global addresses deliveries and
   * tests may reach (ingestion's INGEST_ALLOW_PRIVATE_NETWORKS does not apply:
   * whoever may edit a webhook chooses where it posts)
   */
  allowPrivateNetworks: PrivateNetworks;
  /** WEBHOOK_LOG_RETENTION_DAYS: how long the delivery log keeps an attempt */
  logRetentionDays: number;
}

export const WEBHOOK_DEFAULTS = {
  tickMs: 2_000,
  retryMinS: 30,
  retryMaxS: 3_600,
  giveUpS: 3 * 86_400,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  logRetentionDays: 30,
} as const;

/** SECRET_KEY / WEBHOOK_SECRET_KEY: base64 of exactly 32 bytes. */
export function parseSecretKey(value: string | undefined, name = 'WEBHOOK_SECRET_KEY'): Buffer | null {
  const raw = (value ?? '').trim();
  if (raw === '') return null;
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
  if (key.length !== 32)
    throw new ConfigError(`${name} must be 32 bytes in base64 (make one with: openssl rand -base64 32)`);
  return key;
}

/**
 * SECRET_KEY, or WEBHOOK_SECRET_KEY (its name before connections used it too):
 * the operator's key of the secret box; null when neither is set. Both set
 * must be the same key.
 */
export function operatorSecretKey(env: NodeJS.ProcessEnv): Buffer | null {
  const key = parseSecretKey(env.SECRET_KEY, 'SECRET_KEY');
  const old = parseSecretKey(env.WEBHOOK_SECRET_KEY, 'WEBHOOK_SECRET_KEY');
  if (key && old && !key.equals(old))
    throw new ConfigError('SECRET_KEY and WEBHOOK_SECRET_KEY are both set and differ: keep SECRET_KEY only');
  return key ?? old;
}

export function loadWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const d = WEBHOOK_DEFAULTS;
  const retryMinS = intSetting(env.WEBHOOK_RETRY_MIN_S, 'WEBHOOK_RETRY_MIN_S', d.retryMinS, 1, 86_400);
  const retryMaxS = intSetting(env.WEBHOOK_RETRY_MAX_S, 'WEBHOOK_RETRY_MAX_S', d.retryMaxS, 1, 7 * 86_400);
  if (retryMaxS < retryMinS)
    throw new ConfigError(`WEBHOOK_RETRY_MAX_S must not be below WEBHOOK_RETRY_MIN_S (${retryMinS})`);
  const timeoutMs = intSetting(env.WEBHOOK_TIMEOUT_MS, 'WEBHOOK_TIMEOUT_MS', d.timeoutMs, 100, 120_000);
  const leaseMs = intSetting(env.WEBHOOK_LEASE_MS, 'WEBHOOK_LEASE_MS', d.leaseMs, 500, 3_600_000);
  if (leaseMs <= timeoutMs)
    throw new ConfigError(`WEBHOOK_LEASE_MS must be more than WEBHOOK_TIMEOUT_MS (${timeoutMs})`);
  return {
    enabled: boolSetting(env.WEBHOOKS, 'WEBHOOKS', true),
    secretKey: operatorSecretKey(env),
    tickMs: intSetting(env.WEBHOOK_TICK_MS, 'WEBHOOK_TICK_MS', d.tickMs, 50, 600_000),
    retryMinS,
    retryMaxS,
    giveUpS: intSetting(env.WEBHOOK_GIVE_UP_S, 'WEBHOOK_GIVE_UP_S', d.giveUpS, 1, 30 * 86_400),
    timeoutMs,
    leaseMs,
    allowPrivateNetworks: parsePrivateNetworks(env.WEBHOOK_ALLOW_PRIVATE_NETWORKS, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
    logRetentionDays: intSetting(
      env.WEBHOOK_LOG_RETENTION_DAYS,
      'WEBHOOK_LOG_RETENTION_DAYS',
      d.logRetentionDays,
      1,
      3650,
    ),
  };
}

export interface ConnectionConfig {
  /** SECRET_KEY (or WEBHOOK_SECRET_KEY): the operator's key; null: the key file's (src/connections/secret-key.ts) */
  secretKey: Buffer | null;
  /**
   * SECRET_KEY_FILE: where the key made when no SECRET_KEY is set is kept
   * (made once, mode 0600); default `secret.key` beside the SQLite file; null
   * (PostgreSQL, an in-memory SQLite): none — connections cannot be stored
   */
  secretKeyFile: string | null;
  /** CONNECTION_EXPIRY_WARN_DAYS: `connection.expiring` this many days before a token expires */
  expiryWarnDays: number;
  /** CONNECTION_EXPIRY_CHECK_MS: how often a worker looks for tokens expiring soon */
  expiryCheckMs: number;
}

export const CONNECTION_DEFAULTS = { expiryWarnDays: 7, expiryCheckMs: 3_600_000 } as const;

export interface RightsConfig {
  /** RIGHTS_TICK_SECONDS: how often the rights watcher ticks (expires requests, runs the walls' asking rules, listens) */
  tickS: number;
  /**
   * RIGHTS_LISTEN_SECONDS: how often a request waiting for its answer (or a
   * grant being followed for edits) is read; a network that asks to be read
   * less often (its channel's listenEveryMs) is read at its own pace
   */
  listenS: number;
  /**
   * RIGHTS_REPORT_FONT: a TTF or OTF file the evidence report's PDF draws the
   * authors' words with (src/rights/report-pdf.ts); null → DejaVu Sans
   * (Latin, Greek, Cyrillic, Hebrew, …): characters the font lacks come out
   * as "?". Checked when the server starts or the CLI makes a PDF.
   */
  reportFont: string | null;
}

export const RIGHTS_DEFAULTS = { tickS: 30, listenS: 60 } as const;

/** The `rights` section of the tree. */
export function loadRightsConfig(env: NodeJS.ProcessEnv = process.env): RightsConfig {
  return {
    tickS: intSetting(env.RIGHTS_TICK_SECONDS, 'RIGHTS_TICK_SECONDS', RIGHTS_DEFAULTS.tickS, 1, 3600),
    listenS: intSetting(env.RIGHTS_LISTEN_SECONDS, 'RIGHTS_LISTEN_SECONDS', RIGHTS_DEFAULTS.listenS, 1, 86_400),
    reportFont: fontFile(env.RIGHTS_REPORT_FONT, 'RIGHTS_REPORT_FONT'),
  };
}

/** A font file's path (TrueType or OpenType, what pdfkit embeds), or null when unset. */
function fontFile(value: string | undefined, name: string): string | null {
  const path = optionalText(value);
  if (path !== null && !/\.(ttf|otf)$/i.test(path)) throw new ConfigError(`${name} must be a .ttf or .otf file`);
  return path;
}

/** The key file's default: `secret.key` beside the SQLite file; none for PostgreSQL or an in-memory SQLite. */
export function defaultSecretKeyFile(store: StoreUrl): string | null {
  if (store.kind !== 'sqlite' || store.path === ':memory:' || store.path === '') return null;
  return join(dirname(store.path), 'secret.key');
}

export function loadConnectionConfig(env: NodeJS.ProcessEnv = process.env): ConnectionConfig {
  const file = optionalText(env.SECRET_KEY_FILE);
  return {
    secretKey: operatorSecretKey(env),
    secretKeyFile: file ?? defaultSecretKeyFile(parseDatabaseUrl(env.DATABASE_URL)),
    expiryWarnDays: intSetting(
      env.CONNECTION_EXPIRY_WARN_DAYS,
      'CONNECTION_EXPIRY_WARN_DAYS',
      CONNECTION_DEFAULTS.expiryWarnDays,
      1,
      90,
    ),
    expiryCheckMs: intSetting(
      env.CONNECTION_EXPIRY_CHECK_MS,
      'CONNECTION_EXPIRY_CHECK_MS',
      CONNECTION_DEFAULTS.expiryCheckMs,
      1_000,
      86_400_000,
    ),
  };
}

export interface EmbedConfig {
  /** open SSE streams per instance; one more is a 503 */
  maxStreams: number;
  /** open SSE streams per client (an IPv4 address or an IPv6 /64) per instance; one more is a 429 (0: no limit) */
  maxStreamsPerClient: number;
  /** ms between `: ping` comments on an open stream */
  heartbeatMs: number;
  /** reads the cache could not answer, per window per publishable key (0: no limit) */
  rateLimitPerKey: number;
  /** requests per window per client (an IPv4 address or an IPv6 /64) (0: no limit) */
  rateLimitPerIp: number;
  /** the rate limits' window, ms */
  rateLimitWindowMs: number;
  /** events a wall's stream keeps for Last-Event-ID resumption */
  replayEvents: number;
  /** how many of a wall's first posts (in W2 order) the stream watches for changes */
  streamWindow: number;
  /** analytics beacons (POST /events) per window per client IP address (0: no limit) */
  analyticsRateLimitPerIp: number;
  /** analytics beacons per window per publishable key (0: no limit) */
  analyticsRateLimitPerKey: number;
  /** the analytics limits' window, ms */
  analyticsRateLimitWindowMs: number;
  /** ms between writes of the summed analytics counts (what a kill -9 can lose at most) */
  analyticsFlushMs: number;
  /** how long a beacon, and an impression or wall load of a page view, is remembered to drop repeats, ms */
  analyticsDedupeTtlMs: number;
}

export const DEFAULT_EMBED_CONFIG: EmbedConfig = {
  maxStreams: 10_000,
  maxStreamsPerClient: 6,
  heartbeatMs: 15_000,
  rateLimitPerKey: 6_000,
  rateLimitPerIp: 600,
  rateLimitWindowMs: 60_000,
  replayEvents: 500,
  streamWindow: 100,
  analyticsRateLimitPerIp: 600,
  analyticsRateLimitPerKey: 60_000,
  analyticsRateLimitWindowMs: 60_000,
  analyticsFlushMs: 1_000,
  analyticsDedupeTtlMs: 1_800_000,
};

export function loadEmbedConfig(env: NodeJS.ProcessEnv = process.env): EmbedConfig {
  const d = DEFAULT_EMBED_CONFIG;
  return {
    maxStreams: intSetting(env.EMBED_MAX_STREAMS, 'EMBED_MAX_STREAMS', d.maxStreams, 0, 1_000_000),
    maxStreamsPerClient: intSetting(
      env.EMBED_MAX_STREAMS_PER_CLIENT,
      'EMBED_MAX_STREAMS_PER_CLIENT',
      d.maxStreamsPerClient,
      0,
      1_000_000,
    ),
    heartbeatMs: intSetting(env.EMBED_HEARTBEAT_MS, 'EMBED_HEARTBEAT_MS', d.heartbeatMs, 100, 600_000),
    rateLimitPerKey: intSetting(
      env.EMBED_RATE_LIMIT_PER_KEY,
      'EMBED_RATE_LIMIT_PER_KEY',
      d.rateLimitPerKey,
      0,
      100_000_000,
    ),
    rateLimitPerIp: intSetting(
      env.EMBED_RATE_LIMIT_PER_IP,
      'EMBED_RATE_LIMIT_PER_IP',
      d.rateLimitPerIp,
      0,
      100_000_000,
    ),
    rateLimitWindowMs: intSetting(
      env.EMBED_RATE_LIMIT_WINDOW_MS,
      'EMBED_RATE_LIMIT_WINDOW_MS',
      d.rateLimitWindowMs,
      1000,
      86_400_000,
    ),
    replayEvents: intSetting(env.EMBED_REPLAY_EVENTS, 'EMBED_REPLAY_EVENTS', d.replayEvents, 0, 100_000),
    streamWindow: intSetting(env.EMBED_STREAM_WINDOW, 'EMBED_STREAM_WINDOW', d.streamWindow, 1, 1000),
    analyticsRateLimitPerIp: intSetting(
      env.ANALYTICS_RATE_LIMIT_PER_IP,
      'ANALYTICS_RATE_LIMIT_PER_IP',
      d.analyticsRateLimitPerIp,
      0,
      100_000_000,
    ),
    analyticsRateLimitPerKey: intSetting(
      env.ANALYTICS_RATE_LIMIT_PER_KEY,
      'ANALYTICS_RATE_LIMIT_PER_KEY',
      d.analyticsRateLimitPerKey,
      0,
      100_000_000,
    ),
    analyticsRateLimitWindowMs: intSetting(
      env.ANALYTICS_RATE_LIMIT_WINDOW_MS,
      'ANALYTICS_RATE_LIMIT_WINDOW_MS',
      d.analyticsRateLimitWindowMs,
      1000,
      86_400_000,
    ),
    analyticsFlushMs: intSetting(env.ANALYTICS_FLUSH_MS, 'ANALYTICS_FLUSH_MS', d.analyticsFlushMs, 100, 60_000),
    analyticsDedupeTtlMs: intSetting(
      env.ANALYTICS_DEDUPE_TTL_MS,
      'ANALYTICS_DEDUPE_TTL_MS',
      d.analyticsDedupeTtlMs,
      1000,
      86_400_000,
    ),
  };
}

/** false: the peer's address is the client's; true: every proxy; a number: that many hops; a list: those addresses/ranges. */
export type TrustProxy = boolean | number | string[];

/** `true` allows every address; a list allows only addresses in those CIDR ranges. */
export type PrivateNetworks = boolean | readonly string[];

export interface IngestConfig {
  /** INGEST: poll feeds inside `serve` (the worker always does) */
  enabled: boolean;
  /** INGEST_MIN_INTERVAL / INGEST_MAX_INTERVAL: bounds of the adaptive per-feed interval, seconds */
  minIntervalS: number;
  maxIntervalS: number;
  /** INGEST_ALLOW_PRIVATE_NETWORKS: lift the SSRF guard for private/loopback/… addresses */
  allowPrivateNetworks: PrivateNetworks;
  /** INGEST_MAX_BYTES: largest upstream response body (after decompression) */
  maxBytes: number;
  /** INGEST_TIMEOUT_MS: time cap of one upstream request (all redirect hops) */
  timeoutMs: number;
  /** INGEST_HOST_CONCURRENCY: requests in flight to one host at a time */
  hostConcurrency: number;
  /** INGEST_MAX_ITEMS: most posts one poll of a feed keeps (the newest) */
  maxItems: number;
  /** CHANGES_RETENTION_DAYS: how long the change log (change feed, webhooks) keeps a change; the worker prunes older ones */
  changesRetentionDays: number;
  /** INGEST_PARSE_THREADS: worker threads that parse upstream responses off the serving thread */
  parseThreads: number;
  /** BLUESKY_IDENTIFIER / BLUESKY_APP_PASSWORD: for Bluesky hashtag search */
  bluesky: { identifier: string; appPassword: string } | null;
}

export const INGEST_DEFAULTS = {
  minIntervalS: 300,
  maxIntervalS: 21_600,
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 15_000,
  hostConcurrency: 2,
  maxItems: 500,
  parseThreads: 1,
  changesRetentionDays: 30,
} as const;

// ---- setting parsers: the only ones; every variable is read through them ----

/** An integer setting within [min, max]; absent or empty → fallback. */
/** the most processes `--workers`/WORKERS may ask for */
export const MAX_WORKERS = 64;

/** Production (NODE_ENV=production) uses every core; anything else (the demo, development, tests) one process. */
export function defaultWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return env.NODE_ENV === 'production' ? Math.min(MAX_WORKERS, availableParallelism()) : 1;
}

/** A worker count (`--workers`, WORKERS): 1 to MAX_WORKERS, `fallback` when blank. */
export function parseWorkers(value: string | undefined, name: string, fallback: number): number {
  return intSetting(value, name, fallback, 1, MAX_WORKERS);
}

export function intSetting(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = (value ?? '').trim();
  if (raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

const TRUE = ['1', 'true', 'on', 'yes'];
const FALSE = ['0', 'false', 'off', 'no'];

/** An on/off setting (1/true/on/yes, 0/false/off/no); absent or empty → fallback. */
export function boolSetting(value: string | undefined, name: string, fallback: boolean): boolean {
  const raw = (value ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (TRUE.includes(raw)) return true;
  if (FALSE.includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off`);
}

/** `true`/`1`/`on` → all; `false`/`0`/`off`/empty → none; otherwise a comma-separated list of CIDR ranges. */
export function parsePrivateNetworks(
  value: string | undefined,
  name = 'INGEST_ALLOW_PRIVATE_NETWORKS',
): PrivateNetworks {
  return onOffOrList(
    (value ?? '').trim(),
    (range) => safely(() => ipaddr.parseCIDR(range)),
    (bad) => `${name} must be on, off or a comma-separated list of CIDR ranges (bad: ${bad})`,
  );
}

/** Empty or off → false, on → true, otherwise the comma-separated entries, each passing `valid` (else `error`). */
function onOffOrList(
  raw: string,
  valid: (entry: string) => boolean,
  error: (bad: string) => string,
): boolean | string[] {
  if (raw === '' || FALSE.includes(raw.toLowerCase())) return false;
  if (TRUE.includes(raw.toLowerCase())) return true;
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = entries.find((entry) => !valid(entry));
  if (bad !== undefined) throw new ConfigError(error(bad));
  return entries;
}

export function parseRedisPrefix(value: string | undefined, name = 'REDIS_KEY_PREFIX'): string {
  const raw = (value ?? '').trim();
  if (raw === '') return 'wallery';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(raw)) throw new ConfigError(`${name} must be 1 to 64 letters, digits or _ . : -`);
  return raw;
}

export function parseRedisUrl(value: string | undefined, name = 'REDIS_URL'): string | null {
  const raw = (value ?? '').trim();
  if (raw === '') return null;
  if (!/^rediss?:\/\//i.test(raw)) throw new ConfigError(`${name} must be a redis:// or rediss:// URL`);
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const DEFAULT_DATABASE_PATH = './data/wallery.db';

/** `file:` URL or plain path → SQLite; `postgres://` / `postgresql://` → PostgreSQL. */
export function parseDatabaseUrl(value: string | undefined, name = 'DATABASE_URL'): StoreUrl {
  const raw = (value ?? '').trim();
  if (raw === '') return { kind: 'sqlite', path: DEFAULT_DATABASE_PATH };
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`${name} is not a valid PostgreSQL URL`);
    }
    return { kind: 'postgres', url: raw };
  }
  if (raw.startsWith('file:')) {
    const path = raw.startsWith('file://') ? decodeURIComponent(new URL(raw).pathname) : raw.slice(5);
    if (path === '') throw new ConfigError(`${name} file: URL has no path`);
    return { kind: 'sqlite', path };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError(`${name} must be a file path, a file: URL or a postgres:// URL`);
  }
  return { kind: 'sqlite', path: raw };
}

export function parsePort(value: string | undefined, name = 'PORT', fallback = DEFAULT_PORT): number {
  return intSetting(value, name, fallback, 0, 65535);
}

/** `raw` as an http(s) URL, or the setting's one-line error. */
function httpUrl(raw: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new ConfigError(`${name} must be an http:// or https:// URL`);
  return url;
}

/** An http(s) URL without query or fragment; the trailing slash dropped. */
export function parsePublicUrl(value: string | undefined, name = 'PUBLIC_URL'): string | null {
  const raw = (value ?? '').trim();
  if (raw === '') return null;
  const url = httpUrl(raw, name);
  if (url.search !== '' || url.hash !== '' || url.username !== '')
    throw new ConfigError(`${name} must be an http:// or https:// URL without query, fragment or credentials`);
  return url.href.replace(/\/+$/, '');
}

/**
 * off (default): X-Forwarded-For is ignored, the peer is the client; on: any
 * proxy is believed; a number: that many proxies in front; otherwise a
 * comma-separated list of the proxies' addresses or CIDR ranges.
 */
export function parseTrustProxy(value: string | undefined, name = 'TRUST_PROXY'): TrustProxy {
  const raw = (value ?? '').trim();
  // a number counts proxies (1 = one hop, as in Express), so it is read before on/off
  if (/^\d+$/.test(raw)) return raw === '0' ? false : intSetting(raw, name, 0, 1, 100);
  return onOffOrList(
    raw,
    (entry) => (entry.includes('/') ? safely(() => ipaddr.parseCIDR(entry)) : ipaddr.isValid(entry)),
    (bad) => `${name} must be on, off, a number of proxies or a list of addresses/CIDR ranges (bad: ${bad})`,
  );
}

function safely(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

/** PG_BIN_DIR: an absolute folder path (where the PostgreSQL client tools of the right version are). */
export function parsePgBinDir(value: string | undefined, name = 'PG_BIN_DIR'): string | null {
  const raw = (value ?? '').trim();
  if (raw === '') return null;
  if (!isAbsolute(raw))
    throw new ConfigError(`${name} must be an absolute folder path (e.g. /usr/lib/postgresql/16/bin)`);
  return raw;
}

export function parseHost(value: string | undefined, name = 'HOST'): string {
  if (value === undefined || value.trim() === '') return '0.0.0.0';
  const host = value.trim();
  if (/\s|\//.test(host)) throw new ConfigError(`${name} must be a host name or IP address`);
  return host;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const level = (env.LOG_LEVEL ?? 'info').trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    store: parseDatabaseUrl(env.DATABASE_URL),
    database: {
      poolSize: intSetting(env.DATABASE_POOL_SIZE, 'DATABASE_POOL_SIZE', DEFAULT_DATABASE_OPTIONS.poolSize, 1, 1000),
      statementTimeoutMs: intSetting(
        env.DATABASE_STATEMENT_TIMEOUT_MS,
        'DATABASE_STATEMENT_TIMEOUT_MS',
        DEFAULT_DATABASE_OPTIONS.statementTimeoutMs,
        0,
        3_600_000,
      ),
      connectTimeoutMs: intSetting(
        env.DATABASE_CONNECT_TIMEOUT_MS,
        'DATABASE_CONNECT_TIMEOUT_MS',
        DEFAULT_DATABASE_OPTIONS.connectTimeoutMs,
        100,
        600_000,
      ),
      connectRetries: intSetting(
        env.DATABASE_CONNECT_RETRIES,
        'DATABASE_CONNECT_RETRIES',
        DEFAULT_DATABASE_OPTIONS.connectRetries,
        0,
        100,
      ),
      busyTimeoutMs: intSetting(
        env.DATABASE_BUSY_TIMEOUT_MS,
        'DATABASE_BUSY_TIMEOUT_MS',
        DEFAULT_DATABASE_OPTIONS.busyTimeoutMs,
        0,
        600_000,
      ),
    },
    redisUrl: parseRedisUrl(env.REDIS_URL),
    redisPrefix: parseRedisPrefix(env.REDIS_KEY_PREFIX),
    responseCacheBytes:
      intSetting(env.RESPONSE_CACHE_MB, 'RESPONSE_CACHE_MB', DEFAULT_RESPONSE_CACHE_MB, 0, 65_536) * 1024 * 1024,
    fragmentCacheBytes:
      intSetting(env.FRAGMENT_CACHE_MB, 'FRAGMENT_CACHE_MB', DEFAULT_FRAGMENT_CACHE_MB, 0, 65_536) * 1024 * 1024,
    cacheTtlMs: intSetting(env.CACHE_TTL_MS, 'CACHE_TTL_MS', DEFAULT_CACHE_TTL_MS, 100, 3_600_000),
    manageWriteRateLimit: intSetting(
      env.MANAGE_WRITE_RATE_LIMIT,
      'MANAGE_WRITE_RATE_LIMIT',
      DEFAULT_MANAGE_WRITE_RATE_LIMIT,
      0,
      1_000_000,
    ),
    port: parsePort(env.PORT),
    host: parseHost(env.HOST),
    workers: parseWorkers(env.WORKERS, 'WORKERS', defaultWorkers(env)),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: level as Config['logLevel'],
    pgBinDir: parsePgBinDir(env.PG_BIN_DIR),
    ingest: loadIngestConfig(env),
    media: loadMediaConfig(env),
    moderation: loadModerationConfig(env),
    embed: loadEmbedConfig(env),
    webhooks: loadWebhookConfig(env),
    connections: loadConnectionConfig(env),
    rights: loadRightsConfig(env),
    shutdown: {
      delayMs: intSetting(env.SHUTDOWN_DELAY_MS, 'SHUTDOWN_DELAY_MS', SHUTDOWN_DEFAULTS.delayMs, 0, 600_000),
      timeoutMs: intSetting(
        env.SHUTDOWN_TIMEOUT_MS,
        'SHUTDOWN_TIMEOUT_MS',
        SHUTDOWN_DEFAULTS.timeoutMs,
        100,
        3_600_000,
      ),
    },
    metrics: loadMetricsConfig(env),
    tracing: { endpoint: parseOtlpEndpoint(env.OTEL_EXPORTER_OTLP_ENDPOINT) },
    web: loadWebConfig(env),
    cdn: loadCdnConfig(env),
    oauth: loadOAuthConfig(env),
  };
}

export function loadMetricsConfig(env: NodeJS.ProcessEnv = process.env): MetricsConfig {
  return {
    enabled: boolSetting(env.METRICS, 'METRICS', true),
    token: parseMetricsToken(env.METRICS_TOKEN),
    port: parseMetricsPort(env.METRICS_PORT),
  };
}

/** A bearer token: printable ASCII without spaces, at least 16 characters (it guards what an attacker could map). */
export function parseMetricsToken(value: string | undefined, name = 'METRICS_TOKEN'): string | null {
  const raw = (value ?? '').trim();
  if (raw === '') return null;
  if (!/^[\x21-\x7e]{16,}$/.test(raw))
    throw new ConfigError(`${name} must be at least 16 printable characters without spaces`);
  return raw;
}

/** Absent, empty or `off`: no metrics listener; otherwise a port (0 picks a free one, as PORT does). */
export function parseMetricsPort(value: string | undefined, name = 'METRICS_PORT'): number | null {
  const raw = (value ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'off') return null;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(`${name} must be off or a port from 0 to 65535`);
  return Number(raw);
}

/** The OTLP/HTTP endpoint traces go to; absent or empty: no tracing. */
export function parseOtlpEndpoint(value: string | undefined, name = 'OTEL_EXPORTER_OTLP_ENDPOINT'): string | null {
  const raw = (value ?? '').trim();
  if (raw === '') return null;
  httpUrl(raw, name);
  return raw;
}

/** The `ingest` section of the tree (also checked on its own by the ingestion tests). */
export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env): IngestConfig {
  const minIntervalS = intSetting(
    env.INGEST_MIN_INTERVAL,
    'INGEST_MIN_INTERVAL',
    INGEST_DEFAULTS.minIntervalS,
    30,
    86_400,
  );
  const maxIntervalS = intSetting(
    env.INGEST_MAX_INTERVAL,
    'INGEST_MAX_INTERVAL',
    INGEST_DEFAULTS.maxIntervalS,
    30,
    7 * 86_400,
  );
  if (maxIntervalS < minIntervalS) {
    throw new ConfigError(`INGEST_MAX_INTERVAL must not be below INGEST_MIN_INTERVAL (${minIntervalS})`);
  }
  const identifier = (env.BLUESKY_IDENTIFIER ?? '').trim();
  const appPassword = (env.BLUESKY_APP_PASSWORD ?? '').trim();
  if (identifier !== '' && appPassword === '')
    throw new ConfigError('BLUESKY_APP_PASSWORD must be set when BLUESKY_IDENTIFIER is');
  if (appPassword !== '' && identifier === '')
    throw new ConfigError('BLUESKY_IDENTIFIER must be set when BLUESKY_APP_PASSWORD is');
  return {
    enabled: boolSetting(env.INGEST, 'INGEST', true),
    minIntervalS,
    maxIntervalS,
    allowPrivateNetworks: parsePrivateNetworks(env.INGEST_ALLOW_PRIVATE_NETWORKS),
    maxBytes: intSetting(env.INGEST_MAX_BYTES, 'INGEST_MAX_BYTES', INGEST_DEFAULTS.maxBytes, 1024, 1024 * 1024 * 1024),
    timeoutMs: intSetting(env.INGEST_TIMEOUT_MS, 'INGEST_TIMEOUT_MS', INGEST_DEFAULTS.timeoutMs, 100, 600_000),
    hostConcurrency: intSetting(
      env.INGEST_HOST_CONCURRENCY,
      'INGEST_HOST_CONCURRENCY',
      INGEST_DEFAULTS.hostConcurrency,
      1,
      64,
    ),
    maxItems: intSetting(env.INGEST_MAX_ITEMS, 'INGEST_MAX_ITEMS', INGEST_DEFAULTS.maxItems, 1, 10_000),
    parseThreads: intSetting(env.INGEST_PARSE_THREADS, 'INGEST_PARSE_THREADS', INGEST_DEFAULTS.parseThreads, 1, 32),
    bluesky: identifier === '' ? null : { identifier, appPassword },
    changesRetentionDays: intSetting(
      env.CHANGES_RETENTION_DAYS,
      'CHANGES_RETENTION_DAYS',
      INGEST_DEFAULTS.changesRetentionDays,
      1,
      3650,
    ),
  };
}

// ---- media ----

/** Where the media storage is: a folder (MEDIA_DIR) or an S3-compatible bucket (MEDIA_S3_BUCKET). */
export type MediaStorageConfig =
  | {
      kind: 'folder';
      /** MEDIA_DIR; null: `media` beside the SQLite file, or ./data/media (mediaDirOf) */
      dir: string | null;
    }
  | {
      kind: 's3';
      bucket: string;
      /** MEDIA_S3_ENDPOINT: an S3-compatible store's address; null: AWS's own */
      endpoint: string | null;
      region: string;
      /** MEDIA_S3_ACCESS_KEY_ID / MEDIA_S3_SECRET_ACCESS_KEY, both or neither (neither: the SDK's default credentials) */
      accessKeyId: string | null;
      /** a secret: never logged or printed */
      secretAccessKey: string | null;
      forcePathStyle: boolean;
      /** MEDIA_S3_PREFIX: keys are kept under this folder of the bucket; '' for none */
      prefix: string;
    };

export interface MediaConfig {
  /** MEDIA: fetch and store the pictures of posts (off: posts show their original URLs) */
  enabled: boolean;
  storage: MediaStorageConfig;
  /** MEDIA_THREADS: worker threads that decode and encode pictures */
  threads: number;
  /** MEDIA_CONCURRENCY: pictures fetched and processed at once by a worker */
  concurrency: number;
  /** MEDIA_MAX_BYTES: largest picture fetched (after decompression) */
  maxBytes: number;
  /** MEDIA_MAX_PIXELS: a picture with more pixels (one frame) is refused from its header */
  maxPixels: number;
  /** MEDIA_MAX_FRAMES: an animation with more frames keeps its first only */
  maxFrames: number;
  /** MEDIA_TIMEOUT_MS: time cap of one picture's fetch (all redirect hops) */
  timeoutMs: number;
  /** MEDIA_HOST_CONCURRENCY: picture fetches in flight to one host at a time */
  hostConcurrency: number;
  /** MEDIA_MAX_ATTEMPTS: failed attempts after which a picture is given up (failed) */
  maxAttempts: number;
  /** MEDIA_RETRY_MIN_S / MEDIA_RETRY_MAX_S: backoff bounds after a failed attempt */
  retryMinS: number;
  retryMaxS: number;
  /** MEDIA_ACCOUNT_QUOTA_MB, in bytes: what one account's pictures may take in the storage; 0: no limit */
  accountQuotaBytes: number;
  /** MEDIA_TICK_MS: how often a worker looks for pictures to fetch */
  tickMs: number;
}

export const MEDIA_DEFAULTS = {
  threads: 1,
  concurrency: 4,
  maxBytes: 20 * 1024 * 1024,
  maxPixels: 50_000_000,
  maxFrames: 200,
  timeoutMs: 15_000,
  hostConcurrency: 4,
  maxAttempts: 6,
  retryMinS: 60,
  retryMaxS: 3_600,
  accountQuotaMb: 0,
  tickMs: 2_000,
  s3Region: 'us-east-1',
} as const;

/** MEDIA_DIR's default when the store is not an SQLite file. */
export const DEFAULT_MEDIA_DIR = './data/media';

/** The media folder: MEDIA_DIR, else `media` beside the SQLite file, else ./data/media. */
export function mediaDirOf(storage: { dir: string | null }, store: StoreUrl): string {
  if (storage.dir !== null) return storage.dir;
  if (store.kind === 'sqlite' && store.path !== ':memory:') return join(dirname(store.path), 'media');
  return DEFAULT_MEDIA_DIR;
}

function optionalText(value: string | undefined): string | null {
  const raw = (value ?? '').trim();
  return raw === '' ? null : raw;
}

/** MEDIA_S3_BUCKET: an S3 bucket name (S3-compatible stores allow capitals and underscores too). */
export function parseBucket(value: string | undefined, name = 'MEDIA_S3_BUCKET'): string | null {
  const raw = optionalText(value);
  if (raw === null) return null;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/.test(raw))
    throw new ConfigError(
      `${name} must be a bucket name: 2 to 255 letters, digits or . _ - (starting with a letter or digit)`,
    );
  return raw;
}

/** MEDIA_S3_PREFIX: '/'-separated folder names, none empty or starting with a dot; '' for none. */
export function parseKeyPrefix(value: string | undefined, name = 'MEDIA_S3_PREFIX'): string {
  const raw = (value ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (raw === '') return '';
  const ok =
    raw.length <= 512 &&
    !/[\\\u0000-\u001f\u007f]/.test(raw) &&
    raw.split('/').every((segment) => segment !== '' && !segment.startsWith('.'));
  if (!ok) throw new ConfigError(`${name} must be folder names separated by /, none empty or starting with a dot`);
  return raw;
}

export function loadMediaConfig(env: NodeJS.ProcessEnv = process.env): MediaConfig {
  const d = MEDIA_DEFAULTS;
  const retryMinS = intSetting(env.MEDIA_RETRY_MIN_S, 'MEDIA_RETRY_MIN_S', d.retryMinS, 1, 86_400);
  const retryMaxS = intSetting(env.MEDIA_RETRY_MAX_S, 'MEDIA_RETRY_MAX_S', d.retryMaxS, 1, 7 * 86_400);
  if (retryMaxS < retryMinS)
    throw new ConfigError(`MEDIA_RETRY_MAX_S must not be below MEDIA_RETRY_MIN_S (${retryMinS})`);
  const bucket = parseBucket(env.MEDIA_S3_BUCKET);
  const accessKeyId = optionalText(env.MEDIA_S3_ACCESS_KEY_ID);
  const secretAccessKey = optionalText(env.MEDIA_S3_SECRET_ACCESS_KEY);
  if (accessKeyId !== null && secretAccessKey === null)
    throw new ConfigError('MEDIA_S3_SECRET_ACCESS_KEY must be set when MEDIA_S3_ACCESS_KEY_ID is');
  if (secretAccessKey !== null && accessKeyId === null)
    throw new ConfigError('MEDIA_S3_ACCESS_KEY_ID must be set when MEDIA_S3_SECRET_ACCESS_KEY is');
  const endpoint = optionalText(env.MEDIA_S3_ENDPOINT);
  if (endpoint !== null) httpUrl(endpoint, 'MEDIA_S3_ENDPOINT');
  const region = optionalText(env.MEDIA_S3_REGION) ?? d.s3Region;
  if (!/^[a-z0-9-]{1,64}$/.test(region))
    throw new ConfigError('MEDIA_S3_REGION must be a region name: lower-case letters, digits and - (e.g. us-east-1)');
  const dir = optionalText(env.MEDIA_DIR);
  const forcePathStyle = boolSetting(env.MEDIA_S3_FORCE_PATH_STYLE, 'MEDIA_S3_FORCE_PATH_STYLE', false);
  const prefix = parseKeyPrefix(env.MEDIA_S3_PREFIX);
  return {
    enabled: boolSetting(env.MEDIA, 'MEDIA', true),
    storage:
      bucket === null
        ? { kind: 'folder', dir }
        : { kind: 's3', bucket, endpoint, region, accessKeyId, secretAccessKey, forcePathStyle, prefix },
    threads: intSetting(env.MEDIA_THREADS, 'MEDIA_THREADS', d.threads, 1, 32),
    concurrency: intSetting(env.MEDIA_CONCURRENCY, 'MEDIA_CONCURRENCY', d.concurrency, 1, 256),
    maxBytes: intSetting(env.MEDIA_MAX_BYTES, 'MEDIA_MAX_BYTES', d.maxBytes, 1024, 1024 * 1024 * 1024),
    maxPixels: intSetting(env.MEDIA_MAX_PIXELS, 'MEDIA_MAX_PIXELS', d.maxPixels, 1, 1_000_000_000),
    maxFrames: intSetting(env.MEDIA_MAX_FRAMES, 'MEDIA_MAX_FRAMES', d.maxFrames, 1, 10_000),
    timeoutMs: intSetting(env.MEDIA_TIMEOUT_MS, 'MEDIA_TIMEOUT_MS', d.timeoutMs, 100, 600_000),
    hostConcurrency: intSetting(env.MEDIA_HOST_CONCURRENCY, 'MEDIA_HOST_CONCURRENCY', d.hostConcurrency, 1, 64),
    maxAttempts: intSetting(env.MEDIA_MAX_ATTEMPTS, 'MEDIA_MAX_ATTEMPTS', d.maxAttempts, 1, 100),
    retryMinS,
    retryMaxS,
    accountQuotaBytes:
      intSetting(env.MEDIA_ACCOUNT_QUOTA_MB, 'MEDIA_ACCOUNT_QUOTA_MB', d.accountQuotaMb, 0, 100_000_000) * 1024 * 1024,
    tickMs: intSetting(env.MEDIA_TICK_MS, 'MEDIA_TICK_MS', d.tickMs, 50, 600_000),
  };
}

// ---- moderation providers ----

/**
 * A secret that stays out of logs and printed configuration: it reads as
 * `[redacted]` in JSON, in `util.inspect` (console.log, pino's serializers)
 * and as a string; only `reveal()` gives it.
 */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[redacted]';
  }
}

/** One moderation provider, as MODERATION_PROVIDERS configures it. */
export interface ProviderConfig {
  /** what rules name it by: lower-case letters, digits, - and _ */
  name: string;
  protocol: ProviderProtocol;
  /** openai: the server without /v1/moderations; http: the URL posted to */
  url: string;
  /** sent as `Authorization: Bearer …`; never logged or printed */
  apiKey: Secret | null;
  /** the model asked for (openai), or what to call it when the answer does not say (http) */
  model: string;
  /** openai: send the post's pictures too (multimodal models) */
  pictures: boolean;
  timeoutMs: number;
  /** failures in a row that open the circuit (no calls) … */
  failuresToOpen: number;
  /** … for this long, then one call tries again */
  openForMs: number;
  /** calls a day (UTC) per instance; 0: no limit */
  dailyBudget: number;
}

export interface ModerationConfig {
  providers: ProviderConfig[];
}

export const PROVIDER_DEFAULTS = {
  openaiModel: 'omni-moderation-latest',
  httpModel: 'http',
  timeoutMs: 5_000,
  failuresToOpen: 5,
  openForMs: 60_000,
  dailyBudget: 0,
} as const;

const PROVIDER_FIELDS = [
  'name',
  'protocol',
  'url',
  'apiKey',
  'model',
  'pictures',
  'timeoutMs',
  'failuresToOpen',
  'openForMs',
  'dailyBudget',
];

/**
 * MODERATION_PROVIDERS: a JSON array of providers, each
 * `{ "name", "protocol": "openai" | "http", "url", "apiKey"?, "model"?, "pictures"?, "timeoutMs"?,
 * "failuresToOpen"?, "openForMs"?, "dailyBudget"? }`. Errors name the provider and the field, never
 * echo the value (it may hold a key).
 */
export function parseModerationProviders(value: string | undefined, name = 'MODERATION_PROVIDERS'): ProviderConfig[] {
  const raw = (value ?? '').trim();
  if (raw === '') return [];
  const shape = `${name} must be a JSON array of providers ({ "name", "protocol": "openai" or "http", "url", … })`;
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${shape} (bad: not JSON)`);
  }
  if (!Array.isArray(list)) throw new ConfigError(shape);
  const seen = new Set<string>();
  return list.map((item: unknown, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new ConfigError(`${shape}: item ${i + 1} is not an object`);
    const p = item as Record<string, unknown>;
    const where = `${name} item ${i + 1}`;
    const unknown = Object.keys(p).filter((k) => !PROVIDER_FIELDS.includes(k));
    if (unknown.length > 0)
      throw new ConfigError(`${where}: unknown field ${unknown.join(', ')} (known: ${PROVIDER_FIELDS.join(', ')})`);
    if (typeof p.name !== 'string' || !PROVIDER_NAME.test(p.name))
      throw new ConfigError(`${where}: name must be 1 to 40 lower-case letters, digits, - or _`);
    const label = `${name} provider ${p.name}`;
    if (seen.has(p.name)) throw new ConfigError(`${label}: the name is used twice`);
    seen.add(p.name);
    if (!(PROVIDER_PROTOCOLS as readonly unknown[]).includes(p.protocol))
      throw new ConfigError(`${label}: protocol must be ${PROVIDER_PROTOCOLS.join(' or ')}`);
    const protocol = p.protocol as ProviderProtocol;
    if (typeof p.url !== 'string') throw new ConfigError(`${label}: url must be an http:// or https:// URL`);
    const url = httpUrl(p.url.trim(), `${label}: url`);
    if (url.username !== '' || url.password !== '')
      throw new ConfigError(`${label}: url must not hold credentials (give apiKey)`);
    if (p.apiKey !== undefined && (typeof p.apiKey !== 'string' || p.apiKey.trim() === ''))
      throw new ConfigError(`${label}: apiKey must be a non-empty string`);
    const defaultModel = protocol === 'openai' ? PROVIDER_DEFAULTS.openaiModel : PROVIDER_DEFAULTS.httpModel;
    if (p.model !== undefined && (typeof p.model !== 'string' || p.model.trim() === '' || p.model.length > 200))
      throw new ConfigError(`${label}: model must be a name of 1 to 200 characters`);
    if (p.pictures !== undefined && typeof p.pictures !== 'boolean')
      throw new ConfigError(`${label}: pictures must be true or false`);
    const int = (field: string, fallback: number, min: number, max: number): number => {
      const v = p[field];
      if (v === undefined) return fallback;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
        throw new ConfigError(`${label}: ${field} must be an integer from ${min} to ${max}`);
      return v;
    };
    const d = PROVIDER_DEFAULTS;
    return {
      name: p.name,
      protocol,
      url: url.href,
      apiKey: typeof p.apiKey === 'string' ? new Secret(p.apiKey.trim()) : null,
      model: typeof p.model === 'string' ? p.model.trim() : defaultModel,
      pictures: p.pictures === true,
      timeoutMs: int('timeoutMs', d.timeoutMs, 100, 600_000),
      failuresToOpen: int('failuresToOpen', d.failuresToOpen, 1, 1000),
      openForMs: int('openForMs', d.openForMs, 1000, 86_400_000),
      dailyBudget: int('dailyBudget', d.dailyBudget, 0, 100_000_000),
    };
  });
}

export function loadModerationConfig(env: NodeJS.ProcessEnv = process.env): ModerationConfig {
  return { providers: parseModerationProviders(env.MODERATION_PROVIDERS) };
}

// ---- the configuration reference: every variable, its default, its meaning ----

/**
 * One environment variable as docs/reference/configuration.md shows it (that
 * page is generated from SETTINGS by `npm run gen:docs`; the values each one
 * accepts are taken from the parsers above, by what they refuse).
 */
export interface SettingDoc {
  name: string;
  section: SettingSection;
  /** what applies when it is unset, as shown; null: nothing (the feature is off or needs no value) */
  default: string | null;
  meaning: string;
  /** read by the CLI itself rather than by loadConfig() */
  readByCli?: true;
}

export const SETTING_SECTIONS = [
  'Server',
  'Store',
  'Redis and caches',
  'CDN',
  'Management API',
  'Embed API and analytics',
  'Feed ingestion',
  'Media',
  'Moderation',
  'Webhooks',
  'Connections',
  'Rights management',
  'Shutdown',
  'Metrics and tracing',
  'Command line',
] as const;
export type SettingSection = (typeof SETTING_SECTIONS)[number];

export const SETTINGS: readonly SettingDoc[] = [
  // Server
  {
    name: 'PORT',
    section: 'Server',
    default: '3000',
    meaning: 'Port to listen on (0 picks a free one).',
  },
  { name: 'HOST', section: 'Server', default: '0.0.0.0', meaning: 'Address to bind.' },
  {
    name: 'NODE_ENV',
    section: 'Server',
    default: null,
    meaning: '`production` makes `serve` run a worker per core unless `WORKERS` or `--workers` says otherwise.',
  },
  {
    name: 'WORKERS',
    section: 'Server',
    default: null,
    meaning:
      '`serve` processes sharing the one listening socket (`--workers` overrides it). Unset: the number of cores with `NODE_ENV=production`, else 1; `start` (the demo) runs one unless `--workers` asks. Caches, quotas and rate limits stay exact across them; background jobs run in the first. See [Scaling out](../guides/scale-out.md#workers-every-core-of-one-machine).',
  },
  {
    name: 'PUBLIC_URL',
    section: 'Server',
    default: null,
    meaning:
      "The URL people reach this instance at (e.g. `https://walls.example`): printed URLs and the demo data's pictures use it. Unset: `http://localhost:PORT` with the port actually listened on.",
  },
  {
    name: 'LANDING_REDIRECT',
    section: 'Server',
    default: null,
    meaning:
      'Where a browser opening `/` is sent (302), e.g. your product site, instead of the start page. API clients still get the 404 envelope at `/`.',
  },
  {
    name: 'WEB_SOURCE_MAPS',
    section: 'Server',
    default: 'off',
    meaning:
      '`public` serves the source maps of the embed script and the console (linked by a `SourceMap` header) for debugging in production; `off` keeps them private: the built files name no map and `.map` URLs are 404.',
  },
  {
    name: 'TRUST_PROXY',
    section: 'Server',
    default: 'off',
    meaning:
      "Which proxies' `X-Forwarded-For` is believed for the client's address (embed per-IP limit, logs): `off`, `on` (any), a number of proxy hops (`1`), or a comma-separated list of proxy addresses/CIDR ranges.",
  },
  {
    name: 'LOG_LEVEL',
    section: 'Server',
    default: 'info',
    meaning: 'How much is logged. Logs are JSON (pino); user keys in URLs are redacted.',
  },
  // Store
  {
    name: 'DATABASE_URL',
    section: 'Store',
    default: DEFAULT_DATABASE_PATH,
    meaning: 'A file path or `file:` URL selects embedded SQLite (WAL mode); a `postgres://` URL selects PostgreSQL.',
  },
  {
    name: 'DATABASE_POOL_SIZE',
    section: 'Store',
    default: String(DEFAULT_DATABASE_OPTIONS.poolSize),
    meaning: 'PostgreSQL connections per instance.',
  },
  {
    name: 'DATABASE_STATEMENT_TIMEOUT_MS',
    section: 'Store',
    default: String(DEFAULT_DATABASE_OPTIONS.statementTimeoutMs),
    meaning: 'PostgreSQL `statement_timeout` (0 = none): a stuck query fails instead of holding a request.',
  },
  {
    name: 'DATABASE_CONNECT_TIMEOUT_MS',
    section: 'Store',
    default: String(DEFAULT_DATABASE_OPTIONS.connectTimeoutMs),
    meaning: 'How long a request waits for a PostgreSQL connection before it is answered 503.',
  },
  {
    name: 'DATABASE_CONNECT_RETRIES',
    section: 'Store',
    default: String(DEFAULT_DATABASE_OPTIONS.connectRetries),
    meaning: 'Start-up attempts to reach the store (exponential backoff, 0.25–5 s) before giving up.',
  },
  {
    name: 'DATABASE_BUSY_TIMEOUT_MS',
    section: 'Store',
    default: String(DEFAULT_DATABASE_OPTIONS.busyTimeoutMs),
    meaning:
      'SQLite: how long a write waits for another process\'s write (a CLI command, `wallery worker`, another server) before giving up: the API answers 503, a CLI command fails with "the database is busy". 0 = do not wait.',
  },
  {
    name: 'PG_BIN_DIR',
    section: 'Store',
    default: null,
    meaning:
      "PostgreSQL: the absolute folder holding `pg_dump` and `pg_restore` for `wallery backup`/`restore` (e.g. `/usr/lib/postgresql/16/bin`); unset, they are looked up on `PATH`. `pg_dump` must be of the server's major version or later.",
  },
  // Redis and caches
  {
    name: 'REDIS_URL',
    section: 'Redis and caches',
    default: null,
    meaning:
      '`redis://…`: daily quota counters shared by all instances (one atomic count). Optional with SQLite, recommended with several PostgreSQL instances (without it each instance reserves quota blocks from the store). Cache invalidation does not use it.',
  },
  {
    name: 'REDIS_KEY_PREFIX',
    section: 'Redis and caches',
    default: 'wallery',
    meaning: 'Prefix of every Redis key, so several deployments can share one Redis.',
  },
  {
    name: 'RESPONSE_CACHE_MB',
    section: 'Redis and caches',
    default: String(DEFAULT_RESPONSE_CACHE_MB),
    meaning: 'Memory for rendered v2 reads (0 = off).',
  },
  {
    name: 'FRAGMENT_CACHE_MB',
    section: 'Redis and caches',
    default: String(DEFAULT_FRAGMENT_CACHE_MB),
    meaning:
      'Memory for rendered posts reused across list pages and filters (0 = off); see [Performance](../performance.md).',
  },
  {
    name: 'CACHE_TTL_MS',
    section: 'Redis and caches',
    default: String(DEFAULT_CACHE_TTL_MS),
    meaning:
      'Longest life of a cached key lookup or rendered v2 read. Writes are announced to every instance at once; this bounds how stale an answer can be if an announcement is lost.',
  },
  // CDN
  {
    name: 'CDN_PURGE',
    section: 'CDN',
    default: null,
    meaning:
      'Where every change is purged by tag, comma-separated: `varnish:URL` (an HTTP `BAN` with `Surrogate-Key`, as [deploy/varnish/wallery.vcl](../operations/cdn.md) takes), `cloudflare:ZONE_ID`, `fastly:SERVICE_ID`, `bunny:PULL_ZONE_ID`. See [CDN](../operations/cdn.md).',
  },
  {
    name: 'CDN_CLOUDFLARE_TOKEN',
    section: 'CDN',
    default: null,
    meaning: 'API token with the Cache Purge permission, for a `cloudflare:` target. A secret: never logged.',
  },
  {
    name: 'CDN_FASTLY_KEY',
    section: 'CDN',
    default: null,
    meaning: 'API token allowed to purge (`purge_select`), for a `fastly:` target. A secret: never logged.',
  },
  {
    name: 'CDN_BUNNY_KEY',
    section: 'CDN',
    default: null,
    meaning: 'Account API key, for a `bunny:` target. A secret: never logged.',
  },
  {
    name: 'CDN_MAX_AGE',
    section: 'CDN',
    default: String(DEFAULT_SHARED_MAX_AGE),
    meaning: `Seconds a CDN keeps an embed answer or a hosted page (\`s-maxage\`); browsers keep them 5 s at most. Unset with CDN_PURGE set: ${DEFAULT_PURGED_SHARED_MAX_AGE}, since every change then purges what it touched.`,
  },
  {
    name: 'CDN_TAG_PREFIX',
    section: 'CDN',
    default: DEFAULT_TAG_PREFIX,
    meaning:
      'Prefix of the cache tags (`wallery`, `wallery-a<account>`, `wallery-w<wall>`), so several deployments can share one CDN zone.',
  },
  // Management API
  {
    name: 'MANAGE_WRITE_RATE_LIMIT',
    section: 'Management API',
    default: String(DEFAULT_MANAGE_WRITE_RATE_LIMIT),
    meaning:
      'Management API writes per minute per operator token (0 = no limit); one more is a 429 with `Retry-After`. Counted in Redis for all instances when `REDIS_URL` is set, per instance otherwise. The CLI is not limited.',
  },
  // Embed API and analytics
  {
    name: 'EMBED_MAX_STREAMS',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.maxStreams),
    meaning: 'Open embed streams (SSE) per instance; one more is answered 503 and the page polls instead.',
  },
  {
    name: 'EMBED_MAX_STREAMS_PER_CLIENT',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.maxStreamsPerClient),
    meaning:
      'Open embed streams per client (an IPv4 address or an IPv6 /64) per instance (0 = no limit); one more is answered 429 and that page polls instead. Six is what one browser holds to one host over HTTP/1.1.',
  },
  {
    name: 'EMBED_HEARTBEAT_MS',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.heartbeatMs),
    meaning: 'Milliseconds between `: ping` comments on an open embed stream, so proxies keep it open.',
  },
  {
    name: 'EMBED_REPLAY_EVENTS',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.replayEvents),
    meaning: "Events of each wall's stream kept for a reconnect with `Last-Event-ID`; an older id gets a `reset`.",
  },
  {
    name: 'EMBED_STREAM_WINDOW',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.streamWindow),
    meaning:
      "How many of a wall's first posts (W2 order) its stream watches for changes: a change to an older post shows on a visitor's next read.",
  },
  {
    name: 'EMBED_RATE_LIMIT_PER_KEY',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.rateLimitPerKey),
    meaning:
      'Embed reads the response cache cannot answer (pages after the first), per window per publishable key (0 = no limit); the wall and its first pages never count. Counted in Redis for all instances when `REDIS_URL` is set, per instance otherwise.',
  },
  {
    name: 'EMBED_RATE_LIMIT_PER_IP',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.rateLimitPerIp),
    meaning:
      'Embed API requests per window per client (an IPv4 address or an IPv6 /64) (0 = no limit); shared like the per-key limit. Behind a proxy set `TRUST_PROXY`, or every visitor is the proxy.',
  },
  {
    name: 'EMBED_RATE_LIMIT_WINDOW_MS',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.rateLimitWindowMs),
    meaning: "The embed rate limits' window, in milliseconds.",
  },
  {
    name: 'ANALYTICS_RATE_LIMIT_PER_IP',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.analyticsRateLimitPerIp),
    meaning:
      'Analytics beacons (`POST /api/embed/v1/events`) per window per client IP address (0 = no limit); in Redis with `REDIS_URL`, the address kept as a digest.',
  },
  {
    name: 'ANALYTICS_RATE_LIMIT_PER_KEY',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.analyticsRateLimitPerKey),
    meaning: 'Analytics beacons per window per publishable key (0 = no limit); apart from the embed read limits.',
  },
  {
    name: 'ANALYTICS_RATE_LIMIT_WINDOW_MS',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.analyticsRateLimitWindowMs),
    meaning: "The analytics rate limits' window, in milliseconds.",
  },
  {
    name: 'ANALYTICS_FLUSH_MS',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.analyticsFlushMs),
    meaning:
      'How often summed analytics counts are written to the store, in milliseconds: what a `kill -9` can lose at most.',
  },
  {
    name: 'ANALYTICS_DEDUPE_TTL_MS',
    section: 'Embed API and analytics',
    default: String(DEFAULT_EMBED_CONFIG.analyticsDedupeTtlMs),
    meaning:
      "How long a beacon, and a page view's impressions and wall load, are remembered to drop repeats, in milliseconds.",
  },
  // Feed ingestion
  {
    name: 'INGEST',
    section: 'Feed ingestion',
    default: 'on',
    meaning: '`off` stops feed ingestion inside `serve` (run `wallery worker` instead, or nothing).',
  },
  {
    name: 'INGEST_MIN_INTERVAL',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.minIntervalS),
    meaning: "Lower bound of each feed's adaptive poll interval, in seconds.",
  },
  {
    name: 'INGEST_MAX_INTERVAL',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.maxIntervalS),
    meaning: "Upper bound of each feed's adaptive poll interval, in seconds; not below `INGEST_MIN_INTERVAL`.",
  },
  {
    name: 'INGEST_ALLOW_PRIVATE_NETWORKS',
    section: 'Feed ingestion',
    default: 'off',
    meaning:
      '`on` lets ingestion reach loopback, private and other non-global addresses (a feed on `localhost` needs it); or a comma-separated list of CIDR ranges to allow only those (e.g. `10.20.0.0/16`). Webhooks do not take it: see `WEBHOOK_ALLOW_PRIVATE_NETWORKS`.',
  },
  {
    name: 'INGEST_MAX_BYTES',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.maxBytes),
    meaning:
      "Largest upstream response body (after decompression). It also caps each parse thread's heap (4 × this + 64 MB): a document that would need more fails its poll.",
  },
  {
    name: 'INGEST_MAX_ITEMS',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.maxItems),
    meaning:
      'Most posts one poll of a feed keeps: the newest. This is also the first-poll cap: a new feed with a long history starts with its newest posts, not its whole archive. RSS/Atom items are ranked by date (undated ones last) and only that many are ever held while a feed is read; Mastodon, Bluesky and Lemmy paging stops there.',
  },
  {
    name: 'INGEST_PARSE_THREADS',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.parseThreads),
    meaning:
      'Worker threads that decode, parse, sanitize and normalize upstream responses, off the thread that serves the API. None runs before the first poll; an idle one ends after 60 s.',
  },
  {
    name: 'INGEST_TIMEOUT_MS',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.timeoutMs),
    meaning: 'Time cap of one upstream request, redirects included.',
  },
  {
    name: 'INGEST_HOST_CONCURRENCY',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.hostConcurrency),
    meaning: 'Upstream requests in flight to one host at a time.',
  },
  {
    name: 'CHANGES_RETENTION_DAYS',
    section: 'Feed ingestion',
    default: String(INGEST_DEFAULTS.changesRetentionDays),
    meaning:
      'How long the change log behind the change feed (and webhooks) keeps a change, in days. The worker (`wallery worker`, or `serve` with ingestion on) prunes older ones hourly; a change-feed cursor older than that gets 410.',
  },
  {
    name: 'BLUESKY_IDENTIFIER',
    section: 'Feed ingestion',
    default: null,
    meaning:
      'A Bluesky handle, for `bluesky` feeds that follow a hashtag; set with `BLUESKY_APP_PASSWORD` (both or neither).',
  },
  {
    name: 'BLUESKY_APP_PASSWORD',
    section: 'Feed ingestion',
    default: null,
    meaning: "The app password of `BLUESKY_IDENTIFIER`'s account (both or neither).",
  },
  // Media
  {
    name: 'MEDIA',
    section: 'Media',
    default: 'on',
    meaning:
      "`off`: the pictures of posts are not copied; posts show their original URLs. On, each post's pictures (item pictures, video posters, avatars) are fetched by the worker that polls feeds (`serve` with `INGEST` on, or `wallery worker`), made upright, stripped of all metadata (EXIF, GPS), measured, given a placeholder and WebP renditions, and stored under the hash of their bytes: Wallery serves its own copies.",
  },
  {
    name: 'MEDIA_DIR',
    section: 'Media',
    default: null,
    meaning:
      'The folder the pictures are stored in (unless `MEDIA_S3_BUCKET` is set); unset: `media` beside the SQLite file (`./data/media` by default), or `./data/media` with PostgreSQL. Several instances must share it (a network file system), or use S3. Back it up with the database: see [Backups](../operations/backups.md).',
  },
  {
    name: 'MEDIA_S3_BUCKET',
    section: 'Media',
    default: null,
    meaning:
      'Set: the pictures are stored in this S3 (or S3-compatible: MinIO, Ceph, R2, …) bucket instead of `MEDIA_DIR`.',
  },
  {
    name: 'MEDIA_S3_ENDPOINT',
    section: 'Media',
    default: null,
    meaning: "An S3-compatible store's address (`https://minio.internal:9000`); unset: AWS's own.",
  },
  {
    name: 'MEDIA_S3_REGION',
    section: 'Media',
    default: MEDIA_DEFAULTS.s3Region,
    meaning: "The bucket's region (S3-compatible stores mostly accept any).",
  },
  {
    name: 'MEDIA_S3_ACCESS_KEY_ID',
    section: 'Media',
    default: null,
    meaning:
      "With `MEDIA_S3_SECRET_ACCESS_KEY` (both or neither): the credentials of the bucket; neither: the AWS SDK's default chain (environment, profile, instance role).",
  },
  {
    name: 'MEDIA_S3_SECRET_ACCESS_KEY',
    section: 'Media',
    default: null,
    meaning: 'The secret of `MEDIA_S3_ACCESS_KEY_ID`. Never logged or printed.',
  },
  {
    name: 'MEDIA_S3_FORCE_PATH_STYLE',
    section: 'Media',
    default: 'off',
    meaning:
      '`on`: `https://host/bucket/key` addresses instead of `https://bucket.host/key`, as most self-hosted stores need.',
  },
  {
    name: 'MEDIA_S3_PREFIX',
    section: 'Media',
    default: null,
    meaning: 'A folder of the bucket the pictures are kept under (`wallery/media`), so a bucket can be shared.',
  },
  {
    name: 'MEDIA_THREADS',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.threads),
    meaning:
      'Worker threads that decode and encode pictures, off the thread that serves the API. With more than 2, start the process with `UV_THREADPOOL_SIZE` of at least this + 4.',
  },
  {
    name: 'MEDIA_CONCURRENCY',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.concurrency),
    meaning: 'Pictures a worker fetches and processes at once (processing waits for a free thread).',
  },
  {
    name: 'MEDIA_MAX_BYTES',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.maxBytes),
    meaning: 'Largest picture fetched, in bytes (after decompression); a larger one is refused.',
  },
  {
    name: 'MEDIA_MAX_PIXELS',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.maxPixels),
    meaning:
      'A picture with more pixels (width × height of one frame) is refused, read from its header before any decoding (decompression bombs).',
  },
  {
    name: 'MEDIA_MAX_FRAMES',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.maxFrames),
    meaning: 'An animation with more frames keeps its first frame only.',
  },
  {
    name: 'MEDIA_TIMEOUT_MS',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.timeoutMs),
    meaning: "Time cap of one picture's fetch, redirects included.",
  },
  {
    name: 'MEDIA_HOST_CONCURRENCY',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.hostConcurrency),
    meaning:
      "Picture fetches in flight to one host at a time. The SSRF guard is the feeds' one: `INGEST_ALLOW_PRIVATE_NETWORKS` lets pictures come from non-global addresses too.",
  },
  {
    name: 'MEDIA_MAX_ATTEMPTS',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.maxAttempts),
    meaning:
      'Failed attempts (network errors, HTTP errors, timeouts) after which a picture is given up (`failed`); `wallery media retry` puts failed pictures back. Refused pictures (not a picture, SVG, too large, too many pixels) are never retried.',
  },
  {
    name: 'MEDIA_RETRY_MIN_S',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.retryMinS),
    meaning:
      'Backoff after a failed attempt, in seconds: from this, doubling, capped at `MEDIA_RETRY_MAX_S`, with jitter.',
  },
  {
    name: 'MEDIA_RETRY_MAX_S',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.retryMaxS),
    meaning: 'The longest backoff between two attempts, in seconds; not below `MEDIA_RETRY_MIN_S`.',
  },
  {
    name: 'MEDIA_ACCOUNT_QUOTA_MB',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.accountQuotaMb),
    meaning:
      'What one account’s pictures may take in the storage, in MB (0 = no limit): each distinct stored picture its posts show, counted once. Past it a new picture is `failed` with the reason "the account’s media quota (N MB) is used up"; after raising it or a `wallery media gc`, `wallery media retry` fetches them.',
  },
  {
    name: 'MEDIA_TICK_MS',
    section: 'Media',
    default: String(MEDIA_DEFAULTS.tickMs),
    meaning: 'How often a worker looks for pictures to fetch, in milliseconds.',
  },
  // Webhooks
  {
    name: 'WEBHOOKS',
    section: 'Webhooks',
    default: 'on',
    meaning: '`off` stops webhook delivery inside `serve` (`wallery worker` always delivers).',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
    section: 'Webhooks',
    default: 'off',
    meaning:
      "`INGEST_ALLOW_PRIVATE_NETWORKS`'s syntax, for webhook deliveries, tests and replays (checked when a webhook is made or changed too): off, `on`, or CIDR ranges. Whoever may edit a webhook picks its address, so allow only the ranges your receivers are in (see [Security](../security.md)).",
  },
  {
    name: 'WEBHOOK_SECRET_KEY',
    section: 'Webhooks',
    default: null,
    meaning:
      'The older name of `SECRET_KEY`, still read: either may be set (both: the same key). 32 bytes in base64 (`openssl rand -base64 32`): signing secrets are encrypted with it (AES-256-GCM) in the store; secrets stored plain before it was set are encrypted when `serve`, `start` or the worker starts. Unset while webhooks exist: a warning at start. Changing it makes the stored secrets unreadable (rotate them).',
  },
  {
    name: 'WEBHOOK_TICK_MS',
    section: 'Webhooks',
    default: String(WEBHOOK_DEFAULTS.tickMs),
    meaning: 'How often a worker looks for endpoints with events to send, in milliseconds.',
  },
  {
    name: 'WEBHOOK_RETRY_MIN_S',
    section: 'Webhooks',
    default: String(WEBHOOK_DEFAULTS.retryMinS),
    meaning:
      'Backoff after a failed delivery, in seconds: from this, doubling, capped at `WEBHOOK_RETRY_MAX_S`, with jitter.',
  },
  {
    name: 'WEBHOOK_RETRY_MAX_S',
    section: 'Webhooks',
    default: String(WEBHOOK_DEFAULTS.retryMaxS),
    meaning: 'The longest backoff between two attempts, in seconds; not below `WEBHOOK_RETRY_MIN_S`.',
  },
  {
    name: 'WEBHOOK_GIVE_UP_S',
    section: 'Webhooks',
    default: String(WEBHOOK_DEFAULTS.giveUpS),
    meaning: 'How long one event is retried, in seconds (3 days), before its endpoint is disabled.',
  },
  {
    name: 'WEBHOOK_TIMEOUT_MS',
    section: 'Webhooks',
    default: String(WEBHOOK_DEFAULTS.timeoutMs),
    meaning: 'Time cap of one delivery.',
  },
  {
    name: 'WEBHOOK_LEASE_MS',
    section: 'Webhooks',
    default: String(WEBHOOK_DEFAULTS.leaseMs),
    meaning:
      'How long a worker holds an endpoint; must exceed `WEBHOOK_TIMEOUT_MS`. A worker that dies is replaced after this.',
  },
  {
    name: 'WEBHOOK_LOG_RETENTION_DAYS',
    section: 'Webhooks',
    default: String(WEBHOOK_DEFAULTS.logRetentionDays),
    meaning: 'How long the delivery log keeps an attempt, in days; workers prune older ones hourly.',
  },
  // Connections
  {
    name: 'SECRET_KEY',
    section: 'Connections',
    default: null,
    meaning:
      "32 bytes in base64 (`openssl rand -base64 32`): the key of the secret box that encrypts connections' tokens and API keys and webhook signing secrets (AES-256-GCM) in the store. Unset: connections use a key made once into `SECRET_KEY_FILE` (webhook secrets stay as `WEBHOOK_SECRET_KEY` says). Changing it makes the stored secrets unreadable (reconnect, rotate). See [Security](../security.md).",
  },
  {
    name: 'SECRET_KEY_FILE',
    section: 'Connections',
    default: null,
    meaning:
      'Default: `secret.key` beside the SQLite file (`./data/secret.key`). Without `SECRET_KEY`: where the key of connections is kept — made at the first need (32 random bytes, mode 0600) and read from then on by every process of the instance. With PostgreSQL there is no default: set `SECRET_KEY` (or this, on a disk every instance shares), else storing a connection is refused. Back it up apart from the database: a backup without it cannot open the connections.',
  },
  {
    name: 'CONNECTION_EXPIRY_WARN_DAYS',
    section: 'Connections',
    default: String(CONNECTION_DEFAULTS.expiryWarnDays),
    meaning: 'Days before a token expires that the `connection.expiring` webhook is sent, once per expiry (1–90).',
  },
  {
    name: 'CONNECTION_EXPIRY_CHECK_MS',
    section: 'Connections',
    default: String(CONNECTION_DEFAULTS.expiryCheckMs),
    meaning: 'How often a worker looks for tokens expiring within `CONNECTION_EXPIRY_WARN_DAYS`, in milliseconds.',
  },
  // Moderation
  {
    name: 'MODERATION_PROVIDERS',
    section: 'Moderation',
    default: null,
    meaning:
      'The moderation providers `provider` rules may ask, as a JSON array: each `{ "name": "openai", "protocol": "openai", "url": "https://api.openai.com", "apiKey": "sk-…", "model": "omni-moderation-latest" }`, with optionally `pictures` (true: send the pictures too), `timeoutMs` (default ' +
      `${PROVIDER_DEFAULTS.timeoutMs}), \`failuresToOpen\` (default ${PROVIDER_DEFAULTS.failuresToOpen}), \`openForMs\` (default ${PROVIDER_DEFAULTS.openForMs}) and \`dailyBudget\` (calls a day per instance; default 0: no limit). ` +
      'Protocols: `openai` (POST `{url}/v1/moderations`) and `http` (POST the post to `url`, read labels and scores). The key is never logged or printed. Asked by the process that polls feeds. See [Moderation and rules](../guides/moderation-and-rules.md#moderation-providers-a-bigger-model-over-http).',
  },
  // Connections, OAuth: three settings per app of the operator's
  ...OAUTH_APPS.flatMap((app): SettingDoc[] => {
    const prefix = `OAUTH_${app.toUpperCase()}`;
    const { title, console: where, networks } = OAUTH_APP_INFO[app];
    return [
      {
        name: `${prefix}_CLIENT_ID`,
        section: 'Connections',
        default: null,
        meaning: `The client id of your ${title} app (${where}): the console's Connect button for ${networks} signs in with it. Register \`<PUBLIC_URL>/connect/callback\` as its redirect URI. See [Connecting networks with OAuth](../guides/connections-oauth.md).`,
      },
      {
        name: `${prefix}_CLIENT_SECRET`,
        section: 'Connections',
        default: null,
        meaning: `The client secret of that app; set with \`${prefix}_CLIENT_ID\` (one alone is refused). Never logged or shown.`,
      },
      {
        name: `${prefix}_BASE_URL`,
        section: 'Connections',
        default: null,
        meaning: `An http(s) origin that serves every endpoint of ${networks} (sign-in page, token, API) under the same paths: for a test or self-hosted server. Unset: the network's own.`,
      },
    ];
  }),
  // Rights management
  {
    name: 'RIGHTS_TICK_SECONDS',
    section: 'Rights management',
    default: String(RIGHTS_DEFAULTS.tickS),
    meaning:
      'How often the rights watcher (beside feed ingestion: `serve` with `INGEST` on, `wallery worker`) ticks, in seconds: it expires unanswered requests, asks for the posts the walls’ asking rules pick, and reads the requests due. An answer heard shows on a wall that requires rights within one tick.',
  },
  {
    name: 'RIGHTS_LISTEN_SECONDS',
    section: 'Rights management',
    default: String(RIGHTS_DEFAULTS.listenS),
    meaning:
      'How often a request waiting for its author’s answer is read, in seconds. Networks with tight API limits are read at their own, slower pace (X and YouTube every 15 minutes, Threads and Reddit every 5) when that is longer.',
  },
  {
    name: 'RIGHTS_REPORT_FONT',
    section: 'Rights management',
    default: null,
    meaning:
      'A TrueType or OpenType font file (`.ttf`, `.otf`) the evidence report’s PDF draws the authors’ names and texts with, e.g. a Noto font for the scripts your authors write in (CJK, Indic, Thai). Unset: DejaVu Sans, shipped with Wallery — every Latin accent, Greek, Cyrillic, Armenian, Georgian, Hebrew, basic Arabic; a character the font cannot draw comes out as `?` (the JSON and CSV keep every character). A file that cannot be read, or is no font, stops the server’s start (and the CLI’s PDF) with the reason. See [Rights](../guides/rights.md#the-evidence-report).',
  },
  // Shutdown
  {
    name: 'SHUTDOWN_DELAY_MS',
    section: 'Shutdown',
    default: String(SHUTDOWN_DEFAULTS.delayMs),
    meaning:
      'After SIGTERM/SIGINT, how long `serve` keeps serving while `/readyz` answers 503, before it stops accepting: longer than your balancer takes to notice. See [Running](../operations/running.md).',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    section: 'Shutdown',
    default: String(SHUTDOWN_DEFAULTS.timeoutMs),
    meaning:
      'After that delay, how long in-flight requests, polls and deliveries get to finish; past it the process exits 1. See [Running](../operations/running.md).',
  },
  // Metrics and tracing
  {
    name: 'METRICS',
    section: 'Metrics and tracing',
    default: 'on',
    meaning: '`off` removes `GET /metrics` (404); see [Metrics](../operations/metrics.md).',
  },
  {
    name: 'METRICS_TOKEN',
    section: 'Metrics and tracing',
    default: null,
    meaning: 'When set, `/metrics` needs `Authorization: Bearer <token>`; otherwise 401.',
  },
  {
    name: 'METRICS_PORT',
    section: 'Metrics and tracing',
    default: 'off',
    meaning:
      '`wallery worker` serves `/metrics` on this port (on `HOST`; 0 picks a free one), with the same token rule.',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    section: 'Metrics and tracing',
    default: null,
    meaning:
      "An http(s) URL: OpenTelemetry tracing on, spans exported over OTLP there; the other `OTEL_*` settings are the SDK's own.",
  },
  // Command line
  {
    name: 'WALLERY_DEBUG',
    section: 'Command line',
    default: 'off',
    meaning:
      "`1`: a failing CLI command also prints the error's stack trace after its one-line message (for bug reports).",
    readByCli: true,
  },
];
