// What the runtime gives a server (ctx.media: the storage and the processing
// pool that the serving routes use) and when it builds the media worker.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { describeMediaStorage, mediaStorageOptions } from '../../src/media/services.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { makeTempDir, removeDir } from '../helpers/server.js';

let dir: string;
let runtime: Runtime | null = null;
afterEach(async () => {
  await runtime?.close();
  runtime = null;
  if (dir) removeDir(dir);
});

describe('the media services of a runtime', () => {
  it('every server gets ctx.media (the folder beside the store by default); the worker only where asked', async () => {
    dir = makeTempDir();
    const config = loadConfig({ DATABASE_URL: join(dir, 'wallery.db'), LOG_LEVEL: 'silent' });
    runtime = await openRuntime(config, { server: { logger: false } });
    const media = runtime.app!.ctx.media!;
    expect(media.storage.kind).toBe('folder');
    expect(media.storage.localPath!('ab/cd/master.jpg')).toBe(join(dir, 'media', 'ab', 'cd', 'master.jpg'));
    expect(typeof media.processor.process).toBe('function');
    expect(runtime.media).toBeNull();
    await runtime.close();

    runtime = await openRuntime(config, { server: { logger: false }, media: true });
    expect(runtime.media).not.toBeNull();
    expect(runtime.ctx.media).toBe(runtime.app!.ctx.media);
  });

  it('MEDIA=off: no media services, no worker (posts show their original URLs)', async () => {
    dir = makeTempDir();
    const config = loadConfig({ DATABASE_URL: join(dir, 'wallery.db'), LOG_LEVEL: 'silent', MEDIA: 'off' });
    runtime = await openRuntime(config, { server: { logger: false }, ingest: true, media: true });
    expect(runtime.app!.ctx.media).toBeNull();
    expect(runtime.media).toBeNull();
  });

  it('the S3 settings become the S3 storage’s options; its description never shows a credential', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://db/wallery',
      MEDIA_S3_BUCKET: 'pictures',
      MEDIA_S3_ENDPOINT: 'http://minio:9000',
      MEDIA_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      MEDIA_S3_SECRET_ACCESS_KEY: 'very-secret-value',
      MEDIA_S3_FORCE_PATH_STYLE: 'on',
      MEDIA_S3_PREFIX: 'walls',
    });
    expect(mediaStorageOptions(config)).toEqual({
      kind: 's3',
      bucket: 'pictures',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'very-secret-value',
      forcePathStyle: true,
      prefix: 'walls',
    });
    const said = describeMediaStorage(config);
    expect(said).toBe('the S3 bucket pictures/walls at http://minio:9000');
    expect(mediaStorageOptions(loadConfig({ DATABASE_URL: 'postgres://db/wallery' }))).toEqual({
      kind: 'folder',
      dir: './data/media',
    });
  });
});
