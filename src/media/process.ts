// Processing one fetched picture (run in a worker of media-pool.ts; a pure
// function of its bytes): what it is, whether it is refused, its size after
// EXIF orientation, a ThumbHash placeholder, a master kept in place of the
// source and the eager WebP renditions. Also the renditions made later, on a
// client's first request for a format (renderRendition).
//
// Privacy: no output carries the source's metadata. sharp writes none unless
// asked (withMetadata, keepExif and their kin are never called here), so the
// EXIF of a phone picture — GPS position, camera, time — is gone, and so are
// XMP, IPTC and the ICC profile (pixels are converted to sRGB first).
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { detectPicture } from './detect.js';
import { contentTypeOf, masterName, renditionName } from './names.js';
import type {
  MasterFormat,
  MediaFile,
  MediaFormat,
  PictureType,
  ProcessOptions,
  ProcessResult,
  RefusalCode,
  RenditionFormat,
} from './types.js';

/** The master replaces the source: close to it, still much smaller than a phone's JPEG. */
const MASTER_QUALITY = 88;
/** Renditions are for screens: smaller files at a quality nobody sees lost. */
const RENDITION_QUALITY = { webp: 80, avif: 50, jpeg: 82 } as const;
/**
 * AVIF is made on a client's first request, while it waits: encoder effort 2
 * of 0–9 is about ten times faster than the default 4 (a 1600-px rendition on
 * one thread: under a second instead of about 9 s), for files much the same
 * size.
 */
const AVIF_EFFORT = 2;
/** ThumbHash encodes pictures of at most 100 × 100. */
const PLACEHOLDER_SIZE = 100;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const refused = (code: RefusalCode, reason: string): ProcessResult => ({ ok: false, code, reason });

/** 400_000_000 → "400", 12_345_678 → "12.3" */
const megapixels = (pixels: number) => String(Math.round(pixels / 100_000) / 10);

/** libvips explains a failed decode on its first line ("VipsJpeg: premature end of JPEG image"). */
const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();

/**
 * The widths of the eager renditions of a picture `width` pixels wide: each
 * of `widths` narrower than it, and its own width capped at the largest —
 * never an upscale. 1200 → 320, 640, 1080, 1200; 5000 → 320, 640, 1080, 1600;
 * 200 → 200.
 */
export function renditionWidths(width: number, widths: readonly number[]): number[] {
  const sorted = [...new Set(widths)].sort((a, b) => a - b);
  const largest = sorted.at(-1);
  if (largest === undefined) return [];
  return [...new Set([...sorted.filter((w) => w < width), Math.min(width, largest)])];
}

/** The master's format: a still picture's own family (AVIF as WebP: quicker to re-encode, decoded everywhere), an animation as animated WebP. */
function masterFormatOf(type: PictureType, animated: boolean): MasterFormat {
  if (animated || type === 'avif') return 'webp';
  return type;
}

function encode(image: Sharp, format: MediaFormat, quality: number): Sharp {
  switch (format) {
    case 'jpeg':
      // JPEG has no alpha: what was transparent is shown on white, not on the black under it
      return image.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true });
    case 'png':
      return image.png();
    case 'webp':
      return image.webp({ quality });
    case 'avif':
      return image.avif({ quality, effort: AVIF_EFFORT });
    case 'gif':
      return image.gif();
  }
}

/**
 * Decoding options for untrusted input: at most `maxPixels` (checked again
 * by the decoder, which counts every frame of an animation), and a picture
 * with errors in its data refused — but not one with warnings (extraneous
 * bytes, an odd marker), which many cameras and editors write and every
 * browser shows.
 */
const decoding = (maxPixels: number, animated: boolean): SharpOptions => ({
  limitInputPixels: maxPixels,
  failOn: 'error',
  animated,
});

