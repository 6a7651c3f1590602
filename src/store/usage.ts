// Per-account daily call counters (contract §3), one row per account and UTC day.
import { sql, type Kysely } from 'kysely';
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

/** The stored counts of the account's days from `first` to `last` (days without calls have no row). */
export async function usageDays(
  db: Kysely<Database>,
  accountId: number,
  first: number,
  last: number,
): Promise<{ day: number; calls: number }[]> {
  const rows = await db
    .selectFrom('usage_daily')
    .select(['day', 'calls'])
    .where('account_id', '=', accountId)
    .where('day', '>=', first)
    .where('day', '<=', last)
    .execute();
  return rows.map((r) => ({ day: Number(r.day), calls: Number(r.calls) }));
}

/** Stores `calls` as the day's count unless a higher one is stored already (a copy never lowers it). */
export async function raiseUsage(db: Kysely<Database>, accountId: number, day: number, calls: number): Promise<void> {
  await db
    .insertInto('usage_daily')
    .values({ account_id: accountId, day, calls })
    .onConflict((oc) =>
      oc.columns(['account_id', 'day']).doUpdateSet({
        calls: sql<number>`case when excluded.calls > usage_daily.calls then excluded.calls else usage_daily.calls end`,
      }),
    )
    .execute();
}

/**
 * Adds `n` calls to the day's count if that keeps it within `limit` (one
 * atomic conditional upsert); the new count, or null when it would not fit.
 */
export async function reserveUsage(
  db: Kysely<Database>,
  accountId: number,
  day: number,
  n: number,
  limit: number,
): Promise<number | null> {
  const row = await db
    .insertInto('usage_daily')
    .values({ account_id: accountId, day, calls: n })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'day'])
        .doUpdateSet({ calls: sql<number>`usage_daily.calls + ${n}` })
        .where(sql<boolean>`usage_daily.calls + ${n} <= ${limit}`),
    )
    .returning('calls')
    .executeTakeFirst();
  return row ? Number(row.calls) : null;
}

/** Takes back `unused` reserved calls from the day's count. */
export async function releaseUsage(
  db: Kysely<Database>,
  accountId: number,
  day: number,
  unused: number,
): Promise<void> {
  await db
    .updateTable('usage_daily')
    .set({ calls: sql<number>`calls - ${unused}` })
    .where('account_id', '=', accountId)
    .where('day', '=', day)
    .execute();
}
