// Embed API reads: the wall, and its posts by cursor. Thin: the queries are
// in store/posts.ts, products.ts and tags.ts, the records in presenters/embed.ts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { embedWall } from '../../presenters/embed.js';
import { originAllowed } from '../../domain/origins.js';
import { findWall } from '../../store/walls.js';
import { wallHasTaggedPosts } from '../../store/tags.js';
import type { WallRow } from '../../store/walls.js';
import { ApiError, MESSAGES } from '../errors.js';
import { bodyEtag, etagMatches } from '../etag.js';
import { sendError } from '../envelope.js';
import type { CachedResponse, ResponseCache } from '../v2/response-cache.js';
import { EXPOSED_HEADERS, limited, type Limiter } from './access.js';
import { decodeEmbedCursor } from './cursor.js';
import { embedPostsAnswer } from './screen.js';
import { withSubmissionLink } from './submission-link.js';
import { sharedCacheControl, tagHeaders } from '../../cdn/tags.js';
import { requestBase, serverSelfUrl } from '../self-url.js';
import type { PublishableKeyCache } from './key-cache.js';
import {
  EMBED_LIMIT_DEFAULT,
  EMBED_PREFIX,
  EmbedKeyQuery,
  EmbedPostsBody,
  EmbedPostsQuery,
  EmbedWallBody,
  EmbedWallParams,
  EMBED_MESSAGES,
  readResponses,
} from './schemas.js';

/**
 * Browsers may reuse an answer for 5 s; CDNs for CDN_MAX_AGE (s-maxage: 5 s,
 * or an hour when every change is purged by tag, CDN_PURGE), and both may
 * serve it stale while revalidating (src/cdn/tags.ts).
 */
export const EMBED_BROWSER_MAX_AGE = 5;
const JSON_TYPE = 'application/json; charset=utf-8';

const doc = (summary: string, description: string) => ({ tags: ['embed'], summary, description });

export async function requireEmbedWall(request: FastifyRequest, wallId: number): Promise<WallRow> {
  const wall = await findWall(request.server.ctx.store.db, wallId, { live: true });
  if (!wall) throw new ApiError(404, MESSAGES.wallNotFound);
  return wall;
}

interface CacheSlot {
  key: string;
  wallId: number;
  accountId: number;
  /**
   * One of the few answers every visitor reads — the wall, its first page
   * (one per page size): kept from its first read and never charged to the
   * key's budget. Their number is bounded (the wall's keys, the page sizes)
   * and each is built at most once per cache life however many ask, so they
   * cost the store next to nothing. Other pages (a cursor's) are kept once
   * asked for twice (the cache's doorkeeper: made-up cursors cannot push the
   * hot answers out) and spend the key's budget when the cache lacks them.
   */
  hot: boolean;
}

/**
 * Sends a JSON read with a strong ETag (304 on If-None-Match). The rendered
 * body is kept in the response cache — dropped by the change bus when the
 * wall (or its account) changes — and compressed once. What the cache holds
 * is served whatever the key's budget says; a read of a page that is not hot
 * and must go to the store spends one unit of the key's budget (429 once it
 * is spent). Concurrent reads of one missing entry share one build.
 */
async function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<unknown>,
  slot: CacheSlot,
  budget: Limiter | null,
  building: Map<string, Promise<CachedResponse>>,
) {
  const store = request.server.ctx.cache ?? null;
  let entry = store?.get(slot.key);
  if (!entry) {
    const pending = building.get(slot.key);
    if (pending) entry = await pending;
    else {
      if (!slot.hot && (await limited(budget, request, reply)))
        return sendError(reply, 'json', 429, EMBED_MESSAGES.rateLimited);
      const made = render(store, build, slot);
      building.set(slot.key, made);
      try {
        entry = await made;
      } finally {
        building.delete(slot.key);
      }
    }
  }
  const cdn = request.server.cdn;
  reply
    .header('ETag', entry.etag)
    .header('Cache-Control', sharedCacheControl(EMBED_BROWSER_MAX_AGE, cdn))
    // filed under the wall and its account, so a change purges it from CDNs (src/cdn/purger.ts)
    .headers(tagHeaders(cdn, slot.wallId, slot.accountId));
  if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  if (store) {
    const { body, encoding } = store.encoded(entry, request.headers['accept-encoding']);
    if (encoding) reply.header('Content-Encoding', encoding);
    reply.header('Vary', 'Origin, Accept-Encoding');
    return reply.code(200).type(JSON_TYPE).send(body);
  }
  return reply.code(200).type(JSON_TYPE).send(entry.body);
}

