// An attendee's photo (src/http/submit/), from the bytes that came with the
// request to the stored picture: its type read from the bytes (a renamed
// executable is refused), an iPhone's HEIC turned into a JPEG (heic.ts, in a
// media worker thread), its size in pixels checked before anything is
// decoded, then the media pipeline's own processing (worker threads too:
// upright, metadata and GPS stripped, renditions and placeholder) and its
// files written under their hash.
import { fileTypeFromBuffer } from 'file-type';
import { heicToJpeg } from './heic.js';
import { writePicture, type ProcessedPicture } from './runtime.js';
import { DEFAULT_PROCESS_OPTIONS, type MediaServices } from './types.js';

/** What an upload's photo may be, by the MIME type its bytes say. */
const UPLOAD_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'image/avif']);

export type UploadPicture =
  | { ok: true; picture: ProcessedPicture }
  | { ok: false; code: 'not_a_picture' | 'too_many_pixels' | 'unreadable'; reason: string };

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
    // in a media worker thread when the processor has them (MediaPool), else here
    const converted = await (media.processor.convertHeic
      ? media.processor.convertHeic(bytes, maxPixels)
      : heicToJpeg(bytes, maxPixels));
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
