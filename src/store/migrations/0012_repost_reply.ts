import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description = 'posts get repost and reply flags (0 for existing posts)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether a post arrived as a boost/repost, and whether it answers
  // another post (the `repost` and `reply` moderation rules judge them,
  // at ingestion and on stored posts). 0 for every post stored before:
  // the next poll that reads a flagged post again sets its flag (its
  // upstream fingerprint counts a flag only when it is set).
  await addColumns(db, 'posts', [
    ['repost', 'integer', (c) => c.notNull().defaultTo(0)],
    ['reply', 'integer', (c) => c.notNull().defaultTo(0)],
  ]);
}
