import type { Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addColumns, belongsTo, createIndexes, createTableWithId } from './helpers.js';

export const description = 'media: stored pictures (content-addressed) and each post’s media with its fetch state';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // One row per stored picture, keyed by the SHA-256 of the bytes fetched: a
  // picture many posts use is stored once (src/media/). Its files (the
  // oriented, metadata-free master and the renditions) live in the media
  // storage under the hash; `bytes` is what they take there.
  await db.schema
    .createTable('media_blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('animated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_alpha', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('placeholder', 'text', (c) => c.notNull())
    // JSON array of the rendition widths made, ascending
    .addColumn('widths', 'text', (c) => c.notNull())
    .addColumn('master', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // One row per picture a post shows (src/domain/media-sources.ts names the
  // slots): where it came from, and where fetching it stands — the work
  // queue of the media worker too (due scan, lease like feed_ingest_state's).
  await createTableWithId(db, dialect, 'post_media')
    .addColumn('post_id', 'bigint', belongsTo('posts'))
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    // item:<n> (the picture, or the poster, of the post's n-th media item) | avatar
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text', (c) => c.notNull())
    // pending | ready | failed (gave up after retries) | refused (not a picture we take) | skipped
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('hash', 'text')
    .addColumn('reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_media_slot').on('post_media').columns(['post_id', 'slot']).unique().execute();
  await createIndexes(db, 'post_media', {
    // the worker's due scan
    post_media_due: ['state', 'next_attempt_at'],
    // gc: is a stored picture still used; quota: an account's pictures
    post_media_hash: ['hash'],
    post_media_account: ['account_id', 'hash'],
  });

  // Where a post's media stands as a whole (null: not looked at yet, e.g. a
  // post stored before this migration; the media worker fills it in): none |
  // pending | ready | partial | failed. A wall that waits for media (0 by
  // default: a new post shows at once, its pictures following) shows a post
  // in the embed once this is no longer pending.
  await addColumns(db, 'posts', [['media_state', 'text']]);
  await addColumns(db, 'walls', [['media_wait', 'integer', (c) => c.notNull().defaultTo(0)]]);
}
