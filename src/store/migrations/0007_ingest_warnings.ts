import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description = "ingestion state keeps the last poll's warnings";

export async function up(db: Kysely<unknown>): Promise<void> {
  // What a successful poll read but not as it should be (items whose
  // date could not be read, …), for operators: how many in the last
  // poll that read the feed, and the last such message with its time.
  await addColumns(db, 'feed_ingest_state', [
    ['last_warnings', 'integer', (c) => c.notNull().defaultTo(0)],
    ['last_warning', 'text'],
    ['last_warning_at', 'bigint'],
  ]);
}
