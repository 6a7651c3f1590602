// Moderation of a wall's posts: the moderation view, one-post changes,
// atomic bulk actions and product tags.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  addTag,
  bulkModerate,
  getModerationPost,
  listModerationPosts,
  listTags,
  removeTag,
  setTags,
  updatePost,
  updateTag,
} from '../../manage/posts.js';
import { access } from './access.js';
import { opOf } from './auth.js';
import { db, doc, num, ok, optNum } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import {
  BulkBody,
  BulkResult,
  PostListQuery,
  PostPatchBody,
  PostRecord,
  TagPatchBody,
  TagPostBody,
  TagRecord,
  TagsPutBody,
} from '../../schemas/posts.js';
import { Ok, PageOf, PostParams, responses, TagParams, WallParams } from './schemas.js';
import { Type } from 'typebox';

export async function postRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: posts';

  app.get(
    '/walls/:wallId/posts',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(
          tag,
          'The moderation view of a wall’s posts',
          'Newest first, hidden posts included (filter with `status` or `state`, `feedId`, `media`, `network`, and `q` for text); `state=pending` is the approval queue, oldest first.',
        ),
        params: WallParams,
        querystring: PostListQuery,
        response: responses({ 200: Ok(PageOf(PostRecord), 'a page of posts') }, 404),
      },
    },
    async (request) => {
      const q = request.query;
      const filter = {
        status: q.status,
        state: q.state,
        feedId: optNum(q.feedId),
        media: q.media,
        network: q.network,
        q: q.q,
      };
      return ok(await listModerationPosts(db(request), num(request.params.wallId), filter, pageRequest(q)));
    },
  );

  app.get(
    '/walls/:wallId/posts/:postId',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(tag, 'Get a post'),
        params: PostParams,
        response: responses({ 200: Ok(PostRecord, 'the post') }, 404),
      },
    },
    async (request) => ok(await getModerationPost(db(request), num(request.params.wallId), num(request.params.postId))),
  );

  app.patch(
    '/walls/:wallId/posts/:postId',
    {
      config: access('moderator', 'wall'),
      schema: {
        ...doc(
          tag,
          'Moderate or edit a post',
          'approve or reject (`state`, with an optional `reason`), hide/unhide (`hidden`), pin/unpin (`pinned`), highlight (`highlighted`), set or clear (`null`) the call-to-action (`cta`), edit `content`. Visible on the next public read.',
        ),
        params: PostParams,
        body: PostPatchBody,
        response: responses({ 200: Ok(PostRecord, 'the post after the change') }, 404, 409),
      },
    },
    async (request) =>
      ok(await updatePost(opOf(request), num(request.params.wallId), num(request.params.postId), request.body)),
  );

  app.post(
    '/walls/:wallId/posts/bulk',
    {
      config: access('moderator', 'wall'),
      schema: {
        ...doc(
          tag,
          'Apply one moderation action to up to 500 posts, atomically',
          'Every id must be a post of the wall: one that is not (listed in fieldErrors) changes nothing. `cta` is required for `setCta`; `reason` goes with `approve` and `reject`.',
        ),
        params: WallParams,
        body: BulkBody,
        response: responses({ 200: Ok(BulkResult, 'what was done') }, 404, 409),
      },
    },
    async (request) => ok(await bulkModerate(opOf(request), num(request.params.wallId), request.body)),
  );

  const tagTag = 'manage: product tags';
  const TagList = Type.Array(TagRecord, { description: 'in tag order' });

  app.get(
    '/walls/:wallId/posts/:postId/products',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(tagTag, 'The products tagged on a post', 'In tag order: the order of `postProducts` in C5.'),
        params: PostParams,
        response: responses({ 200: Ok(TagList, 'the tags') }, 404),
      },
    },
    async (request) => ok(await listTags(db(request), num(request.params.wallId), num(request.params.postId))),
  );

  app.put(
    '/walls/:wallId/posts/:postId/products',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          tagTag,
          'Replace a post’s product tags',
          'The list order is the tag order. Each product must belong to the wall’s account.',
        ),
        params: PostParams,
        body: TagsPutBody,
        response: responses({ 200: Ok(TagList, 'the tags after the change') }, 404, 409),
      },
    },
    async (request) =>
      ok(await setTags(opOf(request), num(request.params.wallId), num(request.params.postId), request.body.tags)),
  );

  app.post(
    '/walls/:wallId/posts/:postId/products',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          tagTag,
          'Tag one more product on a post',
          'At `position` in the tag order (default: last). 409 when already tagged.',
        ),
        params: PostParams,
        body: TagPostBody,
        response: responses({ 200: Ok(TagList, 'the tags after the change') }, 404, 409),
      },
    },
    async (request) =>
      ok(await addTag(opOf(request), num(request.params.wallId), num(request.params.postId), request.body)),
  );

  app.patch(
    '/walls/:wallId/posts/:postId/products/:productId',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(tagTag, 'Move a tag’s hotspot or its place in the tag order'),
        params: TagParams,
        body: TagPatchBody,
        response: responses({ 200: Ok(TagList, 'the tags after the change') }, 404, 409),
      },
    },
    async (request) =>
      ok(
        await updateTag(
          opOf(request),
          num(request.params.wallId),
          num(request.params.postId),
          num(request.params.productId),
          request.body,
        ),
      ),
  );

  app.delete(
    '/walls/:wallId/posts/:postId/products/:productId',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(tagTag, 'Remove a product tag from a post'),
        params: TagParams,
        response: responses({ 200: Ok(TagList, 'the tags after the change') }, 404, 409),
      },
    },
    async (request) =>
      ok(
        await removeTag(
          opOf(request),
          num(request.params.wallId),
          num(request.params.postId),
          num(request.params.productId),
        ),
      ),
  );
}
