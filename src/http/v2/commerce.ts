// Commerce family: C1–C5.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { commerceListWall, commercePost, commerceWallInfo, postDetail } from './presenters.js';
import { findVisiblePost, productsOfPost } from '../../store/posts.js';
import { listFeeds } from '../../store/walls.js';
import { sendEnvelope, successMessage } from '../envelope.js';
import { ApiError, MESSAGES } from '../errors.js';
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
  CommerceListQuery,
  CommercePostList,
  CommerceWallInfo,
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

const config = { family: 'commerce' as const };
const DELETED = 'You have successfully deleted your gallery.';

export async function commerceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/getGalleryInfo/:wall_id',
    {
      config,
      schema: {
        summary: 'C1 — gallery info with its feeds',
        tags: ['commerce'],
        params: WallParams,
        querystring: CommonQuery,
        response: {
          200: dataEnvelope(Type.Array(CommerceWallInfo, { minItems: 1, maxItems: 1 })),
          304: NotModified,
          ...v2Errors,
        },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      return sendRead(request, reply, 'commerce', wallId, 'info', async () => {
        const wall = await requireWall(request, wallId);
        const feeds = await listFeeds(request.server.ctx.store.db, wall.id);
        return renderData(request.format, [commerceWallInfo(wall, feeds)]);
      });
    },
  );

  app.get(
    '/getGalleryPosts/:wall_id/',
    {
      config,
      schema: {
        summary: 'C2 — posts of a gallery',
        tags: ['commerce'],
        params: WallParams,
        querystring: CommerceListQuery,
        response: { 200: dataEnvelope(CommercePostList), 304: NotModified, ...v2Errors },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      const filter = listFilter(wallId ?? 0, request.query, false);
      return sendRead(request, reply, 'commerce', wallId, listKey(filter), async () => {
        const wall = await requireWall(request, wallId);
        return renderPostList(
          request,
          'commerce',
          wall,
          filter,
          { wall: commerceListWall(wall) },
          'feeds',
          commercePost,
        );
      });
    },
  );

  app.post(
    '/createGalleryPost',
    {
      config,
      schema: {
        summary: 'C3 — create a custom post',
        tags: ['commerce'],
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
    '/deleteGallery/:wall_id',
    {
      config,
      schema: {
        summary: 'C4 — delete a gallery (soft delete)',
        tags: ['commerce'],
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

  app.get(
    '/getGalleryProductByID/:wall_id/:post_id/',
    {
      config,
      schema: {
        summary: 'C5 — one post with its tagged products',
        tags: ['commerce'],
        params: WallPostParams,
        querystring: CommonQuery,
        response: { 200: dataEnvelope(PostDetail), 304: NotModified, ...v2Errors },
      },
    },
    async (request, reply) => {
      const wallId = idFromDigits(request.params.wall_id);
      const postId = idFromDigits(request.params.post_id);
      return sendRead(request, reply, 'commerce', wallId, `detail|${postId ?? 'x'}`, async () => {
        const wall = await requireWall(request, wallId);
        const db = request.server.ctx.store.db;
        const post = postId === null ? null : await findVisiblePost(db, wall.id, postId);
        if (!post) throw new ApiError(404, MESSAGES.postNotFound);
        const products = await productsOfPost(db, post.id);
        return renderData(
          request.format,
          postDetail(wall.id, post, products, request.format === 'xml' ? 'long' : 'iso'),
        );
      });
    },
  );
}
