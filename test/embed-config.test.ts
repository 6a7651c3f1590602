// The embed API's settings: defaults, bounds, and one line naming a bad variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_EMBED_CONFIG, loadConfig } from '../src/config.js';

describe('embed settings', () => {
  it('default, and take values within their bounds', () => {
    expect(loadConfig({}).embed).toEqual(DEFAULT_EMBED_CONFIG);
    expect(
      loadConfig({
        EMBED_MAX_STREAMS: '2',
        EMBED_HEARTBEAT_MS: '1000',
        EMBED_REPLAY_EVENTS: '0',
        EMBED_RATE_LIMIT_PER_KEY: '0',
        EMBED_RATE_LIMIT_PER_IP: ' 30 ',
        EMBED_RATE_LIMIT_WINDOW_MS: '1000',
        EMBED_STREAM_WINDOW: '250',
      }).embed,
    ).toEqual({
      maxStreams: 2,
      heartbeatMs: 1000,
      replayEvents: 0,
      rateLimitPerKey: 0,
      rateLimitPerIp: 30,
      rateLimitWindowMs: 1000,
      streamWindow: 250,
    });
  });

  it('refuse a bad value with the variable named', () => {
    for (const [name, value] of [
      ['EMBED_MAX_STREAMS', '-1'],
      ['EMBED_HEARTBEAT_MS', '50'],
      ['EMBED_RATE_LIMIT_PER_IP', 'many'],
      ['EMBED_RATE_LIMIT_WINDOW_MS', '999'],
      ['EMBED_REPLAY_EVENTS', '1e3'],
      ['EMBED_STREAM_WINDOW', '0'],
      ['EMBED_STREAM_WINDOW', '1001'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be an integer`));
    }
  });
});
