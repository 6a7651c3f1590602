// Redis connections that fail fast: while Redis is down a command errors at
// once (the request answers 503) instead of queueing; ioredis reconnects by
// itself with a capped backoff, so the instance recovers without a restart.
//
// An outage is reported once, in one line that names Redis: at start by
// `waitReady` (the error that stops the process), afterwards by the watcher
// (`watchRedis`) or by the first request that finds Redis away, and again
// when it answers. Never ioredis's "Unhandled error event" with a stack for
// every reconnection attempt, and never as the store being unavailable.
import { Redis } from 'ioredis';

/** Redis does not answer (at start, or a command that needed it). */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
  constructor(where: string, cause?: unknown) {
    super(`Redis at ${where} does not answer${cause === undefined ? '' : ` (${reasonOf(cause)})`}`, { cause });
  }
}

/** Where a client connects, without credentials: `host:port` or the socket path. */
export function whereOf(redis: Redis): string {
  const { host, port, path } = redis.options;
  return path ? path : `${host ?? 'localhost'}:${port ?? 6379}`;
}

const reasonOf = (err: unknown) =>
  (err instanceof Error ? err.message || err.name : String(err)).replace(/\s+/g, ' ').trim();

/**
 * Whether an error is Redis being away rather than Redis refusing a command:
 * ioredis's own failures of a command it could not send or get answered.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (error instanceof RedisUnavailableError) return true;
  const e = error as { name?: string; message?: string } | null;
  if (!e) return false;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  return /enableOfflineQueue|Connection is closed|Command timed out/.test(e.message ?? '');
}

export function connectRedis(url: string, connectionName: string): Redis {
  const redis = new Redis(url, {
    connectionName,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
  });
  // every failed attempt emits `error`; without a listener ioredis prints each one with its stack
  redis.on('error', () => undefined);
  return redis;
}

/** Waits until the connection is ready (start-up only); else a RedisUnavailableError with the last reason. */
export async function waitReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    let last: unknown;
    const timer = setTimeout(() => {
      cleanup();
      reject(new RedisUnavailableError(whereOf(redis), last));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const onError = (err: unknown) => (last = err);
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
    };
    redis.on('ready', onReady);
    redis.on('error', onError);
  });
}

export interface RedisLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

interface Watch {
  log: RedisLog;
  down: boolean;
}

const watched = new WeakMap<Redis, Watch>();

/**
 * Logs the client's outages from now on: one warning when Redis stops
 * answering (whoever notices first: the client, or a request through
 * `reportRedisDown`), one line when it answers again.
 */
export function watchRedis(redis: Redis, log: RedisLog): void {
  const watch: Watch = { log, down: false };
  watched.set(redis, watch);
  redis.on('error', (err) => reportRedisDown(redis, err));
  redis.on('ready', () => {
    if (!watch.down) return;
    watch.down = false;
    log.info({ redis: whereOf(redis) }, `Redis at ${whereOf(redis)} answers again`);
  });
}

/** Reports that Redis does not answer: once per outage of a watched client, else not at all. */
export function reportRedisDown(redis: Redis, err: unknown): void {
  const watch = watched.get(redis);
  if (!watch || watch.down) return;
  watch.down = true;
  const where = whereOf(redis);
  watch.log.warn(
    { redis: where, reason: reasonOf(err) },
    `Redis at ${where} does not answer (${reasonOf(err)}): calls that need it are answered 503 until it is back; reconnecting`,
  );
}
