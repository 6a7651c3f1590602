// When feeds are polled: the adaptive interval, backoff after errors (the
// delay of jobs/backoff.ts) and the caching/rate-limit hints of upstream
// responses. Pure functions of their inputs (a clock and a random source are
// passed in), so tests pin them down exactly. Per-host concurrency lives
// with the fetcher (net/host-limiter.ts), the tick and the jobs in jobs/.
import { backoffDelayS, type RetryBounds } from '../jobs/backoff.js';

export interface SchedulePolicy extends RetryBounds {
  /** consecutive failures after which a feed is marked failing */
  failingAfter: number;
}

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