/** Builds an answer and keeps it when the cache admits it (an answer whose wall changed meanwhile is never kept). */
async function render(
  store: ResponseCache | null,
  build: () => Promise<unknown>,
  slot: CacheSlot,
): Promise<CachedResponse> {
  const start = store?.now();
  const version = store?.version(slot.wallId, slot.accountId);
  const body = Buffer.from(JSON.stringify(await build()));
  const entry = { body, contentType: JSON_TYPE, wallId: slot.wallId, accountId: slot.accountId };
  if (store && (slot.hot || store.admit(slot.key))) return store.set(slot.key, entry, start, version);
  return { ...entry, etag: bodyEtag(body) };
}

export interface EmbedReadOptions {
  /** the per-key limit of reads the cache cannot answer */
  keyBudget: Limiter | null;
}

export async function embedReadRoutes(fastify: FastifyInstance, options: EmbedReadOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const building = new Map<string, Promise<CachedResponse>>();
  const send = (request: FastifyRequest, reply: FastifyReply, build: () => Promise<unknown>, slot: CacheSlot) =>
    sendJson(request, reply, build, slot, options.keyBudget, building);

  app.get(
    '/walls/:wallId',
    {
      schema: {
        ...doc(
          'A wall, for an embed',
          'Name, layout hints and theme of the wall, and the URLs of its posts and stream.',
        ),
        params: EmbedWallParams,
        querystring: EmbedKeyQuery,
        response: readResponses(EmbedWallBody, 'the wall'),
      },
    },
    async (request, reply) => {
      const wallId = Number(request.params.wallId);
      const grant = request.embedGrant!;
      return send(
        request,
        reply,
        async () => {
          const wall = await requireEmbedWall(request, wallId);
          const shoppable = await wallHasTaggedPosts(request.server.ctx.store.db, wallId);
          const answer = embedWall(wall, shoppable, `${EMBED_PREFIX}/walls/${wallId}`, request.query.key);
          return { wall: await withSubmissionLink(request, answer) };
        },
        // the answer names the key (its stream URL): one entry per key
        { key: `embed|wall|${wallId}|${grant.keyId}`, wallId, accountId: grant.accountId, hot: true },
      );
    },
  );

  app.get(
    '/walls/:wallId/posts',
    {
      schema: {
        ...doc(
          'The visible posts of a wall, by cursor',
          'W2 order: pinned first, then newest first, then larger id first. `nextCursor` continues after the last ' +
            'post of the page, so posts arriving while a visitor scrolls never repeat or skip one. The first page ' +
            'also carries `screen`, the wall’s live screen state, once its screen has been controlled: what a ' +
            'screen that polls (no stream) reads instead of the stream’s `screen` event. A change of the screen ' +
            'is a change of the wall: the cached answer is dropped and purged from CDNs like any other.',
        ),
        params: EmbedWallParams,
        querystring: EmbedPostsQuery,
        response: readResponses(EmbedPostsBody, 'a page of posts'),
      },
    },
    async (request, reply) => {
      const wallId = Number(request.params.wallId);
      const limit = request.query.limit === undefined ? EMBED_LIMIT_DEFAULT : Number(request.query.limit);
      const after = decodeEmbedCursor(request.query.cursor);
      const { db } = request.server.ctx.store;
      const accountId = request.embedGrant!.accountId;
      const cursor = request.query.cursor ?? '';
      // the copies' URLs name this instance: by PUBLIC_URL, else by the origin asked (one answer per origin)
      const base = requestBase(request);
      const origin = serverSelfUrl(request.server).publicUrl === null ? `|${base}` : '';
      return send(
        request,
        reply,
        async () => {
          const wall = await requireEmbedWall(request, wallId);
          return embedPostsAnswer(db, wall, { limit, after, mediaOn: Boolean(request.server.ctx.media), base });
        },
        { key: `embed|posts|${wallId}|${limit}|${cursor}${origin}`, wallId, accountId, hot: cursor === '' },
      );
    },
  );
}

/**
 * A CORS preflight (a page sending If-None-Match or Last-Event-ID, or
 * beacons as application/json through fetch): allowed
 * for the origins the key allows — any origin when it allows any; a page
 * whose origin is refused gets no Access-Control-Allow-Origin.
 */
export async function embedPreflight(request: FastifyRequest, reply: FastifyReply, keys: PublishableKeyCache) {
  request.embedGrant = null;
  const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
  const key = (request.query as Record<string, unknown>).key;
  const grant =
    typeof key === 'string' && key.startsWith('pk_') ? await keys.lookup(request.server.ctx.store.db, key) : null;
  reply.code(204).header('Vary', 'Origin');
  if (grant && origin !== undefined && originAllowed(grant.origins, origin)) {
    reply
      .header('Access-Control-Allow-Origin', grant.origins.length === 0 ? '*' : origin)
      .header('Access-Control-Allow-Methods', 'GET, POST')
      .header('Access-Control-Allow-Headers', 'If-None-Match, Last-Event-ID, Cache-Control, Content-Type')
      .header('Access-Control-Expose-Headers', EXPOSED_HEADERS)
      .header('Access-Control-Max-Age', '600');
  }
  return reply.send();
}
