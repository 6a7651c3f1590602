// The in-process aggregator: events are summed in memory and written once a
// second as additive upserts (src/store/analytics.ts) — never a store write
// per event. A flush that fails puts its counts back, to be written by the
// next tick (a tick, not a retry loop); close() writes what is left. A
// process killed with SIGKILL loses what arrived since the last tick: at
// most about one flush interval of events.
import type { Kysely } from 'kysely';
import { EVENT_TYPES, type Count, type CounterKey, type EventType } from '../domain/analytics.js';
import { addCounts } from '../store/analytics.js';
import type { Database } from '../store/schema.js';

export interface AggregatorLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface AggregatorOptions {
  /** ms between flushes */
  intervalMs: number;
  log?: AggregatorLog;
}

const TYPE_INDEX = Object.fromEntries(EVENT_TYPES.map((t, i) => [t, i])) as Record<EventType, number>;
const SLOT_POSTS = 2 ** 49;

/**
 * A counter's place among its wall's counters of one day: a number for the
 * common counters (a post's, or the wall's own: no product), so the hot path
 * builds no string; a string for the rest.
 */
function slotOf(k: CounterKey): number | string {
  return k.productId === 0 && k.postId < SLOT_POSTS
    ? k.postId * 8 + TYPE_INDEX[k.type]
    : `${k.type}|${k.postId}|${k.productId}`;
}

export class EventAggregator {
  /** wall → UTC day → counter slot → count */
  private pending = new Map<number, Map<number, Map<number | string, Count>>>();
  private counters = 0;
  private writing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: AggregatorOptions,
  ) {
    this.timer = setInterval(() => {
      // a tick while the last write still runs waits for the next one
      if (!this.writing) this.flush().catch(() => undefined);
    }, options.intervalMs);
    this.timer.unref();
  }

  /** Counts `n` events on the counter (in memory until the next flush). */
  add(key: CounterKey, n = 1): void {
    let days = this.pending.get(key.wallId);
    if (!days) this.pending.set(key.wallId, (days = new Map()));
    let slots = days.get(key.day);
    if (!slots) days.set(key.day, (slots = new Map()));
    const slot = slotOf(key);
    const c = slots.get(slot);
    if (c) c.n += n;
    else {
      const { wallId, day, type, postId, productId } = key;
      slots.set(slot, { wallId, day, type, postId, productId, n });
      this.counters++;
    }
  }

  /** Counters with events not written yet. */
  get pendingCounters(): number {
    return this.counters;
  }

  /** Writes every count added so far (after a write in progress); rejects when the store refused them. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.counters === 0) return;
    const batch: Count[] = [];
    for (const days of this.pending.values())
      for (const slots of days.values()) for (const c of slots.values()) batch.push(c);
    this.pending = new Map();
    this.counters = 0;
    this.writing = addCounts(this.db, batch)
      .catch((err: unknown) => {
        // kept for the next tick, added to what arrives meanwhile
        for (const c of batch) this.add(c, c.n);
        this.options.log?.warn({ err, counters: batch.length }, 'analytics flush failed; kept for the next one');
        throw err;
      })
      .finally(() => {
        this.writing = null;
      });
    await this.writing;
  }

  /** Stops the ticks and writes what is left (on a clean shutdown). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    try {
      await this.flush();
    } catch (err) {
      this.options.log?.error({ err, counters: this.counters }, 'analytics counts lost at shutdown');
    }
  }
}
