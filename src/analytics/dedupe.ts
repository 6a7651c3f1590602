// "Seen before?" for beacons and once-per-page-view events, for about 30
// minutes: in memory (an LRU) on one instance; with Redis, `SET NX PX` so that
// every instance agrees (a beacon resent to another instance is still a
// repeat). The keys name a wall, a random page-view id and what was counted:
// nothing about the visitor.
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

export interface Deduper {
  /** For each key: true the first time it is seen within the TTL, false after. */
  firstTime(keys: readonly string[]): Promise<boolean[]>;
}

export class MemoryDeduper implements Deduper {
  private readonly seen: LRUCache<string, true>;

  constructor(ttlMs: number, max = 500_000) {
    this.seen = new LRUCache<string, true>({ max, ttl: ttlMs, ttlAutopurge: false });
  }

  /** true for a key not seen before (and remembers it). */
  firstTimeOne(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.set(key, true);
    return true;
  }

  has(key: string): boolean {
    return this.seen.has(key);
  }

  remember(key: string): void {
    this.seen.set(key, true);
  }

  async firstTime(keys: readonly string[]): Promise<boolean[]> {
    return keys.map((k) => this.firstTimeOne(k));
  }
}

/**
 * Redis first, the local LRU in front: a key this instance saw costs no
 * round trip; the others go in one pipeline of `SET key 1 NX PX ttl`. Redis
 * unreachable: the local answer (counts may then repeat across instances
 * for a while, never within one).
 */
export class RedisDeduper implements Deduper {
  private readonly local: MemoryDeduper;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number,
  ) {
    this.local = new MemoryDeduper(ttlMs);
  }

  async firstTime(keys: readonly string[]): Promise<boolean[]> {
    const out = keys.map(() => false);
    const ask: number[] = [];
    const asked = new Set<string>();
    keys.forEach((k, i) => {
      // a key twice in one call: only its first place can be new
      if (!this.local.has(k) && !asked.has(k)) {
        ask.push(i);
        asked.add(k);
      }
    });
    if (ask.length === 0) return out;
    try {
      const pipeline = this.redis.pipeline();
      for (const i of ask) pipeline.set(`${this.prefix}${keys[i]!}`, '1', 'PX', this.ttlMs, 'NX');
      const results = (await pipeline.exec()) ?? [];
      const answers = ask.map((_, j) => {
        const [err, value] = results[j] ?? [new Error('no answer'), null];
        if (err) throw err;
        return value === 'OK';
      });
      ask.forEach((i, j) => {
        out[i] = answers[j]!;
        this.local.remember(keys[i]!);
      });
    } catch {
      for (const i of ask) out[i] = this.local.firstTimeOne(keys[i]!);
    }
    return out;
  }
}
