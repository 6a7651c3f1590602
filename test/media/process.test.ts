// Processing a fetched picture (src/media/process.ts), in this process: what
// it is, what is refused and why, what is kept (a master, WebP renditions,
// a placeholder) and what never is (the source's EXIF, GPS above all).
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from 'thumbhash';
import { beforeAll, describe, expect, it } from 'vitest';
import { processPicture, renderRendition, renditionWidths } from '../../src/media/process.js';
import { DEFAULT_PROCESS_OPTIONS, type MediaFile, type ProcessResult } from '../../src/media/types.js';
import { animatedGif, GPS_MARK, orientedJpegWithGps, photo, photoJpeg, pngBomb, pngWithAlpha } from './pictures.js';

type Processed = Extract<ProcessResult, { ok: true }>;

async function processed(bytes: Uint8Array, options = DEFAULT_PROCESS_OPTIONS): Promise<Processed> {
  const result = await processPicture(bytes, options);
  if (!result.ok) throw new Error(`refused: ${result.code}: ${result.reason}`);
  return result;
}

const fileNamed = (result: Processed, name: string): MediaFile => {
  const found = result.files.find((f) => f.name === name);
  if (!found) throw new Error(`no ${name} among ${result.files.map((f) => f.name).join(', ')}`);
  return found;
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Each file as sharp reads it back, all frames. */
const metadataOf = (file: MediaFile) => sharp(file.bytes, { animated: true }).metadata();

describe('renditionWidths', () => {
  const widths = DEFAULT_PROCESS_OPTIONS.widths;
  it('takes each width narrower than the picture, and the picture’s own capped at the largest', () => {
    expect(renditionWidths(1200, widths)).toEqual([320, 640, 1080, 1200]);
    expect(renditionWidths(5000, widths)).toEqual([320, 640, 1080, 1600]);
    expect(renditionWidths(1600, widths)).toEqual([320, 640, 1080, 1600]);
    expect(renditionWidths(640, widths)).toEqual([320, 640]);
    expect(renditionWidths(200, widths)).toEqual([200]);
    expect(renditionWidths(1, widths)).toEqual([1]);
  });

  it('reads the widths in any order, once each; none asked, none made', () => {
    expect(renditionWidths(900, [640, 320, 640])).toEqual([320, 640]);
    expect(renditionWidths(900, [])).toEqual([]);
  });
});

describe('a phone photo: EXIF orientation and GPS', () => {
  let source: Buffer;
  let result: Processed;
  beforeAll(async () => {
    source = await orientedJpegWithGps(800, 600);
    result = await processed(source);
  });

  it('the source really carries orientation 6 and a GPS block', async () => {
    const meta = await sharp(source).metadata();
    expect(meta).toMatchObject({ width: 800, height: 600, orientation: 6 });
    expect(meta.exif?.includes(GPS_MARK)).toBe(true);
  });

  it('is measured and kept turned upright: 600 × 800', async () => {
    expect(result).toMatchObject({
      type: 'jpeg',
      width: 600,
      height: 800,
      animated: false,
      frames: 1,
      hasAlpha: false,
    });
    const master = fileNamed(result, 'master.jpg');
    expect(master.contentType).toBe('image/jpeg');
    const meta = await metadataOf(master);
    expect(meta).toMatchObject({ format: 'jpeg', width: 600, height: 800 });
    expect(meta.orientation).toBeUndefined();
    // the stored top-left corner (red) is now at the top right
    const { data, info } = await sharp(master.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const [r, g, b] = pixel(550, 50);
    expect([r! > 200, g! < 60, b! < 60], `top right: ${pixel(550, 50)}`).toEqual([true, true, true]);
    expect(Math.min(...pixel(50, 50)), `top left: ${pixel(50, 50)}`).toBeGreaterThan(200);
  });

  it('no file carries EXIF, GPS or any other metadata of the source', async () => {
    expect(result.files.length).toBeGreaterThan(1);
    for (const f of result.files) {
      const meta = await metadataOf(f);
      expect(meta.exif, f.name).toBeUndefined();
      expect(meta.xmp, f.name).toBeUndefined();
      expect(meta.iptc, f.name).toBeUndefined();
      expect(meta.icc, f.name).toBeUndefined();
      expect(Buffer.from(f.bytes).includes(GPS_MARK), f.name).toBe(false);
      expect(Buffer.from(f.bytes).includes('Wallery Test Camera'), f.name).toBe(false);
    }
  });

  it('renditions are upright too, never wider than the picture', async () => {
    expect(result.widths).toEqual([320, 600]);
    for (const w of result.widths) {
      expect(await metadataOf(fileNamed(result, `${w}.webp`))).toMatchObject({
        format: 'webp',
        width: w,
        height: Math.round((w * 800) / 600),
      });
    }
  });
});

describe('what is kept of a picture', () => {
  it('a 12-megapixel photo passes: a JPEG master and four WebP renditions', async () => {
    const source = await photoJpeg(4000, 3000);
    const result = await processed(source);
    expect(result).toMatchObject({ ok: true, type: 'jpeg', width: 4000, height: 3000, animated: false, frames: 1 });
    expect(result.hash).toBe(sha256(source));
    expect(result.widths).toEqual([320, 640, 1080, 1600]);
    expect(result.master).toBe('master.jpg');
    expect(result.files.map((f) => f.name)).toEqual(['master.jpg', '320.webp', '640.webp', '1080.webp', '1600.webp']);
    expect(result.bytes).toBe(result.files.reduce((sum, f) => sum + f.bytes.byteLength, 0));
    for (const w of result.widths) {
      const f = fileNamed(result, `${w}.webp`);
      expect(f.contentType).toBe('image/webp');
      expect(await metadataOf(f)).toMatchObject({ format: 'webp', width: w, height: (w * 3) / 4 });
    }
    expect(await metadataOf(fileNamed(result, 'master.jpg'))).toMatchObject({ width: 4000, height: 3000 });
  });

  it('a 1200-px picture gets 320, 640, 1080 and its own 1200', async () => {
    const result = await processed(await photoJpeg(1200, 900));
    expect(result.widths).toEqual([320, 640, 1080, 1200]);
    expect(await metadataOf(fileNamed(result, '1200.webp'))).toMatchObject({ width: 1200, height: 900 });
  });

  it('no widths asked: the master and the placeholder only', async () => {
    const result = await processed(await photoJpeg(900, 600), { ...DEFAULT_PROCESS_OPTIONS, widths: [] });
    expect(result).toMatchObject({ widths: [], master: 'master.jpg' });
    expect(result.files.map((f) => f.name)).toEqual(['master.jpg']);
    expect(result.placeholder).not.toBe('');
  });

  it('a 200-px picture is never upscaled: one rendition, 200 wide', async () => {
    const result = await processed(await photoJpeg(200, 150));
    expect(result.widths).toEqual([200]);
    expect(result.files.map((f) => f.name)).toEqual(['master.jpg', '200.webp']);
    expect(await metadataOf(fileNamed(result, '200.webp'))).toMatchObject({ width: 200, height: 150 });
  });

  it('a PNG with alpha: a PNG master; the renditions keep the alpha', async () => {
    const result = await processed(await pngWithAlpha(700, 500));
    expect(result).toMatchObject({ type: 'png', width: 700, height: 500, hasAlpha: true, master: 'master.png' });
    expect(fileNamed(result, 'master.png').contentType).toBe('image/png');
    expect(await metadataOf(fileNamed(result, 'master.png'))).toMatchObject({ format: 'png', hasAlpha: true });
    expect(result.widths).toEqual([320, 640, 700]);
    for (const w of result.widths) {
      expect(await metadataOf(fileNamed(result, `${w}.webp`))).toMatchObject({ width: w, hasAlpha: true });
    }
  });

  it('a WebP: a WebP master', async () => {
    const result = await processed(await photo(900, 600).webp().toBuffer());
    expect(result).toMatchObject({ type: 'webp', width: 900, height: 600, master: 'master.webp', animated: false });
    expect(result.widths).toEqual([320, 640, 900]);
  });

  it('an AVIF: a WebP master (decoded everywhere, quicker to make)', async () => {
    const result = await processed(await photo(700, 400).avif().toBuffer());
    expect(result).toMatchObject({ type: 'avif', width: 700, height: 400, master: 'master.webp' });
    expect(await metadataOf(fileNamed(result, 'master.webp'))).toMatchObject({ format: 'webp', width: 700 });
  });

  it('a greyscale 16-bit PNG is read too', async () => {
    const grey = await photo(500, 300).toColourspace('grey16').png().toBuffer();
    const result = await processed(grey);
    expect(result).toMatchObject({ type: 'png', width: 500, height: 300 });
    expect(thumbHashToRGBA(Buffer.from(result.placeholder, 'base64')).w).toBeGreaterThan(0);
  });

  it('the placeholder is a ThumbHash of the picture, upright', async () => {
    const result = await processed(await orientedJpegWithGps(800, 600));
    const hash = Buffer.from(result.placeholder, 'base64');
    expect(hash.byteLength).toBeGreaterThan(5);
    expect(hash.byteLength).toBeLessThanOrEqual(25);
    const decoded = thumbHashToRGBA(hash);
    expect(decoded.rgba.byteLength).toBe(decoded.w * decoded.h * 4);
    expect(decoded.h).toBeGreaterThan(decoded.w); // taller than wide, as shown
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(600 / 800, 1);
  });
});

describe('animations', () => {
  it('an animated GIF: an animated WebP master and animated renditions, every frame and delay kept', async () => {
    const source = await animatedGif(400, 300, 3);
    const result = await processed(source);
    expect(result).toMatchObject({
      type: 'gif',
      width: 400,
      height: 300,
      animated: true,
      frames: 3,
      master: 'master.webp',
      widths: [320, 400],
    });
    expect(await metadataOf(fileNamed(result, 'master.webp'))).toMatchObject({
      format: 'webp',
      width: 400,
      pageHeight: 300,
      pages: 3,
      delay: [100, 100, 100],
      loop: 0,
    });
    expect(await metadataOf(fileNamed(result, '320.webp'))).toMatchObject({ width: 320, pageHeight: 240, pages: 3 });
  });

  it('an animation over maxFrames keeps its first frame only, in its own format', async () => {
    const result = await processed(await animatedGif(400, 300, 3), { ...DEFAULT_PROCESS_OPTIONS, maxFrames: 2 });
    expect(result).toMatchObject({ type: 'gif', animated: false, frames: 3, master: 'master.gif', height: 300 });
    for (const f of result.files) expect((await metadataOf(f)).pages ?? 1, f.name).toBe(1);
  });

  it('an animation whose frames together are over maxPixels keeps its first frame only', async () => {
    const result = await processed(await animatedGif(400, 300, 3), { ...DEFAULT_PROCESS_OPTIONS, maxPixels: 300_000 });
    expect(result).toMatchObject({ animated: false, frames: 3, width: 400, height: 300 });
  });
});

describe('what is refused', () => {
  it('SVG, with or without an XML declaration, comments, a doctype or a BOM', async () => {
    const svgs = [
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      '\ufeff\n  <?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<?xml version="1.0"?><svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>',
    ];
    for (const svg of svgs) {
      expect(await processPicture(Buffer.from(svg), DEFAULT_PROCESS_OPTIONS), svg).toEqual({
        ok: false,
        code: 'svg',
        reason: 'SVG pictures are not accepted',
      });
    }
  });

  it('an HTML page saved as photo.jpg is HTML', async () => {
    const pages = [
      '<!DOCTYPE html>\n<html lang="en"><head><title>Sign in</title></head><body><p>Please sign in</p></body></html>',
      '\n\n<html><body>Not found</body></html>',
      '<!-- error page --><HEAD><TITLE>403 Forbidden</TITLE></HEAD>',
    ];
    for (const page of pages) {
      expect(await processPicture(Buffer.from(page), DEFAULT_PROCESS_OPTIONS), page).toEqual({
        ok: false,
        code: 'not_a_picture',
        reason: 'the file is HTML, not a picture',
      });
    }
  });

  it('other files are named by what they are', async () => {
    const refusal = async (bytes: Uint8Array) => processPicture(bytes, DEFAULT_PROCESS_OPTIONS);
    expect(await refusal(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\n'))).toEqual({
      ok: false,
      code: 'not_a_picture',
      reason: 'the file is application/pdf, not a picture',
    });
    expect(await refusal(await photo(20, 20).tiff().toBuffer())).toMatchObject({
      code: 'not_a_picture',
      reason: expect.stringContaining('image/tiff'),
    });
    expect(await refusal(Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel/></rss>'))).toMatchObject({
      code: 'not_a_picture',
      reason: 'the file is XML, not a picture',
    });
    expect(await refusal(Buffer.from('just some text'))).toEqual({
      ok: false,
      code: 'not_a_picture',
      reason: 'the file is an unknown kind of file, not a picture',
    });
    expect(await refusal(new Uint8Array(0))).toMatchObject({
      code: 'not_a_picture',
      reason: 'the file is empty, not a picture',
    });
  });

  it('a 20000 × 20000 PNG bomb, from its header, before any decoding', async () => {
    const bomb = pngBomb(20000, 20000);
    expect(bomb.byteLength).toBeLessThan(2000);
    const rssBefore = process.memoryUsage().rss;
    expect(await processPicture(bomb, DEFAULT_PROCESS_OPTIONS)).toEqual({
      ok: false,
      code: 'too_many_pixels',
      reason: 'the picture is 20000 × 20000 (400 megapixels), over the limit of 50 megapixels',
    });
    // decoding it would have needed 1.2 GB
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it('the limit is maxPixels', async () => {
    const source = await photoJpeg(400, 300);
    expect(await processPicture(source, { ...DEFAULT_PROCESS_OPTIONS, maxPixels: 100_000 })).toEqual({
      ok: false,
      code: 'too_many_pixels',
      reason: 'the picture is 400 × 300 (0.1 megapixels), over the limit of 0.1 megapixels',
    });
    expect((await processPicture(source, { ...DEFAULT_PROCESS_OPTIONS, maxPixels: 120_000 })).ok).toBe(true);
  });

  it('a truncated JPEG is unreadable', async () => {
    const whole = await photoJpeg(600, 400);
    const result = await processPicture(whole.subarray(0, whole.byteLength / 2), DEFAULT_PROCESS_OPTIONS);
    expect(result).toMatchObject({ ok: false, code: 'unreadable' });
    expect(!result.ok && result.reason).toMatch(/^the JPEG picture could not be (read|decoded): \S/);
  });

  it('a PNG header with garbage after it is unreadable', async () => {
    const header = pngBomb(100, 100).subarray(0, 33);
    const result = await processPicture(Buffer.concat([header, Buffer.alloc(200, 7)]), DEFAULT_PROCESS_OPTIONS);
    expect(result).toMatchObject({ ok: false, code: 'unreadable' });
  });
});

describe('renditions made on first request', () => {
  let still: Processed;
  let animation: Processed;
  beforeAll(async () => {
    still = await processed(await photoJpeg(1200, 800));
    animation = await processed(await animatedGif(400, 300, 3));
  });
  const master = (result: Processed) => fileNamed(result, result.master).bytes;

  it('each format at the width asked', async () => {
    const expected = {
      avif: ['heif', 'image/avif'],
      webp: ['webp', 'image/webp'],
      jpeg: ['jpeg', 'image/jpeg'],
      png: ['png', 'image/png'],
    } as const;
    for (const [format, [decoded, contentType]] of Object.entries(expected)) {
      const f = await renderRendition(master(still), 640, format as keyof typeof expected, false);
      expect(f).toMatchObject({ name: `640.${format === 'jpeg' ? 'jpg' : format}`, contentType });
      expect(await metadataOf(f)).toMatchObject({ format: decoded, width: 640, height: 427 });
    }
  });

  it('JPEG shows a transparent picture on white', async () => {
    const transparent = await processed(await pngWithAlpha(300, 200));
    const jpeg = await renderRendition(master(transparent), 300, 'jpeg', false);
    const { data } = await sharp(jpeg.bytes).raw().toBuffer({ resolveWithObject: true });
    // far from the opaque square: half-transparent orange over white, not over black
    const [r, g, b] = data.subarray((150 * 300 + 250) * 3);
    expect(
      [r, g, b].every((c) => c! > 100),
      `${r}, ${g}, ${b}`,
    ).toBe(true);
  });

  it('never wider than the master', async () => {
    const f = await renderRendition(master(still), 1600, 'jpeg', false);
    expect(await metadataOf(f)).toMatchObject({ width: 1200, height: 800 });
  });

  it('an animation stays animated in WebP; AVIF, JPEG and PNG get its first frame', async () => {
    expect(await metadataOf(await renderRendition(master(animation), 320, 'webp', true))).toMatchObject({
      width: 320,
      pages: 3,
    });
    for (const format of ['avif', 'jpeg', 'png'] as const) {
      const meta = await metadataOf(await renderRendition(master(animation), 320, format, true));
      expect(meta, format).toMatchObject({ width: 320, height: 240 });
      expect(meta.pages ?? 1, format).toBe(1);
    }
  });
});
