// Products of an account (the fields of api-v2.md's Product, named as in the
// data file). A product appears on every post it is tagged on, on any wall
// of the account, so a change is announced account-wide.
import type { Kysely, Selectable, Updateable } from 'kysely';
import { cleanWrite, PRODUCT_RULES } from '../domain/writes.js';
import type { Database, ProductsTable } from '../store/schema.js';
import { audited, diff, type Op } from './op.js';
import { iso } from '../domain/dates.js';
import { notFound, stored } from '../domain/errors.js';
import { scopeIds, type AccountScope } from '../domain/roles.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import type { ProductInput, ProductPatch, ProductRecord } from '../schemas/products.js';
import { productColumns } from '../store/product-columns.js';

export interface ProductFields {
  name: string;
  sku: string;
  price: number;
  currencySymbol: string;
  currency: string;
  discount: number;
  discountCurrencySymbol: string;
  discountCurrency: string;
  url: string;
  image: string;
  storeShopName: string;
  storeProductId: string;
  storeProductType: string;
}

type ProductRow = Selectable<ProductsTable> & { tag_count: number };

/** The stored columns of a new product; absent optional fields are "" (or 0 for the discount). Shared with import. */

const productRecord = (r: ProductRow): ProductRecord => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  sku: r.sku,
  price: r.price,
  currencySymbol: r.currency_symbol,
  currency: r.currency,
  discount: r.discount,
  discountCurrencySymbol: r.discount_currency_symbol,
  discountCurrency: r.discount_currency,
  url: r.url,
  image: r.image,
  storeShopName: r.store_shop_name,
  storeProductId: r.store_product_id,
  storeProductType: r.store_product_type,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  tagCount: Number(r.tag_count),
});

function columnsOf(f: Partial<ProductFields>): Updateable<ProductsTable> {
  const out: Updateable<ProductsTable> = {};
  if (f.name !== undefined) out.name = f.name;
  if (f.sku !== undefined) out.sku = f.sku;
  if (f.price !== undefined) out.price = f.price;
  if (f.currencySymbol !== undefined) out.currency_symbol = f.currencySymbol;
  if (f.currency !== undefined) out.currency = f.currency;
  if (f.discount !== undefined) out.discount = f.discount;
  if (f.discountCurrencySymbol !== undefined) out.discount_currency_symbol = f.discountCurrencySymbol;
  if (f.discountCurrency !== undefined) out.discount_currency = f.discountCurrency;
  if (f.url !== undefined) out.url = f.url;
  if (f.image !== undefined) out.image = f.image;
  if (f.storeShopName !== undefined) out.store_shop_name = f.storeShopName;
  if (f.storeProductId !== undefined) out.store_product_id = f.storeProductId;
  if (f.storeProductType !== undefined) out.store_product_type = f.storeProductType;
  return out;
}

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

export async function listProducts(
  db: Kysely<Database>,
  filter: { accountId?: number; scope?: AccountScope },
  page: PageRequest,
): Promise<Page<ProductRecord>> {
  return pageById(
    page,
    async (afterId, take) => {
      let q = productsWithCounts(db);
      if (filter.scope) q = q.where('products.account_id', 'in', scopeIds(filter.scope));
      if (filter.accountId !== undefined) q = q.where('products.account_id', '=', filter.accountId);
      if (afterId !== undefined) q = q.where('products.id', '>', afterId);
      return (await q.orderBy('products.id').limit(take).execute()) as ProductRow[];
    },
    productRecord,
  );
}

async function productRow(db: Kysely<Database>, id: number): Promise<ProductRow> {
  const row = (await productsWithCounts(db).where('products.id', '=', id).executeTakeFirst()) as ProductRow | undefined;
  if (!row) throw notFound('product', id);
  return row;
}

export async function getProduct(db: Kysely<Database>, id: number): Promise<ProductRecord> {
  return productRecord(await productRow(db, id));
}

export async function createProduct(op: Op, given: ProductInput): Promise<ProductRecord> {
  const input = stored(cleanWrite(given, PRODUCT_RULES));
  return audited(op, async (tx) => {
    const account = await tx.trx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', input.accountId)
      .executeTakeFirst();
    if (!account) throw notFound('account', input.accountId);
    const { id } = await tx.trx
      .insertInto('products')
      .values({
        ...productColumns(input),
        created_at: op.now,
        updated_at: op.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rec = productRecord(await productRow(tx.trx, id));
    tx.audit({ action: 'product.create', targetType: 'product', targetId: id, after: rec });
    return rec;
  });
}

export async function updateProduct(op: Op, id: number, change: ProductPatch): Promise<ProductRecord> {
  const patch = stored(cleanWrite(change, PRODUCT_RULES));
  return audited(op, async (tx) => {
    const before = productRecord(await productRow(tx.trx, id));
    await tx.trx
      .updateTable('products')
      .set({ ...columnsOf(patch), updated_at: op.now })
      .where('id', '=', id)
      .execute();
    const after = productRecord(await productRow(tx.trx, id));
    const changed = diff(before, after);
    delete changed.before.updatedAt;
    delete changed.after.updatedAt;
    tx.audit({ action: 'product.update', targetType: 'product', targetId: id, ...changed });
    tx.accountChanged(after.accountId);
    return after;
  });
}

/** Deletes a product and removes its tags from every post. */
export async function deleteProduct(op: Op, id: number): Promise<ProductRecord> {
  return audited(op, async (tx) => {
    const before = productRecord(await productRow(tx.trx, id));
    const walls = await tx.trx
      .selectFrom('post_products')
      .innerJoin('posts', 'posts.id', 'post_products.post_id')
      .select('posts.wall_id')
      .distinct()
      .where('post_products.product_id', '=', id)
      .execute();
    await tx.trx.deleteFrom('post_products').where('product_id', '=', id).execute();
    await tx.trx.deleteFrom('products').where('id', '=', id).execute();
    tx.audit({ action: 'product.delete', targetType: 'product', targetId: id, accountId: before.accountId, before });
    tx.accountChanged(before.accountId);
    for (const w of walls) tx.wallChanged(w.wall_id);
    return before;
  });
}
