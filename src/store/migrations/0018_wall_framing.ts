import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  'walls get allow_framing: any site may frame the hosted page of a key bound to no origins (0)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether any site may frame the hosted wall page when its key is bound
  // to no origins (src/http/web/framing.ts); 0 for every wall.
  await addColumns(db, 'walls', [['allow_framing', 'integer', (c) => c.notNull().defaultTo(0)]]);
}
