// The primary's rate-limit counters for `serve --workers N` without Redis:
// @fastify/rate-limit's own in-memory store, one per limiter, asked by every
// worker (src/cluster/rate-limit-store.ts), so N workers allow a limit, not
// N times it.
import { createRequire } from 'node:module';
import type { RateAnswer, WorkerMessage } from './messages.js';

interface LocalStore {
  incr(key: string, cb: (err: Error | null, res: RateAnswer) => void, timeWindow: number, max: number): void;
  read(key: string, cb: (err: Error | null, res: RateAnswer) => void, timeWindow: number, max: number): void;
}
type LocalStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => LocalStore;

// the plugin's store module (CommonJS, not in its types)
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as LocalStoreCtor;

export class RateCounters {
  private readonly stores = new Map<string, LocalStore>();

  count(question: Extract<WorkerMessage, { wallery: 'rate' }>): Promise<RateAnswer> {
    let store = this.stores.get(question.counter);
    if (!store) {
      store = new LocalStore(question.continueExceeding, question.exponentialBackoff);
      this.stores.set(question.counter, store);
    }
    const counted = store;
    return new Promise((resolve, reject) => {
      counted[question.op](
        question.key,
        (err, res) => (err ? reject(err) : resolve(res)),
        question.timeWindow,
        question.max,
      );
    });
  }
}
