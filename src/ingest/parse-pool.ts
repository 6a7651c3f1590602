// Worker threads that parse upstream responses (parse-worker.ts), so that a
// large feed never stalls the thread that serves the API: the body is moved
// to a worker (transferred, not copied), and rows come back.
//
// Memory: each worker's heap is capped from INGEST_MAX_BYTES (the body's own
// cap, after decompression), so a response that would need more — an
// unusually dense feed, a pathological document — fails its poll with a
// clear error instead of growing the process. Idle workers are ended after a
// while; none is started before the first parse.
import { ownBytes, workerScript } from '../jobs/worker-threads.js';
import { Piscina } from 'piscina';
import { FetchError } from '../net/errors.js';
import type { ParseResult, ParseTask } from './parse-worker.js';
import { whereFrom } from './url-parts.js';

export interface ParsePoolOptions {
  /** INGEST_PARSE_THREADS */
  threads: number;
  /** INGEST_MAX_BYTES: the largest body a worker is handed */
  maxBytes: number;
  /** an idle worker ends after this long (ms, default 60 s) */
  idleTimeoutMs?: number;
}

const MB = 1024 * 1024;

/**
 * A worker's old-generation heap for bodies of at most `maxBytes`: the text
 * (up to twice the bytes, for text outside Latin-1) plus the parser's
 * working copy of it, the feed-level tree and the rows of the kept items,
 * over a base for the modules and the item trees, and the language
 * detector's n-gram table (eld extrasmall: 33 MB of heap, measured in a
 * worker thread).
 */
function parseHeapLimitMb(maxBytes: number): number {
  return Math.ceil((4 * maxBytes) / MB) + 64 + LANGUAGE_TABLE_MB;
}

/** The heap eld's table takes in each parse worker, with a margin (src/domain/language.ts). */
const LANGUAGE_TABLE_MB = 40;

/** A parse makes much short-lived garbage; a small young generation keeps the worker's resident memory down at no cost in time. */
const YOUNG_GENERATION_MB = 8;

const WORKER = workerScript(import.meta.url, 'parse-worker');

export class ParsePool {
  readonly heapLimitMb: number;
  private readonly pool: Piscina<ParseTask, ParseResult>;

  constructor(options: ParsePoolOptions) {
    this.heapLimitMb = parseHeapLimitMb(options.maxBytes);
    this.pool = new Piscina({
      filename: WORKER.filename,
      execArgv: WORKER.execArgv,
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      resourceLimits: { maxOldGenerationSizeMb: this.heapLimitMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
  }

  /** Parses one response in a worker. `task.response.bytes` is moved there: the caller's view of it is emptied. */
  async parse(task: ParseTask, signal?: AbortSignal): Promise<ParseResult> {
    const bytes = ownBytes(task.response.bytes);
    try {
      return await this.pool.run(
        { ...task, response: { ...task.response, bytes } },
        { transferList: [bytes.buffer as ArrayBuffer], signal },
      );
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new FetchError(
          'too_large',
          `${whereFrom(task.response.url)} sent a document too large to read: parsing it needed more than ${this.heapLimitMb} MB`,
        );
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
