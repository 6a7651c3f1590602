// The media settings (MEDIA_*): their defaults, the folder or S3 storage they
// choose, and a bad value refused with one line naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadMediaConfig, MEDIA_DEFAULTS, mediaDirOf } from '../../src/config.js';

describe('media settings', () => {
  it('defaults: on, a folder beside the store, 1 thread, 4 at once, 20 MB, 50 MP, 6 attempts, no quota', () => {
    expect(loadMediaConfig({})).toEqual({
      enabled: true,
      storage: { kind: 'folder', dir: null },
      threads: 1,
      concurrency: 4,
      maxBytes: 20 * 1024 * 1024,
      maxPixels: 50_000_000,
      maxFrames: 200,
      timeoutMs: MEDIA_DEFAULTS.timeoutMs,
      hostConcurrency: MEDIA_DEFAULTS.hostConcurrency,
      maxAttempts: 6,
      retryMinS: MEDIA_DEFAULTS.retryMinS,
      retryMaxS: MEDIA_DEFAULTS.retryMaxS,
      accountQuotaBytes: 0,
      tickMs: MEDIA_DEFAULTS.tickMs,
    });
    expect(loadConfig({}).media.enabled).toBe(true);
    expect(loadMediaConfig({ MEDIA: 'off' }).enabled).toBe(false);
  });

  it('the folder: MEDIA_DIR, else `media` beside the SQLite file, else ./data/media', () => {
    const sqlite = { kind: 'sqlite' as const, path: '/srv/wallery/wallery.db' };
    const postgres = { kind: 'postgres' as const, url: 'postgres://db/wallery' };
    expect(mediaDirOf({ dir: null }, sqlite)).toBe('/srv/wallery/media');
    expect(mediaDirOf({ dir: null }, { kind: 'sqlite', path: './data/wallery.db' })).toBe('data/media');
    expect(mediaDirOf({ dir: null }, postgres)).toBe('./data/media');
    expect(mediaDirOf({ dir: null }, { kind: 'sqlite', path: ':memory:' })).toBe('./data/media');
    const dir = loadMediaConfig({ MEDIA_DIR: ' /var/lib/wallery/media ' }).storage;
    expect(dir).toEqual({ kind: 'folder', dir: '/var/lib/wallery/media' });
    expect(mediaDirOf(dir as { dir: string }, postgres)).toBe('/var/lib/wallery/media');
  });

  it('MEDIA_S3_BUCKET chooses S3, with its endpoint, region, credentials, path style and prefix', () => {
    expect(
      loadMediaConfig({
        MEDIA_S3_BUCKET: 'wallery-media',
        MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000',
        MEDIA_S3_REGION: 'eu-west-3',
        MEDIA_S3_ACCESS_KEY_ID: 'AKIA0000',
        MEDIA_S3_SECRET_ACCESS_KEY: 'shh-secret',
        MEDIA_S3_FORCE_PATH_STYLE: 'on',
        MEDIA_S3_PREFIX: '/wallery/media/',
        MEDIA_DIR: '/ignored',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'wallery-media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-3',
      accessKeyId: 'AKIA0000',
      secretAccessKey: 'shh-secret',
      forcePathStyle: true,
      prefix: 'wallery/media',
    });
    expect(loadMediaConfig({ MEDIA_S3_BUCKET: 'b1' }).storage).toEqual({
      kind: 's3',
      bucket: 'b1',
      endpoint: null,
      region: 'us-east-1',
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('MEDIA_ACCOUNT_QUOTA_MB is counted in bytes', () => {
    expect(loadMediaConfig({ MEDIA_ACCOUNT_QUOTA_MB: '50' }).accountQuotaBytes).toBe(50 * 1024 * 1024);
  });

  it.each([
    [{ MEDIA: 'maybe' }, 'MEDIA must be on or off'],
    [{ MEDIA_THREADS: '0' }, 'MEDIA_THREADS must be an integer from 1 to 32'],
    [{ MEDIA_CONCURRENCY: 'many' }, 'MEDIA_CONCURRENCY must be an integer from 1 to 256'],
    [{ MEDIA_MAX_BYTES: '12' }, 'MEDIA_MAX_BYTES must be an integer from 1024 to 1073741824'],
    [{ MEDIA_MAX_PIXELS: '-1' }, 'MEDIA_MAX_PIXELS must be an integer from 1 to 1000000000'],
    [{ MEDIA_MAX_ATTEMPTS: '0' }, 'MEDIA_MAX_ATTEMPTS must be an integer from 1 to 100'],
    [
      { MEDIA_RETRY_MIN_S: '600', MEDIA_RETRY_MAX_S: '60' },
      'MEDIA_RETRY_MAX_S must not be below MEDIA_RETRY_MIN_S (600)',
    ],
    [{ MEDIA_TICK_MS: '1' }, 'MEDIA_TICK_MS must be an integer from 50 to 600000'],
    [{ MEDIA_ACCOUNT_QUOTA_MB: '1.5' }, 'MEDIA_ACCOUNT_QUOTA_MB must be an integer from 0 to 100000000'],
    [{ MEDIA_S3_BUCKET: 'a bucket' }, 'MEDIA_S3_BUCKET must be a bucket name'],
    [{ MEDIA_S3_BUCKET: 'b1', MEDIA_S3_ENDPOINT: 'ftp://x' }, 'MEDIA_S3_ENDPOINT must be an http:// or https:// URL'],
    [{ MEDIA_S3_REGION: 'EU West' }, 'MEDIA_S3_REGION must be a region name'],
    [{ MEDIA_S3_ACCESS_KEY_ID: 'AKIA' }, 'MEDIA_S3_SECRET_ACCESS_KEY must be set when MEDIA_S3_ACCESS_KEY_ID is'],
    [{ MEDIA_S3_PREFIX: 'a/../b' }, 'MEDIA_S3_PREFIX must be folder names separated by /'],
    [{ MEDIA_S3_FORCE_PATH_STYLE: 'sometimes' }, 'MEDIA_S3_FORCE_PATH_STYLE must be on or off'],
  ])('%j is refused, naming the variable', (env, message) => {
    expect(() => loadMediaConfig(env)).toThrow(ConfigError);
    expect(() => loadMediaConfig(env)).toThrow(message);
  });

  it('a refused secret is never echoed', () => {
    try {
      loadMediaConfig({ MEDIA_S3_SECRET_ACCESS_KEY: 'top-secret-value' });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toBe('MEDIA_S3_ACCESS_KEY_ID must be set when MEDIA_S3_SECRET_ACCESS_KEY is');
    }
  });
});
