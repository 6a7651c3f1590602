// The quota in a worker of `serve --workers N` without Redis: the primary
// counts (src/quota/quota-broker.ts, with the store quota of one instance);
// a worker asks it for calls and answers from what it was granted, in
// memory. Far from the limit a grant is a block, so most calls ask nothing;
// near it, one call a time, used at once by the request that asked. When the
// primary has none left it recalls what the siblings hold unanswered before
// refusing: the (limit)th call succeeds and the (limit+1)th is refused,
// whichever worker answers. A worker that crashes loses what it held (counted
// as answered); a worker that stops hands it back.
import type { QuotaCounter, QuotaDecision } from './quota.js';

/** The worker's side of the link to the primary (src/cluster/). */
export interface QuotaLink {
  /** one call, and a block more when far from the limit; `granted` 0 is a refusal */
  take(accountId: number, day: number, limit: number): Promise<{ granted: number; used: number }>;
  /** hands back calls granted and not answered */
  giveBack(accountId: number, day: number, calls: number): Promise<void>;
  /** today's calls answered by every worker together */
  today(accountId: number, day: number, stored: number): Promise<number>;
  /** the primary recalls the unanswered calls of an account's day: the handler gives them up and says how many */
  onRecall(handler: (accountId: number, day: number) => number): void;
}

interface Grant {
  /** granted calls not answered yet */
  unused: number;
  /** the day's count at the primary when granted, including `unused` */
  used: number;
}

export class ClusterQuota implements QuotaCounter {
  readonly backend = 'store' as const;
  private readonly grants = new Map<string, Grant>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private currentDay = -1;

  constructor(private readonly link: QuotaLink) {
    link.onRecall((accountId, day) => {
      const grant = this.grants.get(`${accountId}:${day}`);
      const calls = grant?.unused ?? 0;
      if (grant) grant.unused = 0;
      return calls;
    });
  }

  tryConsume(accountId: number, day: number, limit: number): QuotaDecision | null {
    if (limit <= 0 || day !== this.currentDay) return null;
    const grant = this.grants.get(`${accountId}:${day}`);
    if (!grant || grant.unused <= 0) return null;
    grant.unused -= 1;
    return { allowed: true, used: grant.used - grant.unused };
  }

  async consume(accountId: number, day: number, limit: number): Promise<QuotaDecision> {
    if (limit <= 0) return { allowed: false, used: 0 };
    if (day !== this.currentDay) await this.startDay(day);
    const key = `${accountId}:${day}`;
    for (;;) {
      const decision = this.tryConsume(accountId, day, limit);
      if (decision) return decision;
      // one question a key at a time; whoever waited looks again once it is answered
      const pending = this.inFlight.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const asking = this.link.take(accountId, day, limit);
      this.inFlight.set(
        key,
        asking.catch(() => undefined),
      );
      let answer: { granted: number; used: number };
      try {
        answer = await asking;
      } finally {
        this.inFlight.delete(key);
      }
      if (answer.granted <= 0) return { allowed: false, used: answer.used };
      const grant = this.grants.get(key) ?? { unused: 0, used: 0 };
      grant.unused += answer.granted;
      grant.used = answer.used;
      this.grants.set(key, grant);
    }
  }

  /** A new UTC day: what was granted for the old one goes back. */
  private async startDay(day: number): Promise<void> {
    this.currentDay = day;
    const old = [...this.grants.entries()].filter(([key]) => !key.endsWith(`:${day}`));
    for (const [key] of old) this.grants.delete(key);
    await this.giveBack(old);
  }

  private async giveBack(entries: [string, Grant][]): Promise<void> {
    for (const [key, grant] of entries) {
      if (grant.unused <= 0) continue;
      const [accountId, day] = key.split(':').map(Number) as [number, number];
      const calls = grant.unused;
      grant.unused = 0;
      await this.link.giveBack(accountId, day, calls);
    }
  }

  todayCalls(accountId: number, day: number, stored: number): Promise<number> {
    return this.link.today(accountId, day, stored);
  }

  async ping() {
    return true;
  }

  async close() {
    const all = [...this.grants.entries()];
    this.grants.clear();
    await this.giveBack(all).catch(() => undefined);
  }
}
