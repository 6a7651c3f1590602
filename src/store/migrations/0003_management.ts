import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { createTableWithId, secretColumns } from './helpers.js';

export const description = 'operator tokens and the audit log; indexes for slug lookups and the moderation list';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // Operator tokens of the management API: stored as SHA-256 only.
  await createTableWithId(db, dialect, 'operator_tokens')
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(secretColumns('token_hash'))
    .execute();

  // One row per management write, written in the write's own transaction.
  await createTableWithId(db, dialect, 'audit_log')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('token_id', 'bigint')
    .addColumn('token_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'bigint')
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id', 'id']).execute();

  // Looks up a wall by slug within its account. Not a unique index: an
  // imported data file may repeat a slug (the contract allows it); the
  // management API keeps new and edited slugs unique (src/manage/walls.ts).
  await db.schema.createIndex('walls_account_url').on('walls').columns(['account_id', 'url']).execute();

  // The moderation list: every post of a wall, newest first, hidden included.
  await db.schema.createIndex('posts_wall_created').on('posts').columns(['wall_id', 'created_at', 'id']).execute();
}
