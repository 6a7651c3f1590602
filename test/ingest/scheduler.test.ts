// Scheduling policy (pure), upstream hints, the host limiter, the tick, and
// the ingestion settings.
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/poll.js';
import { ConfigError, loadIngestConfig, parsePrivateNetworks } from '../../src/config.js';
import { backoffDelayS } from '../../src/jobs/backoff.js';
import { Ticker } from '../../src/jobs/ticker.js';
import { HostLimiter, HostPausedError } from '../../src/net/host-limiter.js';
import {
  adaptiveIntervalS,
  nextPollAfterFailure,
  nextPollAfterSuccess,
  parseMaxAge,
  parseRateLimitReset,
  parseRetryAfter,
} from '../../src/ingest/scheduler.js';

const policy = { minIntervalS: 300, maxIntervalS: 21_600, failingAfter: 5 };
const NOW = Date.UTC(2026, 0, 15, 12);
const min = (m: number) => NOW - m * 60_000;

describe('adaptive interval', () => {
  it('is half the median gap between the newest posts, within the bounds', () => {
    // posts every 40 minutes, the newest 10 minutes ago → 20 minutes
    expect(adaptiveIntervalS(policy, 300, [min(10), min(50), min(90), min(130)], NOW)).toBe(1200);
    // very busy: the minimum
    expect(adaptiveIntervalS(policy, 1200, [min(1), min(2), min(3)], NOW)).toBe(300);
    // one old pinned post does not stretch it
    expect(adaptiveIntervalS(policy, 300, [min(10), min(30), min(50), min(60 * 24 * 90)], NOW)).toBe(600);
  });

  it('grows with silence and stops at the maximum', () => {
    // the feed used to post every 10 minutes but has been quiet for 4 hours
    expect(adaptiveIntervalS(policy, 300, [min(240), min(250), min(260)], NOW)).toBe(7200);
    expect(adaptiveIntervalS(policy, 300, [min(60 * 24 * 7), min(60 * 24 * 8)], NOW)).toBe(21_600);
  });

  it('doubles from the previous interval when there is too little history', () => {
    expect(adaptiveIntervalS(policy, null, [], NOW)).toBe(300);
    expect(adaptiveIntervalS(policy, 300, [], NOW)).toBe(600);
    expect(adaptiveIntervalS(policy, 600, [min(5)], NOW)).toBe(1200);
    expect(adaptiveIntervalS(policy, 20_000, [], NOW)).toBe(21_600);
    // posts dated in the future do not count
    expect(adaptiveIntervalS(policy, 300, [NOW + 60_000, NOW + 120_000], NOW)).toBe(600);
  });
});

describe('backoff', () => {
  it('doubles from the minimum per failure, with jitter in the upper half, capped at the maximum', () => {
    const at = (n: number, r: number) => backoffDelayS(policy, n, () => r);
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => at(n, 1))).toEqual([300, 600, 1200, 2400, 4800, 9600, 19_200, 21_600]);
    expect([1, 2, 3, 4, 5].map((n) => at(n, 0))).toEqual([300, 300, 600, 1200, 2400]);
    expect(at(3, 0.5)).toBe(900);
    expect(at(100, 0.5)).toBe(16_200);
  });

  it('jitter spreads feeds that failed together', () => {
    const delays = new Set(Array.from({ length: 20 }, (_, i) => backoffDelayS(policy, 4, () => i / 20)));
    expect(delays.size).toBe(20);
  });

  it('the next poll honours the later of backoff and the upstream’s wish, within the maximum', () => {
    expect(nextPollAfterFailure(policy, NOW, 1, () => 1, null)).toBe(NOW + 300_000);
    expect(nextPollAfterFailure(policy, NOW, 1, () => 1, NOW + 3600_000)).toBe(NOW + 3600_000);
    expect(nextPollAfterFailure(policy, NOW, 1, () => 1, NOW + 86_400_000)).toBe(NOW + 21_600_000);
    expect(nextPollAfterSuccess(policy, NOW, 300, null)).toBe(NOW + 300_000);
    expect(nextPollAfterSuccess(policy, NOW, 300, NOW + 900_000)).toBe(NOW + 900_000);
    expect(nextPollAfterSuccess(policy, NOW, 300, NOW + 99_999_000)).toBe(NOW + 21_600_000);
  });
});

