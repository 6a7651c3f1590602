// Processing pictures in worker threads (src/media/media-pool.ts), run from
// the TypeScript source as tests and `npm run dev` run it (the worker loaded
// through tsx): pictures in, files and refusals out, bad input answered
// rather than thrown, the bytes moved to the worker rather than copied.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { MediaPool } from '../../src/media/media-pool.js';
import { DEFAULT_PROCESS_OPTIONS } from '../../src/media/types.js';
import { animatedGif, photo, photoJpeg, pngBomb } from './pictures.js';

const pools: MediaPool[] = [];
const poolOf = (threads: number) => {
  const pool = new MediaPool({ threads });
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('MediaPool', () => {
  it('processes a picture in a worker; the source bytes are moved there', async () => {
    const pool = poolOf(1);
    const source = await photoJpeg(1300, 700);
    const hash = sha256(source);
    const bytes = new Uint8Array(source); // a whole ArrayBuffer of its own: moved, not copied
    const result = await pool.process(bytes, DEFAULT_PROCESS_OPTIONS);
    expect(bytes.byteLength).toBe(0);
    expect(result).toMatchObject({
      ok: true,
      hash,
      type: 'jpeg',
      width: 1300,
      height: 700,
      widths: [320, 640, 1080, 1300],
    });
    if (!result.ok) return;
    const master = result.files.find((f) => f.name === result.master)!;
    expect(master.bytes).toBeInstanceOf(Uint8Array);
    expect(await sharp(master.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1300, height: 700 });
  });

  it('converts an uploaded HEIC in a worker: moved there, a picture it cannot decode answered as unreadable', async () => {
    const pool = poolOf(1);
    // an AV1 picture under a HEIC brand: a HEIC by its header, but libheif's build here decodes HEVC only
    const avif = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c03' } })
      .avif()
      .toBuffer();
    const heic = new Uint8Array(avif);
    const brand = Buffer.from(heic.buffer).indexOf('avif');
    expect(brand).toBeGreaterThan(0);
    heic.set(Buffer.from('heic'), brand);
    const result = await pool.convertHeic(heic, DEFAULT_PROCESS_OPTIONS.maxPixels);
    expect(heic.byteLength).toBe(0);
    expect(result).toMatchObject({ ok: false, code: 'unreadable' });
    if (!result.ok) expect(result.reason).toMatch(/^the HEIC picture could not be read: /);
  });

  it('a Buffer from Node’s shared pool is copied, not moved: the caller’s pool stays whole', async () => {
    const pool = poolOf(1);
    const small = Buffer.from('<!DOCTYPE html><html></html>'); // a slice of the shared pool
    expect(small.byteLength).toBeLessThan(small.buffer.byteLength);
    expect(await pool.process(small, DEFAULT_PROCESS_OPTIONS)).toMatchObject({ ok: false, code: 'not_a_picture' });
    expect(small.toString()).toBe('<!DOCTYPE html><html></html>');
  });

  it('several pictures at once on two threads, each answered with its own result', async () => {
    const pool = poolOf(2);
    const sources = await Promise.all([
      photoJpeg(800, 600),
      photoJpeg(600, 800),
      photoJpeg(1000, 500),
      animatedGif(300, 200, 4),
      photoJpeg(300, 300),
      photoJpeg(1700, 900),
    ]);
    const hashes = sources.map(sha256);
    const results = await Promise.all(sources.map((s) => pool.process(s, DEFAULT_PROCESS_OPTIONS)));
    expect(results.map((r) => r.ok && [r.hash, r.width, r.height, r.animated])).toEqual([
      [hashes[0], 800, 600, false],
      [hashes[1], 600, 800, false],
      [hashes[2], 1000, 500, false],
      [hashes[3], 300, 200, true],
      [hashes[4], 300, 300, false],
      [hashes[5], 1700, 900, false],
    ]);
  });

  it('bad input is answered with a refusal, and the pool goes on', async () => {
    const pool = poolOf(1);
    const good = await photoJpeg(640, 480);
    const [html, bomb, truncated, svg] = await Promise.all([
      pool.process(Buffer.from('<html><body>Not found</body></html>'), DEFAULT_PROCESS_OPTIONS),
      pool.process(pngBomb(20000, 20000), DEFAULT_PROCESS_OPTIONS),
      pool.process(good.subarray(0, good.byteLength / 3), DEFAULT_PROCESS_OPTIONS),
      pool.process(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), DEFAULT_PROCESS_OPTIONS),
    ]);
    expect(html).toEqual({ ok: false, code: 'not_a_picture', reason: 'the file is HTML, not a picture' });
    expect(bomb).toEqual({
      ok: false,
      code: 'too_many_pixels',
      reason: 'the picture is 20000 × 20000 (400 megapixels), over the limit of 50 megapixels',
    });
    expect(truncated).toMatchObject({ ok: false, code: 'unreadable' });
    expect(svg).toMatchObject({ ok: false, code: 'svg' });
    expect(await pool.process(good, DEFAULT_PROCESS_OPTIONS)).toMatchObject({ ok: true, width: 640 });
  });

  it('once a worker has started, libvips decodes only the accepted formats in this process', async () => {
    const tiff = await photo(40, 30).tiff().toBuffer();
    const pool = poolOf(1);
    expect((await pool.process(await photoJpeg(100, 80), DEFAULT_PROCESS_OPTIONS)).ok).toBe(true);
    await expect(sharp(tiff).metadata()).rejects.toThrow('unsupported image format');
    await expect(sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')).metadata()).rejects.toThrow(
      'unsupported image format',
    );
    expect((await sharp(await photoJpeg(50, 40)).metadata()).format).toBe('jpeg');
    expect((await sharp(await photo(50, 40).avif().toBuffer()).metadata()).format).toBe('heif');
  });

  it('makes a rendition from a master', async () => {
    const pool = poolOf(1);
    const result = await pool.process(await photoJpeg(900, 600), DEFAULT_PROCESS_OPTIONS);
    if (!result.ok) throw new Error(result.reason);
    const master = result.files.find((f) => f.name === result.master)!;
    const avif = await pool.render(master.bytes, 640, 'avif', false);
    expect(avif).toMatchObject({ name: '640.avif', contentType: 'image/avif' });
    expect(await sharp(avif.bytes).metadata()).toMatchObject({ format: 'heif', width: 640, height: 427 });
  });

  it('a closed pool throws (the picture was not judged); a new pool works after it', async () => {
    const first = poolOf(1);
    const source = await photoJpeg(500, 400);
    expect((await first.process(source, DEFAULT_PROCESS_OPTIONS)).ok).toBe(true);
    const pending = first.process(await photoJpeg(500, 400), DEFAULT_PROCESS_OPTIONS);
    const rejected = expect(pending).rejects.toThrow('Terminating worker thread');
    await first.close();
    await rejected;
    // libvips unloaded with the last worker, and loaded again
    expect((await poolOf(1).process(source, DEFAULT_PROCESS_OPTIONS)).ok).toBe(true);
  });

  it('an aborted task throws, a refusal it is not', async () => {
    const pool = poolOf(1);
    const controller = new AbortController();
    controller.abort();
    await expect(pool.process(await photoJpeg(300, 200), DEFAULT_PROCESS_OPTIONS, controller.signal)).rejects.toThrow();
  });
});
