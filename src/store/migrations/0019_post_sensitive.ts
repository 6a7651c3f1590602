import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description = 'posts get a sensitive flag (0 for existing posts)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether upstream flagged the post sensitive (a content warning, sensitive
  // media, a moderation label): the `sensitive` moderation rule judges it, at
  // ingestion and now on stored posts too. 0 for every post stored before:
  // its upstream fingerprint counts the flag only when it is set
  // (src/domain/post-fields.ts), so an unflagged post is not rewritten, and
  // a flagged one gets its flag the next time a poll reads it.
  await addColumns(db, 'posts', [['sensitive', 'integer', (c) => c.notNull().defaultTo(0)]]);
}
