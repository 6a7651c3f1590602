// Embed API v1 (`/api/embed/v1`): read-only, for browsers, authenticated by a
// publishable key (`key=pk_…`) of one wall. Wall info, posts by cursor, and a
// Server-Sent Events stream of changes. Not bound by the v2 contract and not
// counted on the account's v2 daily quota: it has its own per-client and
// per-key rate limits (access.ts; @fastify/rate-limit: counted in the shared
// Redis when there is one, so N instances behind a balancer allow the limit,
// not N times it; in memory per instance otherwise).
import type { FastifyInstance } from 'fastify';
import { registerRateLimits } from '../rate-limit.js';
import { DEFAULT_CACHE_TTL_MS, DEFAULT_EMBED_CONFIG, type EmbedConfig } from '../../config.js';
import { clientOf, corsHeaders, embedAccess, type Limiter } from './access.js';
import { PublishableKeyCache } from './key-cache.js';
import { embedPreflight, embedReadRoutes } from './routes.js';
import { embedStreamRoute } from './stream.js';
import { StreamHub } from './stream-hub.js';
import { EMBED_PREFIX } from './schemas.js';
import { embedEventsRoute } from './events.js';
import { EventAggregator } from '../../analytics/aggregator.js';
import { MemoryDeduper, RedisDeduper } from '../../analytics/dedupe.js';
import { EventRecorder } from '../../analytics/events.js';
import { createHash } from 'node:crypto';

export { EMBED_PREFIX };

/** A client address as the beacons' rate limiter keeps it: a digest, never the address. */
const ipDigest = (ip: string) => createHash('sha256').update(ip).digest('base64url').slice(0, 22);

/** the first reconnection delay a stream ended by a shutdown is told (spread up to twice that) */
export const SHUTDOWN_RETRY_MS = 1000;

export interface EmbedOptions extends Partial<EmbedConfig> {
  cacheTtlMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the SSE hub of this instance (tests and benchmarks look at it) */
    embedStreams: StreamHub;
    /** publishable keys' grants, cached (the hosted page reads them too) */
    embedKeys: PublishableKeyCache;
  }
}

export async function registerEmbed(app: FastifyInstance, options: EmbedOptions = {}) {
  const config: EmbedConfig = { ...DEFAULT_EMBED_CONFIG, ...options };
  const keys = new PublishableKeyCache(app.ctx.changes, options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS);
  const hub = new StreamHub(app.ctx, keys, {
    maxStreams: config.maxStreams,
    maxStreamsPerClient: config.maxStreamsPerClient,
    heartbeatMs: config.heartbeatMs,
    replayEvents: config.replayEvents,
    windowSize: config.streamWindow,
    log: app.log,
  });
  app.decorate('embedStreams', hub);
  app.decorate('embedKeys', keys);
  // open streams never finish by themselves: end them before the server waits for its connections
  app.addHook('preClose', async () => hub.close(SHUTDOWN_RETRY_MS));
  // CORS preflights (a page sending If-None-Match or Last-Event-ID) match no
  // route; they are answered here, before the not-found handler, by the key's origins
  app.decorateRequest('embedGrant', null);
  app.addHook('onRequest', async (request, reply) => {
    if (
      request.method === 'OPTIONS' &&
      request.url.startsWith(`${EMBED_PREFIX}/`) &&
      typeof request.headers['access-control-request-method'] === 'string'
    )
      return embedPreflight(request, reply, keys);
  });
  // Analytics: beacons summed in memory, written once per flush interval;
  // the last counts are written when the server closes (before the store does).
  const shared = app.ctx.shared;
  const aggregator = new EventAggregator(app.ctx.store.db, { intervalMs: config.analyticsFlushMs, log: app.log });
  const dedupe = shared
    ? new RedisDeduper(shared.redis, `${shared.prefix}:events-seen:`, config.analyticsDedupeTtlMs)
    : new MemoryDeduper(config.analyticsDedupeTtlMs);
  app.ctx.analytics = new EventRecorder(app.ctx.store.db, aggregator, dedupe);
  if (app.ctx.metrics) {
    Object.assign(app.ctx.metrics.sources, {
      embedKeyCache: keys,
      streams: hub,
      beacons: app.ctx.analytics.stats,
    });
  }
  app.addHook('onClose', async () => {
    hub.close();
    keys.close();
    await aggregator.close();
  });

  await app.register(
    async (embed) => {
      await registerRateLimits(embed, 'embed-rate');
      const limiter = (
        max: number,
        prefix: string,
        key: (r: Parameters<Limiter>[0]) => string,
        windowMs = config.rateLimitWindowMs,
      ): Limiter | null =>
        max > 0
          ? (embed.createRateLimit({
              max,
              timeWindow: windowMs,
              keyGenerator: (r) => `${prefix}${key(r)}`,
            }) as Limiter)
          : null;
      const access = embedAccess({
        keys,
        perClient: limiter(config.rateLimitPerIp, 'ip:', clientOf),
        events: {
          // the beacons' limiter keeps a digest of the address, never the address itself
          perClient: limiter(
            config.analyticsRateLimitPerIp,
            'events-ip:',
            (r) => ipDigest(clientOf(r)),
            config.analyticsRateLimitWindowMs,
          ),
          perKey: limiter(
            config.analyticsRateLimitPerKey,
            'events-key:',
            (r) => String(r.embedGrant?.keyId ?? ''),
            config.analyticsRateLimitWindowMs,
          ),
        },
      });
      embed.addHook('onRequest', access);
      // errors after the access check (validation 400, 404, 500) are readable by the page too
      embed.addHook('onSend', async (request, reply) => {
        if (!reply.hasHeader('Vary')) {
          const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
          reply.headers(corsHeaders(request.embedGrant, origin));
        }
      });
      // a key's budget: spent by the reads the response cache cannot answer
      await embed.register(embedReadRoutes, {
        keyBudget: limiter(config.rateLimitPerKey, 'key:', (r) => String(r.embedGrant?.keyId ?? '')),
      });
      await embed.register(embedStreamRoute);
      await embed.register(embedEventsRoute);
    },
    { prefix: EMBED_PREFIX },
  );
}
