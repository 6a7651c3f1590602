import type { Kysely } from 'kysely';

export const description = "walls get the embed's default layout, theme and columns (null: the embed's own)";

export async function up(db: Kysely<unknown>): Promise<void> {
  // How the embed shows the wall when a page does not say (layout,
  // theme, most columns); null for every wall: the embed's own defaults.
  for (const [column, type] of [
    ['layout', 'text'],
    ['theme', 'text'],
    ['columns', 'integer'],
  ] as const)
    await db.schema.alterTable('walls').addColumn(column, type).execute();
}
