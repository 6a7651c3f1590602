// Embed API reads: the wall, and its posts by cursor. Thin: the queries are
// in store/embed.ts, the records in presenter.ts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { embedPost, embedWall } from '../../manage/embed-presenter.js';
import { originAllowed } from '../../domain/origins.js';
import { findLiveWallById, listVisiblePostsAfter, productsOfPosts, wallHasTaggedPosts } from '../../store/embed.js';
import type { WallRow } from '../../store/walls.js';
import { ApiError, MESSAGES } from '../errors.js';
import { bodyEtag, etagMatches } from '../v2/response-cache.js';
import { EXPOSED_HEADERS } from './access.js';
import { decodeEmbedCursor, encodeEmbedCursor } from './cursor.js';
import type { PublishableKeyCache } from './key-cache.js';
import {
  EMBED_LIMIT_DEFAULT,
  EMBED_PREFIX,
  EmbedKeyQuery,
  EmbedPostsBody,
  EmbedPostsQuery,
  EmbedWallBody,
  EmbedWallParams,
  readResponses,
} from './schemas.js';

/** Browsers and CDNs may reuse an answer for 5 s, and serve it stale while revalidating for 30 s more. */
export const EMBED_CACHE_CONTROL = 'public, max-age=5, stale-while-revalidate=30';
const JSON_TYPE = 'application/json; charset=utf-8';

const doc = (summary: string, description: string) => ({ tags: ['embed'], summary, description });

export async function requireEmbedWall(request: FastifyRequest, wallId: number): Promise<WallRow> {
  const wall = await findLiveWallById(request.server.ctx.store.db, wallId);
  if (!wall) throw new ApiError(404, MESSAGES.wallNotFound);
  return wall;
}

/**
 * Sends a JSON read with a strong ETag (304 on If-None-Match). With
 * `cache`, the rendered body is kept in the response cache — dropped by the
 * change bus when the wall (or its account) changes — and compressed once.
 */
async function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<unknown>,
  cache?: { key: string; wallId: number; accountId: number },
) {
  const store = cache ? request.server.ctx.cache : null;
  let entry = cache && store ? store.get(cache.key) : undefined;
  if (!entry) {
    const start = store?.now();
    // an answer whose wall changed while it was built is sent, never kept
    const version = cache && store ? store.version(cache.wallId, cache.accountId) : undefined;
    const body = Buffer.from(JSON.stringify(await build()));
    if (cache && store)
      entry = store.set(
        cache.key,
        { body, contentType: JSON_TYPE, wallId: cache.wallId, accountId: cache.accountId },
        start,
        version,
      );
    else entry = { body, contentType: JSON_TYPE, wallId: 0, accountId: 0, etag: bodyEtag(body) };
  }
  reply.header('ETag', entry.etag).header('Cache-Control', EMBED_CACHE_CONTROL);
  if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  if (store) {
    const { body, encoding } = store.encoded(entry, request.headers['accept-encoding']);
    if (encoding) reply.header('Content-Encoding', encoding);
    reply.header('Vary', 'Origin, Accept-Encoding');
    return reply.code(200).type(JSON_TYPE).send(body);
  }
  return reply.code(200).type(JSON_TYPE).send(entry.body);
}

export async function embedReadRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

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
      return sendJson(request, reply, async () => {
        const wall = await requireEmbedWall(request, wallId);
        const shoppable = await wallHasTaggedPosts(request.server.ctx.store.db, wallId);
        return { wall: embedWall(wall, shoppable, `${EMBED_PREFIX}/walls/${wallId}`, request.query.key) };
      });
    },
  );

  app.get(
    '/walls/:wallId/posts',
    {
      schema: {
        ...doc(
          'The visible posts of a wall, by cursor',
          'W2 order: pinned first, then newest first, then larger id first. `nextCursor` continues after the last ' +
            'post of the page, so posts arriving while a visitor scrolls never repeat or skip one.',
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
      const cacheKey = `embed|posts|${wallId}|${limit}|${request.query.cursor ?? ''}`;
      return sendJson(
        request,
        reply,
        async () => {
          await requireEmbedWall(request, wallId);
          const rows = await listVisiblePostsAfter(db, wallId, limit + 1, after);
          const page = rows.slice(0, limit);
          const products = await productsOfPosts(
            db,
            page.map((r) => r.id),
          );
          const last = page[page.length - 1];
          return {
            posts: page.map((r) => embedPost(r, products.get(r.id) ?? [])),
            nextCursor:
              rows.length > limit && last
                ? encodeEmbedCursor({ pin: last.pin, createdAt: last.created_at, id: last.id })
                : null,
          };
        },
        { key: cacheKey, wallId, accountId },
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
