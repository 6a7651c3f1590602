import { sql, type Kysely } from 'kysely';
import { belongsTo } from './helpers.js';

export const description =
  'moderation providers: each answer a provider gave about a post (labels, scores, model); posts waiting for one';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per post and provider asked: its labels and scores (JSON), the
  // model and protocol that gave them. Only real answers are kept: a post a
  // provider did not answer for is held for a human with the reason, and
  // asked again when the wall's rules are applied.
  await db.schema
    .createTable('provider_checks')
    .addColumn('post_id', 'bigint', belongsTo('posts'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    // JSON [{ label, score }]
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_checks_pk', ['post_id', 'provider'])
    .execute();
  // Posts waiting for a provider: partial, so it costs nothing once they are decided.
  await db.schema
    .createIndex('posts_provider_check')
    .on('posts')
    .column('id')
    .where(sql.ref('decided_by'), '=', 'check:provider')
    .execute();
}
