// The media pipeline's shapes: what processing a picture gives, and the
// storage its files go to (a folder, or S3-compatible object storage).
export type PictureType = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';
export type RenditionFormat = 'avif' | 'webp' | 'jpeg' | 'png';
export interface ProcessOptions {
  maxPixels: number;
  maxFrames: number;
  widths: readonly number[];
}
export interface MediaFile {
  name: string;
  bytes: Uint8Array;
  contentType: string;
}
export type RefusalCode = 'not_a_picture' | 'svg' | 'too_many_pixels' | 'unreadable';
export type ProcessResult =
  | {
      ok: true;
      /** sha256 hex of the source bytes as fetched */
      hash: string;
      /** the detected type of the source */
      type: PictureType;
      /** after EXIF orientation; one frame's height for animations */
      width: number;
      height: number;
      animated: boolean;
      frames: number;
      hasAlpha: boolean;
      /** ThumbHash, base64 */
      placeholder: string;
      /** rendition widths made, ascending, never wider than the picture */
      widths: number[];
      /** the master and the eager renditions */
      files: MediaFile[];
      /** sum of the files' sizes */
      bytes: number;
    }
  | { ok: false; code: RefusalCode; reason: string };
export interface StoredObject {
  bytes: Buffer;
  size: number;
  contentType: string;
}
export interface MediaStorage {
  readonly kind: 'folder' | 's3';
  /** atomic: a reader never sees half a file */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  has(key: string): Promise<boolean>;
  /** missing keys are fine */
  delete(keys: readonly string[]): Promise<void>;
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
  /** folder storage only: the absolute file path of a key (serving uses sendFile); undefined for s3 */
  localPath?(key: string): string;
  close(): Promise<void>;
}

/** What processes pictures (src/media/media-pool.ts: worker threads). */
export interface MediaProcessor {
  process(bytes: Uint8Array, options: ProcessOptions): Promise<ProcessResult>;
  render(master: Uint8Array, width: number, format: RenditionFormat, animated: boolean): Promise<MediaFile>;
  close(): Promise<void>;
}

/** The media pipeline's parts that a server (serving, lazy renditions) and a worker (fetching) share. */
export interface MediaServices {
  storage: MediaStorage;
  processor: MediaProcessor;
}
