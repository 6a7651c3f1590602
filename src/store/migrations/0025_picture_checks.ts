import { sql, type Kysely } from 'kysely';

export const description =
  'the image check: each stored picture’s safety scores (with the model that gave them) and perceptual hash; posts waiting for it';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Keyed like media_blobs, by the hash of the picture's bytes: a picture many
  // posts show is checked once. A row whose model is not the current one is
  // checked again (in the background, resumable: the table is the queue).
  await db.schema
    .createTable('picture_checks')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('model', 'text', (c) => c.notNull())
    // JSON { neutral, drawing, sexy, porn, hentai }: 0–1 each; null when the check failed
    .addColumn('scores', 'text')
    // 16 hex digits (64 bits, sharp-phash); null when the check failed
    .addColumn('phash', 'text')
    // why the check failed; null when it did not
    .addColumn('error', 'text')
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .execute();
  // Posts waiting for the check: partial, so it costs nothing once they are decided.
  await db.schema
    .createIndex('posts_image_check')
    .on('posts')
    .column('id')
    .where(sql.ref('decided_by'), '=', 'check:image')
    .execute();
}