/** The ThumbHash of a picture, base64: from at most 100 × 100 RGBA (8 bits, sRGB, whatever the source's depth and colours). */
async function placeholderOf(source: Sharp): Promise<string> {
  const { data, info } = await source
    .resize(PLACEHOLDER_SIZE, PLACEHOLDER_SIZE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

const file = (name: string, format: MediaFormat, bytes: Buffer): MediaFile => ({
  name,
  bytes,
  contentType: contentTypeOf(format),
});

interface Renditions {
  renditions: MediaFile[];
  placeholder: string;
}

const webpRendition = async (image: Sharp, width: number) =>
  file(renditionName(width, 'webp'), 'webp', await encode(image, 'webp', RENDITION_QUALITY.webp).toBuffer());

/**
 * A still picture's renditions and placeholder, all from one decode: the
 * source is decoded and scaled to the largest rendition once (JPEG scales
 * as it decodes), and every smaller one is scaled from those pixels — for a
 * 12-megapixel PNG, WebP or AVIF, one full decode instead of one per width.
 */
async function stillRenditions(source: Sharp, widths: number[]): Promise<Renditions> {
  const largest = widths.at(-1);
  if (largest === undefined) return { renditions: [], placeholder: await placeholderOf(source) };
  const { data, info } = await source
    .resize({ width: largest })
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const base = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const renditions: MediaFile[] = [];
  for (const w of widths) renditions.push(await webpRendition(base().resize({ width: w }), w));
  return { renditions, placeholder: await placeholderOf(base()) };
}

/** An animation's renditions, each animated, from the source (scaled frame by frame); the placeholder from its first frame. */
async function animationRenditions(
  source: () => Sharp,
  widths: number[],
  firstFrame: () => Sharp,
): Promise<Renditions> {
  const renditions: MediaFile[] = [];
  for (const w of widths) renditions.push(await webpRendition(source().resize({ width: w }), w));
  return { renditions, placeholder: await placeholderOf(firstFrame()) };
}

/**
 * Processes one fetched picture. Never throws for bad input: a file that is
 * not an accepted picture, is too large or cannot be decoded is refused with
 * a code and one sentence naming what was found.
 */
export async function processPicture(bytes: Uint8Array, options: ProcessOptions): Promise<ProcessResult> {
  const hash = sha256(bytes);
  const detected = await detectPicture(bytes);
  if (!detected.ok) return refused(detected.code, detected.reason);
  const { type } = detected;
  const { maxPixels, maxFrames } = options;

  let header: Metadata;
  try {
    // the header only: nothing is decoded, whatever size it claims
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    return refused('unreadable', `the ${type.toUpperCase()} picture could not be read: ${firstLine(err)}`);
  }
  // one frame's size (an animation's frames are not counted here)
  const pixels = header.width * header.height;
  if (pixels > maxPixels) {
    return refused(
      'too_many_pixels',
      `the picture is ${header.width} × ${header.height} (${megapixels(pixels)} megapixels), over the limit of ${megapixels(maxPixels)} megapixels`,
    );
  }
  const frames = header.pages ?? 1;
  // An animation with more frames than maxFrames, or whose frames together
  // are more pixels than maxPixels (the decoder's limit counts them all),
  // keeps its first frame only: a still picture is worth more than a refusal,
  // and an animation that long is a video in the wrong format.
  const animated =
    (type === 'gif' || type === 'webp') && frames > 1 && frames <= maxFrames && pixels * frames <= maxPixels;
  const { width, height } = header.autoOrient;
  const source = () => sharp(bytes, decoding(maxPixels, animated)).autoOrient();

  try {
    const masterFormat = masterFormatOf(type, animated);
    const master = file(
      masterName(masterFormat),
      masterFormat,
      await encode(source(), masterFormat, MASTER_QUALITY).toBuffer(),
    );
    const widths = renditionWidths(width, options.widths);
    const { renditions, placeholder } = animated
      ? await animationRenditions(source, widths, () => sharp(bytes, decoding(maxPixels, false)).autoOrient())
      : await stillRenditions(source(), widths);
    const files = [master, ...renditions];
    return {
      ok: true,
      hash,
      type,
      width,
      height,
      animated,
      frames,
      hasAlpha: header.hasAlpha,
      placeholder,
      widths,
      master: master.name,
      files,
      bytes: files.reduce((sum, f) => sum + f.bytes.byteLength, 0),
    };
  } catch (err) {
    return refused('unreadable', `the ${type.toUpperCase()} picture could not be decoded: ${firstLine(err)}`);
  }
}

/**
 * A rendition made from a picture's master (processPicture's `master` file)
 * on first request: `width` wide in `format`, named for them
 * (`640.avif`). Ask for one of the picture's `widths`: a wider one is made
 * no wider than the master (never an upscale) but named as asked. An
 * animation stays animated in WebP; AVIF, JPEG and PNG get its first frame.
 * JPEG shows a transparent picture on white.
 */
export async function renderRendition(
  master: Uint8Array,
  width: number,
  format: RenditionFormat,
  animated: boolean,
): Promise<MediaFile> {
  const image = sharp(master, { animated: animated && format === 'webp' }).resize({ width, withoutEnlargement: true });
  const quality = format === 'png' ? 0 : RENDITION_QUALITY[format];
  return file(renditionName(width, format), format, await encode(image, format, quality).toBuffer());
}
