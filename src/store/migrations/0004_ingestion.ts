import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  "per-feed ingestion state (cursor, validators, schedule, lease); posts remember upstream's hash";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Per-feed ingestion state (src/ingest/): the connector's cursor, the
  // conditional GET validators, the schedule, failures, and a lease so
  // that one poller at a time works on a feed. A row is made when a
  // feed with a connector is first seen; it goes with its feed.
  await db.schema
    .createTable('feed_ingest_state')
    .addColumn('feed_id', 'bigint', (c) => c.primaryKey().references('feeds.id').onDelete('cascade'))
    .addColumn('cursor_json', 'text')
    // the connector setting (feeds.connector) the cursor belongs to;
    // another setting starts afresh, at once
    .addColumn('cursor_for', 'text')
    .addColumn('validators_url', 'text')
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('next_poll_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('interval_s', 'integer', (c) => c.notNull())
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'bigint')
    .addColumn('last_polled_at', 'bigint')
    .addColumn('last_success_at', 'bigint')
    .addColumn('last_new_posts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_updated_posts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .execute();
  await db.schema
    .createIndex('feed_ingest_state_due')
    .on('feed_ingest_state')
    .columns(['next_poll_at', 'feed_id'])
    .execute();
  // What ingestion last wrote from upstream (a hash), so an upstream edit
  // is told apart from an operator's edit of the same post.
  await addColumns(db, 'posts', [['upstream_hash', 'text']]);
}
