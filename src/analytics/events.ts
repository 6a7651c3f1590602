// What a beacon adds to the counters: its events less those naming a post
// or product not on the wall, less repeats (the same beacon again, an
// impression or wall load already counted for this page view), summed by
// the aggregator. Whether posts and products are on a wall is asked of the
// store once per beacon at most, and kept for a while.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { counterOf, ONCE_PER_VIEW, type ReportedEvent } from '../domain/analytics.js';
import { utcDay } from '../domain/dates.js';
import { postsOfWall, productsOfWall, wallIsLive } from '../store/analytics.js';
import type { Database } from '../store/schema.js';
import type { EventAggregator } from './aggregator.js';
import type { Deduper } from './dedupe.js';

export interface Beacon {
  events: ReportedEvent[];
  view?: string;
}

export interface RecordResult {
  /** events added to the counters */
  counted: number;
  /** the wall is deleted (or gone) */
  wallGone: boolean;
}

/** How long a yes (the post is on the wall) and a no are believed. */
const KNOWN_TTL_MS = 10 * 60_000;
const UNKNOWN_TTL_MS = 5_000;

export class EventRecorder {
  /** `w:wall`, `p:wall:post`, `r:wall:product` → on the wall (or live) */
  private readonly known = new LRUCache<string, boolean>({ max: 200_000, ttl: KNOWN_TTL_MS });

  constructor(
    private readonly db: Kysely<Database>,
    readonly aggregator: EventAggregator,
    private readonly dedupe: Deduper,
  ) {}

  async record(wallId: number, beacon: Beacon, now: number): Promise<RecordResult> {
    if (!(await this.wallLive(wallId))) return { counted: 0, wallGone: true };
    const [posts, products] = await Promise.all([
      this.present(
        wallId,
        'p',
        beacon.events.flatMap((e) => (e.postId === undefined ? [] : [Number(e.postId)])),
      ),
      this.present(
        wallId,
        'r',
        beacon.events.flatMap((e) => (e.productId === undefined ? [] : [e.productId])),
      ),
    ]);
    const day = utcDay(now);
    const kept = beacon.events
      .filter(
        (e) =>
          e.type === 'wall_load' ||
          ((e.postId === undefined || posts.has(Number(e.postId))) &&
            (e.productId === undefined || products.has(e.productId))),
      )
      .map((e) => counterOf(wallId, day, e));
    let counted = kept;
    if (beacon.view !== undefined) {
      // the whole beacon (a resend), then each once-per-view event: one round trip
      const digest = createHash('sha1').update(JSON.stringify(beacon)).digest('base64url');
      const once = kept.filter((k) => ONCE_PER_VIEW.has(k.type));
      const fresh = await this.dedupe.check(
        `${wallId}:${digest}`,
        `${wallId}:${beacon.view}`,
        once.map((k) => `${k.type}:${k.postId}:${k.productId}`),
      );
      if (!fresh) return { counted: 0, wallGone: false };
      const repeated = new Set(once.filter((_, i) => !fresh[i]));
      counted = repeated.size === 0 ? kept : kept.filter((k) => !repeated.has(k));
    }
    for (const k of counted) this.aggregator.add(k);
    return { counted: counted.length, wallGone: false };
  }

  private async wallLive(wallId: number): Promise<boolean> {
    const key = `w:${wallId}`;
    let live = this.known.get(key);
    if (live === undefined) {
      live = await wallIsLive(this.db, wallId);
      // a wall deleted stops counting within seconds
      this.known.set(key, live, { ttl: UNKNOWN_TTL_MS });
    }
    return live;
  }

  /** Which of the ids are on the wall: from memory, the rest in one query. */
  private async present(wallId: number, kind: 'p' | 'r', ids: number[]): Promise<Set<number>> {
    const yes = new Set<number>();
    const ask = new Set<number>();
    for (const id of ids) {
      const hit = this.known.get(`${kind}:${wallId}:${id}`);
      if (hit === true) yes.add(id);
      else if (hit === undefined) ask.add(id);
    }
    if (ask.size > 0) {
      const found = new Set(
        kind === 'p' ? await postsOfWall(this.db, wallId, [...ask]) : await productsOfWall(this.db, wallId, [...ask]),
      );
      for (const id of ask) {
        const on = found.has(id);
        this.known.set(`${kind}:${wallId}:${id}`, on, { ttl: on ? KNOWN_TTL_MS : UNKNOWN_TTL_MS });
        if (on) yes.add(id);
      }
    }
    return yes;
  }
}
