// "Seen before?" for beacons and once-per-page-view events, for about 30
// minutes: in memory on one instance; with Redis, shared by every instance
// (a beacon resent to another instance is still a repeat). A page view's
// events are kept together, one entry per view (far cheaper than one per
// event at thousands of events a second), and what a view counted is a
// number (viewMemberOf). The keys name a wall, a random page-view id and
// what was counted: nothing about the visitor.
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

export interface Deduper {
  /**
   * null when the beacon (its digest) was seen before; otherwise, for each
   * member, whether it is new to the page view `view` (and remembers both).
   */
  check(beacon: string, view: string, members: readonly number[]): Promise<boolean[] | null>;
}

/** At most this many remembered beacons and page-view members in memory (a beacon about 100 bytes, a member a few). */
const MAX_ENTRIES = 1_000_000;

export class MemoryDeduper implements Deduper {
  private readonly beacons: LRUCache<string, true>;
  private readonly views: LRUCache<string, Set<number>>;

  constructor(ttlMs: number) {
    this.beacons = new LRUCache<string, true>({ max: MAX_ENTRIES / 4, ttl: ttlMs });
    // bounded by members, not views: a view holds what it counted once
    this.views = new LRUCache<string, Set<number>>({
      maxSize: MAX_ENTRIES,
      sizeCalculation: (set) => set.size + 1,
      ttl: ttlMs,
      noUpdateTTL: true,
    });
  }

  /** true the first time a beacon is seen (and remembers it). */
  newBeacon(beacon: string): boolean {
    if (this.beacons.has(beacon)) return false;
    this.beacons.set(beacon, true);
    return true;
  }

  knows(view: string, member: number): boolean {
    return this.views.get(view)?.has(member) ?? false;
  }

  /** Adds members to a view; for each, true when it was not there. */
  add(view: string, members: readonly number[]): boolean[] {
    let set = this.views.get(view);
    const fresh = !set;
    set ??= new Set();
    const out = members.map((m) => (set.has(m) ? false : (set.add(m), true)));
    // set again to count the view's new size against the bound
    if (fresh || out.some(Boolean)) this.views.set(view, set);
    return out;
  }

  async check(beacon: string, view: string, members: readonly number[]): Promise<boolean[] | null> {
    return this.newBeacon(beacon) ? this.add(view, members) : null;
  }
}

/**
 * Redis decides, the memory in front: a beacon or member this instance saw
 * costs no round trip; the rest go in one pipeline — `SET beacon 1 NX PX`,
 * and `SADD view member` per member (1: new) with the view's expiry.
 * Redis unreachable: the memory's answer (counts may then repeat across
 * instances for a while, never within one).
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

  async check(beacon: string, view: string, members: readonly number[]): Promise<boolean[] | null> {
    if (!this.local.newBeacon(beacon)) return null;
    const out = members.map(() => false);
    const ask: number[] = [];
    const asked = new Set<number>();
    members.forEach((m, i) => {
      // a member twice in one beacon: only its first place can be new
      if (!this.local.knows(view, m) && !asked.has(m)) {
        ask.push(i);
        asked.add(m);
      }
    });
    const viewKey = `${this.prefix}v:${view}`;
    try {
      const pipeline = this.redis.pipeline();
      pipeline.set(`${this.prefix}b:${beacon}`, '1', 'PX', this.ttlMs, 'NX');
      for (const i of ask) pipeline.sadd(viewKey, String(members[i]!));
      if (ask.length > 0) pipeline.pexpire(viewKey, this.ttlMs);
      const results = (await pipeline.exec()) ?? [];
      const answers = results.map(([err, value]) => {
        if (err) throw err;
        return value;
      });
      this.local.add(
        view,
        ask.map((i) => members[i]!),
      );
      if (answers[0] !== 'OK') return null;
      ask.forEach((i, j) => (out[i] = answers[j + 1] === 1));
      return out;
    } catch {
      // the beacon is remembered locally already; members by the memory alone
      return this.local.add(view, members);
    }
  }
}
