import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { belongsTo, createTableWithId, secretColumns } from './helpers.js';

export const description = 'accounts, user keys, walls, feeds, posts, products and their tags, usage, idempotency keys';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createTableWithId(db, dialect, 'accounts')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('daily_call_limit', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await createTableWithId(db, dialect, 'user_keys')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .$call(secretColumns('key_hash'))
    .execute();
  await db.schema.createIndex('user_keys_account').on('user_keys').column('account_id').execute();

  await createTableWithId(db, dialect, 'walls')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('profanity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('walls_account').on('walls').column('account_id').execute();

  await createTableWithId(db, dialect, 'feeds')
    .addColumn('wall_id', 'bigint', belongsTo('walls'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feeds_wall').on('feeds').columns(['wall_id', 'id']).execute();

  await createTableWithId(db, dialect, 'posts')
    .addColumn('wall_id', 'bigint', belongsTo('walls'))
    .addColumn('feed_id', 'bigint', belongsTo('feeds'))
    .addColumn('external_id', 'text')
    .addColumn('network_name', 'text', (c) => c.notNull())
    .addColumn('post_type', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('picture', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('file_original', 'text', (c) => c.notNull())
    .addColumn('file_thumb', 'text', (c) => c.notNull())
    .addColumn('media_file', 'text', (c) => c.notNull())
    .addColumn('link_url', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('user_picture', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision')
    .addColumn('rating', 'double precision')
    .addColumn('highlight', 'integer', (c) => c.notNull())
    .addColumn('pin', 'integer', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('media', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_cta', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cta_color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cta_background', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cta_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cta_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cta_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('children', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  // The list query (contract §4) filters on wall and hidden and orders by
  // pin, created, id — all descending; this index serves it without a sort.
  await db.schema
    .createIndex('posts_wall_list')
    .on('posts')
    .columns(['wall_id', 'hidden', 'pin', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('posts_feed').on('posts').column('feed_id').execute();
  await db.schema.createIndex('posts_feed_external').on('posts').columns(['feed_id', 'external_id']).unique().execute();

  await createTableWithId(db, dialect, 'products')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('price', 'double precision', (c) => c.notNull())
    .addColumn('currency_symbol', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('discount', 'double precision', (c) => c.notNull())
    .addColumn('discount_currency_symbol', 'text', (c) => c.notNull())
    .addColumn('discount_currency', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('store_shop_name', 'text', (c) => c.notNull())
    .addColumn('store_product_id', 'text', (c) => c.notNull())
    .addColumn('store_product_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('products_account').on('products').column('account_id').execute();

  await db.schema
    .createTable('post_products')
    .addColumn('post_id', 'bigint', belongsTo('posts'))
    .addColumn('product_id', 'bigint', belongsTo('products'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('left_pct', 'double precision', (c) => c.notNull())
    .addColumn('top_pct', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_products_pk', ['post_id', 'position'])
    .execute();
  await db.schema.createIndex('post_products_product').on('post_products').column('product_id').execute();

  await db.schema
    .createTable('usage_daily')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('post_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}
