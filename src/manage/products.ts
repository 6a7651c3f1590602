// Products of an account (the fields of api-v2.md's Product, named as in the
// data file). A product appears on every post it is tagged on, on any wall
// of the account, so a change is announced account-wide.
import type { Kysely, Updateable } from 'kysely';
import { cleanWrite, PRODUCT_RULES } from '../domain/writes.js';
import type { Database, ProductsTable } from '../store/schema.js';
import { audited, diff, type Op } from './op.js';
import { iso } from '../domain/dates.js';
import { notFound, stored } from '../domain/errors.js';
import { scopeIds, type AccountScope } from '../domain/roles.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import type { ProductInput, ProductPatch, ProductRecord } from '../schemas/products.js';
import { productColumns } from '../store/product-columns.js';
import { findAccount } from '../store/accounts.js';
import {
  deleteProductWithTags,
  findProduct,
  insertProduct,
  productsPage,
  updateProductRow,
  type ProductRow,
} from '../store/products.js';

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

export async function listProducts(
  db: Kysely<Database>,
  filter: { accountId?: number; scope?: AccountScope },
  page: PageRequest,
): Promise<Page<ProductRecord>> {
  return pageById(
    page,
    (afterId, take) =>
      productsPage(
        db,
        { accountIds: filter.scope ? scopeIds(filter.scope) : null, accountId: filter.accountId },
        afterId,
        take,
      ),
    productRecord,
  );
}

async function productRow(db: Kysely<Database>, id: number): Promise<ProductRow> {
  const row = await findProduct(db, id);
  if (!row) throw notFound('product', id);
  return row;
}

export async function getProduct(db: Kysely<Database>, id: number): Promise<ProductRecord> {
  return productRecord(await productRow(db, id));
}

export async function createProduct(op: Op, given: ProductInput): Promise<ProductRecord> {
  const input = stored(cleanWrite(given, PRODUCT_RULES));
  return audited(op, async (tx) => {
    if (!(await findAccount(tx.trx, input.accountId))) throw notFound('account', input.accountId);
    const id = await insertProduct(tx.trx, { ...productColumns(input), created_at: op.now, updated_at: op.now });
    const rec = productRecord(await productRow(tx.trx, id));
    tx.audit({ action: 'product.create', targetType: 'product', targetId: id, after: rec });
    return rec;
  });
}

export async function updateProduct(op: Op, id: number, change: ProductPatch): Promise<ProductRecord> {
  const patch = stored(cleanWrite(change, PRODUCT_RULES));
  return audited(op, async (tx) => {
    const before = productRecord(await productRow(tx.trx, id));
    await updateProductRow(tx.trx, id, { ...columnsOf(patch), updated_at: op.now });
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
    const walls = await deleteProductWithTags(tx.trx, id);
    tx.audit({ action: 'product.delete', targetType: 'product', targetId: id, accountId: before.accountId, before });
    tx.accountChanged(before.accountId);
    for (const wallId of walls) tx.wallChanged(wallId);
    return before;
  });
}
