// What a secret key (a user key, a publishable key) answers, kept in memory
// by the key's SHA-256 so a request with it costs no store query. Dropped
// when it can change: a change of its account (or, for answers that name a
// wall, of that wall) on the change bus, everything on `all` — and in any
// case after `ttlMs`, so a revocation whose notification was lost still
// takes effect within it. Unknown keys are never cached.
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ChangeBus } from '../store/changes.js';
import type { Database } from '../store/schema.js';

export interface SecretCacheOptions<V> {
  /** longest life of an entry, ms */
  ttlMs: number;
  max: number;
  /** monotonic milliseconds; tests inject a clock */
  clock?: () => number;
  /** the hex SHA-256 of a plaintext key, as the store keeps it */
  hash: (plaintext: string) => string;
  /** the store's answer for a hash; null for an unknown key */
  find: (db: Kysely<Database>, hex: string) => Promise<V | null>;
  accountOf: (value: V) => number;
  /** for answers that belong to a wall: a change of it drops them (without, wall changes are ignored) */
  wallOf?: (value: V) => number;
}

interface Entry<V> {
  hash: Buffer;
  value: V;
}

export class SecretCache<V extends object> {
  private readonly byHash: LRUCache<string, Entry<V>>;
  private readonly unsubscribe: () => void;
  private readonly clock: () => number;
  /** bumped by every invalidation: a lookup that raced one does not keep what it read */
  private generation = 0;
  /** lookups and entries dropped for room, read by the metrics on scrape */
  readonly stats = { hits: 0, misses: 0, evictions: 0 };

  constructor(
    changes: ChangeBus,
    private readonly options: SecretCacheOptions<V>,
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.byHash = new LRUCache<string, Entry<V>>({
      max: options.max,
      ttl: options.ttlMs,
      // read the clock on every check: no timer, and an injected clock is seen at once
      ttlResolution: 0,
      perf: { now: this.clock },
      dispose: (_entry, _hash, reason) => {
        if (reason === 'evict') this.stats.evictions++;
      },
    });
    const { accountOf, wallOf } = options;
    this.unsubscribe = changes.subscribe((change) => {
      if (change.kind === 'wall' && !wallOf) return;
      this.generation += 1;
      if (change.kind === 'all') return this.byHash.clear();
      const stale: string[] = [];
      for (const [hash, { value }] of this.byHash.entries()) {
        if (change.kind === 'wall' ? wallOf?.(value) === change.wallId : accountOf(value) === change.accountId)
          stale.push(hash);
      }
      for (const hash of stale) this.byHash.delete(hash);
    });
  }

  /** The answer when the key is held here; undefined when only the store can tell. */
  /** Counts nothing: a caller answering from it counts the hit (`stats.hits`), one falling back to `lookup` does not. */
  peek(plaintext: string): V | undefined {
    return this.held(this.options.hash(plaintext));
  }

  async lookup(db: Kysely<Database>, plaintext: string): Promise<V | null> {
    const hex = this.options.hash(plaintext);
    const hit = this.held(hex);
    if (hit) {
      this.stats.hits++;
      return hit;
    }
    this.stats.misses++;
    // the entry's life counts from before the query: what it read is at most ttlMs old when it goes
    const start = this.clock();
    const generation = this.generation;
    const value = await this.options.find(db, hex);
    if (value && generation === this.generation)
      this.byHash.set(hex, { hash: Buffer.from(hex, 'hex'), value }, { start });
    return value;
  }

  /** keys held */
  get size(): number {
    return this.byHash.size;
  }

  close(): void {
    this.unsubscribe();
    this.byHash.clear();
  }

  private held(hex: string): V | undefined {
    const hit = this.byHash.get(hex);
    return hit && timingSafeEqual(hit.hash, Buffer.from(hex, 'hex')) ? hit.value : undefined;
  }
}
