// Moderation of a wall's posts: the moderation view, one-post changes,
// atomic bulk actions and product tags.
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import { manageResource } from './resource.js';
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
import { PostParams, TagParams, WallParams } from './schemas.js';
import { Type, type Static } from 'typebox';
import { requestBase } from '../self-url.js';

export async function postRoutes(app: FastifyInstance) {
  postModerationRoutes(app);
  productTagRoutes(app);
}

/** A wall's posts: list, read, moderate one or many. */
function postModerationRoutes(app: FastifyInstance) {
  const posts = manageResource(app, 'manage: posts', {
    record: [PostRecord, 'post'],
    collection: ['/walls/:wallId/posts', WallParams],
    item: ['/walls/:wallId/posts/:postId', PostParams],
  });

  posts.list(
    {
      access: ['viewer', 'wall'],
      summary: 'The moderation view of a wall’s posts',
      description:
        'Newest first, hidden posts included (filter with `status` or `state`, `rights`, `feedId`, `media`, `network`, and `q` for text); `state=pending` is the approval queue, oldest first.',
      query: PostListQuery,
    },
    async (request) => {
      const { status, state, feedId, media, network, q, rights } = request.query;
      const filter = { status, state, feedId: optNum(feedId), media, network, q, rights };
      return listModerationPosts(
        db(request),
        num(request.params.wallId),
        filter,
        pageRequest(request.query),
        requestBase(request),
      );
    },
  );

  posts.get({ access: ['viewer', 'wall'], summary: 'Get a post' }, async (request) =>
    getModerationPost(db(request), ...postOf(request), requestBase(request)),
  );

  posts.update(
    {
      access: ['moderator', 'wall'],
      summary: 'Moderate or edit a post',
      description:
        'approve or reject (`state`, with an optional `reason`), hide/unhide (`hidden`), pin/unpin (`pinned`), highlight (`highlighted`), set or clear (`null`) the call-to-action (`cta`), edit `content`. Visible on the next public read.',
      body: PostPatchBody,
    },
    async (request) => updatePost(opOf(request), ...postOf(request), request.body, requestBase(request)),
  );

  posts.collectionAction(
    'bulk',
    {
      access: ['moderator', 'wall'],
      summary: 'Apply one moderation action to up to 500 posts, atomically',
      description:
        'Every id must be a post of the wall: one that is not (listed in fieldErrors) changes nothing. `cta` is required for `setCta`; `reason` goes with `approve` and `reject`.',
      body: BulkBody,
      ok: [BulkResult, 'what was done'],
    },
    async (request) => bulkModerate(opOf(request), num(request.params.wallId), request.body),
  );
}

/** The wall and post a request names, as the services take them. */
const postOf = (request: FastifyRequest<{ Params: Static<typeof PostParams> }>) =>
  [num(request.params.wallId), num(request.params.postId)] as const;

const TagList = Type.Array(TagRecord, { description: 'in tag order' });

/** Every change of a post's product tags: by an editor, answered with the tags after it. */
const tagChange = {
  access: ['editor', 'wall'],
  ok: [200, TagList, 'the tags after the change'],
  errors: [404, 409],
} as const;

/**
 * The products tagged on a post (shoppable posts): read or replaced as a
 * list, or one tag at a time — add, move, remove.
 */
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
    async (request) => listTags(db(request), ...postOf(request)),
  );

  route.put(
    '/walls/:wallId/posts/:postId/products',
    {
      ...tagChange,
      summary: 'Replace a post’s product tags',
      description: 'The list order is the tag order. Each product must belong to the wall’s account.',
      params: PostParams,
      body: TagsPutBody,
    },
    async (request) => setTags(opOf(request), ...postOf(request), request.body.tags),
  );

  route.post(
    '/walls/:wallId/posts/:postId/products',
    {
      ...tagChange,
      summary: 'Tag one more product on a post',
      description: 'At `position` in the tag order (default: last). 409 when already tagged.',
      params: PostParams,
      body: TagPostBody,
    },
    async (request) => addTag(opOf(request), ...postOf(request), request.body),
  );

  route.patch(
    '/walls/:wallId/posts/:postId/products/:productId',
    {
      ...tagChange,
      summary: 'Move a tag’s hotspot or its place in the tag order',
      params: TagParams,
      body: TagPatchBody,
    },
    async (request) => updateTag(opOf(request), ...postOf(request), num(request.params.productId), request.body),
  );

  route.delete(
    '/walls/:wallId/posts/:postId/products/:productId',
    { ...tagChange, summary: 'Remove a product tag from a post', params: TagParams },
    async (request) => removeTag(opOf(request), ...postOf(request), num(request.params.productId)),
  );
}
