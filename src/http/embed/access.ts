// Who may read a wall through the embed API, and from which page: the
// publishable key (`key=pk_…`) must be active and of this very wall, and a
// request's Origin (sent by browsers on cross-origin reads) one the key
// allows. CORS answers echo only an allowed origin (`*` when the key allows
// any). Rate limits: per client IP before the key is looked up, per key after.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { originAllowed } from '../../domain/origins.js';
import type { PublishableKeyGrant } from '../../store/publishable-keys.js';
import { sendError } from '../envelope.js';
import type { PublishableKeyCache } from './key-cache.js';
import { EMBED_MESSAGES } from './schemas.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the publishable key's grant, set by the embed access hook */
    embedGrant: PublishableKeyGrant | null;
  }
}

export const EXPOSED_HEADERS = 'ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

/** A limiter made by @fastify/rate-limit's `createRateLimit`. */
export type Limiter = (request: FastifyRequest) => Promise<{
  isAllowed: boolean;
  max?: number;
  remaining?: number;
  ttlInSeconds?: number;
  isExceeded?: boolean;
}>;

export interface Limits {
  perIp: Limiter | null;
  perKey: Limiter | null;
}

export interface AccessOptions extends Limits {
  keys: PublishableKeyCache;
  /** the limits of the analytics beacons (their own budget: beacons never use up a page's reads) */
  events: Limits;
}

/** The CORS headers of an answer for this grant and Origin. */
export function corsHeaders(grant: PublishableKeyGrant | null, origin: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { Vary: 'Origin' };
  if (grant === null) {
    // refusals before the key is known: readable by any page, they say nothing about the wall
    headers['Access-Control-Allow-Origin'] = '*';
  } else if (grant.origins.length === 0) {
    headers['Access-Control-Allow-Origin'] = '*';
  } else if (origin !== undefined && originAllowed(grant.origins, origin)) {
    headers['Access-Control-Allow-Origin'] = origin;
  } else {
    return headers;
  }
  headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
  return headers;
}

async function limited(limiter: Limiter | null, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (!limiter) return false;
  const r = await limiter(request);
  if (r.isAllowed) return false;
  reply.header('X-RateLimit-Limit', r.max);
  reply.header('X-RateLimit-Remaining', r.remaining);
  reply.header('X-RateLimit-Reset', r.ttlInSeconds);
  if (!r.isExceeded) return false;
  reply.header('Retry-After', Math.max(1, r.ttlInSeconds ?? 1));
  return true;
}

/** The onRequest hook of every embed route (preflights aside). */
export function embedAccess(options: AccessOptions) {
  return async function access(request: FastifyRequest, reply: FastifyReply) {
    request.embedGrant = null;
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    reply.headers(corsHeaders(null, origin));
    const { store, changes, externalWrites } = request.server.ctx;
    // another process (the CLI) committed to the SQLite file: drop what the caches hold
    if (externalWrites?.()) changes.publish({ kind: 'all' });
    const events = request.routeOptions.config.embedEvents === true;
    const limits: Limits = events ? options.events : options;
    if (await limited(limits.perIp, request, reply)) return sendError(reply, 'json', 429, EMBED_MESSAGES.rateLimited);
    const key = (request.query as Record<string, unknown>).key;
    const grant =
      typeof key === 'string' && key.startsWith('pk_') && key.length <= 200
        ? await options.keys.lookup(store.db, key)
        : null;
    if (!grant) return sendError(reply, 'json', 401, EMBED_MESSAGES.key);
    // beacons name no wall: they count for the key's
    const wallId = events ? String(grant.wallId) : ((request.params as { wallId?: string }).wallId ?? '');
    if (!/^\d{1,16}$/.test(wallId)) return sendError(reply, 'json', 400, 'wall id must be a positive integer');
    if (grant.wallId !== Number(wallId)) return sendError(reply, 'json', 403, EMBED_MESSAGES.otherWall);
    if (!originAllowed(grant.origins, origin)) {
      reply.removeHeader('Access-Control-Allow-Origin');
      reply.removeHeader('Access-Control-Expose-Headers');
      return sendError(reply, 'json', 403, EMBED_MESSAGES.origin);
    }
    reply.removeHeader('Access-Control-Allow-Origin');
    reply.removeHeader('Access-Control-Expose-Headers');
    reply.headers(corsHeaders(grant, origin));
    request.embedGrant = grant;
    if (await limited(limits.perKey, request, reply)) return sendError(reply, 'json', 429, EMBED_MESSAGES.rateLimited);
  };
}
