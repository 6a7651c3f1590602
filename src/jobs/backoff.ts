// When a job that failed runs again: a poll of a feed, a delivery to a
// webhook endpoint. Pure (the random source is passed in), so tests pin it down.

/** The shortest and the longest wait, in seconds. */
export interface RetryBounds {
  minIntervalS: number;
  maxIntervalS: number;
}

/** Consecutive failures after which an item (a feed, a webhook endpoint) shows as failing. */
export const FAILING_AFTER = 5;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Delay before the next attempt after `failures` consecutive failures:
 * exponential from the minimum interval (min·2^(n−1)), capped at the maximum,
 * with "equal jitter" (a uniformly random point in the upper half) so that
 * feeds that failed together do not retry together; never below the minimum.
 */
export function backoffDelayS(bounds: RetryBounds, failures: number, random: () => number): number {
  const n = Math.max(1, failures);
  const capped = Math.min(bounds.maxIntervalS, bounds.minIntervalS * 2 ** Math.min(n - 1, 30));
  return Math.round(Math.max(bounds.minIntervalS, capped * (0.5 + 0.5 * clamp(random(), 0, 1))));
}