describe('upstream hints', () => {
  it('Retry-After in seconds or as an HTTP date', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter(new Date(NOW - 90_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
  });

  it('Cache-Control max-age unless the response must not be reused', () => {
    expect(parseMaxAge('public, max-age=600')).toBe(600_000);
    expect(parseMaxAge('max-age="60", must-revalidate')).toBe(60_000);
    expect(parseMaxAge('private, no-store, max-age=600')).toBeNull();
    expect(parseMaxAge('no-cache')).toBeNull();
    expect(parseMaxAge('public')).toBeNull();
  });

  it('X-RateLimit-Reset as an ISO date, epoch seconds or seconds, only when nothing remains', () => {
    expect(
      parseRateLimitReset({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '2026-01-15T12:05:00.000Z' }, NOW),
    ).toBeNull();
    expect(
      parseRateLimitReset({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2026-01-15T12:05:00.000Z' }, NOW),
    ).toBe(NOW + 300_000);
    expect(parseRateLimitReset({ 'ratelimit-remaining': '0', 'ratelimit-reset': String(NOW / 1000 + 60) }, NOW)).toBe(
      NOW + 60_000,
    );
    expect(parseRateLimitReset({ 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '30' }, NOW)).toBe(NOW + 30_000);
    expect(parseRateLimitReset({ 'x-ratelimit-remaining': '0' }, NOW)).toBe(NOW + 60_000);
    expect(parseRateLimitReset({}, NOW)).toBeNull();
  });
});

describe('host limiter and tick', () => {
  it('pauses one host until its time, others go on', async () => {
    let now = NOW;
    const limiter = new HostLimiter(2, () => now);
    limiter.pause('a.example', NOW + 60_000);
    await expect(limiter.schedule('a.example', async () => 1)).rejects.toBeInstanceOf(HostPausedError);
    await expect(limiter.schedule('b.example', async () => 2)).resolves.toBe(2);
    now = NOW + 60_001;
    await expect(limiter.schedule('a.example', async () => 3)).resolves.toBe(3);
    await limiter.close();
  });

  it('the tick runs at once, repeats, never overlaps, and stops', async () => {
    let runs = 0;
    let running = 0;
    let overlapped = false;
    const ticker = new Ticker(
      10,
      async () => {
        runs++;
        if (running++ > 0) overlapped = true;
        await new Promise((r) => setTimeout(r, 25));
        running--;
      },
      () => undefined,
    );
    expect(runs).toBe(1);
    // however late a loaded machine fires the timers, the tick comes back
    await eventually(
      'the tick repeats',
      async () => runs,
      (n) => n >= 3,
      60_000,
      5,
    );
    ticker.stop();
    const stoppedAt = runs;
    expect(overlapped).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(runs).toBe(stoppedAt);
  });
});

describe('settings', () => {
  it('defaults', () => {
    expect(loadIngestConfig({})).toEqual({
      enabled: true,
      minIntervalS: 300,
      maxIntervalS: 21_600,
      allowPrivateNetworks: false,
      maxBytes: 5 * 1024 * 1024,
      timeoutMs: 15_000,
      hostConcurrency: 2,
      maxItems: 500,
      parseThreads: 1,
      changesRetentionDays: 30,
      bluesky: null,
    });
  });

  it('reads every variable', () => {
    expect(
      loadIngestConfig({
        INGEST: 'off',
        INGEST_MIN_INTERVAL: '60',
        INGEST_MAX_INTERVAL: '3600',
        INGEST_ALLOW_PRIVATE_NETWORKS: '10.0.0.0/8, fd00::/8',
        INGEST_MAX_BYTES: '1048576',
        INGEST_TIMEOUT_MS: '5000',
        INGEST_HOST_CONCURRENCY: '4',
        INGEST_MAX_ITEMS: '200',
        INGEST_PARSE_THREADS: '2',
        CHANGES_RETENTION_DAYS: '7',
        BLUESKY_IDENTIFIER: 'wall.bsky.social',
        BLUESKY_APP_PASSWORD: 'abcd-efgh-ijkl-mnop',
      }),
    ).toEqual({
      enabled: false,
      minIntervalS: 60,
      maxIntervalS: 3600,
      allowPrivateNetworks: ['10.0.0.0/8', 'fd00::/8'],
      maxBytes: 1_048_576,
      timeoutMs: 5000,
      hostConcurrency: 4,
      maxItems: 200,
      parseThreads: 2,
      changesRetentionDays: 7,
      bluesky: { identifier: 'wall.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' },
    });
    expect(parsePrivateNetworks('true')).toBe(true);
    expect(parsePrivateNetworks('0')).toBe(false);
  });

  it('a bad value stops with a message naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ INGEST: 'maybe' }, /^INGEST must be on or off$/],
      [{ INGEST_MIN_INTERVAL: '5' }, /^INGEST_MIN_INTERVAL must be an integer from 30 to 86400$/],
      [{ INGEST_MAX_INTERVAL: 'abc' }, /^INGEST_MAX_INTERVAL /],
      [
        { INGEST_MIN_INTERVAL: '600', INGEST_MAX_INTERVAL: '300' },
        /^INGEST_MAX_INTERVAL must not be below INGEST_MIN_INTERVAL/,
      ],
      [{ INGEST_ALLOW_PRIVATE_NETWORKS: '10.0.0.0/33' }, /^INGEST_ALLOW_PRIVATE_NETWORKS .*10\.0\.0\.0\/33/],
      [{ INGEST_MAX_BYTES: '-1' }, /^INGEST_MAX_BYTES /],
      [{ INGEST_TIMEOUT_MS: '1.5' }, /^INGEST_TIMEOUT_MS /],
      [{ INGEST_HOST_CONCURRENCY: '0' }, /^INGEST_HOST_CONCURRENCY /],
      [{ INGEST_MAX_ITEMS: '0' }, /^INGEST_MAX_ITEMS must be an integer from 1 to 10000$/],
      [{ INGEST_MAX_ITEMS: '10001' }, /^INGEST_MAX_ITEMS /],
      [{ INGEST_PARSE_THREADS: '0' }, /^INGEST_PARSE_THREADS must be an integer from 1 to 32$/],
      [{ INGEST_PARSE_THREADS: 'two' }, /^INGEST_PARSE_THREADS /],
      [{ BLUESKY_IDENTIFIER: 'x' }, /^BLUESKY_APP_PASSWORD must be set/],
      [{ BLUESKY_APP_PASSWORD: 'x' }, /^BLUESKY_IDENTIFIER must be set/],
    ];
    for (const [env, message] of cases) {
      let err: unknown = null;
      try {
        loadIngestConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
