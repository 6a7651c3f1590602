import { sql, type Kysely } from 'kysely';

export const description = 'media queue: pictures found by their source URL, posts whose media were never looked at';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A picture many posts show (an author's avatar on every post of theirs) is
  // fetched once: a new post's picture takes the stored copy of another row of
  // the same URL, and the worker claims every row of a URL together.
  await db.schema.createIndex('post_media_source').on('post_media').column('source_url').execute();
  // The media worker's backfill: posts whose media_state is still null (stored
  // before migration 0020). Partial, so it costs nothing once they are done.
  await db.schema
    .createIndex('posts_media_unknown')
    .on('posts')
    .column('id')
    .where(sql.ref('media_state'), 'is', null)
    .execute();
}
