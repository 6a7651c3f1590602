// Configuration from the environment, validated once at start.
// A bad value throws a ConfigError whose message names the variable; the CLI
// prints that one line and exits non-zero.

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

export interface Config {
  store: StoreUrl;
  database: DatabaseOptions;
  /** redis:// URL; holds the daily quota counters shared by every instance */
  redisUrl: string | null;
  /** prefix of every Redis key, so deployments can share one Redis */
  redisPrefix: string;
  /** memory for rendered v2 reads; 0 turns the response cache off */
  responseCacheBytes: number;
  /**
   * Longest life of a cached key lookup or rendered read (ms): how stale an
   * answer can be at most, even when the notification of a change was lost.
   */
  cacheTtlMs: number;
  port: number;
  host: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** the embed API (publishable keys, SSE streams) */
  embed: EmbedConfig;
}

export interface EmbedConfig {
  /** open SSE streams per instance; one more is a 503 */
  maxStreams: number;
  /** ms between `: ping` comments on an open stream */
  heartbeatMs: number;
  /** requests per window per publishable key (0: no limit) */
  rateLimitPerKey: number;
  /** requests per window per client IP address (0: no limit) */
  rateLimitPerIp: number;
  /** the rate limits' window, ms */
  rateLimitWindowMs: number;
  /** events a wall's stream keeps for Last-Event-ID resumption */
  replayEvents: number;
}

export const DEFAULT_EMBED_CONFIG: EmbedConfig = {
  maxStreams: 10_000,
  heartbeatMs: 15_000,
  rateLimitPerKey: 6_000,
  rateLimitPerIp: 600,
  rateLimitWindowMs: 60_000,
  replayEvents: 500,
};

export function loadEmbedConfig(env: NodeJS.ProcessEnv = process.env): EmbedConfig {
  const d = DEFAULT_EMBED_CONFIG;
  return {
    maxStreams: parseIntSetting(env.EMBED_MAX_STREAMS, 'EMBED_MAX_STREAMS', d.maxStreams, 0, 1_000_000),
    heartbeatMs: parseIntSetting(env.EMBED_HEARTBEAT_MS, 'EMBED_HEARTBEAT_MS', d.heartbeatMs, 100, 600_000),
    rateLimitPerKey: parseIntSetting(
      env.EMBED_RATE_LIMIT_PER_KEY,
      'EMBED_RATE_LIMIT_PER_KEY',
      d.rateLimitPerKey,
      0,
      100_000_000,
    ),
    rateLimitPerIp: parseIntSetting(
      env.EMBED_RATE_LIMIT_PER_IP,
      'EMBED_RATE_LIMIT_PER_IP',
      d.rateLimitPerIp,
      0,
      100_000_000,
    ),
    rateLimitWindowMs: parseIntSetting(
      env.EMBED_RATE_LIMIT_WINDOW_MS,
      'EMBED_RATE_LIMIT_WINDOW_MS',
      d.rateLimitWindowMs,
      1000,
      86_400_000,
    ),
    replayEvents: parseIntSetting(env.EMBED_REPLAY_EVENTS, 'EMBED_REPLAY_EVENTS', d.replayEvents, 0, 100_000),
  };
}

/** An integer setting within [min, max]; absent or empty → fallback. */
export function parseIntSetting(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  }
  return n;
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

export function parsePort(value: string | undefined, name = 'PORT', fallback = 3000): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+$/.test(value.trim())) throw new ConfigError(`${name} must be an integer from 0 to 65535`);
  const port = Number(value.trim());
  if (port > 65535) throw new ConfigError(`${name} must be an integer from 0 to 65535`);
  return port;
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
      poolSize: parseIntSetting(
        env.DATABASE_POOL_SIZE,
        'DATABASE_POOL_SIZE',
        DEFAULT_DATABASE_OPTIONS.poolSize,
        1,
        1000,
      ),
      statementTimeoutMs: parseIntSetting(
        env.DATABASE_STATEMENT_TIMEOUT_MS,
        'DATABASE_STATEMENT_TIMEOUT_MS',
        DEFAULT_DATABASE_OPTIONS.statementTimeoutMs,
        0,
        3_600_000,
      ),
      connectTimeoutMs: parseIntSetting(
        env.DATABASE_CONNECT_TIMEOUT_MS,
        'DATABASE_CONNECT_TIMEOUT_MS',
        DEFAULT_DATABASE_OPTIONS.connectTimeoutMs,
        100,
        600_000,
      ),
      connectRetries: parseIntSetting(
        env.DATABASE_CONNECT_RETRIES,
        'DATABASE_CONNECT_RETRIES',
        DEFAULT_DATABASE_OPTIONS.connectRetries,
        0,
        100,
      ),
      busyTimeoutMs: parseIntSetting(
        env.DATABASE_BUSY_TIMEOUT_MS,
        'DATABASE_BUSY_TIMEOUT_MS',
        DEFAULT_DATABASE_OPTIONS.busyTimeoutMs,
        0,
        600_000,
      ),
    },
    redisUrl: parseRedisUrl(env.REDIS_URL),
    redisPrefix: parseRedisPrefix(env.REDIS_KEY_PREFIX),
    responseCacheBytes: parseIntSetting(env.RESPONSE_CACHE_MB, 'RESPONSE_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
    cacheTtlMs: parseIntSetting(env.CACHE_TTL_MS, 'CACHE_TTL_MS', DEFAULT_CACHE_TTL_MS, 100, 3_600_000),
    port: parsePort(env.PORT),
    host: parseHost(env.HOST),
    logLevel: level as Config['logLevel'],
    embed: loadEmbedConfig(env),
  };
}
