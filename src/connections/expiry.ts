// The expiry check: connections whose token expires within
// CONNECTION_EXPIRY_WARN_DAYS are marked warned (expiry_warned_at), once per
// expiry — a refreshed or replaced token with a later expiry is warned of
// again when its own window opens. Marking is a conditional update, so two
// workers checking at once warn once; the store's trigger logs the mark as a
// `connection_expiring` change, which webhooks send as `connection.expiring`.
// It runs in the webhook worker's tick (src/webhooks/runtime.ts).
import type { Kysely } from 'kysely';
import { shouldWarnOfExpiry } from '../domain/connections.js';
import { connectionsToWarn, markExpiryWarned } from '../store/connections.js';
import type { Database } from '../store/schema.js';

const DAY_MS = 86_400_000;
/** connections marked per query (the check loops until none is left) */
const BATCH = 100;

/** Marks every connection due a warning; the ids this call warned of. */
export async function warnExpiringConnections(db: Kysely<Database>, now: number, warnDays: number): Promise<number[]> {
  const windowMs = warnDays * DAY_MS;
  const warned: number[] = [];
  for (;;) {
    const due = (await connectionsToWarn(db, now, windowMs, BATCH)).filter((row) =>
      shouldWarnOfExpiry(
        { status: row.status, expiresAt: row.expires_at, expiryWarnedAt: row.expiry_warned_at },
        now,
        warnDays,
      ),
    );
    for (const row of due) if (await markExpiryWarned(db, row.id, row.expires_at!, windowMs, now)) warned.push(row.id);
    if (due.length < BATCH) return warned;
  }
}
