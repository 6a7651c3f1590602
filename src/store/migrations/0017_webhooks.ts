import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { belongsTo, createIndexes, createTableWithId } from './helpers.js';

export const description = 'webhook endpoints and their delivery log';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // Webhook endpoints of an account (src/webhooks/): where to send which
  // events, the signing secret (encrypted when WEBHOOK_SECRET_KEY is set),
  // the cursor of change-log rows handled, the retry state of the event
  // at the head, and a lease like feed_ingest_state's.
  await createTableWithId(db, dialect, 'webhooks')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
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
  await createIndexes(db, 'webhooks', {
    webhooks_account: ['account_id', 'id'],
    // the worker's due scan
    webhooks_due: ['next_attempt_at', 'id'],
  });
  // The delivery log: one row per attempt (never the body sent or received).
  await createTableWithId(db, dialect, 'webhook_deliveries')
    .addColumn('webhook_id', 'bigint', belongsTo('webhooks'))
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
  await createIndexes(db, 'webhook_deliveries', {
    // the log of one endpoint, newest first
    webhook_deliveries_webhook: ['webhook_id', 'id'],
    // the worker's hourly prune of old attempts
    webhook_deliveries_at: ['at'],
  });
}
