// Settings from the environment: defaults, and a bad value named in one line.
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CACHE_TTL_MS, loadConfig } from '../src/config.js';

describe('CACHE_TTL_MS', () => {
  it('defaults to 5 s, so a change is seen everywhere within 5 s even when its notification is lost', () => {
    expect(DEFAULT_CACHE_TTL_MS).toBe(5000);
    expect(loadConfig({}).cacheTtlMs).toBe(5000);
    expect(loadConfig({ CACHE_TTL_MS: ' 250 ' }).cacheTtlMs).toBe(250);
  });

  it('refuses what is not a whole number of milliseconds from 100 to 3600000', () => {
    for (const value of ['0', '99', '3600001', '1.5', '-5', 'soon']) {
      expect(() => loadConfig({ CACHE_TTL_MS: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ CACHE_TTL_MS: value })).toThrow(
        /^CACHE_TTL_MS must be an integer from 100 to 3600000$/,
      );
    }
  });
});
