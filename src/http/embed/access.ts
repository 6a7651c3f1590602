// Who may read a wall through the embed API, and from which page: the
// publishable key (`key=pk_…`) must be active and of this very wall, and the
// page that sent the request one the key allows (domain/origins.ts). CORS
// answers echo only an allowed origin (`*` when the key allows any).
//
// Rate limits are laid out the way a CDN-fronted widget's are, so that no one
// can take a wall offline by spending its key's budget: every request counts
// first for its client (an IPv4 address or an IPv6 /64), before the key is
// looked up; a key's budget is spent only by reads the response cache cannot
// answer (routes.ts) — a wall's pages that every visitor reads are served from
// the cache whatever others send — and by beacons, which have their own.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../../domain/client-address.js';
import { originAllowed, requestMayUseKey } from '../../domain/origins.js';
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

/** The client a request counts for: its address, an IPv6 one by its /64. */
export const clientOf = (request: FastifyRequest): string => clientKey(request.ip);

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
  /** per client (clientOf), before the key is looked up */
  perClient: Limiter | null;
  perKey: Limiter | null;
}

export interface AccessOptions {
  keys: PublishableKeyCache;
  /** the limit of every read and stream, per client; reads spend their key's budget in routes.ts */
  perClient: Limiter | null;
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

/** Counts the request on `limiter`: true (headers set) when it is over the limit. */
export async function limited(limiter: Limiter | null, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
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
    const perClient = events ? options.events.perClient : options.perClient;
    if (await limited(perClient, request, reply)) return sendError(reply, 'json', 429, EMBED_MESSAGES.rateLimited);
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
    const fetchSite = request.headers['sec-fetch-site'];
    if (!requestMayUseKey(grant.origins, origin, typeof fetchSite === 'string' ? fetchSite : undefined)) {
      reply.removeHeader('Access-Control-Allow-Origin');
      reply.removeHeader('Access-Control-Expose-Headers');
      return sendError(reply, 'json', 403, EMBED_MESSAGES.origin);
    }
    reply.removeHeader('Access-Control-Allow-Origin');
    reply.removeHeader('Access-Control-Expose-Headers');
    reply.headers(corsHeaders(grant, origin));
    request.embedGrant = grant;
    if (events && (await limited(options.events.perKey, request, reply)))
      return sendError(reply, 'json', 429, EMBED_MESSAGES.rateLimited);
  };
}
