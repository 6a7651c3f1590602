import type { Kysely } from 'kysely';
import { idColumn, idColumnType, type DialectName } from '../dialect.js';

export const description = 'webhook endpoints and their delivery log';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const id = idColumnType(dialect);
  const pk = idColumn(dialect);
  // Webhook endpoints of an account (src/webhooks/): where to send which
  // events, the signing secret (encrypted when WEBHOOK_SECRET_KEY is set),
  // the cursor of change-log rows handled, the retry state of the event
  // at the head, and a lease like feed_ingest_state's.
  await db.schema
    .createTable('webhooks')
    .addColumn('id', id, pk)
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    // after a rotation the old secret signs too, until previous_secret_until
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // active | failing | disabled (gave up on an event; enabled again by PATCH)
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('last_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('head_seq', 'bigint')
    .addColumn('head_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('head_first_failed_at', 'bigint')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'bigint')
    .addColumn('last_success_at', 'bigint')
    .addColumn('disabled_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_account').on('webhooks').columns(['account_id', 'id']).execute();
  // the worker's due scan
  await db.schema.createIndex('webhooks_due').on('webhooks').columns(['next_attempt_at', 'id']).execute();
  // The delivery log: one row per attempt (never the body sent or received).
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', id, pk)
    .addColumn('webhook_id', 'bigint', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    // delivered | failed | gave_up
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('replay', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // the log of one endpoint, newest first
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();
  // the worker's hourly prune of old attempts
  await db.schema.createIndex('webhook_deliveries_at').on('webhook_deliveries').column('at').execute();
}
