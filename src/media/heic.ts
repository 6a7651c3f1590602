// An iPhone's HEIC (or HEIF) photo turned into a JPEG: heic-decode (libheif
// built to WebAssembly; sharp's own build reads no HEVC) gives the main
// picture's pixels, orientation applied, and sharp encodes them. Its size
// is checked from the header before anything is decoded. Run in a media
// worker thread (media-worker.ts) so that decoding never holds the thread
// that serves the API; in-process only for a processor without workers.
import sharp from 'sharp';

import type { HeicResult } from './types.js';

/** heic-decode ships no types: what it is used for here. */
interface HeicImage {
  width: number;
  height: number;
  decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
}
type HeicDecode = { all(input: { buffer: Uint8Array }): Promise<HeicImage[] & { dispose(): void }> };

/** The HEIC's main picture as a JPEG; never throws for bad input. */
export async function heicToJpeg(bytes: Uint8Array, maxPixels: number): Promise<HeicResult> {
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
    return { ok: true, jpeg: new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, code: 'unreadable', reason: `the HEIC picture could not be read: ${message.slice(0, 200)}` };
  } finally {
    images?.dispose();
  }
}
