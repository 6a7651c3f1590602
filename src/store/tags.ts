// Product tags: which products a post shows, where on its picture, in what order.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { visiblePost } from './posts.js';

/** A tag as written: the product and its place on the picture (percent from the left and the top). */
export interface TagPlacement {
  productId: number;
  left: number;
  top: number;
}

/** The tags of these posts with their product's name, by post then position. */
export async function tagRowsOf(db: Kysely<Database>, postIds: readonly number[]) {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('post_products')
    .innerJoin('products', 'products.id', 'post_products.product_id')
    .select([
      'post_products.post_id',
      'post_products.product_id',
      'products.name',
      'post_products.left_pct',
      'post_products.top_pct',
      'post_products.position',
    ])
    .where('post_products.post_id', 'in', [...postIds])
    .orderBy('post_products.post_id')
    .orderBy('post_products.position')
    .execute();
}

/** The post's tags become these, in this order. */
export async function replaceTags(db: Kysely<Database>, postId: number, tags: readonly TagPlacement[]): Promise<void> {
  await db.deleteFrom('post_products').where('post_id', '=', postId).execute();
  if (tags.length === 0) return;
  await db
    .insertInto('post_products')
    .values(
      tags.map((t, i) => ({ post_id: postId, product_id: t.productId, position: i, left_pct: t.left, top_pct: t.top })),
    )
    .execute();
}

/** The tags, each with the post it is on: to ask which walls show a product, or which products a wall shows. */
export function tagsWithPosts(db: Kysely<Database>) {
  return db.selectFrom('post_products').innerJoin('posts', 'posts.id', 'post_products.post_id');
}

/** Whether any visible post of the wall has a tagged product. */
export async function wallHasTaggedPosts(db: Kysely<Database>, wallId: number): Promise<boolean> {
  const row = await tagsWithPosts(db)
    .select('posts.id')
    .where('posts.wall_id', '=', wallId)
    .where(visiblePost)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
