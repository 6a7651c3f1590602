// What a running instance holds: the store, the change bus, the quota
// counter (in Redis when REDIS_URL is set, shared by every instance), the
// caches, and on PostgreSQL the connection that hears of every other
// process's writes.
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { AppContext } from './http/context.js';
import { defaultKeyCache, defaultResponseCache } from './http/server.js';
import { jsonLogger } from './ingest/log.js';
import { RedisQuota } from './quota/redis-quota.js';
import { StoreQuota } from './quota/store-quota.js';
import { connectRedis, waitReady } from './redis/client.js';
import { ChangeListener } from './store/change-listener.js';
import { ChangeBus } from './store/changes.js';
import { openStore } from './store/store.js';

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** false for processes that only write (the ingestion worker): no caches, nothing to listen for */
  serving?: boolean;
}

export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const serving = options.serving ?? true;
  const store = openStore(config.store, config.database);
  await store.waitUntilReachable(config.database.connectRetries);
  await store.migrate();
  const changes = new ChangeBus();
  let redis: Redis | null = null;
  let quota: AppContext['quota'] = new StoreQuota(store.db);
  if (config.redisUrl) {
    redis = connectRedis(config.redisUrl, config.redisPrefix);
    await waitReady(redis);
    quota = new RedisQuota(redis, store.db, { prefix: `${config.redisPrefix}:quota` });
  }
  const ctx: AppContext = { store, now: Date.now, changes, quota, cache: null, keys: null };
  // Caches hear of every write, whoever made it: this instance's own on the
  // change bus; on PostgreSQL every other process's through the database's
  // notifications; on SQLite through data_version (see buildServer). And
  // whatever becomes of those messages, an entry lives CACHE_TTL_MS at most.
  let listener: ChangeListener | null = null;
  if (serving) {
    if (config.store.kind === 'postgres') {
      listener = new ChangeListener(changes, {
        url: config.store.url,
        connectTimeoutMs: config.database.connectTimeoutMs,
        log: jsonLogger(config.logLevel),
      });
      await listener.start(config.database.connectRetries);
    }
    if (config.responseCacheBytes > 0)
      ctx.cache = defaultResponseCache(ctx, config.responseCacheBytes, config.cacheTtlMs);
    ctx.keys = defaultKeyCache(ctx, config.cacheTtlMs);
  }
  return {
    ctx,
    async close() {
      ctx.cache?.close();
      ctx.keys?.close();
      await listener?.close();
      await quota.close();
      redis?.disconnect();
      await store.close();
    },
  };
}
