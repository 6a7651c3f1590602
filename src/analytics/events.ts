// What a beacon adds to the counters: its events less those naming a post
// or product not on the wall, less repeats (the same beacon again, an
// impression or wall load already counted for this page view), summed by
// the aggregator. Whether posts and products are on a wall is asked of the
// store once per beacon at most, and kept for a while.
import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import {
  counterOf,
  countsOncePerView,
  viewMemberOf,
  type CounterKey,
  type ReportedEvent,
} from '../domain/analytics.js';
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

/** Most ids remembered per wall and kind; past it the wall's memory starts afresh (ids sent at random cannot grow it). */
const KNOWN_PER_WALL = 100_000;

/** id → when the answer expires (ms): positive while the id is on the wall, negative (its negation) while it is not. */
type Known = Map<number, number>;

export class EventRecorder {
  /** wall → the wall is live */
  private readonly known = new LRUCache<number, boolean>({ max: 200_000, ttl: KNOWN_TTL_MS });
  /** per wall, its posts (`p`) and products (`r`) asked about: numbers, no key strings on the hot path */
  private readonly members = new LRUCache<number, { p: Known; r: Known }>({ max: 10_000 });
  /** beacons read and their events counted or not, read by the metrics on scrape */
  readonly stats = { beacons: 0, eventsCounted: 0, eventsDropped: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    readonly aggregator: EventAggregator,
    private readonly dedupe: Deduper,
  ) {}

  /**
   * Counts a beacon's events for the wall. `text` is the beacon as it came
   * (a resend is the same bytes): its digest says whether it was seen.
   */
  async record(wallId: number, beacon: Beacon, now: number, text?: string): Promise<RecordResult> {
    const result = await this.count(wallId, beacon, now, text);
    this.stats.beacons++;
    this.stats.eventsCounted += result.counted;
    this.stats.eventsDropped += beacon.events.length - result.counted;
    return result;
  }

  private async count(wallId: number, beacon: Beacon, now: number, text?: string): Promise<RecordResult> {
    // What is known already is answered without a store round trip, nor even a
    // promise: thousands of beacons a second are the beacons of walls, posts
    // and products asked about moments ago.
    const live = this.wallLive(wallId);
    if (!(typeof live === 'boolean' ? live : await live)) return { counted: 0, wallGone: true };
    const day = utcDay(now);
    const keys = beacon.events.map((e) => counterOf(wallId, day, e));
    const postIds: number[] = [];
    const productIds: number[] = [];
    for (const k of keys) {
      if (k.postId !== 0) postIds.push(k.postId);
      if (k.productId !== 0) productIds.push(k.productId);
    }
    const askPosts = this.present(wallId, 'p', postIds);
    const askProducts = this.present(wallId, 'r', productIds);
    const posts = askPosts instanceof Set ? askPosts : await askPosts;
    const products = askProducts instanceof Set ? askProducts : await askProducts;
    // a wall load counts for the wall, whatever else it names (counterOf keeps neither)
    const kept = keys.filter(
      (k) => (k.postId === 0 || posts.has(k.postId)) && (k.productId === 0 || products.has(k.productId)),
    );
    let counted = kept;
    if (beacon.view !== undefined) {
      // the whole beacon (a resend), then each once-per-view event: one round trip
      const digest = hash('sha1', text ?? JSON.stringify(beacon), 'base64url');
      const once = kept.filter(countsOncePerView);
      const fresh = await this.dedupe.check(`${wallId}:${digest}`, `${wallId}:${beacon.view}`, once.map(viewMemberOf));
      if (!fresh) return { counted: 0, wallGone: false };
      if (fresh.some((f) => !f)) {
        const repeated = new Set<CounterKey>(once.filter((_, i) => !fresh[i]));
        counted = kept.filter((k) => !repeated.has(k));
      }
    }
    for (const k of counted) this.aggregator.add(k);
    return { counted: counted.length, wallGone: false };
  }

  private wallLive(wallId: number): boolean | Promise<boolean> {
    const live = this.known.get(wallId);
    if (live !== undefined) return live;
    return wallIsLive(this.db, wallId).then((answer) => {
      // a wall deleted stops counting within seconds
      this.known.set(wallId, answer, { ttl: UNKNOWN_TTL_MS });
      return answer;
    });
  }

  /** Which of the ids are on the wall: from memory, the rest in one query (only then a promise). */
  private present(wallId: number, kind: 'p' | 'r', ids: number[]): Set<number> | Promise<Set<number>> {
    const yes = new Set<number>();
    if (ids.length === 0) return yes;
    let walls = this.members.get(wallId);
    if (!walls) this.members.set(wallId, (walls = { p: new Map(), r: new Map() }));
    const known = walls[kind];
    const now = Date.now();
    const ask = new Set<number>();
    for (const id of ids) {
      const until = known.get(id);
      if (until !== undefined && Math.abs(until) > now) {
        if (until > 0) yes.add(id);
      } else ask.add(id);
    }
    if (ask.size === 0) return yes;
    const asked = [...ask];
    return (kind === 'p' ? postsOfWall(this.db, wallId, asked) : productsOfWall(this.db, wallId, asked)).then(
      (onWall) => {
        const found = new Set(onWall);
        if (known.size + ask.size > KNOWN_PER_WALL) known.clear();
        for (const id of ask) {
          const on = found.has(id);
          known.set(id, on ? now + KNOWN_TTL_MS : -(now + UNKNOWN_TTL_MS));
          if (on) yes.add(id);
        }
        return yes;
      },
    );
  }
}
