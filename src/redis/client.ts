// Redis connections that fail fast: while Redis is down a command errors at
// once (the request answers 503) instead of queueing; ioredis reconnects by
// itself with a capped backoff, so the instance recovers without a restart.
import { Redis } from 'ioredis';

export function connectRedis(url: string, connectionName: string): Redis {
  return new Redis(url, {
    connectionName,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
  });
}

/** Waits until the connection is ready (start-up only). */
export async function waitReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error('Redis did not become ready'));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}
