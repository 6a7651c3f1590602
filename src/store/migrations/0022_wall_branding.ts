import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  "walls get branding: the JSON of their colours, font, radius, card style, logo and event texts (null: the embed's own)";

export async function up(db: Kysely<unknown>): Promise<void> {
  // One JSON column, not eleven: the branding is written and read as a
  // whole (src/domain/branding.ts checks it, the embed presenter reads it),
  // never filtered or sorted on in SQL, and it carries a map of custom
  // variables — like a wall's `rules`. Null for every wall: no branding.
  await addColumns(db, 'walls', [['branding', 'text']]);
}
