// products list / get / create / update / delete.
import type { Command } from 'commander';
import { ProductCreateBody, ProductListQuery, ProductPatchBody } from '../schemas/products.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../manage/products.js';
import { type ProductInput, type ProductPatch } from '../schemas/products.js';
import { checkBody, given, idFilter, numberish, type PagedOptions, type PrintOptions } from './output.js';
import { resourceCommands } from './resource.js';

const COLUMNS = ['id', 'accountId', 'name', 'sku', 'price', 'currency', 'discount', 'tagCount'];

/** The product fields as options: --name, --sku, --price, --currency-symbol, … */
const FIELD_OPTIONS = [
  ['name', '--name <name>', 'product name'],
  ['sku', '--sku <sku>', 'stock keeping unit'],
  ['price', '--price <n>', 'price'],
  ['currencySymbol', '--currency-symbol <s>', 'e.g. €'],
  ['currency', '--currency <code>', 'e.g. EUR'],
  ['discount', '--discount <n>', 'discount'],
  ['discountCurrencySymbol', '--discount-currency-symbol <s>', 'e.g. €'],
  ['discountCurrency', '--discount-currency <code>', 'e.g. EUR'],
  ['url', '--url <url>', 'product page'],
  ['image', '--image <url>', 'product image'],
  ['storeShopName', '--store-shop-name <name>', 'shop name'],
  ['storeProductId', '--store-product-id <id>', 'the shop’s product id'],
  ['storeProductType', '--store-product-type <type>', 'the shop’s product type'],
] as const;
const NUMERIC = new Set(['price', 'discount']);

function fieldsFrom(options: Record<string, unknown>) {
  return given(
    Object.fromEntries(
      FIELD_OPTIONS.map(([field]) => {
        const v = options[field] as string | undefined;
        return [field, NUMERIC.has(field) ? numberish(v) : v];
      }),
    ),
  );
}

function withFieldOptions(command: Command, required: readonly string[]): Command {
  for (const [field, flags, description] of FIELD_OPTIONS) {
    if (required.includes(field)) command.requiredOption(flags, description);
    else command.option(flags, description);
  }
  return command;
}

type FieldOptions = PrintOptions & Record<string, unknown>;

export function registerProductCommands(program: Command) {
  const products = resourceCommands(program, {
    name: 'products',
    description: 'products of an account, for tagging on posts',
    noun: 'product',
  });

  products.list({
    description: 'list products',
    options: (c) => c.option('--account <id>', 'only this account’s products'),
    columns: COLUMNS,
    query: ProductListQuery,
    filters: (options: PagedOptions & { account?: string }) => ({ accountId: options.account }),
    run: ({ store, page, options }) => listProducts(store.db, { accountId: idFilter(options.account) }, page),
  });

  products.get('show a product', (store, id) => getProduct(store.db, id));

  products.create({
    description: 'create a product',
    options: (c) => withFieldOptions(c.requiredOption('--account <id>', 'account id'), ['name', 'price']),
    body: (options: FieldOptions & { account: string }) =>
      checkBody<ProductInput>(ProductCreateBody, { accountId: numberish(options.account), ...fieldsFrom(options) }),
    run: ({ op, body }) => createProduct(op, body),
  });

  products.update({
    description: 'change a product',
    options: (c) => withFieldOptions(c, []),
    body: (options: FieldOptions) => checkBody<ProductPatch>(ProductPatchBody, fieldsFrom(options)),
    run: ({ op, body, args: [id] }) => updateProduct(op, id, body),
  });

  products.delete('delete a product (its tags leave every post)', deleteProduct);
}
