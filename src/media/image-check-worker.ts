// The image check's worker (runs in a worker thread of image-check-pool.ts):
// a stored picture's master in, the safety classifier's scores per class and
// the perceptual hash out. The classifier is nsfwjs's MobileNetV2, whose
// weights ship inside the nsfwjs package (no download), on TensorFlow.js's
// WASM backend; it is loaded once per worker, on its first picture.
//
// The thread asks the kernel for a lower priority (nice 10): on Linux a
// thread's niceness is its own, so under load the serving thread and the
// media workers are scheduled first and the check takes what is left.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { setPriority } from 'node:os';
import sharp from 'sharp';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { load, type NSFWJS } from 'nsfwjs';

// sharp-phash is CommonJS whose types claim an ES default export: loaded as what it is
const phash = createRequire(import.meta.url)('sharp-phash') as (image: Buffer) => Promise<string>;

/** The classifier's input: 224 × 224 RGB (MobileNetV2's). */
const SIZE = 224;
/** How much lower than the process this thread runs (0–19). */
const NICE = 10;

try {
  setPriority(0, NICE);
} catch {
  // not permitted here (some containers): the bounded pool still limits what it takes
}
sharp.concurrency(1);
sharp.cache(false);

export interface CheckTask {
  /** the stored master (transferred to the worker, not copied) */
  master: Uint8Array;
}

export type CheckTaskResult =
  { ok: true; scores: Record<string, number>; phash: string } | { ok: false; reason: string };

let model: Promise<NSFWJS> | null = null;

async function loadModel(): Promise<NSFWJS> {
  const require = createRequire(import.meta.url);
  setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`);
  await tf.setBackend('wasm');
  await tf.ready();
  // nsfwjs announces the bundled model on the console: not a log line of ours
  const info = console.info;
  console.info = () => undefined;
  try {
    return await load('MobileNetV2');
  } finally {
    console.info = info;
  }
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();

export default async function checkPicture(task: CheckTask): Promise<CheckTaskResult> {
  let pixels: Buffer;
  let hash: string;
  try {
    // transparent parts on white, as the console and the wall show them; an animation's first frame
    pixels = await sharp(task.master)
      .flatten({ background: '#ffffff' })
      .resize(SIZE, SIZE, { fit: 'fill' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer();
    hash = await phash(Buffer.from(task.master));
  } catch (err) {
    return { ok: false, reason: `the stored picture could not be decoded: ${firstLine(err)}` };
  }
  let classifier: NSFWJS;
  try {
    classifier = await (model ??= loadModel());
  } catch (err) {
    model = null;
    return { ok: false, reason: `the classifier could not be loaded: ${firstLine(err)}` };
  }
  const input = tf.tensor3d(
    new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    [SIZE, SIZE, 3],
    'int32',
  );
  try {
    const predictions = await classifier.classify(input, 5);
    const scores: Record<string, number> = {};
    for (const p of predictions) scores[p.className.toLowerCase()] = p.probability;
    return { ok: true, scores, phash: hash };
  } catch (err) {
    return { ok: false, reason: `the classifier failed: ${firstLine(err)}` };
  } finally {
    input.dispose();
  }
}
