// Per-account daily call counters (contract §3), one row per account and UTC day.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Calls counted for the account on that UTC day (days since 1970-01-01). */
export async function usageFor(db: Kysely<Database>, accountId: number, day: number): Promise<number> {
  const row = await db
    .selectFrom('usage_daily')
    .select('calls')
    .where('account_id', '=', accountId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row ? Number(row.calls) : 0;
}
