// Worker threads that process fetched pictures (media-worker.ts), so that
// decoding a 12-megapixel photo never holds the thread that serves the API:
// the bytes are moved to a worker (transferred, not copied) and the files
// come back. `threads` bounds how many pictures are decoded at once; tasks
// beyond it wait in the pool's queue (with their bytes: callers bound how
// many they submit). Idle workers end after a while; none is started before
// the first task.
//
// Memory: a picture's pixels are libvips's (native memory, outside the
// workers' JavaScript heaps, which only hold the hashing, detection and
// ThumbHash work and are capped small); native memory per picture is bounded
// by ProcessOptions.maxPixels, refused from the header before any decoding.
//
// libvips runs a picture's work on Node's libuv thread pool, shared by the
// whole process (file system, DNS lookups): with more than two media threads,
// start the process with UV_THREADPOOL_SIZE of at least threads + 4.
import { ownBytes, workerScript } from '../jobs/worker-threads.js';
import { Piscina } from 'piscina';
import type { HeicTask, MediaTask, ProcessTask, RenderTask } from './media-worker.js';
import type { HeicResult, MediaFile, ProcessOptions, ProcessResult, RenditionFormat } from './types.js';

export interface MediaPoolOptions {
  /** pictures processed at once: one worker thread each */
  threads: number;
  /** an idle worker ends after this long (ms, default 60 s) */
  idleTimeoutMs?: number;
}

/** Each worker's JavaScript heap: the pixels are native memory, not here. */
const HEAP_LIMIT_MB = 64;
const YOUNG_GENERATION_MB = 8;

const WORKER = workerScript(import.meta.url, 'media-worker');

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();

export class MediaPool {
  private readonly pool: Piscina<MediaTask, ProcessResult | MediaFile | HeicResult>;
  private closed = false;

  constructor(options: MediaPoolOptions) {
    this.pool = new Piscina({
      filename: WORKER.filename,
      execArgv: WORKER.execArgv,
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  }

  /** Tasks waiting for a worker. */
  get queueSize(): number {
    return this.pool.queueSize;
  }

  /**
   * Processes one fetched picture in a worker. `bytes` is moved there: the
   * caller's view of it is emptied. Bad input is answered, never thrown: a
   * refusal, `unreadable` too when the worker failed on it (out of memory,
   * a crash). Throws only when the pool is closed or `signal` aborts — the
   * picture was not judged.
   */
  async process(bytes: Uint8Array, options: ProcessOptions, signal?: AbortSignal): Promise<ProcessResult> {
    const own = ownBytes(bytes);
    try {
      return (await this.pool.run({ kind: 'process', bytes: own, options } satisfies ProcessTask, {
        transferList: [own.buffer as ArrayBuffer],
        signal,
      })) as ProcessResult;
    } catch (err) {
      if (this.closed || signal?.aborted) throw err;
      const reason =
        (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'processing the picture needed more memory than a media worker has'
          : `processing the picture failed: ${messageOf(err)}`;
      return { ok: false, code: 'unreadable', reason };
    }
  }

  /**
   * Makes one rendition from a picture's master in a worker (renderRendition
   * of process.ts). `master` is moved there: the caller's view of it is
   * emptied. The master is Wallery's own file: a failure throws.
   */
  async render(
    master: Uint8Array,
    width: number,
    format: RenditionFormat,
    animated: boolean,
    signal?: AbortSignal,
  ): Promise<MediaFile> {
    const own = ownBytes(master);
    return (await this.pool.run({ kind: 'render', master: own, width, format, animated } satisfies RenderTask, {
      transferList: [own.buffer as ArrayBuffer],
      signal,
    })) as MediaFile;
  }

  /**
   * Turns an uploaded HEIC photo into a JPEG in a worker (heic.ts). `bytes`
   * is moved there. Bad input is answered, never thrown, as `process` does.
   */
  async convertHeic(bytes: Uint8Array, maxPixels: number): Promise<HeicResult> {
    const own = ownBytes(bytes);
    try {
      return (await this.pool.run({ kind: 'heic', bytes: own, maxPixels } satisfies HeicTask, {
        transferList: [own.buffer as ArrayBuffer],
      })) as HeicResult;
    } catch (err) {
      if (this.closed) throw err;
      return { ok: false, code: 'unreadable', reason: `converting the HEIC picture failed: ${messageOf(err)}` };
    }
  }

  /** Ends the workers; tasks still queued or running are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool.destroy();
  }
}
