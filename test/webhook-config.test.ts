// The webhook settings (WEBHOOK_*): defaults, bounds, and the one line a bad value gives.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadWebhookConfig, WEBHOOK_DEFAULTS } from '../src/config.js';

describe('webhook settings', () => {
  it('defaults: on, no key, 2 s tick, 30 s–1 h backoff, 3 days, 10 s timeout, 1 min lease', () => {
    expect(loadWebhookConfig({})).toEqual({
      enabled: true,
      secretKey: null,
      ...WEBHOOK_DEFAULTS,
      allowPrivateNetworks: false,
    });
    expect(WEBHOOK_DEFAULTS.giveUpS).toBe(3 * 86_400);
  });

  it('reads a 32-byte base64 key and a private-network allowance of its own', () => {
    const key = Buffer.alloc(32, 4);
    const c = loadWebhookConfig({
      WEBHOOK_SECRET_KEY: key.toString('base64'),
      WEBHOOKS: 'off',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8, 10.20.0.0/16',
    });
    expect(c.secretKey?.equals(key)).toBe(true);
    expect(c.enabled).toBe(false);
    expect(c.allowPrivateNetworks).toEqual(['127.0.0.0/8', '10.20.0.0/16']);
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'on' }).allowPrivateNetworks).toBe(true);
    expect(() => loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'intranet' })).toThrow(
      new ConfigError(
        'WEBHOOK_ALLOW_PRIVATE_NETWORKS must be on, off or a comma-separated list of CIDR ranges (bad: intranet)',
      ),
    );
  });

  it('does not take ingestion’s INGEST_ALLOW_PRIVATE_NETWORKS: whoever edits a webhook picks its address', () => {
    for (const value of ['on', '127.0.0.0/8'])
      expect(loadWebhookConfig({ INGEST_ALLOW_PRIVATE_NETWORKS: value }).allowPrivateNetworks).toBe(false);
  });

  it('refuses a bad key, inverted retry bounds and a lease not longer than the timeout', () => {
    for (const bad of ['short', Buffer.alloc(16).toString('base64'), 'not base64 at all!'])
      expect(() => loadWebhookConfig({ WEBHOOK_SECRET_KEY: bad })).toThrow(
        new ConfigError('WEBHOOK_SECRET_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)'),
      );
    expect(() => loadWebhookConfig({ WEBHOOK_RETRY_MIN_S: '60', WEBHOOK_RETRY_MAX_S: '30' })).toThrow(
      /WEBHOOK_RETRY_MAX_S must not be below WEBHOOK_RETRY_MIN_S/,
    );
    expect(() => loadWebhookConfig({ WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_LEASE_MS: '5000' })).toThrow(
      /WEBHOOK_LEASE_MS must be more than WEBHOOK_TIMEOUT_MS/,
    );
    expect(() => loadWebhookConfig({ WEBHOOK_TICK_MS: '10' })).toThrow(/WEBHOOK_TICK_MS must be an integer from 50/);
  });
});
