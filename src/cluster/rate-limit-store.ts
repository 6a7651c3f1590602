// @fastify/rate-limit's store in a worker of `serve --workers N` without
// Redis: each count is the primary's (src/cluster/rate-counters.ts), one IPC
// question per limited request. Limiters of one name and route share a
// counter across the workers, as they would in Redis.
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { WorkerChannel } from './worker-channel.js';

interface StoreParams {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string; url?: string };
}

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** The store class the plugin's `store` option takes, counting under `name` at the primary. */
export function primaryRateLimitStore(channel: WorkerChannel, name: string): FastifyRateLimitStoreCtor {
  return class PrimaryRateLimitStore {
    private readonly counter: string;
    private readonly continueExceeding: boolean;
    private readonly exponentialBackoff: boolean;

    constructor(params: object, counter = name) {
      this.counter = counter;
      this.continueExceeding = (params as StoreParams).continueExceeding ?? false;
      this.exponentialBackoff = (params as StoreParams).exponentialBackoff ?? false;
    }

    incr(key: string, cb: Callback, timeWindow: number, max: number) {
      this.count('incr', key, cb, timeWindow, max);
    }

    read(key: string, cb: Callback, timeWindow: number, max: number) {
      this.count('read', key, cb, timeWindow, max);
    }

    // the plugin passes the route's merged limiter settings (its type says route options only)
    child(params: object) {
      const { routeInfo } = params as StoreParams;
      const route = `${routeInfo?.method ?? ''} ${routeInfo?.url ?? ''}`;
      return new PrimaryRateLimitStore(params as StoreParams, `${name}|${route}`);
    }

    private count(op: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number) {
      channel
        .ask({
          wallery: 'rate',
          op,
          counter: this.counter,
          key,
          timeWindow,
          max,
          continueExceeding: this.continueExceeding,
          exponentialBackoff: this.exponentialBackoff,
        })
        .then(
          (answer) => cb(null, answer.wallery === 'rate' ? answer.answer : { current: 0, ttl: timeWindow }),
          (err: Error) => cb(err),
        );
    }
  };
}
