// Products of an account (the fields of api-v2.md's Product, named as in the
// data file). A product appears on every post it is tagged on, on any wall
// of the account, so a change is announced account-wide.
import type { Kysely, Updateable } from 'kysely';
import { cleanWrite, PRODUCT_RULES } from '../domain/writes.js';
import type { Database, ProductsTable } from '../store/schema.js';
import { audited, diff, type Op } from './op.js';
import { iso } from '../domain/dates.js';
import { found, notFound, stored } from '../domain/errors.js';
import { scopeFilter, type AccountScope } from '../domain/roles.js';
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

/** The columns of a product that hold values of type V. */
type ColumnOf<V> = { [C in keyof ProductsTable]: ProductsTable[C] extends V ? C : never }[keyof ProductsTable];

/** The column each field of a product is stored in (one of its type: the compiler checks it). */
const COLUMN_OF = {
  name: 'name',
  sku: 'sku',
  price: 'price',
  currencySymbol: 'currency_symbol',
  currency: 'currency',
  discount: 'discount',
  discountCurrencySymbol: 'discount_currency_symbol',
  discountCurrency: 'discount_currency',
  url: 'url',
  image: 'image',
  storeShopName: 'store_shop_name',
  storeProductId: 'store_product_id',
  storeProductType: 'store_product_type',
} as const satisfies { [F in keyof ProductFields]: ColumnOf<ProductFields[F]> };

/** The columns a patch changes: those of the fields it names. */
function columnsOf(f: Partial<ProductFields>): Updateable<ProductsTable> {
  const out: Partial<Record<keyof ProductsTable, string | number>> = {};
  for (const [field, column] of Object.entries(COLUMN_OF) as [keyof ProductFields, keyof ProductsTable][]) {
    if (f[field] !== undefined) out[column] = f[field];
  }
  // each value has its column's type: COLUMN_OF pairs them
  return out as Updateable<ProductsTable>;
}

export async function listProducts(
  db: Kysely<Database>,
  filter: { accountId?: number; scope?: AccountScope },
  page: PageRequest,
): Promise<Page<ProductRecord>> {
  return pageById(
    page,
    (afterId, take) =>
      productsPage(db, { accountIds: scopeFilter(filter.scope), accountId: filter.accountId }, afterId, take),
    productRecord,
  );
}

async function productRow(db: Kysely<Database>, id: number): Promise<ProductRow> {
  return found(await findProduct(db, id), 'product', id);
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
