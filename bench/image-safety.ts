// The image check's cost (part of `npm run bench`; alone: `npx tsx
// bench/image-safety.ts [--quick]`): pictures classified per second on one
// worker thread (= one core: the WASM backend runs single-threaded), as a
// ratio against the media pipeline's own work on the same pictures measured
// in the same run (decoding and downscaling them with sharp), and the false
// holds of the default image rule (porn, hentai, sexy at 0.8) on the real
// photos found on this machine (see the results file for which). Writes
// bench/image-safety-results.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import sharp from 'sharp';
import { DEFAULT_IMAGE_CLASSES, DEFAULT_IMAGE_THRESHOLD, IMAGE_MODEL } from '../src/domain/image-rules.js';
import { ImageCheckPool } from '../src/media/image-check-pool.js';

const quick = process.argv.includes('--quick');
const PICTURES = quick ? 30 : 120;
/** Openly licensed photos shipped by installed npm packages (node_modules), when present. */
const PHOTOS = [
  'node_modules/@fastify/static/example/public/images/sample.jpg',
  'node_modules/autocannon/test/j5.jpeg',
];

/** A varied 1080-px photo-like JPEG (the media pipeline's largest eager rendition). */
async function picture(i: number): Promise<Buffer> {
  const hue = (i * 47) % 360;
  return sharp({
    create: {
      width: 1080,
      height: 720,
      channels: 3,
      background: `hsl(${hue}, 50%, 50%)`,
      noise: { type: 'gaussian', mean: 100 + (i % 50), sigma: 30 },
    },
  })
    .blur(2)
    .jpeg({ quality: 85 })
    .toBuffer();
}

const pictures = await Promise.all(Array.from({ length: PICTURES }, (_, i) => picture(i)));

// baseline: what the media pipeline already does per picture (decode, downscale)
let t = performance.now();
for (const p of pictures) await sharp(p).resize(224, 224, { fit: 'fill' }).raw().toBuffer();
const baselineMs = (performance.now() - t) / PICTURES;

const pool = new ImageCheckPool({ threads: 1 });
await pool.check(pictures[0]!); // the model loads once per worker: not counted
t = performance.now();
const results = await Promise.all(pictures.map((p) => pool.check(p)));
const checkMs = (performance.now() - t) / PICTURES;
if (results.some((r) => !r.ok)) throw new Error('a picture was not classified');

const held = (scores: Record<string, number>) =>
  DEFAULT_IMAGE_CLASSES.some((c) => (scores[c] ?? 0) >= DEFAULT_IMAGE_THRESHOLD);
const photoRows: string[] = [];
let photos = 0;
let falseHolds = 0;
for (const path of PHOTOS) {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    continue;
  }
  const r = await pool.check(bytes);
  if (!r.ok) continue;
  photos++;
  if (held(r.scores)) falseHolds++;
  const top = Object.entries(r.scores).sort((a, b) => b[1] - a[1])[0]!;
  photoRows.push(`| ${path} | ${top[0]} ${top[1].toFixed(2)} | ${held(r.scores) ? 'held' : 'not held'} |`);
}
await pool.close();

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const lines = [
  '# The image check: cost and false holds',
  '',
  `Measured by \`bench/image-safety.ts\` on ${cpus().length} × ${cpu}, Node ${process.version}, ${IMAGE_MODEL} on TensorFlow.js WASM.`,
  '',
  '| what | per picture | pictures / s / core | ratio to the baseline |',
  '| --- | --- | --- | --- |',
  `| baseline: decode and downscale (sharp) | ${baselineMs.toFixed(1)} ms | ${(1000 / baselineMs).toFixed(1)} | 1 |`,
  `| the image check (decode, downscale, classify, hash) | ${checkMs.toFixed(1)} ms | ${(1000 / checkMs).toFixed(1)} | ${(checkMs / baselineMs).toFixed(1)} × |`,
  '',
  `False holds of the default image rule on real photos: ${falseHolds} of ${photos}.`,
  '',
  '| photo | top class | default rule |',
  '| --- | --- | --- |',
  ...photoRows,
  '',
];
writeFileSync(new URL('./image-safety-results.md', import.meta.url), lines.join('\n'));
console.log(lines.join('\n'));
