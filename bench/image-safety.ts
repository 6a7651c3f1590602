// The image check's cost (part of `npm run bench`; alone: `npx tsx
// bench/image-safety.ts [--quick]`): pictures classified per second on one
// worker thread (= one core: the WASM backend runs single-threaded), as a
// ratio against the media pipeline's own work on the same pictures measured
// in the same run (decoding and downscaling them with sharp), and the false
// holds of the default image rule (porn, hentai, sexy at 0.8) on the 226
// ordinary photos of bench/photo-set.ts (downloaded the first time), by the
// class that held them and by what the photo shows, each held one named.
// Writes bench/image-safety-results.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import sharp from 'sharp';
import { DEFAULT_IMAGE_CLASSES, DEFAULT_IMAGE_THRESHOLD, IMAGE_MODEL } from '../src/domain/image-rules.js';
import { ImageCheckPool } from '../src/media/image-check-pool.js';
import { PACKAGES, photoSet, type PhotoKind } from './photo-set.js';
import { log } from './process.js';

const quick = process.argv.includes('--quick');
const PICTURES = quick ? 30 : 120;
/** The ordinary photos (a quick run takes every 8th). */
const PHOTOS = photoSet(log).filter((_, i) => !quick || i % 8 === 0);

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

/** The default rule's finding on one picture: the class that held it, or null. */
const heldBy = (scores: Record<string, number>) =>
  DEFAULT_IMAGE_CLASSES.filter((c) => (scores[c] ?? 0) >= DEFAULT_IMAGE_THRESHOLD).sort(
    (a, b) => scores[b]! - scores[a]!,
  )[0] ?? null;
const byClass = new Map<string, number>(DEFAULT_IMAGE_CLASSES.map((c) => [c, 0]));
const byKind = new Map<PhotoKind, { photos: number; held: number }>();
const heldRows: string[] = [];
const topClasses = new Map<string, number>();
let photos = 0;
let falseHolds = 0;
log(`classifying ${PHOTOS.length} photos…`);
const checked = await Promise.all(PHOTOS.map(async (p) => ({ p, r: await pool.check(readFileSync(p.file)) })));
/** Each photo's highest score among the default classes, and which: the margin below the threshold. */
const nearest: { name: string; kind: PhotoKind; label: string; score: number }[] = [];
for (const { p, r } of checked) {
  if (r.ok) {
    const label = DEFAULT_IMAGE_CLASSES.reduce((a, b) => (r.scores[b] > r.scores[a] ? b : a));
    nearest.push({ name: p.name, kind: p.kind, label, score: r.scores[label] });
  }
  if (!r.ok) throw new Error(`${p.name} was not classified: ${r.reason}`);
  photos++;
  const kind = byKind.get(p.kind) ?? { photos: 0, held: 0 };
  byKind.set(p.kind, kind);
  kind.photos++;
  const top = Object.entries(r.scores).sort((a, b) => b[1] - a[1])[0]!;
  topClasses.set(top[0], (topClasses.get(top[0]) ?? 0) + 1);
  const by = heldBy(r.scores);
  if (by === null) continue;
  falseHolds++;
  kind.held++;
  byClass.set(by, byClass.get(by)! + 1);
  const scores = DEFAULT_IMAGE_CLASSES.map((c) => `${c} ${r.scores[c].toFixed(2)}`).join(', ');
  heldRows.push(`| ${p.name} | ${p.kind} | ${by} | ${scores} |`);
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
  `## False holds on ${photos} ordinary photos${quick ? ' (QUICK RUN: every 8th photo)' : ''}`,
  '',
  `The default image rule (${DEFAULT_IMAGE_CLASSES.join(', ')} at ${DEFAULT_IMAGE_THRESHOLD}) held **${falseHolds} of ${photos}** ordinary photos: **${((100 * falseHolds) / photos).toFixed(1)} %** (target ≤ 2 %: ${falseHolds / photos <= 0.02 ? 'met' : 'NOT met'}).`,
  '',
  'The set (bench/photo-set.ts, downloaded with `apt-get download` and unpacked into .cache/photo-set/): openly licensed',
  'photographs shipped by Debian 12 packages, chosen by a person looking at every candidate picture — the drawings, renders,',
  'abstract graphics, micrographs and test patterns left out:',
  '',
  ...PACKAGES.map((p) => `- ${p.name} ${p.version}: ${p.licence}`),
  '',
  'The tuxpaint stamps are photographs cut out on a transparent background (checked, like the wall shows them, on white):',
  `closer to product shots than to what people post, and most of the set. Few show people (${byKind.get('people')?.photos ?? 0}).`,
  '',
  '| photos of | photos | held |',
  '| --- | ---: | ---: |',
  ...[...byKind].sort((a, b) => b[1].photos - a[1].photos).map(([k, v]) => `| ${k} | ${v.photos} | ${v.held} |`),
  '',
  `Held by class: ${[...byClass].map(([c, n]) => `${c} ${n}`).join(', ')}. The class each photo scored highest: ${[
    ...topClasses,
  ]
    .sort((a, b) => b[1] - a[1])
    .map(([c, n]) => `${c} ${n}`)
    .join(', ')}.`,
  '',
  'Held at lower thresholds (the same classes), to show the margin:',
  '',
  '| threshold | 0.5 | 0.6 | 0.7 | 0.8 (default) | 0.9 |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  `| photos held | ${[0.5, 0.6, 0.7, 0.8, 0.9].map((t) => nearest.filter((n) => n.score >= t).length).join(' | ')} |`,
  '',
  'The photos scored highest in a default class, for a person to look at (under .cache/photo-set/):',
  '',
  '| photo | shows | class | score |',
  '| --- | --- | --- | ---: |',
  ...nearest
    .sort((a, b) => b.score - a.score)
    .slice(0, 8)
    .map((n) => `| ${n.name} | ${n.kind} | ${n.label} | ${n.score.toFixed(2)} |`),
  '',
  ...(heldRows.length > 0
    ? [
        'The held photos (under .cache/photo-set/), for a person to look at:',
        '',
        '| photo | shows | held by | scores |',
        '| --- | --- | --- | --- |',
        ...heldRows,
      ]
    : []),
  '',
];
writeFileSync(new URL('./image-safety-results.md', import.meta.url), lines.join('\n'));
console.log(lines.join('\n'));
