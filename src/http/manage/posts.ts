// Moderation of a wall's posts: the moderation view, one-post changes,
// atomic bulk actions and product tags.
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
import { opOf } from './auth.js';
import { manageRoute } from './route.js';
import { db, num, optNum } from './common.js';
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
import { PageOf, PostParams, TagParams, WallParams } from './schemas.js';
import { Type } from 'typebox';

export async function postRoutes(app: FastifyInstance) {
  postModerationRoutes(app);
  productTagRoutes(app);
  productTagEditRoutes(app);
}

/** A wall's posts: list, read, moderate one or many. */
function postModerationRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: posts');

  route.get(
    '/walls/:wallId/posts',
    {
      access: ['viewer', 'wall'],
      summary: 'The moderation view of a wall’s posts',
      description:
        'Newest first, hidden posts included (filter with `status` or `state`, `feedId`, `media`, `network`, and `q` for text); `state=pending` is the approval queue, oldest first.',
      params: WallParams,
      query: PostListQuery,
      ok: [200, PageOf(PostRecord), 'a page of posts'],
      errors: [404],
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
      return listModerationPosts(db(request), num(request.params.wallId), filter, pageRequest(q));
    },
  );

  route.get(
    '/walls/:wallId/posts/:postId',
    {
      access: ['viewer', 'wall'],
      summary: 'Get a post',
      params: PostParams,
      ok: [200, PostRecord, 'the post'],
      errors: [404],
    },
    async (request) => getModerationPost(db(request), num(request.params.wallId), num(request.params.postId)),
  );

  route.patch(
    '/walls/:wallId/posts/:postId',
    {
      access: ['moderator', 'wall'],
      summary: 'Moderate or edit a post',
      description:
        'approve or reject (`state`, with an optional `reason`), hide/unhide (`hidden`), pin/unpin (`pinned`), highlight (`highlighted`), set or clear (`null`) the call-to-action (`cta`), edit `content`. Visible on the next public read.',
      params: PostParams,
      body: PostPatchBody,
      ok: [200, PostRecord, 'the post after the change'],
      errors: [404, 409],
    },
    async (request) =>
      await updatePost(opOf(request), num(request.params.wallId), num(request.params.postId), request.body),
  );

  route.post(
    '/walls/:wallId/posts/bulk',
    {
      access: ['moderator', 'wall'],
      summary: 'Apply one moderation action to up to 500 posts, atomically',
      description:
        'Every id must be a post of the wall: one that is not (listed in fieldErrors) changes nothing. `cta` is required for `setCta`; `reason` goes with `approve` and `reject`.',
      params: WallParams,
      body: BulkBody,
      ok: [200, BulkResult, 'what was done'],
      errors: [404, 409],
    },
    async (request) => bulkModerate(opOf(request), num(request.params.wallId), request.body),
  );
}

const TagList = Type.Array(TagRecord, { description: 'in tag order' });

/** The products tagged on a post (shoppable posts), read or replaced as a list. */
function productTagRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: product tags');

  route.get(
    '/walls/:wallId/posts/:postId/products',
    {
      access: ['viewer', 'wall'],
      summary: 'The products tagged on a post',
      description: 'In tag order: the order of `postProducts` in C5.',
      params: PostParams,
      ok: [200, TagList, 'the tags'],
      errors: [404],
    },
    async (request) => listTags(db(request), num(request.params.wallId), num(request.params.postId)),
  );

  route.put(
    '/walls/:wallId/posts/:postId/products',
    {
      access: ['editor', 'wall'],
      summary: 'Replace a post’s product tags',
      description: 'The list order is the tag order. Each product must belong to the wall’s account.',
      params: PostParams,
      body: TagsPutBody,
      ok: [200, TagList, 'the tags after the change'],
      errors: [404, 409],
    },
    async (request) =>
      await setTags(opOf(request), num(request.params.wallId), num(request.params.postId), request.body.tags),
  );
}

/** One tag at a time: add, move, remove. */
function productTagEditRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: product tags');
  route.post(
    '/walls/:wallId/posts/:postId/products',
    {
      access: ['editor', 'wall'],
      summary: 'Tag one more product on a post',
      description: 'At `position` in the tag order (default: last). 409 when already tagged.',
      params: PostParams,
      body: TagPostBody,
      ok: [200, TagList, 'the tags after the change'],
      errors: [404, 409],
    },
    async (request) =>
      await addTag(opOf(request), num(request.params.wallId), num(request.params.postId), request.body),
  );

  route.patch(
    '/walls/:wallId/posts/:postId/products/:productId',
    {
      access: ['editor', 'wall'],
      summary: 'Move a tag’s hotspot or its place in the tag order',
      params: TagParams,
      body: TagPatchBody,
      ok: [200, TagList, 'the tags after the change'],
      errors: [404, 409],
    },
    async (request) =>
      await updateTag(
        opOf(request),
        num(request.params.wallId),
        num(request.params.postId),
        num(request.params.productId),
        request.body,
      ),
  );

  route.delete(
    '/walls/:wallId/posts/:postId/products/:productId',
    {
      access: ['editor', 'wall'],
      summary: 'Remove a product tag from a post',
      params: TagParams,
      ok: [200, TagList, 'the tags after the change'],
      errors: [404, 409],
    },
    async (request) =>
      await removeTag(
        opOf(request),
        num(request.params.wallId),
        num(request.params.postId),
        num(request.params.productId),
      ),
  );
}
