// The key connections are sealed with, and a connection's status in words:
// SECRET_KEY (WEBHOOK_SECRET_KEY its older name), else a key file made once
// (mode 0600) and read by every later process, else none (PostgreSQL).
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { connectionSecretKey, keyFromFile } from '../../src/connections/secret-key.js';
import { openConnectionSecret, sealConnectionSecret } from '../../src/connections/secrets.js';
import { connectionStatusText, shouldWarnOfExpiry } from '../../src/domain/connections.js';
import { makeTempDir, removeDir } from '../helpers/server.js';

const dir = makeTempDir();
afterAll(() => removeDir(dir));
const KEY = Buffer.alloc(32, 9).toString('base64');
const OTHER = Buffer.alloc(32, 3).toString('base64');

describe('the key of connections', () => {
  it('is SECRET_KEY, or WEBHOOK_SECRET_KEY, which webhooks use too; both set must agree', () => {
    expect(loadConfig({ SECRET_KEY: KEY }).connections.secretKey).toEqual(Buffer.alloc(32, 9));
    expect(loadConfig({ SECRET_KEY: KEY }).webhooks.secretKey).toEqual(Buffer.alloc(32, 9));
    expect(loadConfig({ WEBHOOK_SECRET_KEY: KEY }).connections.secretKey).toEqual(Buffer.alloc(32, 9));
    expect(loadConfig({ SECRET_KEY: KEY, WEBHOOK_SECRET_KEY: KEY }).webhooks.secretKey).toEqual(Buffer.alloc(32, 9));
    expect(() => loadConfig({ SECRET_KEY: KEY, WEBHOOK_SECRET_KEY: OTHER })).toThrow(
      'SECRET_KEY and WEBHOOK_SECRET_KEY are both set and differ: keep SECRET_KEY only',
    );
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(/^SECRET_KEY must be 32 bytes in base64/);
  });

  it('without one, is kept in secret.key beside the SQLite file; PostgreSQL and memory have none unless SECRET_KEY_FILE names one', () => {
    expect(loadConfig({ DATABASE_URL: '/srv/wallery/data.db' }).connections.secretKeyFile).toBe(
      '/srv/wallery/secret.key',
    );
    expect(loadConfig({}).connections.secretKeyFile).toBe('data/secret.key');
    expect(loadConfig({ DATABASE_URL: ':memory:' }).connections.secretKeyFile).toBeNull();
    const pg = loadConfig({ DATABASE_URL: 'postgres://u@db/wallery' }).connections;
    expect(pg.secretKeyFile).toBeNull();
    expect(connectionSecretKey(pg)).toBeNull();
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@db/wallery', SECRET_KEY_FILE: '/run/keys/wallery.key' }).connections
        .secretKeyFile,
    ).toBe('/run/keys/wallery.key');
  });

  it('is made once into its file, mode 0600, and the same key read from then on', () => {
    const file = join(dir, 'nested', 'secret.key');
    const key = connectionSecretKey({ secretKey: null, secretKeyFile: file });
    expect(key).toHaveLength(32);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(readFileSync(file, 'utf8')).toBe(`${key!.toString('base64')}\n`);
    expect(keyFromFile(file).equals(key!)).toBe(true);
    // what it sealed, a later process opens
    const sealed = sealConnectionSecret({ accessToken: 'the-token-text' }, key);
    expect(sealed).not.toContain('the-token-text');
    expect(openConnectionSecret(sealed, keyFromFile(file))).toEqual({ accessToken: 'the-token-text' });
    // SECRET_KEY wins over the file
    expect(connectionSecretKey({ secretKey: Buffer.alloc(32, 1), secretKeyFile: file })).toEqual(Buffer.alloc(32, 1));
  });

  it('refuses a key file that holds no key, or cannot be read, in one line', () => {
    const bad = join(dir, 'bad.key');
    writeFileSync(bad, 'not a key\n');
    expect(() => keyFromFile(bad)).toThrow(ConfigError);
    expect(() => keyFromFile(bad)).toThrow(`SECRET_KEY_FILE ${bad} does not hold a 32-byte key in base64`);
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked.key');
      writeFileSync(locked, `${Buffer.alloc(32).toString('base64')}\n`);
      chmodSync(locked, 0o000);
      expect(() => keyFromFile(locked)).toThrow(/^SECRET_KEY_FILE .* cannot be read or made \(EACCES\)/);
    }
  });
});

describe('a connection’s status in words', () => {
  const now = Date.UTC(2026, 0, 15, 12);
  const DAY = 86_400_000;
  const facts = (over: Partial<Parameters<typeof connectionStatusText>[0]>) => ({
    status: 'active',
    statusDetail: null,
    statusAt: null,
    expiresAt: null,
    ...over,
  });

  it('says when it expires, expired, was revoked, or why it fails', () => {
    expect(connectionStatusText(facts({}), now)).toBe('active, no expiry');
    expect(connectionStatusText(facts({ expiresAt: now + 5 * DAY + 7_200_000 }), now)).toBe('expires in 5 days');
    expect(connectionStatusText(facts({ expiresAt: now + 1 * DAY }), now)).toBe('expires in 1 day');
    expect(connectionStatusText(facts({ expiresAt: now + 3 * 3_600_000 }), now)).toBe('expires in 3 hours');
    expect(connectionStatusText(facts({ expiresAt: now + 12 * 60_000 }), now)).toBe('expires in 12 minutes');
    expect(connectionStatusText(facts({ expiresAt: now - 2 * DAY }), now)).toBe('expired 2 days ago');
    expect(connectionStatusText(facts({ status: 'expired', expiresAt: now - 2 * DAY }), now)).toBe(
      'expired 2 days ago',
    );
    expect(connectionStatusText(facts({ status: 'expired', statusAt: now - 3_600_000 }), now)).toBe(
      'expired 1 hour ago',
    );
    expect(connectionStatusText(facts({ status: 'revoked', statusAt: Date.UTC(2026, 0, 3, 9) }), now)).toBe(
      'revoked by the user on 3 Jan 2026',
    );
    expect(connectionStatusText(facts({ status: 'failing', statusDetail: 'a permission is missing' }), now)).toBe(
      'failing: a permission is missing',
    );
  });

  it('warns of an active token expiring within the window, once per expiry', () => {
    const c = (expiresAt: number | null, expiryWarnedAt: number | null = null, status = 'active') => ({
      status,
      expiresAt,
      expiryWarnedAt,
    });
    expect(shouldWarnOfExpiry(c(now + 3 * DAY), now, 7)).toBe(true);
    expect(shouldWarnOfExpiry(c(now + 8 * DAY), now, 7)).toBe(false);
    expect(shouldWarnOfExpiry(c(null), now, 7)).toBe(false);
    expect(shouldWarnOfExpiry(c(now - DAY), now, 7)).toBe(false);
    expect(shouldWarnOfExpiry(c(now + 3 * DAY, undefined, 'revoked'), now, 7)).toBe(false);
    // warned within this expiry's window: not again; warned for an earlier expiry: again
    expect(shouldWarnOfExpiry(c(now + 3 * DAY, now - DAY), now, 7)).toBe(false);
    expect(shouldWarnOfExpiry(c(now + 3 * DAY, now - 30 * DAY), now, 7)).toBe(true);
  });
});
