import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  "posts get spam signals: the author's bot flag and account date (where the network says) and the text's SimHash";

export async function up(db: Kysely<unknown>): Promise<void> {
  // What the `account` rule reads (upstream's: the next poll that reads a
  // post with them rewrites it once, its fingerprint counting them only when
  // set), and the SimHash the `duplicate` rule compares: 16 hex digits as
  // text, so the 64-bit value is the same in SQLite (whose integers are
  // signed) and PostgreSQL; '' when the text is too short to compare, null
  // for posts stored before (their text is hashed when a rule reads them).
  await addColumns(db, 'posts', [
    ['author_bot', 'integer', (c) => c.notNull().defaultTo(0)],
    ['author_created_at', 'bigint'],
    ['text_hash', 'text'],
  ]);
  // The `duplicate` and `burst` rules read a wall's posts of their window at
  // every poll: a range of posts_wall_created (wall, created, id: migration 0003).
}
