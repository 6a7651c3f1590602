import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { createIndexes } from './helpers.js';

export const description =
  'attendee uploads: each wall’s submission page settings, each uploaded post’s consent and deletion token, spent challenges';

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  // A wall's submission page (src/http/submit/): off until an operator turns
  // it on (`enabled` is the kill switch). The consent text is the operator's
  // and versioned: each upload keeps the version and the text it agreed to.
  // `challenge_key` signs the page's proof-of-work challenges (random, made
  // with the row), so every instance on the store verifies the same ones.
  await db.schema
    .createTable('wall_submissions')
    .addColumn('wall_id', 'bigint', (c) => c.primaryKey().references('walls.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text')
    .addColumn('terms', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('consent_text', 'text', (c) => c.notNull())
    .addColumn('consent_version', 'integer', (c) => c.notNull().defaultTo(1))
    // queue: every upload waits for a moderator; wall: the wall's own mode and rules decide
    .addColumn('moderation', 'text', (c) => c.notNull().defaultTo('queue'))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('max_bytes', 'bigint', (c) => c.notNull())
    .addColumn('per_ip_per_hour', 'integer', (c) => c.notNull())
    .addColumn('per_wall_per_minute', 'integer', (c) => c.notNull())
    .addColumn('challenge_key', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // One row per uploaded post, deleted with it: the consent on record and the
  // SHA-256 of the author's private deletion token (never the token itself);
  // the uploader's address only as a keyed digest (rate limits, abuse review).
  await db.schema
    .createTable('post_uploads')
    .addColumn('post_id', 'bigint', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('wall_id', 'bigint', (c) => c.notNull())
    .addColumn('consent_version', 'integer', (c) => c.notNull())
    .addColumn('consent_text', 'text', (c) => c.notNull())
    .addColumn('consented_at', 'bigint', (c) => c.notNull())
    .addColumn('delete_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('uploader_hash', 'text', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'post_uploads', { post_uploads_wall: ['wall_id'] });

  // Proof-of-work challenges already spent: a solution is taken once (a
  // replay is refused on every instance); rows past their expiry are dropped.
  await db.schema
    .createTable('upload_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'upload_challenges', { upload_challenges_expiry: ['expires_at'] });
}
