import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description = "walls get the embed's default layout, theme and columns (null: the embed's own)";

export async function up(db: Kysely<unknown>): Promise<void> {
  // How the embed shows the wall when a page does not say (layout,
  // theme, most columns); null for every wall: the embed's own defaults.
  await addColumns(db, 'walls', [
    ['layout', 'text'],
    ['theme', 'text'],
    ['columns', 'integer'],
  ]);
}
