// @fastify/rate-limit as the embed and management APIs register it: counted
// in the shared Redis when there is one (REDIS_URL), so N instances behind a
// balancer allow a limit, not N times it; in memory per instance otherwise —
// for the workers of `serve --workers N`, in the primary's memory (one IPC
// question a limited request), so that they too allow a limit.
// Should Redis fail, requests are let through: the limits protect, they are
// no quota.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { clusterRateLimitStore } from '../cluster/worker.js';

/** Registers the plugin in `scope` (no global limit: each route family makes its limiters), counting under `name`. */
export async function registerRateLimits(scope: FastifyInstance, name: string): Promise<void> {
  const shared = scope.ctx.shared;
  const primary = shared ? null : clusterRateLimitStore(name);
  await scope.register(rateLimit, {
    global: false,
    ...(shared ? { redis: shared.redis, nameSpace: `${shared.prefix}:${name}:`, skipOnError: true } : {}),
    ...(primary ? { store: primary, skipOnError: true } : {}),
  });
}
