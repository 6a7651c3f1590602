// Media kept in an S3 bucket (AWS S3, or any S3-compatible store: MinIO,
// Garage, Ceph, Cloudflare R2, Backblaze B2…): a key is an object's key,
// under an optional prefix, so one bucket can hold more than Wallery's media.
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { assertValidKey } from './names.js';
import type { MediaStorage, StoredObject } from './types.js';

export interface S3Options {
  bucket: string;
  /** an S3-compatible store's address (http(s)://host:port); AWS's own when unset */
  endpoint?: string;
  region: string;
  /** both, or neither: the SDK's default credentials (environment, profile, instance role) */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key`: what most self-hosted stores need */
  forcePathStyle?: boolean;
  /** keys are kept under this folder of the bucket (`wallery/media`: `wallery/media/ab/…`) */
  prefix?: string;
}

/** DeleteObjects takes at most this many keys a request. */
const DELETE_BATCH = 1000;

const notFound = (err: unknown) => err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404;

export class S3Storage implements MediaStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  /** '' or a folder with its trailing slash */
  private readonly prefix: string;

  constructor(options: S3Options) {
    const { accessKeyId, secretAccessKey } = options;
    if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
      throw new Error('S3 storage: give both an access key id and a secret access key, or neither');
    }
    this.bucket = options.bucket;
    const prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
    if (prefix !== '') assertValidKey(prefix);
    this.prefix = prefix === '' ? '' : `${prefix}/`;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      // Checksums only where S3 requires them (DeleteObjects): the SDK's
      // default adds CRC32 checksum headers to every upload, which a number
      // of S3-compatible stores reject; TLS already guards the bytes.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    assertValidKey(key);
    return this.prefix + key;
  }

  /** One PutObject: S3 makes an object visible whole, or not at all. */
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.byteLength,
      }),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      const body = await res.Body!.transformToByteArray();
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      return { bytes, size: bytes.byteLength, contentType: res.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (err) {
      if (notFound(err)) return false;
      throw err;
    }
  }

  /** DeleteObjects, 1,000 keys a request; deleting a missing key succeeds in S3. */
  async delete(keys: readonly string[]): Promise<void> {
    const objects = keys.map((key) => ({ Key: this.objectKey(key) }));
    for (let i = 0; i < objects.length; i += DELETE_BATCH) {
      const res = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: objects.slice(i, i + DELETE_BATCH), Quiet: true },
        }),
      );
      const failed = res.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0]!;
        throw new Error(
          `S3 storage: ${failed.length} of ${objects.length} objects could not be deleted (${first.Key}: ${first.Code} ${first.Message ?? ''})`.trim(),
        );
      }
    }
  }

  /** ListObjectsV2 page by page (1,000 keys each), in the bucket's key order. */
  async *list(prefix = ''): AsyncIterable<{ key: string; size: number }> {
    const pages = paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: this.prefix + prefix });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key.slice(this.prefix.length), size: object.Size ?? 0 };
      }
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
