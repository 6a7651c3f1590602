// Per-account daily call counters (contract §3), one row per account and UTC day.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** @see QuotaDecision in src/quota/quota.ts (same shape) */
export interface QuotaDecision {
  allowed: boolean;
  /** calls counted today, including this one when allowed */
  used: number;
}

/**
 * Counts one call unless the limit is spent, atomically: the conditional
 * upsert only increments while `calls < limit`, so concurrent callers (and
 * several instances on one store) can never exceed the limit.
 */
export async function consumeCall(
  db: Kysely<Database>,
  accountId: number,
  day: number,
  limit: number,
): Promise<QuotaDecision> {
  if (limit <= 0) return { allowed: false, used: 0 };
  const row = await db
    .insertInto('usage_daily')
    .values({ account_id: accountId, day, calls: 1 })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'day'])
        .doUpdateSet({ calls: sql<number>`usage_daily.calls + 1` })
        .where('usage_daily.calls', '<', limit),
    )
    .returning('calls')
    .executeTakeFirst();
  if (row) return { allowed: true, used: Number(row.calls) };
  return { allowed: false, used: limit };
}

export async function usageFor(db: Kysely<Database>, accountId: number, day: number): Promise<number> {
  const row = await db
    .selectFrom('usage_daily')
    .select('calls')
    .where('account_id', '=', accountId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row ? Number(row.calls) : 0;
}
