import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description = 'feeds get a connector setting and an enabled flag (existing feeds: enabled, no connector)';

export async function up(db: Kysely<unknown>): Promise<void> {
  // connector: JSON of src/ingest/connector-settings.ts, null for feeds
  // that are filled by import or the API only.
  await addColumns(db, 'feeds', [
    ['connector', 'text'],
    ['enabled', 'integer', (c) => c.notNull().defaultTo(1)],
  ]);
}
