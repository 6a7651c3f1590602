// A real HEIC (test/fixtures/media/iphone-portrait.heic: HEVC, coded sideways
// with an irot box, EXIF orientation and GPS, as an iPhone stores a portrait
// photo) turned into a JPEG by heicToJpeg (src/media/heic.ts), in this
// process and in a media worker, then through the pipeline as an upload is:
// upright once (never turned twice by the EXIF orientation beside the irot),
// its colours kept, its size right, no EXIF and no GPS left.
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { heicToJpeg } from '../../src/media/heic.js';
import { MediaPool } from '../../src/media/media-pool.js';
import { processPicture } from '../../src/media/process.js';
import { DEFAULT_PROCESS_OPTIONS } from '../../src/media/types.js';
import { HEIC_GPS_MARK, HEIC_UPRIGHT, heicSample, heicSampleLayout, UPRIGHT_LAYOUT } from './heic-sample.js';

const MAX = DEFAULT_PROCESS_OPTIONS.maxPixels;
const gps = Buffer.from(HEIC_GPS_MARK);

async function convertedJpeg(result: Awaited<ReturnType<typeof heicToJpeg>>): Promise<Uint8Array> {
  if (!result.ok) throw new Error(`refused: ${result.code}: ${result.reason}`);
  return result.jpeg;
}

describe('a real HEIC photo', () => {
  const pool = new MediaPool({ threads: 1 });
  afterAll(() => pool.close());

  it('is the sample the tests need: a HEIC by its bytes, with EXIF orientation and GPS', async () => {
    const bytes = heicSample();
    expect((await fileTypeFromBuffer(bytes))?.mime).toBe('image/heic');
    expect(bytes.includes(gps)).toBe(true);
    expect(bytes.includes(Buffer.from('irot'))).toBe(true);
    expect(bytes.byteLength).toBeLessThan(100 * 1024);
  });

  it('becomes an upright JPEG of its shown size, its colours kept, without EXIF or GPS (in this process)', async () => {
    const jpeg = await convertedJpeg(await heicToJpeg(heicSample(), MAX));
    const meta = await sharp(jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', ...HEIC_UPRIGHT });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(Buffer.from(jpeg).includes(gps)).toBe(false);
    expect(await heicSampleLayout(jpeg)).toEqual(UPRIGHT_LAYOUT);
  });

  it('is converted the same in a media worker, its bytes moved there', async () => {
    const bytes = new Uint8Array(heicSample()); // an ArrayBuffer of its own: moved, not copied
    const jpeg = await convertedJpeg(await pool.convertHeic(bytes, MAX));
    expect(bytes.byteLength).toBe(0);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', ...HEIC_UPRIGHT });
    expect(await heicSampleLayout(jpeg)).toEqual(UPRIGHT_LAYOUT);
  });

  it('goes through the pipeline as a JPEG does: upright once, every file without GPS', async () => {
    const jpeg = await convertedJpeg(await pool.convertHeic(heicSample(), MAX));
    const result = await processPicture(jpeg, DEFAULT_PROCESS_OPTIONS);
    if (!result.ok) throw new Error(`refused: ${result.code}: ${result.reason}`);
    expect(result).toMatchObject({ type: 'jpeg', ...HEIC_UPRIGHT, widths: [320, 480] });
    for (const file of result.files) {
      expect(Buffer.from(file.bytes).includes(gps)).toBe(false);
      const meta = await sharp(file.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.width! / meta.height!).toBeCloseTo(HEIC_UPRIGHT.width / HEIC_UPRIGHT.height, 2);
      expect(await heicSampleLayout(file.bytes)).toEqual(UPRIGHT_LAYOUT);
    }
  });

  it('is refused from its header when it has more pixels than allowed, and as unreadable when cut short', async () => {
    const pixels = HEIC_UPRIGHT.width * HEIC_UPRIGHT.height;
    expect(await heicToJpeg(heicSample(), pixels - 1)).toMatchObject({ ok: false, code: 'too_many_pixels' });
    const cut = heicSample().subarray(0, 20_000);
    const result = await pool.convertHeic(new Uint8Array(cut), MAX);
    expect(result).toMatchObject({ ok: false, code: 'unreadable' });
  });
});
