// Key → account answers kept in memory, so an authenticated read costs no
// store query. Dropped when they can change: any change to the account
// (plan, limit, keys) on the change bus, everything on `all` (e.g. another
// process wrote to the SQLite file, or the PostgreSQL notification
// connection was re-established) — and in any case after `ttlMs`, so a
// revocation whose notification was lost still takes effect within it.
// Unknown keys are never cached.
import type { ChangeBus } from '../store/changes.js';
import { findKeyOwnerByHash, hashSecret, type KeyOwner } from '../store/keys.js';
import { SecretCache } from './secret-cache.js';

export interface KeyCacheOptions {
  /** longest life of an entry, ms */
  ttlMs: number;
  max?: number;
  /** monotonic milliseconds; tests inject a clock */
  clock?: () => number;
}

export class KeyCache extends SecretCache<KeyOwner> {
  constructor(changes: ChangeBus, options: KeyCacheOptions) {
    super(changes, {
      ...options,
      max: options.max ?? 100_000,
      hash: hashSecret,
      find: findKeyOwnerByHash,
      accountOf: (owner) => owner.accountId,
    });
  }
}
