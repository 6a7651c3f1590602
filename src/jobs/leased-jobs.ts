// Jobs per leased item (a feed, a webhook endpoint).
import Bottleneck from 'bottleneck';
import { Ticker } from './ticker.js';

/**
 * What a worker that leases items — feeds to poll, webhook endpoints to
 * deliver to — runs them with: its tick, at most `concurrency` jobs at
 * once, one job per item at a time (asking again for an item in flight
 * joins its job), and a stop that cancels the jobs' I/O through `signal`
 * and waits for them to settle, so that each gives its lease back. (The
 * ingestion and webhook runtimes: the same lifecycle, written once.)
 */
export class LeasedJobs<R> {
  private readonly limiter: Bottleneck;
  private readonly inFlight = new Map<number, Promise<R>>();
  private readonly abort = new AbortController();
  private ticker: Ticker | null = null;
  private stoppedFlag = false;

  constructor(concurrency: number) {
    this.limiter = new Bottleneck({ maxConcurrent: concurrency });
  }

  /** aborted once stop() is called: what the jobs' requests listen to */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get stopped(): boolean {
    return this.stoppedFlag;
  }

  /** Whether the periodic tick ever started. */
  get ticking(): boolean {
    return this.ticker !== null;
  }

  /** Starts the periodic tick; false when it runs already or the worker is stopped. */
  startTicking(everyMs: number, tick: () => Promise<void>, onError: (err: Error) => void): boolean {
    if (this.ticker || this.stoppedFlag) return false;
    this.ticker = new Ticker(everyMs, tick, onError);
    return true;
  }

  /** Jobs running or waiting. */
  get size(): number {
    return this.inFlight.size;
  }

  /** Whether a job for the item runs or waits. */
  has(id: number): boolean {
    return this.inFlight.has(id);
  }

  /** The item's job: the one in flight, or `job` queued; `onCrash` turns a job's throw into its result. */
  run(id: number, job: () => Promise<R>, onCrash: (err: unknown) => R): Promise<R> {
    const existing = this.inFlight.get(id);
    if (existing) return existing;
    const p = this.limiter
      .schedule(job)
      .catch(onCrash)
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, p);
    return p;
  }

  /**
   * Stops the tick, aborts `signal` and waits for every job given: a queued
   * one still starts, sees `stopped` and returns at once.
   */
  async stop(): Promise<boolean> {
    if (this.stoppedFlag) return false;
    this.stoppedFlag = true;
    this.ticker?.stop();
    this.abort.abort();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
    return true;
  }
}
