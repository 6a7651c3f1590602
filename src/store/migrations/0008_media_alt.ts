import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description = "posts get alt text ('' for existing posts)";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Alt text of a post's main media; each carousel child's is an `alt`
  // inside its children entry. '' for every post stored before.
  await addColumns(db, 'posts', [['alt', 'text', (c) => c.notNull().defaultTo('')]]);
}
