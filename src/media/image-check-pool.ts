// Worker threads that run the image check (image-check-worker.ts): the
// safety classifier and the perceptual hash of a stored picture, never on
// the serving thread. Bounded (one thread by default: the classifier is
// CPU-bound, about 0.15 s a picture on one core) and at a lower priority, so
// that a burst of pictures slows the API as little as possible; tasks beyond
// it wait in the pool's queue. The model is loaded once per worker; an idle
// worker ends after a while, and none starts before the first picture.
import { Piscina } from 'piscina';
import { ownBytes, workerScript } from '../jobs/worker-threads.js';
import { IMAGE_CLASSES, IMAGE_MODEL, phashHex, type ClassScores } from '../domain/image-rules.js';
import type { CheckTask, CheckTaskResult } from './image-check-worker.js';

export type CheckResult = { ok: true; scores: ClassScores; phash: string } | { ok: false; reason: string };

/** What checks pictures (ImageCheckPool, or a test's stand-in for an outage). */
export interface ImageChecker {
  /** the model its scores are stored with */
  readonly model: string;
  /** the check of one stored master; never throws for a bad picture (ok: false, with why) */
  check(master: Uint8Array, signal?: AbortSignal): Promise<CheckResult>;
  close(): Promise<void>;
}

export interface ImageCheckPoolOptions {
  /** pictures checked at once: one worker thread each (default 1) */
  threads?: number;
  /** an idle worker ends after this long (ms, default 5 min: loading the model takes about a second) */
  idleTimeoutMs?: number;
}

const WORKER = workerScript(import.meta.url, 'image-check-worker');

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();

export class ImageCheckPool implements ImageChecker {
  readonly model = IMAGE_MODEL;
  private readonly pool: Piscina<CheckTask, CheckTaskResult>;

  constructor(options: ImageCheckPoolOptions = {}) {
    this.pool = new Piscina({
      filename: WORKER.filename,
      execArgv: WORKER.execArgv,
      minThreads: 0,
      maxThreads: options.threads ?? 1,
      idleTimeout: options.idleTimeoutMs ?? 300_000,
    });
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  async check(master: Uint8Array, signal?: AbortSignal): Promise<CheckResult> {
    const own = ownBytes(master);
    let result: CheckTaskResult;
    try {
      result = await this.pool.run({ master: own } satisfies CheckTask, {
        transferList: [own.buffer as ArrayBuffer],
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      return { ok: false, reason: `the image check failed: ${messageOf(err)}` };
    }
    if (!result.ok) return result;
    const scores = {} as ClassScores;
    for (const c of IMAGE_CLASSES) scores[c] = result.scores[c] ?? 0;
    return { ok: true, scores, phash: phashHex(result.phash) };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
