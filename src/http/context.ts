// What every route needs: the store and a clock (injectable for tests).
import type { QuotaCounter } from '../quota/quota.js';
import type { ResponseCache } from './v2/response-cache.js';
import type { KeyCache } from './key-cache.js';
import type { ChangeBus } from '../store/changes.js';
import type { Store } from '../store/store.js';
import type { KeyOwner } from '../store/keys.js';
import type { Format } from './envelope.js';

export interface AppContext {
  store: Store;
  /** epoch milliseconds; tests inject a fixed or moving clock */
  now: () => number;
  /** announce every write a reader could see (cache invalidation) */
  changes: ChangeBus;
  /** daily call counter; defaults to counting in the store */
  quota?: QuotaCounter;
  /** rendered v2 reads; undefined → a default cache, null → no caching */
  cache?: ResponseCache | null;
  /** key → account answers; undefined → a default cache, null → a store query per call */
  keys?: KeyCache | null;
  /** true once after another process wrote to the store (SQLite); set by buildServer */
  externalWrites?: () => boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** response format from `format` (json when absent or invalid) */
    format: Format;
    /** the authenticated account, set by the v2 auth hook */
    caller: KeyOwner;
  }
  interface FastifyContextConfig {
    /** API family of a v2 route, checked against the caller's plan */
    family?: 'widget' | 'commerce';
  }
}
