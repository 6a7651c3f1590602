// The submission page's script, its two parts that are not DOM wiring: the
// proof-of-work (in Node, against altcha-lib's own challenge and check) and
// the shrinking of a large photo (in Chromium, which decodes and redraws it).
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_EDGE, SHRINK_ABOVE_BYTES } from '../../web/submit/shrink.js';
import { altchaPayload, solveChallenge } from '../../web/submit/solve.js';
import { GPS_MARK, orientedJpegWithGps } from '../media/pictures.js';
import { hasChromium, launchChromium } from './browser.js';

describe('the proof-of-work', () => {
  it('finds the number altcha-lib hid, and the payload passes its check', async () => {
    const challenge = await createChallenge({ hmacKey: 'test-key', maxnumber: 20_000, number: 12_345 });
    const n = await solveChallenge(challenge as Parameters<typeof solveChallenge>[0]);
    expect(n).toBe(12_345);
    expect(await verifySolution(altchaPayload(challenge as Parameters<typeof altchaPayload>[0], n!), 'test-key')).toBe(
      true,
    );
  });

  it('gives up (null) when no number up to maxnumber solves it', async () => {
    const challenge = await createChallenge({ hmacKey: 'k', maxnumber: 50_000, number: 40_000 });
    expect(await solveChallenge({ ...challenge, maxnumber: 5_000 } as Parameters<typeof solveChallenge>[0])).toBeNull();
  });
});

describe.skipIf(!hasChromium)('a large photo made smaller on the phone', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [new URL('../../web/submit/shrink.ts', import.meta.url).pathname],
      bundle: true,
      format: 'iife',
      globalName: 'shrink',
      write: false,
      target: 'es2022',
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setContent('<!doctype html><title>shrink</title>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** shrinkPhoto in the page on these bytes: what it returns, as bytes, and whether it is the same File */
  async function shrunk(
    bytes: Buffer,
    type: string,
  ): Promise<{ bytes: Buffer; type: string; name: string; same: boolean }> {
    const out = await page.evaluate(
      async ({ b64, type }) => {
        const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const file = new File([raw], 'IMG_0042.jpeg', { type });
        const result: File = await (
          window as unknown as { shrink: { shrinkPhoto(f: File): Promise<File> } }
        ).shrink.shrinkPhoto(file);
        const back = new Uint8Array(await result.arrayBuffer());
        let s = '';
        for (let i = 0; i < back.length; i += 0x8000) s += String.fromCharCode(...back.subarray(i, i + 0x8000));
        return { b64: btoa(s), type: result.type, name: result.name, same: result === file };
      },
      { b64: bytes.toString('base64'), type },
    );
    return { bytes: Buffer.from(out.b64, 'base64'), type: out.type, name: out.name, same: out.same };
  }

  it('redraws a 12 MP photo with GPS at 2,560 px, upright, without its metadata', async () => {
    // photo-like grain (noise compresses like a sensor's, not like a flat test card), turned by EXIF orientation 6
    const big = await sharp({
      create: { width: 4000, height: 3000, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 30 } },
    })
      .jpeg({ quality: 90 })
      .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2648/100', GPSMapDatum: GPS_MARK } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(SHRINK_ABOVE_BYTES);
    expect(big.includes(Buffer.from(GPS_MARK))).toBe(true);
    const out = await shrunk(big, 'image/jpeg');
    expect(out.same).toBe(false);
    expect(out.type).toBe('image/jpeg');
    expect(out.name).toBe('IMG_0042.jpg');
    expect(out.bytes.length).toBeLessThan(big.length);
    expect(out.bytes.includes(Buffer.from(GPS_MARK))).toBe(false);
    const meta = await sharp(out.bytes).metadata();
    // upright: the 4000 × 3000 sensor image turned a quarter, its long side 2,560
    expect([meta.width, meta.height]).toEqual([(LONG_EDGE * 3) / 4, LONG_EDGE]);
    expect(meta.exif).toBeUndefined();
  });

  it('sends a photo that is small already as it is (the server strips it)', async () => {
    const small = await orientedJpegWithGps(1200, 900);
    const out = await shrunk(small, 'image/jpeg');
    expect(out.same).toBe(true);
    expect(out.bytes.equals(small)).toBe(true);
  });

  it('sends what the browser cannot decode as it is (a HEIC in Chromium, a renamed file)', async () => {
    const notAPicture = Buffer.from('MZ\x90\x00 not a picture at all '.repeat(100_000));
    const asHeic = await shrunk(notAPicture, 'image/heic');
    expect(asHeic.same).toBe(true);
    const asText = await shrunk(notAPicture, 'text/plain');
    expect(asText.same).toBe(true);
  });
});
