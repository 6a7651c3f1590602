// products list / get / create / update / delete.
import type { Command } from 'commander';
import { ProductCreateBody, ProductListQuery, ProductPatchBody } from '../http/manage/schemas.js';
import {
  createProduct,
  deleteProduct,
  getProduct,
  listProducts,
  updateProduct,
  type ProductInput,
  type ProductPatch,
} from '../store/manage/products.js';
import { databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  jsonOption,
  numberish,
  pageFrom,
  pageOptions,
  printPage,
  printRecord,
  type OutputOptions,
} from './output.js';

type Options = StoreOptions & OutputOptions;

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

  products
    .command('list')
    .description('list products')
    .option('--account <id>', 'only this account’s products')
    .option(...pageOptions[0])
    .option(...pageOptions[1])
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & { account?: string; limit?: string; cursor?: string }) => {
      const page = pageFrom(options, ProductListQuery, given({ accountId: options.account }));
      const filter = { accountId: options.account === undefined ? undefined : Number(options.account) };
      await withStore(options, async (store) =>
        printPage(await attempt(() => listProducts(store.db, filter, page)), COLUMNS, options),
      );
    });

  products
    .command('get')
    .description('show a product')
    .argument('<id>', 'product id', positiveInt('product id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options) => {
      await withStore(options, async (store) => printRecord(await attempt(() => getProduct(store.db, id)), options));
    });

  withFieldOptions(
    products.command('create').description('create a product').requiredOption('--account <id>', 'account id'),
    ['name', 'price'],
  )
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & Record<string, unknown> & { account: string }) => {
      const body = checkBody<ProductInput>(ProductCreateBody, {
        accountId: numberish(options.account),
        ...fieldsFrom(options),
      });
      await withStore(options, async (store) =>
        printRecord(await attempt(() => createProduct(cliOp(store), body)), options),
      );
    });

  withFieldOptions(
    products
      .command('update')
      .description('change a product')
      .argument('<id>', 'product id', positiveInt('product id')),
    [],
  )
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options & Record<string, unknown>) => {
      const body = checkBody<ProductPatch>(ProductPatchBody, fieldsFrom(options));
      await withStore(options, async (store) =>
        printRecord(await attempt(() => updateProduct(cliOp(store), id, body)), options),
      );
    });

  products
    .command('delete')
    .description('delete a product (its tags leave every post)')
    .argument('<id>', 'product id', positiveInt('product id'))
    .option(...databaseOption)
    .action(async (id: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        await attempt(() => deleteProduct(cliOp(store), id));
        process.stdout.write(`product ${id} deleted\n`);
      });
    });
}
