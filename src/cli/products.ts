// products list / get / create / update / delete.
import type { Command } from 'commander';
import { ProductCreateBody, ProductListQuery, ProductPatchBody } from '../schemas/products.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from '../manage/products.js';
import { type ProductInput, type ProductPatch } from '../schemas/products.js';
import { databaseOption, idArgument, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  idFilter,
  numberish,
  pagedOptions,
  pageFrom,
  printOptions,
  showPage,
  showRecord,
  type PagedOptions,
  type PrintOptions,
} from './output.js';

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

export function registerProductCommands(program: Command) {
  const products = program.command('products').description('products of an account, for tagging on posts');

  pagedOptions(
    products.command('list').description('list products').option('--account <id>', 'only this account’s products'),
  ).action(async (options: PagedOptions & { account?: string }) => {
    const page = pageFrom(options, ProductListQuery, given({ accountId: options.account }));
    const filter = { accountId: idFilter(options.account) };
    await showPage(options, COLUMNS, (store) => listProducts(store.db, filter, page));
  });

  printOptions(
    products
      .command('get')
      .description('show a product')
      .argument(...idArgument('product', 'id')),
  ).action(async (id: number, options: PrintOptions) => {
    await showRecord(options, (store) => getProduct(store.db, id));
  });

  printOptions(
    withFieldOptions(
      products.command('create').description('create a product').requiredOption('--account <id>', 'account id'),
      ['name', 'price'],
    ),
  ).action(async (options: PrintOptions & Record<string, unknown> & { account: string }) => {
    const body = checkBody<ProductInput>(ProductCreateBody, {
      accountId: numberish(options.account),
      ...fieldsFrom(options),
    });
    await showRecord(options, (store) => createProduct(cliOp(store), body));
  });

  printOptions(
    withFieldOptions(
      products
        .command('update')
        .description('change a product')
        .argument(...idArgument('product', 'id')),
      [],
    ),
  ).action(async (id: number, options: PrintOptions & Record<string, unknown>) => {
    const body = checkBody<ProductPatch>(ProductPatchBody, fieldsFrom(options));
    await showRecord(options, (store) => updateProduct(cliOp(store), id, body));
  });

  products
    .command('delete')
    .description('delete a product (its tags leave every post)')
    .argument(...idArgument('product', 'id'))
    .option(...databaseOption)
    .action(async (id: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        await attempt(() => deleteProduct(cliOp(store), id));
        process.stdout.write(`product ${id} deleted\n`);
      });
    });
}
