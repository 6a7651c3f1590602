// The media pipeline's shapes (issue 29): what processing a fetched picture
// gives (processPicture in a worker of media-pool.ts), and where its files
// are kept (a MediaStorage: a folder or an S3 bucket). Pure types and the
// processing defaults; nothing here does I/O.

/** An uploaded HEIC photo turned into a JPEG (heic.ts), or why not. */
export type HeicResult =
  { ok: true; jpeg: Uint8Array } | { ok: false; code: 'too_many_pixels' | 'unreadable'; reason: string };

/** The kinds of source picture accepted, detected from the bytes (detect.ts). */
export type PictureType = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

/** The formats a rendition is served in (chosen per request from Accept: names.ts, chooseFormat). */
export type RenditionFormat = 'avif' | 'webp' | 'jpeg' | 'png';

/** The formats a master is kept in: a still picture in its own family, an animation as WebP. */
export type MasterFormat = 'jpeg' | 'png' | 'webp' | 'gif';

/** Every format a stored file can have. */
export type MediaFormat = RenditionFormat | MasterFormat;

export interface ProcessOptions {
  /** a picture with more pixels (width × height of one frame) is refused before it is decoded */
  maxPixels: number;
  /** an animation with more frames keeps its first frame only */
  maxFrames: number;
  /** the widths of the eager renditions (px); the picture's own width is added when it is narrower than the largest */
  widths: readonly number[];
}

export const DEFAULT_PROCESS_OPTIONS: ProcessOptions = Object.freeze({
  // 12-megapixel phone pictures pass with room to spare; 20000 × 20000 is refused
  maxPixels: 50_000_000,
  maxFrames: 200,
  widths: Object.freeze([320, 640, 1080, 1600]),
});

export interface MediaFile {
  /** the name under the picture's hash (names.ts): `master.jpg`, `640.webp` */
  name: string;
  bytes: Uint8Array;
  contentType: string;
}

export type ProcessResult =
  | {
      ok: true;
      /** sha256 (hex) of the SOURCE bytes as fetched */
      hash: string;
      /** the source's type, detected from its bytes */
      type: PictureType;
      /** after EXIF orientation; one frame's height for animations */
      width: number;
      height: number;
      animated: boolean;
      /** frames of the source (1 for a still picture) */
      frames: number;
      /** the picture has an alpha channel (its header says so; it may still be opaque) */
      hasAlpha: boolean;
      /** ThumbHash, base64 */
      placeholder: string;
      /** rendition widths made, ascending, never wider than the picture */
      widths: number[];
      /** the master's file name (one of `files`): renderRendition starts from it */
      master: string;
      /** the master and the eager renditions */
      files: MediaFile[];
      /** sum of the files' sizes */
      bytes: number;
    }
  | { ok: false; code: RefusalCode; reason: string };

/**
 * Why a picture was refused: `not_a_picture` (HTML, a PDF, an unaccepted
 * image type), `svg` (never rasterized), `too_many_pixels` (over maxPixels,
 * seen in the header before any decoding), `unreadable` (a picture that
 * fails to decode: corrupt or truncated, or its worker failed).
 */
export type RefusalCode = 'not_a_picture' | 'svg' | 'too_many_pixels' | 'unreadable';

export interface StoredObject {
  bytes: Buffer;
  size: number;
  contentType: string;
}

export interface MediaStorage {
  readonly kind: 'folder' | 's3';
  /** atomic: a reader never sees half a file; an existing key is replaced */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** null when there is no such key */
  get(key: string): Promise<StoredObject | null>;
  has(key: string): Promise<boolean>;
  /** missing keys are fine */
  delete(keys: readonly string[]): Promise<void>;
  /** every key that starts with `prefix` (a string prefix, as in S3, not only a folder), in no promised order */
  list(prefix?: string): AsyncIterable<{ key: string; size: number }>;
  /** folder storage only: the absolute file path of a key (serving uses sendFile); undefined for s3 */
  localPath?(key: string): string;
  close(): Promise<void>;
}

/** What processes pictures (src/media/media-pool.ts: worker threads). */
export interface MediaProcessor {
  process(bytes: Uint8Array, options: ProcessOptions): Promise<ProcessResult>;
  render(master: Uint8Array, width: number, format: RenditionFormat, animated: boolean): Promise<MediaFile>;
  /** an uploaded HEIC photo as a JPEG, off the serving thread (absent: converted in-process) */
  convertHeic?(bytes: Uint8Array, maxPixels: number): Promise<HeicResult>;
  close(): Promise<void>;
}

/** The media pipeline's parts that a server (serving, lazy renditions) and a worker (fetching) share. */
export interface MediaServices {
  storage: MediaStorage;
  processor: MediaProcessor;
}
