// v2 authentication and quota (contract §2, §3): key and plan → 401, then
// the daily quota → 429. Runs in onRequest, before the body is read or any
// parameter is validated, which gives the contract's check order.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nextUtcMidnight, utcDay } from '../domain/dates.js';
import { findKeyOwner, touchUserKey } from '../store/keys.js';
import type { Plan } from '../domain/lists.js';
import { sendError } from './envelope.js';
import { MESSAGES } from './errors.js';

const PLAN_FAMILIES: Record<Plan, readonly string[]> = {
  free: [],
  widget: ['widget'],
  commerce: ['commerce'],
  enterprise: ['widget', 'commerce'],
};

export function planAllows(plan: Plan, family: string): boolean {
  return PLAN_FAMILIES[plan]?.includes(family) ?? false;
}

export async function authenticateV2(request: FastifyRequest, reply: FastifyReply) {
  const family = request.routeOptions.config.family;
  if (!family) return;
  const { store, now, quota, keys, changes, externalWrites } = request.server.ctx;
  // Another process (the CLI, a separate worker) committed to the SQLite
  // file: whatever the caches hold may be stale.
  if (externalWrites?.()) changes.publish({ kind: 'all' });
  const key = (request.query as Record<string, unknown>).user_key;
  const lookup = (k: string) => (keys ? keys.lookup(store.db, k) : findKeyOwner(store.db, k));
  const owner = typeof key === 'string' && key !== '' ? await lookup(key) : null;
  if (!owner || !planAllows(owner.plan, family)) {
    return sendError(reply, request.format, 401, MESSAGES.unauthorized);
  }
  await touchUserKey(store.db, owner, now());
  const at = now();
  const decision = await quota!.consume(owner.accountId, utcDay(at), owner.dailyCallLimit);
  const reset = Math.floor(nextUtcMidnight(at) / 1000);
  reply.header('X-RateLimit-Limit', owner.dailyCallLimit);
  reply.header('X-RateLimit-Remaining', Math.max(0, owner.dailyCallLimit - decision.used));
  reply.header('X-RateLimit-Reset', reset);
  if (!decision.allowed) {
    reply.header('Retry-After', Math.max(1, reset - Math.floor(at / 1000)));
    return sendError(reply, request.format, 429, MESSAGES.quota);
  }
  request.caller = owner;
}
