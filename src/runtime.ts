// What a running instance holds: the store, the change bus, the quota
// counter and — when REDIS_URL is set — the Redis connections that share
// quota and cache invalidation with the other instances.
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { AppContext } from './http/context.js';
import { defaultKeyCache, defaultResponseCache } from './http/server.js';
import { RedisQuota } from './quota/redis-quota.js';
import { StoreQuota } from './quota/store-quota.js';
import { RedisChangeRelay } from './redis/change-relay.js';
import { connectRedis, waitReady } from './redis/client.js';
import { ChangeBus } from './store/changes.js';
import { openStore } from './store/store.js';

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

export async function openRuntime(config: Config): Promise<Runtime> {
  const store = openStore(config.store, config.database);
  await store.waitUntilReachable(config.database.connectRetries);
  await store.migrate();
  const changes = new ChangeBus();
  let redis: Redis | null = null;
  let subscriber: Redis | null = null;
  let relay: RedisChangeRelay | null = null;
  let quota: AppContext['quota'] = new StoreQuota(store.db);
  if (config.redisUrl) {
    redis = connectRedis(config.redisUrl, config.redisPrefix);
    subscriber = connectRedis(config.redisUrl, `${config.redisPrefix}-sub`);
    await Promise.all([waitReady(redis), waitReady(subscriber)]);
    quota = new RedisQuota(redis, store.db, { prefix: `${config.redisPrefix}:quota` });
    relay = new RedisChangeRelay(config.redisPrefix, changes, redis, subscriber);
  }
  const ctx: AppContext = { store, now: Date.now, changes, quota, cache: null, keys: null };
  // Several PostgreSQL instances without Redis cannot tell each other about
  // writes, so they do not cache; SQLite sees other processes' commits itself.
  const cacheable = config.responseCacheBytes > 0 && (config.store.kind === 'sqlite' || relay !== null);
  if (cacheable) ctx.cache = defaultResponseCache(ctx, config.responseCacheBytes);
  if (config.store.kind === 'sqlite' || relay !== null) ctx.keys = defaultKeyCache(ctx);
  return {
    ctx,
    async close() {
      ctx.cache?.close();
      ctx.keys?.close();
      relay?.close();
      await quota.close();
      subscriber?.disconnect();
      redis?.disconnect();
      await store.close();
    },
  };
}
