// When feeds are polled: the adaptive interval, backoff after errors, the
// caching/rate-limit hints of upstream responses, per-host concurrency and
// the periodic tick. The policy parts are pure functions of their inputs (a
// clock and a random source are passed in), so tests pin them down exactly.
import Bottleneck from 'bottleneck';
import { AsyncTask, SimpleIntervalJob, ToadScheduler } from 'toad-scheduler';

export interface SchedulePolicy {
  minIntervalS: number;
  maxIntervalS: number;
  /** consecutive failures after which a feed is marked failing */
  failingAfter: number;
}

export const FAILING_AFTER = 5;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The interval after a successful poll, adapted to how often the feed posts:
 * half the typical gap between its posts, where the typical gap is the median
 * gap between its newest posts (robust against one old pinned post or a
 * burst) or — when the feed has gone quiet — the silence since its newest
 * post, whichever is longer. With fewer than two posts the previous interval
 * doubles. Always within [min, max].
 *
 * @param postTimes created instants (ms) of the feed's newest posts, any order
 */
export function adaptiveIntervalS(
  policy: SchedulePolicy,
  previousS: number | null,
  postTimes: readonly number[],
  now: number,
): number {
  const times = [...postTimes].filter((t) => Number.isFinite(t) && t <= now).sort((a, b) => b - a);
  if (times.length < 2) {
    return clamp(previousS === null ? policy.minIntervalS : previousS * 2, policy.minIntervalS, policy.maxIntervalS);
  }
  const gaps = times
    .slice(1)
    .map((t, i) => times[i]! - t)
    .sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  const medianGapS = (gaps.length % 2 === 1 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2) / 1000;
  const silenceS = (now - times[0]!) / 1000;
  return Math.round(clamp(Math.max(medianGapS, silenceS) / 2, policy.minIntervalS, policy.maxIntervalS));
}

/**
 * Delay before the next attempt after `failures` consecutive failures:
 * exponential from the minimum interval (min·2^(n−1)), capped at the maximum,
 * with "equal jitter" (a uniformly random point in the upper half) so that
 * feeds that failed together do not retry together; never below the minimum.
 */
export function backoffDelayS(policy: SchedulePolicy, failures: number, random: () => number): number {
  const n = Math.max(1, failures);
  const capped = Math.min(policy.maxIntervalS, policy.minIntervalS * 2 ** Math.min(n - 1, 30));
  return Math.round(Math.max(policy.minIntervalS, capped * (0.5 + 0.5 * clamp(random(), 0, 1))));
}

// ---------- upstream hints ----------

/** `Retry-After` as delay-seconds or an HTTP date → milliseconds from now, or null. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** `Cache-Control: max-age` in milliseconds, unless the response must not be reused. */
export function parseMaxAge(value: string | null | undefined): number | null {
  if (!value) return null;
  const v = value.toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(v)) return null;
  const m = /(?:^|[\s,])max-age\s*=\s*"?(\d+)"?/.exec(v);
  return m ? Number(m[1]) * 1000 : null;
}

/**
 * `X-RateLimit-Remaining` / `X-RateLimit-Reset` (also the `RateLimit-*` and
 * `X-Rate-Limit-*` spellings): when nothing remains, the instant the window
 * resets. Reset may be an ISO date (Mastodon), epoch seconds or delta seconds.
 */
export function parseRateLimitReset(headers: Readonly<Record<string, string>>, now: number): number | null {
  const pick = (suffix: string) =>
    headers[`x-ratelimit-${suffix}`] ?? headers[`ratelimit-${suffix}`] ?? headers[`x-rate-limit-${suffix}`];
  const remaining = pick('remaining');
  if (remaining === undefined || !/^\s*0+\s*$/.test(remaining)) return null;
  const reset = (pick('reset') ?? '').trim();
  if (reset === '') return now + 60_000;
  if (/^\d+(\.\d+)?$/.test(reset)) {
    const n = Number(reset);
    return n > 1e9 ? Math.round(n * 1000) : now + Math.round(n * 1000);
  }
  const at = Date.parse(reset);
  return Number.isNaN(at) ? now + 60_000 : at;
}

/** The earliest instant the next poll may run after a success: interval, then upstream hints, all capped at max. */
export function nextPollAfterSuccess(
  policy: SchedulePolicy,
  now: number,
  intervalS: number,
  notBefore: number | null,
): number {
  const byInterval = now + intervalS * 1000;
  const cap = now + policy.maxIntervalS * 1000;
  return Math.min(cap, Math.max(byInterval, notBefore ?? 0));
}

export function nextPollAfterFailure(
  policy: SchedulePolicy,
  now: number,
  failures: number,
  random: () => number,
  notBefore: number | null,
): number {
  const byBackoff = now + backoffDelayS(policy, failures, random) * 1000;
  const cap = now + policy.maxIntervalS * 1000;
  return Math.min(cap, Math.max(byBackoff, notBefore ?? 0));
}

// ---------- per-host concurrency and pauses ----------

/** Raised instead of a request while a host asked us to wait (429, exhausted rate limit). */
export class HostPausedError extends Error {
  override name = 'HostPausedError';
  constructor(
    readonly host: string,
    readonly until: number,
  ) {
    super(`${host} asked to wait until ${new Date(until).toISOString()}`);
  }
}

/**
 * At most `concurrency` requests in flight per host (a Bottleneck group, one
 * limiter per host), and a per-host pause that a 429 or an exhausted rate
 * limit sets, so that every feed on that host waits, not only the one that hit it.
 */
export class HostLimiter {
  private readonly group: Bottleneck.Group;
  private readonly pausedUntil = new Map<string, number>();

  constructor(
    concurrency: number,
    private readonly now: () => number = Date.now,
  ) {
    this.group = new Bottleneck.Group({ maxConcurrent: concurrency });
  }

  async schedule<T>(host: string, fn: () => Promise<T>): Promise<T> {
    this.checkPause(host);
    return this.group.key(host).schedule(() => {
      this.checkPause(host);
      return fn();
    });
  }

  pause(host: string, until: number): void {
    if (until > (this.pausedUntil.get(host) ?? 0)) this.pausedUntil.set(host, until);
  }

  pauseOf(host: string): number | null {
    const until = this.pausedUntil.get(host);
    if (until === undefined) return null;
    if (until <= this.now()) {
      this.pausedUntil.delete(host);
      return null;
    }
    return until;
  }

  private checkPause(host: string) {
    const until = this.pauseOf(host);
    if (until !== null) throw new HostPausedError(host, until);
  }

  async close(): Promise<void> {
    await this.group.disconnect();
  }
}

// ---------- the periodic tick ----------

/** Runs `tick` every `everyMs` (first run at once), never two at a time. */
export class Ticker {
  private readonly scheduler = new ToadScheduler();

  constructor(everyMs: number, tick: () => Promise<void>, onError: (err: Error) => void) {
    const task = new AsyncTask('ingest-tick', tick, onError);
    this.scheduler.addSimpleIntervalJob(
      new SimpleIntervalJob({ milliseconds: everyMs, runImmediately: true }, task, {
        id: 'ingest-tick',
        preventOverrun: true,
      }),
    );
  }

  stop(): void {
    this.scheduler.stop();
  }
}

// ---------- jobs per leased item (a feed, a webhook endpoint) ----------

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
