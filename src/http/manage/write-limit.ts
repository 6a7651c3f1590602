// The per-token write rate limit of the management API (MANAGE_WRITE_RATE_LIMIT):
// each operator token may write so many times a minute, counted by
// @fastify/rate-limit — in the shared Redis when there is one, so N instances
// behind a balancer allow the limit, not N times it; in memory otherwise.
// Reads are not counted, and the check runs before the body is read: a
// token over its limit cannot make the server parse (or audit) another
// megabyte. One token's writes never spend another's budget.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { registerRateLimits } from '../rate-limit.js';
import { sendManageError } from './errors.js';

/** The window the limit counts in. */
export const WRITE_WINDOW_MS = 60_000;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const tooManyWrites = (max: number, seconds: number) =>
  `too many writes with this token: at most ${max} a minute; retry in ${seconds} s`;

interface LimitResult {
  isAllowed: boolean;
  isExceeded?: boolean;
  max?: number;
  ttlInSeconds?: number;
}

/**
 * Registers the limiter in the management API's scope (`max` writes a
 * minute per token; 0: none) and returns its onRequest hook, to run once
 * the token is known and allowed the route.
 */
export async function writeLimit(
  manage: FastifyInstance,
  max: number,
): Promise<((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | null> {
  if (max <= 0) return null;
  await registerRateLimits(manage, 'manage-rate');
  const limiter = manage.createRateLimit({
    max,
    timeWindow: WRITE_WINDOW_MS,
    keyGenerator: (request) => `token:${request.operator?.id ?? ''}`,
  }) as (request: FastifyRequest) => Promise<LimitResult>;
  return async (request, reply) => {
    if (READS.has(request.method) || !request.operator) return;
    const r = await limiter(request);
    if (r.isAllowed || !r.isExceeded) return;
    const seconds = Math.max(1, r.ttlInSeconds ?? 1);
    reply.header('Retry-After', seconds);
    return sendManageError(reply, 429, tooManyWrites(max, seconds));
  };
}
