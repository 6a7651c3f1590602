// What the primary of `serve --workers N` and its workers say to each other
// over the cluster's IPC channel. Every message carries `wallery` (its kind),
// so that other messages on the channel (Node's own) are left alone.
import type { Change } from '../store/changes.js';
import type { WorkerMetrics } from '../metrics/metrics.js';

/** The answer of the rate-limit counters (what @fastify/rate-limit's stores answer). */
export interface RateAnswer {
  current: number;
  ttl: number;
}

export type WorkerMessage =
  /** the first question: which slot this worker fills */
  | { wallery: 'hello'; id: number }
  /** a scrape reached this worker: every worker's metrics, please */
  | { wallery: 'metrics-gather'; id: number }
  /** the answer to metrics-collect: this worker's metrics */
  | { wallery: 'metrics-part'; id: number; metrics: WorkerMetrics }
  /** this worker's own write: the primary relays it to the siblings */
  | { wallery: 'change'; change: Change }
  /** one call of the account's day, and a block more when far from the limit */
  | { wallery: 'quota-take'; id: number; accountId: number; day: number; limit: number }
  /** calls granted and not answered, handed back (closing, a new day) */
  | { wallery: 'quota-return'; accountId: number; day: number; calls: number }
  /** the answer to a recall: the calls handed back */
  | { wallery: 'quota-recalled'; id: number; calls: number }
  /** the day's calls answered so far, all workers together (a usage report) */
  | { wallery: 'quota-today'; id: number; accountId: number; day: number; stored: number }
  /** a rate-limit count: counted (`incr`) or read */
  | {
      wallery: 'rate';
      id: number;
      op: 'incr' | 'read';
      counter: string;
      key: string;
      timeWindow: number;
      max: number;
      continueExceeding: boolean;
      exponentialBackoff: boolean;
    };

export type PrimaryMessage =
  /** the answer to hello: the slot (1…N); the first runs the background jobs */
  | { wallery: 'role'; id: number; slot: number; jobs: boolean }
  /** a sibling's write */
  | { wallery: 'change'; change: Change }
  /** the answer to quota-take: `granted` 0 is a refusal */
  | { wallery: 'quota-grant'; id: number; granted: number; used: number }
  /** hand back every unanswered call of the account's day (another worker needs them) */
  | { wallery: 'quota-recall'; id: number; accountId: number; day: number }
  | { wallery: 'quota-today'; id: number; calls: number }
  | { wallery: 'rate'; id: number; answer: RateAnswer }
  /** a sibling's scrape: this worker's metrics, please (answered with metrics-part) */
  | { wallery: 'metrics-collect'; id: number }
  /** the answer to metrics-gather: the metrics of every worker that answered in time */
  | { wallery: 'metrics-gathered'; id: number; parts: WorkerMetrics[] }
  /** leave gracefully, taking no new connection (a rolling restart; a replacement already listens) */
  | { wallery: 'retire' }
  /** drain and exit (the whole server stops) */
  | { wallery: 'shutdown' };

const hasKind = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && typeof (message as { wallery?: unknown }).wallery === 'string';

export function isWorkerMessage(message: unknown): message is WorkerMessage {
  return hasKind(message);
}

export function isPrimaryMessage(message: unknown): message is PrimaryMessage {
  return hasKind(message);
}
