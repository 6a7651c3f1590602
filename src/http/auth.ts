// v2 authentication and quota (contract §2, §3): key and plan → 401, then
// the daily quota → 429. Runs in onRequest, before the body is read or any
// parameter is validated, which gives the contract's check order.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { nextUtcMidnight, utcDay } from '../domain/dates.js';
import { findKeyOwner, keyTouchDue, touchUserKey, type KeyOwner } from '../store/keys.js';
import type { QuotaDecision } from '../quota/quota.js';
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

/**
 * The v2 hook (callback style): key and plan → 401, then the quota → 429.
 * Answered from memory when it can be — the key is in the key cache, its
 * last-use stamp is not due, the quota has calls reserved — so the common
 * call pays no store query and no promise here; else from the store.
 */
export function authenticateV2(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (!request.routeOptions.config.family) return done();
  const { changes, externalWrites } = request.server.ctx;
  // Another process (the CLI, a separate worker) committed to the SQLite
  // file: whatever the caches hold may be stale.
  if (externalWrites?.()) changes.publish({ kind: 'all' });
  const passed = authenticateFromMemory(request, reply);
  if (passed === true) return done();
  if (passed === false) return; // answered
  authenticateFromStore(request, reply).then((ok) => (ok ? done() : undefined), done);
}

function userKeyOf(request: FastifyRequest): string | null {
  const key = (request.query as Record<string, unknown>).user_key;
  return typeof key === 'string' && key !== '' ? key : null;
}

/** true: passed; false: answered (401/429); null: the store must decide. */
function authenticateFromMemory(request: FastifyRequest, reply: FastifyReply): boolean | null {
  const { keys, quota, now } = request.server.ctx;
  const key = userKeyOf(request);
  if (key === null) return refuse(request, reply);
  const owner = keys?.peek(key);
  if (!owner) return null;
  if (!planAllows(owner.plan, request.routeOptions.config.family!)) {
    keys!.stats.hits++;
    return refuse(request, reply);
  }
  const at = now();
  if (keyTouchDue(owner, at)) return null;
  const decision = quota!.tryConsume?.(owner.accountId, utcDay(at), owner.dailyCallLimit);
  if (!decision) return null;
  // answered from memory: the store path's lookup, which counts hits itself, is not taken
  keys!.stats.hits++;
  return admit(request, reply, owner, decision, at);
}

async function authenticateFromStore(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const { store, now, quota, keys } = request.server.ctx;
  const key = userKeyOf(request);
  const owner = key === null ? null : keys ? await keys.lookup(store.db, key) : await findKeyOwner(store.db, key);
  if (!owner || !planAllows(owner.plan, request.routeOptions.config.family!)) return refuse(request, reply);
  await touchUserKey(store.db, owner, now());
  const at = now();
  const decision = await quota!.consume(owner.accountId, utcDay(at), owner.dailyCallLimit);
  return admit(request, reply, owner, decision, at);
}

function refuse(request: FastifyRequest, reply: FastifyReply): false {
  void sendError(reply, request.format, 401, MESSAGES.unauthorized);
  return false;
}

/** The quota headers of every authenticated answer; a 429 past the limit. */
function admit(
  request: FastifyRequest,
  reply: FastifyReply,
  owner: KeyOwner,
  decision: QuotaDecision,
  at: number,
): boolean {
  const reset = Math.floor(nextUtcMidnight(at) / 1000);
  reply.header('X-RateLimit-Limit', owner.dailyCallLimit);
  reply.header('X-RateLimit-Remaining', Math.max(0, owner.dailyCallLimit - decision.used));
  reply.header('X-RateLimit-Reset', reset);
  const tally = request.server.ctx.metrics?.quota;
  if (tally) {
    if (decision.allowed) tally.allowed++;
    else tally.refused++;
  }
  if (!decision.allowed) {
    reply.header('Retry-After', Math.max(1, reset - Math.floor(at / 1000)));
    void sendError(reply, request.format, 429, MESSAGES.quota);
    return false;
  }
  request.caller = owner;
  return true;
}
