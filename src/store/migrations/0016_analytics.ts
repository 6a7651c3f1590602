import type { Kysely } from 'kysely';
import { belongsTo } from './helpers.js';

export const description = 'analytics counters per wall, day, event type, post and product';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Analytics counters (src/store/analytics.ts): one row per wall, UTC
  // day, event type, post and product (0: none), added to by additive
  // upserts, so instances writing at once sum exactly. No visitor data:
  // no IP, user agent, page view id or time of day.
  await db.schema
    .createTable('analytics_daily')
    .addColumn('wall_id', 'bigint', belongsTo('walls'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('post_id', 'bigint', (c) => c.notNull())
    .addColumn('product_id', 'bigint', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_daily_pk', ['wall_id', 'day', 'type', 'post_id', 'product_id'])
    .execute();
  // a product's report reads its rows across walls
  await db.schema.createIndex('analytics_daily_product').on('analytics_daily').columns(['product_id', 'day']).execute();
}
