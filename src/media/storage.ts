// Where processed media is kept: a folder of the server's disk, or an S3
// bucket. Both keep the same keys (names.ts) behind one interface, so
// processing and serving never ask which.
import { FolderStorage } from './folder-storage.js';
import { S3Storage, type S3Options } from './s3-storage.js';
import type { MediaStorage } from './types.js';

export type MediaStorageOptions = { kind: 'folder'; dir: string } | ({ kind: 's3' } & S3Options);

export function createMediaStorage(options: MediaStorageOptions): MediaStorage {
  switch (options.kind) {
    case 'folder':
      return new FolderStorage(options.dir);
    case 's3': {
      const { kind: _kind, ...s3 } = options;
      return new S3Storage(s3);
    }
  }
}
