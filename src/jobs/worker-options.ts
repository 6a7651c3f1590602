// What each background worker (feed ingestion, webhook delivery) can be
// handed besides its own settings — tests inject the clock, the randomness
// and name resolution — and the defaults of a worker run for real.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Resolver } from '../net/guard.js';
import { FAILING_AFTER } from './backoff.js';
import { silentLogger, type WorkerLogger } from './log.js';

export interface WorkerOptions {
  log?: WorkerLogger;
  now?: () => number;
  random?: () => number;
  /** lease owner name; default host:pid:random */
  owner?: string;
  failingAfter?: number;
  /** for the worker's own fetcher: resolve host names (tests map names to chosen addresses) */
  resolve?: Resolver;
}

/** The options every worker reads, each given or its default. */
export function workerDefaults(options: WorkerOptions) {
  return {
    log: options.log ?? silentLogger,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    owner: options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    failingAfter: options.failingAfter ?? FAILING_AFTER,
  };
}
