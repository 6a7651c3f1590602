// The embed API's reads: a wall's visible posts in W2 order (pinned first,
// newest first, larger id first — the same rules as store/posts.ts
// `listPosts`: approved and `hidden = 0` on a live wall) paged by keyset, not offset, and
// the product tags of many posts at once.
import type { Kysely } from 'kysely';
import type { PostRow, TaggedProduct } from './posts.js';
import type { Database } from './schema.js';
import type { WallRow } from './walls.js';

/** Where a page starts: the sort key of the last post of the page before. */
export interface PostKey {
  pin: number;
  createdAt: number;
  id: number;
}

export async function findLiveWallById(db: Kysely<Database>, wallId: number): Promise<WallRow | null> {
  const row = await db
    .selectFrom('walls')
    .selectAll()
    .where('id', '=', wallId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

/** Up to `limit` visible posts of the wall after `after` (exclusive), in W2 order. */
export async function listVisiblePostsAfter(
  db: Kysely<Database>,
  wallId: number,
  limit: number,
  after: PostKey | null,
): Promise<PostRow[]> {
  let q = db
    .selectFrom('posts')
    .innerJoin('feeds', 'feeds.id', 'posts.feed_id')
    .selectAll('posts')
    .select('feeds.name as feed_name')
    .where('posts.wall_id', '=', wallId)
    .where('posts.hidden', '=', 0)
    .where('posts.state', '=', 'approved');
  if (after) {
    const { pin, createdAt, id } = after;
    q = q.where((eb) =>
      eb.or([
        eb('posts.pin', '<', pin),
        eb.and([
          eb('posts.pin', '=', pin),
          eb.or([
            eb('posts.created_at', '<', createdAt),
            eb.and([eb('posts.created_at', '=', createdAt), eb('posts.id', '<', id)]),
          ]),
        ]),
      ]),
    );
  }
  return q
    .orderBy('posts.pin', 'desc')
    .orderBy('posts.created_at', 'desc')
    .orderBy('posts.id', 'desc')
    .limit(limit)
    .execute();
}

/** The tagged products of each post, in C5 (tag) order. */
export async function productsOfPosts(
  db: Kysely<Database>,
  postIds: readonly number[],
): Promise<Map<number, TaggedProduct[]>> {
  const byPost = new Map<number, TaggedProduct[]>();
  if (postIds.length === 0) return byPost;
  const rows = await db
    .selectFrom('post_products')
    .innerJoin('products', 'products.id', 'post_products.product_id')
    .selectAll('products')
    .select(['post_products.post_id', 'post_products.left_pct', 'post_products.top_pct', 'post_products.position'])
    .where('post_products.post_id', 'in', [...postIds])
    .orderBy('post_products.post_id')
    .orderBy('post_products.position')
    .execute();
  for (const { post_id, ...product } of rows) {
    const list = byPost.get(post_id) ?? [];
    list.push(product);
    byPost.set(post_id, list);
  }
  return byPost;
}

/** Whether any visible post of the wall has a tagged product. */
export async function wallHasTaggedPosts(db: Kysely<Database>, wallId: number): Promise<boolean> {
  const row = await db
    .selectFrom('post_products')
    .innerJoin('posts', 'posts.id', 'post_products.post_id')
    .select('posts.id')
    .where('posts.wall_id', '=', wallId)
    .where('posts.hidden', '=', 0)
    .where('posts.state', '=', 'approved')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Of these post ids, those still visible on the wall. */
export async function stillVisible(db: Kysely<Database>, wallId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('wall_id', '=', wallId)
    .where('hidden', '=', 0)
    .where('state', '=', 'approved')
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}
