// Products of an account: their rows (with how many posts each is tagged on)
// and the products tagged on posts, in tag order.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, ProductsTable } from './schema.js';
import { ofAccounts, pageAfterId, type AccountFilter } from './paging.js';
import { insertRow } from './rows.js';
import { tagsWithPosts } from './tags.js';

export type TaggedProduct = Selectable<ProductsTable> & { left_pct: number; top_pct: number; position: number };

export async function productsOfPost(db: Kysely<Database>, postId: number): Promise<TaggedProduct[]> {
  return db
    .selectFrom('post_products')
    .innerJoin('products', 'products.id', 'post_products.product_id')
    .selectAll('products')
    .select(['post_products.left_pct', 'post_products.top_pct', 'post_products.position'])
    .where('post_products.post_id', '=', postId)
    .orderBy('post_products.position')
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

/** A product row with the number of posts it is tagged on. */
export type ProductRow = Selectable<ProductsTable> & { tag_count: number };

function productsWithCounts(db: Kysely<Database>) {
  return db
    .selectFrom('products')
    .selectAll('products')
    .select((eb) =>
      eb
        .selectFrom('post_products')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('post_products.product_id', '=', 'products.id')
        .as('tag_count'),
    );
}

/** A page of products in id order, of these accounts only when given (null: all), of one account when given. */
export async function productsPage(
  db: Kysely<Database>,
  filter: AccountFilter,
  afterId: number | undefined,
  take: number,
): Promise<ProductRow[]> {
  const q = ofAccounts(productsWithCounts(db), 'products.account_id', filter);
  return (await pageAfterId(q, afterId, take).execute()) as ProductRow[];
}

export async function findProduct(db: Kysely<Database>, id: number): Promise<ProductRow | undefined> {
  return (await productsWithCounts(db).where('products.id', '=', id).executeTakeFirst()) as ProductRow | undefined;
}

export const insertProduct = (db: Kysely<Database>, values: Insertable<ProductsTable>) =>
  insertRow(db, 'products', values);

export async function updateProductRow(
  db: Kysely<Database>,
  id: number,
  set: Updateable<ProductsTable>,
): Promise<void> {
  await db.updateTable('products').set(set).where('id', '=', id).execute();
}

/** Deletes the product and its tags; the walls it was tagged on (their posts change). */
export async function deleteProductWithTags(db: Kysely<Database>, id: number): Promise<number[]> {
  const walls = await tagsWithPosts(db)
    .select('posts.wall_id')
    .distinct()
    .where('post_products.product_id', '=', id)
    .execute();
  await db.deleteFrom('post_products').where('product_id', '=', id).execute();
  await db.deleteFrom('products').where('id', '=', id).execute();
  return walls.map((w) => w.wall_id);
}

/** The account of each of these products (ids not found are left out). */
export async function productAccounts(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('products')
    .select(['id', 'account_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.account_id]));
}
