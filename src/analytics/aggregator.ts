// The in-process aggregator: events are summed in memory and written once a
// second as additive upserts (src/store/analytics.ts) — never a store write
// per event. A flush that fails puts its counts back, to be written by the
// next tick (a tick, not a retry loop); close() writes what is left. A
// process killed with SIGKILL loses what arrived since the last tick: at
// most about one flush interval of events.
import type { Kysely } from 'kysely';
import { counterKey, type Count, type CounterKey } from '../domain/analytics.js';
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

export class EventAggregator {
  private pending = new Map<string, Count>();
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
    const k = counterKey(key);
    const c = this.pending.get(k);
    if (c) c.n += n;
    else this.pending.set(k, { ...key, n });
  }

  /** Counters with events not written yet. */
  get pendingCounters(): number {
    return this.pending.size;
  }

  /** Writes every count added so far (after a write in progress); rejects when the store refused them. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
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
      this.options.log?.error({ err, counters: this.pending.size }, 'analytics counts lost at shutdown');
    }
  }
}
