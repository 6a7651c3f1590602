// The purge hook: every change the bus announces (a write here, another
// instance's through PostgreSQL's notifications, another process's through
// SQLite's data_version) becomes a purge by tag at every CDN target — a wall
// change purges that wall's tag, an account change the account's (every
// answer of its walls carries it), `all` the tag every answer carries.
//
// Writes never wait for it: tags are queued per target, coalesced (a tag
// already waiting is not sent twice; a waiting `all` makes every other tag
// moot) and sent in batches, one request at a time per target, so a slow
// CDN delays neither the writes nor the other targets. A failed request is
// retried with backoff (p-retry); one that keeps failing is given up and
// logged, and the CDN's copies then live out their s-maxage.
import pRetry from 'p-retry';
import type { Change, ChangeBus } from '../store/changes.js';
import { accountTag, allTag, wallTag } from './tags.js';
import type { PurgeTarget } from './targets.js';

export type PurgeOutcome = 'purged' | 'retried' | 'failed';

/** Counts per target kind and outcome (`wallery_cdn_purges_total`). */
export interface PurgeStats {
  purges: Record<string, Record<PurgeOutcome, number>>;
}

export interface PurgerLog {
  warn(details: object, message: string): void;
}

export interface PurgerOptions {
  tagPrefix: string;
  log?: PurgerLog;
  /** retries of a failed request before it is given up */
  retries?: number;
  /** the first retry's delay; doubled each time up to maxRetryMs */
  minRetryMs?: number;
  maxRetryMs?: number;
}

export const PURGE_RETRIES = 6;
const MIN_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

export class CdnPurger {
  readonly stats: PurgeStats = { purges: {} };
  private readonly queues: TargetQueue[];
  private readonly stop = new AbortController();
  private unsubscribe: (() => void) | null = null;

  constructor(
    targets: PurgeTarget[],
    private readonly options: PurgerOptions,
  ) {
    this.queues = targets.map((target) => {
      const counts = (this.stats.purges[target.name] ??= { purged: 0, retried: 0, failed: 0 });
      return new TargetQueue(target, allTag(options.tagPrefix), counts, options, this.stop.signal);
    });
  }

  /**
   * Purges on every change the bus announces from now on — but a sibling
   * worker's write (`peer`, relayed by the cluster's primary): that worker
   * purged it already.
   */
  attach(bus: ChangeBus): this {
    this.unsubscribe?.();
    this.unsubscribe = bus.subscribe((change, origin) => {
      if (origin !== 'peer') this.purge(this.tagsOf(change));
    });
    return this;
  }

  tagsOf(change: Change): string[] {
    const p = this.options.tagPrefix;
    if (change.kind === 'wall') return [wallTag(p, change.wallId)];
    if (change.kind === 'account') return [accountTag(p, change.accountId)];
    return [allTag(p)];
  }

  /** Queues these tags at every target (returns at once). */
  purge(tags: string[]): void {
    if (this.stop.signal.aborted || tags.length === 0) return;
    for (const queue of this.queues) queue.add(tags);
  }

  /** Resolves once every tag queued so far was sent or given up (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.idle()));
  }

  /** Stops listening; what is being sent finishes, retries waiting for their turn are dropped. */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.stop.abort();
    await this.idle().catch(() => undefined);
  }
}

/** One target's waiting tags and its one request at a time. */
class TargetQueue {
  private pending = new Set<string>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly target: PurgeTarget,
    private readonly everything: string,
    private readonly counts: Record<PurgeOutcome, number>,
    private readonly options: PurgerOptions,
    private readonly signal: AbortSignal,
  ) {}

  add(tags: string[]): void {
    if (!this.pending.has(this.everything)) {
      if (tags.includes(this.everything)) this.pending = new Set([this.everything]);
      else for (const tag of tags) this.pending.add(tag);
    }
    this.running ??= this.drain().finally(() => {
      this.running = null;
      // tags added while the last request finished
      if (this.pending.size > 0 && !this.signal.aborted) this.add([]);
    });
  }

  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    // one turn of the event loop: the changes of one write (its walls, its account) go in one request
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.size > 0 && !this.signal.aborted) {
      const batch = [...this.pending].slice(0, this.target.batch);
      for (const tag of batch) this.pending.delete(tag);
      await this.send(batch);
    }
  }

  private async send(tags: string[]): Promise<void> {
    try {
      await pRetry(() => this.target.purge(tags), {
        retries: this.options.retries ?? PURGE_RETRIES,
        minTimeout: this.options.minRetryMs ?? MIN_RETRY_MS,
        maxTimeout: this.options.maxRetryMs ?? MAX_RETRY_MS,
        randomize: true,
        signal: this.signal,
        onFailedAttempt: ({ retriesLeft }) => {
          if (retriesLeft > 0) this.counts.retried++;
        },
      });
      this.counts.purged++;
    } catch (error) {
      if (this.signal.aborted) return;
      this.counts.failed++;
      // the message names the target kind and a status, never a URL's credentials or a token
      this.options.log?.warn(
        { target: this.target.name, tags: tags.length, err: (error as Error).message },
        'a CDN purge was given up: the cached answers of these tags live out their s-maxage',
      );
    }
  }
}
