// Key → account answers kept in memory, so an authenticated read costs no
// store query. Dropped when they can change: any change to the account
// (plan, limit, keys) on the change bus, everything on `all` (e.g. another
// process wrote to the SQLite file, or the PostgreSQL notification
// connection was re-established) — and in any case after `ttlMs`, so a
// revocation whose notification was lost still takes effect within it.
// Unknown keys are never cached.
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ChangeBus } from '../store/changes.js';
import { findKeyOwnerByHash, hashSecret, type KeyOwner } from '../store/keys.js';
import type { Database } from '../store/schema.js';

interface Entry {
  hash: Buffer;
  owner: KeyOwner;
}

export interface KeyCacheOptions {
  /** longest life of an entry, ms */
  ttlMs: number;
  max?: number;
  /** monotonic milliseconds; tests inject a clock */
  clock?: () => number;
}

export class KeyCache {
  private readonly byHash: LRUCache<string, Entry>;
  private readonly unsubscribe: () => void;
  private readonly clock: () => number;
  /** bumped by every invalidation: a lookup that raced one does not keep what it read */
  private generation = 0;
  /** lookups and entries dropped for room, read by the metrics on scrape */
  readonly stats = { hits: 0, misses: 0, evictions: 0 };

  constructor(changes: ChangeBus, options: KeyCacheOptions) {
    this.clock = options.clock ?? (() => performance.now());
    this.byHash = new LRUCache<string, Entry>({
      max: options.max ?? 100_000,
      ttl: options.ttlMs,
      // read the clock on every check: no timer, and an injected clock is seen at once
      ttlResolution: 0,
      perf: { now: this.clock },
      dispose: (_entry, _hash, reason) => {
        if (reason === 'evict') this.stats.evictions++;
      },
    });
    this.unsubscribe = changes.subscribe((change) => {
      if (change.kind === 'wall') return;
      this.generation += 1;
      if (change.kind === 'all') this.byHash.clear();
      else if (change.kind === 'account') {
        const stale: string[] = [];
        for (const [hash, entry] of this.byHash.entries())
          if (entry.owner.accountId === change.accountId) stale.push(hash);
        for (const hash of stale) this.byHash.delete(hash);
      }
    });
  }

  /** The owner when the key is held here; undefined when only the store can tell. */
  /** Counts nothing: a caller answering from it counts the hit (`stats.hits`), one falling back to `lookup` does not. */
  peek(plaintext: string): KeyOwner | undefined {
    return this.held(hashSecret(plaintext));
  }

  async lookup(db: Kysely<Database>, plaintext: string): Promise<KeyOwner | null> {
    const hex = hashSecret(plaintext);
    const hit = this.held(hex);
    if (hit) {
      this.stats.hits++;
      return hit;
    }
    this.stats.misses++;
    // the entry's life counts from before the query: what it read is at most ttlMs old when it goes
    const start = this.clock();
    const generation = this.generation;
    const owner = await findKeyOwnerByHash(db, hex);
    if (owner && generation === this.generation)
      this.byHash.set(hex, { hash: Buffer.from(hex, 'hex'), owner }, { start });
    return owner;
  }

  /** keys held */
  get size(): number {
    return this.byHash.size;
  }

  close(): void {
    this.unsubscribe();
    this.byHash.clear();
  }

  private held(hex: string): KeyOwner | undefined {
    const hit = this.byHash.get(hex);
    return hit && timingSafeEqual(hit.hash, Buffer.from(hex, 'hex')) ? hit.owner : undefined;
  }
}
