import type { Kysely } from 'kysely';

export const description = 'the public list index also covers the media kind (replaces posts_wall_list)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The list index also carries the media kind, so the id step of the
  // list query (store/posts.ts) runs on the index alone, with or
  // without media filters, however deep the offset.
  await db.schema
    .createIndex('posts_wall_list_cover')
    .on('posts')
    .columns(['wall_id', 'hidden', 'pin', 'created_at', 'id', 'media'])
    .execute();
  await db.schema.dropIndex('posts_wall_list').execute();
}
