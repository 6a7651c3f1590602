// The media pipeline's shared parts as the configuration makes them: the
// storage (MEDIA_DIR, or the MEDIA_S3_* bucket) and the processing pool
// (MEDIA_THREADS). Every server gets them as `ctx.media` (serving its
// copies, lazy renditions), and the media worker of the same process uses
// the same ones. The pool starts no thread before its first picture.
import { mediaDirOf, type Config } from '../config.js';
import { MediaPool } from './media-pool.js';
import { createMediaStorage, type MediaStorageOptions } from './storage.js';
import type { MediaServices, MediaStorage } from './types.js';

/** Where MEDIA_* puts the pictures: the folder, or the bucket. */
export function mediaStorageOptions(config: Pick<Config, 'media' | 'store'>): MediaStorageOptions {
  const s = config.media.storage;
  if (s.kind === 'folder') return { kind: 'folder', dir: mediaDirOf(s, config.store) };
  return {
    kind: 's3',
    bucket: s.bucket,
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    ...(s.endpoint !== null ? { endpoint: s.endpoint } : {}),
    ...(s.accessKeyId !== null && s.secretAccessKey !== null
      ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey }
      : {}),
    ...(s.prefix !== '' ? { prefix: s.prefix } : {}),
  };
}

/** The storage MEDIA_* names (the CLI's gc and status need no processing). */
export function openMediaStorage(config: Pick<Config, 'media' | 'store'>): MediaStorage {
  return createMediaStorage(mediaStorageOptions(config));
}

/** The storage and the processing pool; close() ends both. */
export function openMediaServices(config: Pick<Config, 'media' | 'store'>): MediaServices & { close(): Promise<void> } {
  const storage = openMediaStorage(config);
  const processor = new MediaPool({ threads: config.media.threads });
  return {
    storage,
    processor,
    async close() {
      await processor.close();
      await storage.close();
    },
  };
}

/** Where the pictures are, for a person to read (never a credential). */
export function describeMediaStorage(config: Pick<Config, 'media' | 'store'>): string {
  const o = mediaStorageOptions(config);
  if (o.kind === 'folder') return `the folder ${o.dir}`;
  const where = o.endpoint ? ` at ${o.endpoint}` : '';
  return `the S3 bucket ${o.bucket}${o.prefix ? `/${o.prefix}` : ''}${where}`;
}
