// The embed API's settings (analytics beacons included): defaults, bounds, and one line naming a bad variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_EMBED_CONFIG, loadConfig } from '../src/config.js';

describe('embed settings', () => {
  it('default, and take values within their bounds', () => {
    expect(loadConfig({}).embed).toEqual(DEFAULT_EMBED_CONFIG);
    expect(
      loadConfig({
        EMBED_MAX_STREAMS: '2',
        EMBED_MAX_STREAMS_PER_CLIENT: '0',
        EMBED_HEARTBEAT_MS: '1000',
        EMBED_REPLAY_EVENTS: '0',
        EMBED_RATE_LIMIT_PER_KEY: '0',
        EMBED_RATE_LIMIT_PER_IP: ' 30 ',
        EMBED_RATE_LIMIT_WINDOW_MS: '1000',
        EMBED_STREAM_WINDOW: '250',
        ANALYTICS_RATE_LIMIT_PER_IP: '0',
        ANALYTICS_RATE_LIMIT_PER_KEY: '500',
        ANALYTICS_RATE_LIMIT_WINDOW_MS: '2000',
        ANALYTICS_FLUSH_MS: '250',
        ANALYTICS_DEDUPE_TTL_MS: '60000',
      }).embed,
    ).toEqual({
      maxStreams: 2,
      maxStreamsPerClient: 0,
      heartbeatMs: 1000,
      replayEvents: 0,
      rateLimitPerKey: 0,
      rateLimitPerIp: 30,
      rateLimitWindowMs: 1000,
      streamWindow: 250,
      analyticsRateLimitPerIp: 0,
      analyticsRateLimitPerKey: 500,
      analyticsRateLimitWindowMs: 2000,
      analyticsFlushMs: 250,
      analyticsDedupeTtlMs: 60000,
    });
  });

  it('refuse a bad value with the variable named', () => {
    for (const [name, value] of [
      ['EMBED_MAX_STREAMS', '-1'],
      ['EMBED_MAX_STREAMS_PER_CLIENT', 'six'],
      ['EMBED_HEARTBEAT_MS', '50'],
      ['EMBED_RATE_LIMIT_PER_IP', 'many'],
      ['EMBED_RATE_LIMIT_WINDOW_MS', '999'],
      ['EMBED_REPLAY_EVENTS', '1e3'],
      ['EMBED_STREAM_WINDOW', '0'],
      ['EMBED_STREAM_WINDOW', '1001'],
      ['ANALYTICS_RATE_LIMIT_PER_IP', '-5'],
      ['ANALYTICS_RATE_LIMIT_PER_KEY', 'lots'],
      ['ANALYTICS_RATE_LIMIT_WINDOW_MS', '10'],
      ['ANALYTICS_FLUSH_MS', '99'],
      ['ANALYTICS_FLUSH_MS', '60001'],
      ['ANALYTICS_DEDUPE_TTL_MS', '5'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be an integer`));
    }
  });
});
