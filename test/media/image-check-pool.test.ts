// The image check's worker on real pictures (made with sharp here): the real
// classifier (nsfwjs MobileNetV2 on TensorFlow.js WASM, weights from the
// package) loaded once in one pool shared by the file's tests; scores for
// every class summing to 1, an ordinary photo not flagged at the default
// threshold, a resized copy's perceptual hash near the original's and a
// different picture's far, a broken picture answered (not thrown), and the
// stored model names matching the installed packages.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  DEFAULT_IMAGE_CLASSES,
  DEFAULT_IMAGE_THRESHOLD,
  hammingHex,
  IMAGE_CLASSES,
  IMAGE_MODEL,
  PHASH_MODEL,
} from '../../src/domain/image-rules.js';
import { ImageCheckPool } from '../../src/media/image-check-pool.js';

const pool = new ImageCheckPool();
afterAll(() => pool.close());

const versionOf = (pkg: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

/** A landscape-like picture: sky, a darker ground, noise. */
async function landscape(width: number, height: number): Promise<Buffer> {
  const sky = await sharp({ create: { width, height: height / 2, channels: 3, background: '#7fb2e6' } })
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 3, background: '#4d6b2e', noise: { type: 'gaussian', mean: 90, sigma: 25 } },
  })
    .composite([{ input: sky, top: 0, left: 0 }])
    .jpeg()
    .toBuffer();
}

/** Four quadrants of flat colour: structure a perceptual hash sees, whatever the size. */
async function blocks(width: number, height: number, colours: string[]): Promise<Buffer> {
  const w = width / 2;
  const h = height / 2;
  const tile = (background: string) =>
    sharp({ create: { width: w, height: h, channels: 3, background } })
      .png()
      .toBuffer();
  const tiles = await Promise.all(colours.slice(1).map(tile));
  return sharp({ create: { width, height, channels: 3, background: colours[0]! } })
    .composite([
      { input: tiles[0]!, left: w, top: 0 },
      { input: tiles[1]!, left: 0, top: h },
      { input: tiles[2]!, left: w, top: h },
    ])
    .jpeg()
    .toBuffer();
}

describe('the image check worker', () => {
  it('classifies a picture: every class scored, summing to 1; not flagged at the defaults', async () => {
    const r = await pool.check(await landscape(640, 480));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.scores).sort()).toEqual([...IMAGE_CLASSES].sort());
    const sum = Object.values(r.scores).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 3);
    for (const c of DEFAULT_IMAGE_CLASSES) expect(r.scores[c]).toBeLessThan(DEFAULT_IMAGE_THRESHOLD);
    expect(r.phash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('a resized copy hashes near the original; another picture far', async () => {
    const original = await blocks(800, 600, ['#202020', '#f0f0f0', '#a04020', '#3060c0']);
    const smaller = await sharp(original).resize(320).webp().toBuffer();
    const other = await blocks(800, 600, ['#f0f0f0', '#202020', '#3060c0', '#a04020']);
    const [a, b, c] = await Promise.all([pool.check(original), pool.check(smaller), pool.check(other)]);
    if (!a.ok || !b.ok || !c.ok) throw new Error('not classified');
    expect(hammingHex(a.phash, b.phash)).toBeLessThanOrEqual(4);
    expect(hammingHex(a.phash, c.phash)).toBeGreaterThan(10);
  });

  it('a broken picture is answered with the reason, not thrown', async () => {
    const r = await pool.check(Buffer.from('this is not a picture'));
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/^the stored picture could not be decoded: /) });
  });

  it('the stored model names are the installed packages’', () => {
    expect(IMAGE_MODEL).toBe(`nsfwjs mobilenet_v2 ${versionOf('nsfwjs')}`);
    expect(PHASH_MODEL).toBe(`sharp-phash ${versionOf('sharp-phash')}`);
  });
});
