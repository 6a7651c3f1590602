// The operations of API v2, each declared once and registered for every family
// that offers it (families.ts holds what differs between them).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { postDetail, type DateForm } from './presenters.js';
import { findVisiblePost } from '../../store/posts.js';
import { productsOfPost } from '../../store/products.js';
import { publicFeedsOf } from '../../store/feeds.js';
import { sendEnvelope, successMessage } from '../envelope.js';
import { ApiError, MESSAGES } from '../errors.js';
import { FAMILIES, OPERATION_NAMES, type Family, type OperationName } from './families.js';
import {
  createPost,
  CREATED_MESSAGE,
  deleteWall,
  idFromDigits,
  listFilter,
  listKey,
  renderData,
  renderPostList,
  requireWall,
  sendRead,
} from './shared.js';
import {
  CommonQuery,
  CREATE_POST_CONTENT_TYPES,
  CreatePostBody,
  CreatePostHeaders,
  dataEnvelope,
  messageEnvelope,
  NotModified,
  PostDetail,
  v2Errors,
  WallParams,
  WallPostParams,
} from './schemas.js';

const typed = (fastify: FastifyInstance) => fastify.withTypeProvider<TypeBoxTypeProvider>();
/** A Fastify instance whose route types come from the TypeBox schemas. */
type App = ReturnType<typeof typed>;

/** Registers one operation of `family` at `path`; `route` holds what every route of the family shares. */
type Operation = (app: App, family: Family, path: string, route: RouteBase) => void;

interface RouteBase {
  config: { family: Family['name'] };
  /** `<letter><number> — <what>`, e.g. "W1 — wall info with its feeds" */
  summary: (what: string) => string;
  tags: string[];
}

/** Widget instants are ISO 8601 in JSON and the long text form in XML (contract §6). */
const dateForm = (request: FastifyRequest): DateForm => (request.format === 'xml' ? 'long' : 'iso');

/** W1/C1: a wall with its feeds. */
const info: Operation = (app, family, path, { config, summary, tags }) => {
  app.get(
    path,
    {
      config,
      schema: {
        summary: summary(`${family.noun} info with its feeds`),
        tags,
        params: WallParams,
        querystring: CommonQuery,
        response: {
          200: dataEnvelope(Type.Array(family.wallInfo.schema, { minItems: 1, maxItems: 1 })),
          304: NotModified,
          ...v2Errors,
        },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      return sendRead(request, reply, family.name, wallId, 'info', async () => {
        const wall = await requireWall(request, wallId);
        const feeds = await publicFeedsOf(request.server.ctx.store.db, wall.id);
        return renderData(request.format, [family.wallInfo.present(wall, feeds, dateForm(request))]);
      });
    },
  );
};

/** W2/C2: a page of a wall's posts. */
const posts: Operation = (app, family, path, { config, summary, tags }) => {
  const list = family.postList;
  app.get(
    path,
    {
      config,
      schema: {
        summary: summary(`posts of a ${family.noun}`),
        tags,
        params: WallParams,
        querystring: list.query,
        response: { 200: dataEnvelope(list.schema), 304: NotModified, ...v2Errors },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      const filter = listFilter(wallId ?? 0, request.query, list.textFlag);
      return sendRead(request, reply, family.name, wallId, listKey(filter), async () => {
        const wall = await requireWall(request, wallId);
        const head = { wall: list.wall(wall, dateForm(request)) };
        return renderPostList(request, family.name, wall, filter, head, list.listName, (post) =>
          list.post(post, wall.profanity),
        );
      });
    },
  );
};

/** W3/C3: a custom post. */
const create: Operation = (app, _family, path, { config, summary, tags }) => {
  app.post(
    path,
    {
      config,
      schema: {
        summary: summary('create a custom post'),
        tags,
        querystring: CommonQuery,
        headers: CreatePostHeaders,
        body: CreatePostBody,
        consumes: CREATE_POST_CONTENT_TYPES,
        response: { 200: messageEnvelope(CREATED_MESSAGE), ...v2Errors },
      },
    },
    async (request, reply) => {
      await createPost(request);
      return sendEnvelope(reply, request.format, successMessage(CREATED_MESSAGE));
    },
  );
};

/** W4/C4: a soft delete, by GET as the contract has it. */
const remove: Operation = (app, family, path, { config, summary, tags }) => {
  app.get(
    path,
    {
      config,
      schema: {
        summary: summary(`delete a ${family.noun} (soft delete)`),
        tags,
        params: WallParams,
        querystring: CommonQuery,
        response: { 200: messageEnvelope(family.deleted), ...v2Errors },
      },
    },
    async (request, reply) => {
      await deleteWall(request, idFromDigits(request.params.wall_id));
      return sendEnvelope(reply, request.format, successMessage(family.deleted));
    },
  );
};

/** C5: one visible post with its tagged products. */
const detail: Operation = (app, family, path, { config, summary, tags }) => {
  app.get(
    path,
    {
      config,
      schema: {
        summary: summary('one post with its tagged products'),
        tags,
        params: WallPostParams,
        querystring: CommonQuery,
        response: { 200: dataEnvelope(PostDetail), 304: NotModified, ...v2Errors },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      const postId = idFromDigits(request.params.post_id);
      return sendRead(request, reply, family.name, wallId, `detail|${postId ?? 'x'}`, async () => {
        const wall = await requireWall(request, wallId);
        const db = request.server.ctx.store.db;
        const post = postId === null ? null : await findVisiblePost(db, wall.id, postId);
        if (!post) throw new ApiError(404, MESSAGES.postNotFound);
        const products = await productsOfPost(db, post.id);
        return renderData(request.format, postDetail(wall.id, post, products, dateForm(request)));
      });
    },
  );
};

const OPERATIONS: Record<OperationName, Operation> = { info, posts, create, delete: remove, detail };

/** The routes of one family (a plugin, registered under the family's prefix). */
function familyRoutes(family: Family) {
  return async (fastify: FastifyInstance) => {
    const app = typed(fastify);
    OPERATION_NAMES.forEach((name, i) => {
      const path = family.paths[name];
      if (path === undefined) return;
      OPERATIONS[name](app, family, path, {
        config: { family: family.name },
        summary: (what) => `${family.letter}${i + 1} — ${what}`,
        tags: [family.name],
      });
    });
  };
}

/** Every family's routes, each under its prefix. */
export async function registerOperations(v2: FastifyInstance) {
  for (const family of FAMILIES) await v2.register(familyRoutes(family), { prefix: family.prefix });
}
