// Quota counted in the store without a disk write per call: an instance
// reserves calls in blocks with one atomic conditional upsert
// (`calls + n <= limit`) and then answers from its reservation in memory.
//
// - Never more successes than the limit, for any number of instances on one
//   store: every success is backed by a reserved call.
// - Exact for one instance: it uses every call it reserved. Several instances
//   can at worst leave a few reserved calls unused at the end of a day.
// - Blocks shrink as the limit nears (1/64 of what is left, at most 4,096),
//   so the last calls of a day are reserved one at a time. A block is one
//   synchronous (fsync'd) SQLite write that holds the event loop for ~1–5 ms:
//   at 4,096 a busy account pays it once a second, not a dozen times.
// - Unused reservations go back to the store on close and at the day's end,
//   so the stored total is what was answered; counts survive restarts.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { releaseUsage, reserveUsage, usageFor } from '../store/usage.js';
import type { QuotaCounter, QuotaDecision } from './quota.js';

/** the largest block of calls one reservation takes */
export const QUOTA_BLOCK_MAX = 4_096;

interface Reservation {
  accountId: number;
  day: number;
  /** the stored total after our last reservation (includes `unused`) */
  stored: number;
  /** reserved calls not answered yet */
  unused: number;
}

export class StoreQuota implements QuotaCounter {
  readonly backend = 'store' as const;
  private readonly reservations = new Map<string, Reservation>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private currentDay = -1;

  constructor(private readonly db: Kysely<Database>) {}

  tryConsume(accountId: number, day: number, limit: number): QuotaDecision | null {
    if (limit <= 0 || day !== this.currentDay) return null;
    const r = this.reservations.get(`${accountId}:${day}`);
    if (!r || r.unused <= 0) return null;
    r.unused -= 1;
    return { allowed: true, used: r.stored - r.unused };
  }

  async consume(accountId: number, day: number, limit: number): Promise<QuotaDecision> {
    if (limit <= 0) return { allowed: false, used: 0 };
    if (day !== this.currentDay) await this.startDay(day);
    const key = `${accountId}:${day}`;
    for (;;) {
      const r = this.reservations.get(key);
      if (r && r.unused > 0) {
        r.unused -= 1;
        return { allowed: true, used: r.stored - r.unused };
      }
      const pending = this.inFlight.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const reserving = this.reserve(accountId, day, limit, r);
      this.inFlight.set(
        key,
        reserving.then(() => undefined),
      );
      let granted: boolean;
      try {
        granted = await reserving;
      } finally {
        this.inFlight.delete(key);
      }
      if (!granted) return { allowed: false, used: Math.max(limit, this.reservations.get(key)?.stored ?? limit) };
    }
  }

  /** Reserves a block; false when the limit is spent. */
  private async reserve(accountId: number, day: number, limit: number, known?: Reservation): Promise<boolean> {
    const key = `${accountId}:${day}`;
    let stored = known?.stored ?? (await usageFor(this.db, accountId, day));
    for (;;) {
      const left = limit - stored;
      if (left <= 0) {
        this.reservations.set(key, { accountId, day, stored, unused: 0 });
        return false;
      }
      const n = Math.max(1, Math.min(QUOTA_BLOCK_MAX, Math.floor(left / 64)));
      const calls = await reserveUsage(this.db, accountId, day, n, limit);
      if (calls !== null && calls <= limit) {
        const unused = (this.reservations.get(key)?.unused ?? 0) + n;
        this.reservations.set(key, { accountId, day, stored: calls, unused });
        return true;
      }
      // another instance reserved meanwhile: look again
      stored = await usageFor(this.db, accountId, day);
    }
  }

  /**
   * Calls this counter granted that were not answered after all (a worker of
   * `serve --workers` handed them back): usable again, or given back to the
   * store when their day is over.
   */
  async giveBack(accountId: number, day: number, calls: number): Promise<void> {
    if (calls <= 0) return;
    const r = this.reservations.get(`${accountId}:${day}`);
    if (r && day === this.currentDay) {
      r.unused += calls;
      return;
    }
    await releaseUsage(this.db, accountId, day, calls);
  }

  /** A new UTC day: hand back what was reserved for the old one. */
  private async startDay(day: number): Promise<void> {
    this.currentDay = day;
    const old = [...this.reservations.values()].filter((r) => r.day !== day);
    for (const r of old) this.reservations.delete(`${r.accountId}:${r.day}`);
    await this.release(old);
  }

  private async release(reservations: Reservation[]): Promise<void> {
    for (const r of reservations) {
      if (r.unused <= 0) continue;
      const unused = r.unused;
      r.unused = 0;
      await releaseUsage(this.db, r.accountId, r.day, unused);
    }
  }

  async todayCalls(accountId: number, day: number, stored: number): Promise<number> {
    const unused = this.reservations.get(`${accountId}:${day}`)?.unused ?? 0;
    return Math.max(0, stored - unused);
  }

  async ping() {
    return true;
  }

  async close() {
    const all = [...this.reservations.values()];
    this.reservations.clear();
    await this.release(all).catch(() => undefined);
  }
}
