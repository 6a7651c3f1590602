// Widget family: W1–W4.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { widgetListWall, widgetPost, widgetWallInfo } from './presenters.js';
import { listFeeds } from '../../store/walls.js';
import { sendEnvelope, successMessage } from '../envelope.js';
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
  v2Errors,
  WallParams,
  WidgetListQuery,
  WidgetPostList,
  WidgetWallInfo,
} from './schemas.js';

const config = { family: 'widget' as const };
const DELETED = 'You have successfully deleted your wall.';

export async function widgetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/wallInfo/:wall_id',
    {
      config,
      schema: {
        summary: 'W1 — wall info with its feeds',
        tags: ['widget'],
        params: WallParams,
        querystring: CommonQuery,
        response: {
          200: dataEnvelope(Type.Array(WidgetWallInfo, { minItems: 1, maxItems: 1 })),
          304: NotModified,
          ...v2Errors,
        },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      return sendRead(request, reply, 'widget', wallId, 'info', async () => {
        const wall = await requireWall(request, wallId);
        const feeds = await listFeeds(request.server.ctx.store.db, wall.id);
        return renderData(request.format, [widgetWallInfo(wall, feeds, request.format === 'xml' ? 'long' : 'iso')]);
      });
    },
  );

  app.get(
    '/posts/:wall_id',
    {
      config,
      schema: {
        summary: 'W2 — posts of a wall',
        tags: ['widget'],
        params: WallParams,
        querystring: WidgetListQuery,
        response: { 200: dataEnvelope(WidgetPostList), 304: NotModified, ...v2Errors },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      const filter = listFilter(wallId ?? 0, request.query, true);
      return sendRead(request, reply, 'widget', wallId, listKey(filter), async () => {
        const wall = await requireWall(request, wallId);
        const head = { wall: widgetListWall(wall, request.format === 'xml' ? 'long' : 'iso') };
        return renderPostList(request, 'widget', wall, filter, head, 'posts', (p) => widgetPost(p, wall.profanity));
      });
    },
  );

  app.post(
    '/create-post',
    {
      config,
      schema: {
        summary: 'W3 — create a custom post',
        tags: ['widget'],
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

  app.get(
    '/delete/:wall_id',
    {
      config,
      schema: {
        summary: 'W4 — delete a wall (soft delete)',
        tags: ['widget'],
        params: WallParams,
        querystring: CommonQuery,
        response: { 200: messageEnvelope(DELETED), ...v2Errors },
      },
    },
    async (request, reply) => {
      await deleteWall(request, idFromDigits(request.params.wall_id));
      return sendEnvelope(reply, request.format, successMessage(DELETED));
    },
  );
}
