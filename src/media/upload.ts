// An attendee's photo (src/http/submit/), from the bytes that came with the
// request to the stored picture: its type read from the bytes (a renamed
// executable is refused), an iPhone's HEIC turned into pixels by heic-decode
// (sharp's own build reads no HEVC) and into a JPEG, its size in pixels
// checked before anything is decoded, then the media pipeline's own
// processing (worker threads: upright, metadata and GPS stripped, renditions
// and placeholder) and its files written under their hash.
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { writePicture, type ProcessedPicture } from './runtime.js';
import { DEFAULT_PROCESS_OPTIONS, type MediaServices } from './types.js';

/** What an upload's photo may be, by the MIME type its bytes say. */
const UPLOAD_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'image/avif']);

export type UploadPicture =
  | { ok: true; picture: ProcessedPicture }
  | { ok: false; code: 'not_a_picture' | 'too_many_pixels' | 'unreadable'; reason: string };

/** heic-decode ships no types: what it is used for here. */
interface HeicImage {
  width: number;
  height: number;
  decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
}
type HeicDecode = { all(input: { buffer: Uint8Array }): Promise<HeicImage[] & { dispose(): void }> };

/**
 * Reads, converts and stores an uploaded photo; never throws for bad input.
 * `maxPixels` is MEDIA_MAX_PIXELS: a picture larger than that (a
 * decompression bomb) is refused from its header.
 */
export async function storeUploadedPicture(
  media: MediaServices,
  bytes: Uint8Array,
  maxPixels: number,
): Promise<UploadPicture> {
  const type = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!type || !UPLOAD_TYPES.has(type.mime))
    return { ok: false, code: 'not_a_picture', reason: `the file is ${type ? type.mime : 'not a picture'}` };
  let source = bytes;
  if (type.mime === 'image/heic' || type.mime === 'image/heif') {
    const converted = await heicToJpeg(bytes, maxPixels);
    if (!converted.ok) return converted;
    source = converted.jpeg;
  }
  const result = await media.processor.process(source, { ...DEFAULT_PROCESS_OPTIONS, maxPixels });
  if (!result.ok) {
    const code = result.code === 'svg' ? 'not_a_picture' : result.code;
    return { ok: false, code, reason: result.reason };
  }
  await writePicture(media.storage, result);
  return { ok: true, picture: result };
}

/** The HEIC's main picture as a JPEG (orientation applied by libheif); its size checked before it is decoded. */
async function heicToJpeg(
  bytes: Uint8Array,
  maxPixels: number,
): Promise<{ ok: true; jpeg: Uint8Array } | Extract<UploadPicture, { ok: false }>> {
  // a specifier the compiler does not resolve: the package ships no types (HeicDecode says what is used)
  const name = 'heic-decode';
  const { default: decode } = (await import(name)) as { default: HeicDecode };
  let images: (HeicImage[] & { dispose(): void }) | null = null;
  try {
    images = await decode.all({ buffer: bytes });
    const main = images[0];
    if (!main) return { ok: false, code: 'unreadable', reason: 'the HEIC file holds no picture' };
    if (main.width * main.height > maxPixels)
      return { ok: false, code: 'too_many_pixels', reason: `the picture is ${main.width} × ${main.height}` };
    const { width, height, data } = await main.decode();
    const jpeg = await sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      raw: { width, height, channels: 4 },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    return { ok: true, jpeg };
  } catch (err) {
    return {
      ok: false,
      code: 'unreadable',
      reason: `the HEIC picture could not be read: ${String(err).slice(0, 200)}`,
    };
  } finally {
    images?.dispose();
  }
}
