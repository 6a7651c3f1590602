// The primary's side of the quota of `serve --workers N` without Redis
// (the workers' side and the reasoning: src/quota/cluster-quota.ts). One
// store quota counts for the whole machine, as for one instance; the broker
// grants its calls to the workers and, before refusing one, recalls what the
// others hold unanswered.
import type { StoreQuota } from './store-quota.js';
import { QUOTA_BLOCK_MAX } from './store-quota.js';

/** The workers, as the broker reaches them (src/cluster/primary.ts). */
export interface QuotaWorkers {
  /** how many run */
  count(): number;
  /** asks every worker but `except` to hand back the account's day; resolves once all answered (or the wait ended) */
  recall(accountId: number, day: number, except: number | null): Promise<void>;
}

export class QuotaBroker {
  constructor(
    private readonly quota: StoreQuota,
    private readonly workers: QuotaWorkers,
  ) {}

  /**
   * One call for worker `from`, and a block more when the day's count is far
   * from the limit (1/64 of what is left, shared by the workers); granted 0:
   * refused, with nothing left anywhere.
   */
  async take(from: number, accountId: number, day: number, limit: number): Promise<{ granted: number; used: number }> {
    let decision = await this.quota.consume(accountId, day, limit);
    if (!decision.allowed) {
      await this.workers.recall(accountId, day, from);
      decision = await this.quota.consume(accountId, day, limit);
      if (!decision.allowed) return { granted: 0, used: decision.used };
    }
    let granted = 1;
    let used = decision.used;
    const extra = Math.min(QUOTA_BLOCK_MAX, Math.floor((limit - used) / (64 * Math.max(1, this.workers.count()))));
    for (let i = 0; i < extra; i++) {
      const more = this.quota.tryConsume(accountId, day, limit);
      if (!more) break;
      granted += 1;
      used = more.used;
    }
    return { granted, used };
  }

  /** Calls a worker handed back (stopping, a new day, a recall). */
  giveBack(accountId: number, day: number, calls: number): Promise<void> {
    return this.quota.giveBack(accountId, day, calls);
  }

  /** Today's calls answered, every worker's together: what they hold unanswered is recalled first. */
  async today(accountId: number, day: number, stored: number): Promise<number> {
    await this.workers.recall(accountId, day, null);
    return this.quota.todayCalls(accountId, day, stored);
  }

  close(): Promise<void> {
    return this.quota.close();
  }
}
