// Schema migrations, kept in code so the compiled CLI carries them.
import {
  DEFAULT_MIGRATION_TABLE,
  Migrator,
  type NoMigrations,
  sql,
  type Kysely,
  type KyselyPlugin,
  type Migration,
  type MigrationProvider,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryExecutor,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { idColumn, idColumnType, type DialectName } from './dialect.js';
import { changeLogMigration } from './change-log-triggers.js';
import { publishableKeysMigration } from './publishable-keys.js';

function migrations(dialect: DialectName): Record<string, Migration> {
  const id = idColumnType(dialect);
  const pk = idColumn(dialect);
  return {
    '0001_initial': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('accounts')
          .addColumn('id', id, pk)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('plan', 'text', (c) => c.notNull())
          .addColumn('daily_call_limit', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('user_keys')
          .addColumn('id', id, pk)
          .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('key_hash', 'text', (c) => c.notNull().unique())
          .addColumn('prefix', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('last_used_at', 'bigint')
          .addColumn('revoked_at', 'bigint')
          .execute();
        await db.schema.createIndex('user_keys_account').on('user_keys').column('account_id').execute();

        await db.schema
          .createTable('walls')
          .addColumn('id', id, pk)
          .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('profanity', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('deleted_at', 'bigint')
          .execute();
        await db.schema.createIndex('walls_account').on('walls').column('account_id').execute();

        await db.schema
          .createTable('feeds')
          .addColumn('id', id, pk)
          .addColumn('wall_id', 'bigint', (c) => c.notNull().references('walls.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('source_type', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('feeds_wall').on('feeds').columns(['wall_id', 'id']).execute();

        await db.schema
          .createTable('posts')
          .addColumn('id', id, pk)
          .addColumn('wall_id', 'bigint', (c) => c.notNull().references('walls.id').onDelete('cascade'))
          .addColumn('feed_id', 'bigint', (c) => c.notNull().references('feeds.id').onDelete('cascade'))
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
        await db.schema
          .createIndex('posts_feed_external')
          .on('posts')
          .columns(['feed_id', 'external_id'])
          .unique()
          .execute();

        await db.schema
          .createTable('products')
          .addColumn('id', id, pk)
          .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
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
          .addColumn('post_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
          .addColumn('product_id', 'bigint', (c) => c.notNull().references('products.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('left_pct', 'double precision', (c) => c.notNull())
          .addColumn('top_pct', 'double precision', (c) => c.notNull())
          .addPrimaryKeyConstraint('post_products_pk', ['post_id', 'position'])
          .execute();
        await db.schema.createIndex('post_products_product').on('post_products').column('product_id').execute();

        await db.schema
          .createTable('usage_daily')
          .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('calls', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('usage_daily_pk', ['account_id', 'day'])
          .execute();

        await db.schema
          .createTable('idempotency_keys')
          .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
          .addColumn('idem_key', 'text', (c) => c.notNull())
          .addColumn('post_id', 'bigint', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'idem_key'])
          .execute();
        await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
      },
    },
    '0002_feed_connectors': {
      async up(db: Kysely<unknown>) {
        // connector: JSON of src/ingest/connector-settings.ts, null for feeds
        // that are filled by import or the API only.
        await db.schema.alterTable('feeds').addColumn('connector', 'text').execute();
        await db.schema
          .alterTable('feeds')
          .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
      },
    },
    '0003_management': {
      async up(db: Kysely<unknown>) {
        // Operator tokens of the management API: stored as SHA-256 only.
        await db.schema
          .createTable('operator_tokens')
          .addColumn('id', id, pk)
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('prefix', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('last_used_at', 'bigint')
          .addColumn('revoked_at', 'bigint')
          .execute();

        // One row per management write, written in the write's own transaction.
        await db.schema
          .createTable('audit_log')
          .addColumn('id', id, pk)
          .addColumn('at', 'bigint', (c) => c.notNull())
          .addColumn('token_id', 'bigint')
          .addColumn('token_name', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('target_type', 'text', (c) => c.notNull())
          .addColumn('target_id', 'bigint')
          .addColumn('summary', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('audit_log_target')
          .on('audit_log')
          .columns(['target_type', 'target_id', 'id'])
          .execute();

        // Looks up a wall by slug within its account. Not a unique index: an
        // imported data file may repeat a slug (the contract allows it); the
        // management API keeps new and edited slugs unique (src/manage/walls.ts).
        await db.schema.createIndex('walls_account_url').on('walls').columns(['account_id', 'url']).execute();

        // The moderation list: every post of a wall, newest first, hidden included.
        await db.schema
          .createIndex('posts_wall_created')
          .on('posts')
          .columns(['wall_id', 'created_at', 'id'])
          .execute();
      },
    },
    '0004_ingestion': {
      async up(db: Kysely<unknown>) {
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
        await db.schema.alterTable('posts').addColumn('upstream_hash', 'text').execute();
      },
    },
    '0005_covering_list_index': {
      async up(db: Kysely<unknown>) {
        // The list index also carries the media kind, so the id step of the
        // list query (store/posts.ts) runs on the index alone, with or
        // without media filters, however deep the offset.
        await db.schema
          .createIndex('posts_wall_list_cover')
          .on('posts')
          .columns(['wall_id', 'hidden', 'pin', 'created_at', 'id', 'media'])
          .execute();
        await db.schema.dropIndex('posts_wall_list').execute();
      },
    },
    '0006_change_notifications': {
      async up(db: Kysely<unknown>) {
        // PostgreSQL tells every instance about every committed write, whoever
        // made it (src/store/change-listener.ts). SQLite needs nothing: its
        // instances notice another process's commit through data_version.
        if (dialect !== 'postgres') return;
        for (const statement of changeNotificationSql()) await sql.raw(statement).execute(db);
      },
    },
    '0007_ingest_warnings': {
      async up(db: Kysely<unknown>) {
        // What a successful poll read but not as it should be (items whose
        // date could not be read, …), for operators: how many in the last
        // poll that read the feed, and the last such message with its time.
        await db.schema
          .alterTable('feed_ingest_state')
          .addColumn('last_warnings', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('feed_ingest_state').addColumn('last_warning', 'text').execute();
        await db.schema.alterTable('feed_ingest_state').addColumn('last_warning_at', 'bigint').execute();
      },
    },
    '0008_media_alt': {
      async up(db: Kysely<unknown>) {
        // Alt text of a post's main media; each carousel child's is an `alt`
        // inside its children entry. '' for every post stored before.
        await db.schema
          .alterTable('posts')
          .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
      },
    },
    '0009_publishable_keys': publishableKeysMigration(dialect),
    '0010_operator_roles': {
      async up(db: Kysely<unknown>) {
        // An operator token's role (admin, editor, moderator, viewer) and its
        // account scope (JSON list of account ids; null = every account).
        // The tokens made before are admins of every account, as they were.
        await db.schema
          .alterTable('operator_tokens')
          .addColumn('role', 'text', (c) => c.notNull().defaultTo('admin'))
          .execute();
        await db.schema.alterTable('operator_tokens').addColumn('account_ids', 'text').execute();
        // The account an audit entry belongs to, so a token scoped to accounts
        // sees only theirs; null = no account (operator tokens) or not known.
        await db.schema.alterTable('audit_log').addColumn('account_id', 'bigint').execute();
        await db.schema.createIndex('audit_log_account').on('audit_log').columns(['account_id', 'id']).execute();
        // The entries written before: their account, found from their target
        // where it still exists (an entry whose target is gone stays null, seen
        // by unscoped tokens only).
        const owners: [string, string][] = [
          ['account', 'select a.id from accounts a where a.id = audit_log.target_id'],
          ['user_key', 'select k.account_id from user_keys k where k.id = audit_log.target_id'],
          ['wall', 'select w.account_id from walls w where w.id = audit_log.target_id'],
          [
            'feed',
            'select w.account_id from feeds f join walls w on w.id = f.wall_id where f.id = audit_log.target_id',
          ],
          [
            'post',
            'select w.account_id from posts p join walls w on w.id = p.wall_id where p.id = audit_log.target_id',
          ],
          ['product', 'select p.account_id from products p where p.id = audit_log.target_id'],
          [
            'publishable_key',
            'select w.account_id from publishable_keys k join walls w on w.id = k.wall_id where k.id = audit_log.target_id',
          ],
        ];
        for (const [type, owner] of owners) {
          await sql
            .raw(`update audit_log set account_id = (${owner}) where target_type = '${type}' and account_id is null`)
            .execute(db);
        }
      },
    },
    '0011_moderation': {
      async up(db: Kysely<unknown>) {
        // Moderation mode of walls (auto | manual) and feeds (null = the
        // wall's), and each post's state (approved | pending | rejected)
        // with its last decision: who, when, why. Every post stored before
        // is approved, every wall auto: nothing public changes.
        await db.schema
          .alterTable('walls')
          .addColumn('moderation', 'text', (c) => c.notNull().defaultTo('auto'))
          .execute();
        // The wall's ordered moderation rules (JSON of src/domain/rules.ts `Rule[]`).
        await db.schema
          .alterTable('walls')
          .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
          .execute();
        await db.schema.alterTable('feeds').addColumn('moderation', 'text').execute();
        await db.schema
          .alterTable('posts')
          .addColumn('state', 'text', (c) => c.notNull().defaultTo('approved'))
          .execute();
        await db.schema.alterTable('posts').addColumn('decided_by', 'text').execute();
        await db.schema.alterTable('posts').addColumn('decided_at', 'bigint').execute();
        await db.schema.alterTable('posts').addColumn('decision_reason', 'text').execute();
        // The public list filters on wall, hidden and state (both equalities)
        // and orders by pin, created, id: the covering index takes the state.
        await db.schema
          .createIndex('posts_wall_public')
          .on('posts')
          .columns(['wall_id', 'hidden', 'state', 'pin', 'created_at', 'id', 'media'])
          .execute();
        await db.schema.dropIndex('posts_wall_list_cover').execute();
        // The queue: a wall's posts of one state, oldest (or newest) first.
        await db.schema
          .createIndex('posts_wall_state')
          .on('posts')
          .columns(['wall_id', 'state', 'created_at', 'id'])
          .execute();
      },
    },
    '0012_repost_reply': {
      async up(db: Kysely<unknown>) {
        // Whether a post arrived as a boost/repost, and whether it answers
        // another post (the `repost` and `reply` moderation rules judge them,
        // at ingestion and on stored posts). 0 for every post stored before:
        // the next poll that reads a flagged post again sets its flag (its
        // upstream fingerprint counts a flag only when it is set).
        await db.schema
          .alterTable('posts')
          .addColumn('repost', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .alterTable('posts')
          .addColumn('reply', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0013_wall_display': {
      async up(db: Kysely<unknown>) {
        // How the embed shows the wall when a page does not say (layout,
        // theme, most columns); null for every wall: the embed's own defaults.
        for (const [column, type] of [
          ['layout', 'text'],
          ['theme', 'text'],
          ['columns', 'integer'],
        ] as const)
          await db.schema.alterTable('walls').addColumn(column, type).execute();
      },
    },
    '0018_wall_framing': {
      async up(db: Kysely<unknown>) {
        // Whether any site may frame the hosted wall page when its key is bound
        // to no origins (src/http/web/framing.ts); 0 for every wall.
        await db.schema
          .alterTable('walls')
          .addColumn('allow_framing', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0014_post_revision': {
      async up(db: Kysely<unknown>) {
        // A post's revision: bumped by the store itself on every UPDATE of the
        // row, whoever writes it (an instance, a worker, the CLI, a manual
        // SQL edit). A rendered post fragment (src/http/v2/fragments.ts) is
        // reused only while the revision it was rendered from is current.
        await db.schema
          .alterTable('posts')
          .addColumn('rev', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        for (const statement of postRevisionSql(dialect)) await sql.raw(statement).execute(db);
      },
    },
    '0015_changes': {
      async up(db: Kysely<unknown>) {
        // the change log: what the change feed and the webhooks read
        await changeLogMigration(db, dialect);
      },
    },
    '0016_analytics': {
      async up(db: Kysely<unknown>) {
        // Analytics counters (src/store/analytics.ts): one row per wall, UTC
        // day, event type, post and product (0: none), added to by additive
        // upserts, so instances writing at once sum exactly. No visitor data:
        // no IP, user agent, page view id or time of day.
        await db.schema
          .createTable('analytics_daily')
          .addColumn('wall_id', 'bigint', (c) => c.notNull().references('walls.id').onDelete('cascade'))
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('post_id', 'bigint', (c) => c.notNull())
          .addColumn('product_id', 'bigint', (c) => c.notNull())
          .addColumn('n', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('analytics_daily_pk', ['wall_id', 'day', 'type', 'post_id', 'product_id'])
          .execute();
        // a product's report reads its rows across walls
        await db.schema
          .createIndex('analytics_daily_product')
          .on('analytics_daily')
          .columns(['product_id', 'day'])
          .execute();
      },
    },
    '0017_webhooks': {
      async up(db: Kysely<unknown>) {
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
      },
    },
  };
}

/**
 * The tables whose rows a cached read depends on, and the id each row
 * announces: a wall (its cached reads) or an account (its keys and every
 * cached read of its walls). Tables no cached read shows (usage, audit log,
 * operator tokens, ingestion state, idempotency keys) announce nothing.
 * Part of migration 0006 as it ran: a change here needs a new migration.
 */
const ANNOUNCING_TABLES: readonly {
  table: string;
  kind: 'walls' | 'accounts';
  /** the announced id of a transition-table row `r` */
  id: string;
  /** joined to `r` to find the id */
  join?: string;
  /** an UPDATE announces only rows where one of these changed (default: every row); needs `id`, no `join` */
  watched?: readonly string[];
}[] = [
  { table: 'accounts', kind: 'accounts', id: 'r.id' },
  // an update of last_used_at alone (once a minute per key in use) changes nothing a reader sees
  { table: 'user_keys', kind: 'accounts', id: 'r.account_id', watched: ['account_id', 'key_hash', 'revoked_at'] },
  { table: 'products', kind: 'accounts', id: 'r.account_id' },
  { table: 'walls', kind: 'walls', id: 'r.id' },
  { table: 'feeds', kind: 'walls', id: 'r.wall_id' },
  { table: 'posts', kind: 'walls', id: 'r.wall_id' },
  // a tag removed with its post finds no post here; the post's own delete announced the wall
  { table: 'post_products', kind: 'walls', id: 'p.wall_id', join: 'join posts p on p.id = r.post_id' },
];

/** More distinct ids than this in one statement announce `all` (a NOTIFY payload must stay under 8000 bytes). */
const MAX_ANNOUNCED_IDS = 100;

/**
 * Statement-level AFTER triggers with transition tables: one NOTIFY per
 * statement on channel `wallery_changes` (CHANGE_CHANNEL of
 * change-listener.ts), sent at commit (never on rollback),
 * naming the distinct wall or account ids the statement touched:
 * `{"walls" : [7011,7012]}`; `{"all":true}` for a TRUNCATE or a statement
 * touching more than MAX_ANNOUNCED_IDS of them.
 */
function changeNotificationSql(): string[] {
  const statements = [
    `create function wallery_announce(kind text, ids bigint[]) returns void language plpgsql as $$
     begin
       if cardinality(ids) = 0 then return; end if;
       perform pg_notify('wallery_changes', case when cardinality(ids) > ${MAX_ANNOUNCED_IDS}
         then '{"all":true}' else json_build_object(kind, ids)::text end);
     end $$`,
    `create function wallery_announce_all() returns trigger language plpgsql as $$
     begin
       perform pg_notify('wallery_changes', '{"all":true}');
       return null;
     end $$`,
  ];
  for (const t of ANNOUNCING_TABLES) {
    const ids = (rows: string) => `select ${t.id} from ${rows} r ${t.join ?? ''}`;
    // an update announces the ids before and after: a row may move to another wall or account
    const updated = t.watched
      ? `select v.id from new_rows r join old_rows o on o.id = r.id
           cross join lateral (values (${t.id}), (${t.id.replace(/^r\./, 'o.')})) v(id)
           where (${t.watched.map((c) => `r.${c}`).join(', ')}) is distinct from (${t.watched.map((c) => `o.${c}`).join(', ')})`
      : `${ids('new_rows')} union ${ids('old_rows')}`;
    const announce = (query: string) =>
      `perform wallery_announce('${t.kind}', array(select distinct id from (${query}) x(id) order by id));`;
    statements.push(
      `create function wallery_announce_${t.table}() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then ${announce(ids('new_rows'))}
         elsif tg_op = 'UPDATE' then ${announce(updated)}
         else ${announce(ids('old_rows'))}
         end if;
         return null;
       end $$`,
      `create trigger wallery_announce_insert after insert on ${t.table}
         referencing new table as new_rows for each statement execute function wallery_announce_${t.table}()`,
      `create trigger wallery_announce_update after update on ${t.table}
         referencing old table as old_rows new table as new_rows for each statement execute function wallery_announce_${t.table}()`,
      `create trigger wallery_announce_delete after delete on ${t.table}
         referencing old table as old_rows for each statement execute function wallery_announce_${t.table}()`,
      `create trigger wallery_announce_truncate after truncate on ${t.table}
         for each statement execute function wallery_announce_all()`,
    );
  }
  return statements;
}

/**
 * The trigger that bumps `posts.rev` on every update. SQLite cannot assign to
 * NEW, so its AFTER trigger writes the row once more (recursive triggers are
 * off, and the WHEN clause stops a second round anyway); a statement that
 * sets `rev` itself is left alone in both dialects.
 */
function postRevisionSql(dialect: DialectName): string[] {
  if (dialect === 'sqlite')
    return [
      `create trigger posts_revision after update on posts for each row when new.rev = old.rev
       begin update posts set rev = old.rev + 1 where id = new.id; end`,
    ];
  return [
    `create function wallery_post_revision() returns trigger language plpgsql as $$
     begin
       if new.rev = old.rev then new.rev := old.rev + 1; end if;
       return new;
     end $$`,
    `create trigger posts_revision before update on posts for each row execute function wallery_post_revision()`,
  ];
}

/**
 * What each migration does, in one line: `wallery migrate --dry-run` shows it
 * next to the name. Every migration has one (test/store/migrations.test.ts).
 */
export const MIGRATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '0001_initial': 'accounts, user keys, walls, feeds, posts, products and their tags, usage, idempotency keys',
  '0002_feed_connectors': 'feeds get a connector setting and an enabled flag (existing feeds: enabled, no connector)',
  '0003_management': 'operator tokens and the audit log; indexes for slug lookups and the moderation list',
  '0004_ingestion': "per-feed ingestion state (cursor, validators, schedule, lease); posts remember upstream's hash",
  '0005_covering_list_index': 'the public list index also covers the media kind (replaces posts_wall_list)',
  '0006_change_notifications': 'PostgreSQL: triggers announce every write to the other instances (SQLite: nothing)',
  '0007_ingest_warnings': "ingestion state keeps the last poll's warnings",
  '0008_media_alt': "posts get alt text ('' for existing posts)",
  '0009_publishable_keys': 'publishable (embed) keys of walls',
  '0010_operator_roles':
    'operator tokens get a role and account scope (existing: admin of every account); audit entries their account',
  '0011_moderation':
    'moderation mode and rules of walls and feeds, post states (existing posts: approved); new list indexes',
  '0012_repost_reply': 'posts get repost and reply flags (0 for existing posts)',
  '0013_wall_display': "walls get the embed's default layout, theme and columns (null: the embed's own)",
  '0014_post_revision': 'posts get a revision bumped by a trigger on every update',
  '0015_changes': 'the change log (change feed, webhooks) and the triggers that fill it',
  '0016_analytics': 'analytics counters per wall, day, event type, post and product',
  '0017_webhooks': 'webhook endpoints and their delivery log',
  '0018_wall_framing': 'walls get allow_framing: any site may frame the hosted page of a key bound to no origins (0)',
};

function migratorFor(db: Kysely<unknown>, dialect: DialectName): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  return new Migrator({ db, provider });
}

/** The names of the migrations this version of Wallery knows, oldest first. */
export function knownMigrations(dialect: DialectName): string[] {
  return Object.keys(migrations(dialect)).sort();
}

/** The store was migrated by a later Wallery: this one must not touch it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

/** The migrations recorded as applied in the store, oldest first ([] before the first). */
async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === DEFAULT_MIGRATION_TABLE)) return [];
  const query = sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`;
  return (await query.execute(db)).rows.map((r) => r.name);
}

/**
 * Refuses a store that holds a migration this version does not know: a later
 * Wallery ran there, and neither running on its schema nor migrating it is
 * safe. (Kysely's own refusal, "corrupted migrations", names no remedy.)
 */
export async function assertSchemaKnown(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const tooNew = schemaTooNew(await appliedMigrations(db), dialect);
  if (tooNew) throw tooNew;
}

/** The refusal for a schema with these migrations applied, when one is unknown to this version; else null. */
export function schemaTooNew(applied: readonly string[], dialect: DialectName): SchemaTooNewError | null {
  const known = knownMigrations(dialect);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length === 0) return null;
  const which = unknown.length === 1 ? `migration ${unknown[0]}` : `migrations ${unknown.join(', ')}`;
  return new SchemaTooNewError(
    `the database schema is newer than this Wallery: it has ${which}, from a later version; ` +
      `this version knows migrations up to ${known.at(-1)}: upgrade Wallery or restore a backup`,
  );
}

export async function migrateToLatest(db: Kysely<unknown>, dialect: DialectName): Promise<string[]> {
  await assertSchemaKnown(db, dialect);
  const { error, results } = await migratorFor(db, dialect).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Migrates up (or down) to the migration `name` exactly (NO_MIGRATIONS: only
 * Kysely's bookkeeping): for tests of a migration on the data before it, and
 * for the schema a backup at `name` is compared with.
 */
export async function migrateTo(db: Kysely<unknown>, dialect: DialectName, name: string | NoMigrations): Promise<void> {
  const { error } = await migratorFor(db, dialect).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * Runs the migrations' up steps, oldest first, up to and including `last`
 * (null: none), without recording them: the schema of a store migrated to
 * `last`, built inside a transaction that is then rolled back (PostgreSQL
 * keeps no bookkeeping there, and no Kysely migration lock is taken).
 */
export async function runMigrationsUpTo(db: Kysely<unknown>, dialect: DialectName, last: string | null): Promise<void> {
  const all = migrations(dialect);
  for (const name of Object.keys(all).sort()) {
    if (last === null || name > last) return;
    await all[name]!.up(db);
  }
}

export interface PendingMigration {
  name: string;
  description: string;
  /** the SQL it runs on this store, as recorded in a rehearsal that was rolled back */
  statements: string[];
}

/** Thrown to roll the rehearsal back. */
class Rehearsal extends Error {}

/**
 * The migrations `migrateToLatest` would apply, with the SQL each runs, and
 * nothing changed: they are run on the store inside one transaction that is
 * then rolled back (both stores roll DDL back). On SQLite the transaction
 * holds the write lock while it runs, like a real migration.
 */
export async function pendingMigrations(db: Kysely<unknown>, dialect: DialectName): Promise<PendingMigration[]> {
  await assertSchemaKnown(db, dialect);
  const pending = (await migratorFor(db, dialect).getMigrations()).filter((m) => m.executedAt === undefined);
  if (pending.length === 0) return [];
  const planned: PendingMigration[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      for (const m of pending) {
        const recorder = new StatementRecorder(trx.getExecutor());
        await m.migration.up(trx.withPlugin(recorder));
        planned.push({
          name: m.name,
          description: MIGRATION_DESCRIPTIONS[m.name] ?? '',
          statements: recorder.statements,
        });
      }
      throw new Rehearsal();
    });
  } catch (err) {
    if (!(err instanceof Rehearsal)) throw err;
  }
  return planned;
}

/** Keeps the SQL of every query that passes (its parameters appended), and changes nothing. */
class StatementRecorder implements KyselyPlugin {
  readonly statements: string[] = [];
  constructor(private readonly executor: QueryExecutor) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { sql: text, parameters } = this.executor.compileQuery(args.node, args.queryId);
    const oneLine = text.replace(/\s+/g, ' ').trim();
    this.statements.push(parameters.length ? `${oneLine} -- ${JSON.stringify(parameters)}` : oneLine);
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
