import type { Kysely } from 'kysely';

export const description = 'feeds get a connector setting and an enabled flag (existing feeds: enabled, no connector)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // connector: JSON of src/ingest/connector-settings.ts, null for feeds
  // that are filled by import or the API only.
  await db.schema.alterTable('feeds').addColumn('connector', 'text').execute();
  await db.schema
    .alterTable('feeds')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
