// Post lists without rendering or reading what has not changed. A list read
// that misses the response cache (another offset, another limit, a write on
// the wall a moment ago) costs:
//
// - the page's order: the first posts of a wall (per filter) are kept in
//   order with each post's stamp, as the response cache keeps answers:
//   dropped when the change bus names the wall (or `all`), and after
//   `ttlMs` at the latest; a read racing a write never keeps what it read.
//   Deeper pages ask the store (ids from the covering index, then stamps),
//   starting from the nearest kept anchor — every ANCHOR_STEP-th post's
//   sort key, kept and dropped like the orders — so offset 100,000 walks at
//   most ANCHOR_STEP index entries, not 100,000.
// - the posts: each rendered post is kept with the stamp it was rendered
//   from — its revision (bumped by a store trigger on every UPDATE of the
//   row, whoever writes it: migration 0014), creation time, feed id and feed
//   name — and reused only while the page's stamp is the same. A post whose
//   stamp changed is read and rendered again. What the rendering depends on
//   besides the row (family, format, the wall's profanity flag) is in the key.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ChangeBus } from '../../store/changes.js';
import {
  listFirstStamps,
  listPageStamps,
  postsByIds,
  sortKeyAfter,
  type ListFilter,
  type PostRow,
  type PostStamp,
  type SortKey,
} from '../../store/posts.js';
import type { Database } from '../../store/schema.js';

export interface FragmentCacheOptions {
  /** memory for rendered posts */
  maxBytes: number;
  /** longest life of a kept order, ms */
  ttlMs: number;
  /** monotonic milliseconds; tests inject a clock */
  clock?: () => number;
}

/** A post of a page: its id and the stamp its rendering must match. */
export interface PageEntry {
  id: number;
  stamp: string;
}

/** The first posts of a wall for one filter, in order; `complete` when the wall has no more. */
interface Order {
  wallId: number;
  entries: PageEntry[];
  complete: boolean;
}

/** A wall's anchors for one filter: `keys[i]` is the sort key of the post at position (i + 1) × ANCHOR_STEP. */
interface Anchors {
  wallId: number;
  keys: SortKey[];
}

/** Deep pages start from the anchor at or before their offset: every this many posts. */
export const ANCHOR_STEP = 1_000;

/** Orders are kept for pages that end within this many posts; deeper pages ask the store. */
export const ORDER_WINDOW_MAX = 2_000;
const ORDER_WINDOW_MIN = 250;
/** posts held in all kept orders together */
const ORDER_ENTRIES_MAX = 400_000;

const entryOf = (p: PostStamp): PageEntry => ({
  id: p.id,
  stamp: `${p.rev}|${p.feed_id}|${p.created_at}|${p.feed_name}`,
});

export class FragmentCache {
  private readonly texts: LRUCache<string, { stamp: string; bytes: Buffer }>;
  private readonly orders: LRUCache<string, Order | Anchors>;
  private readonly ordersByWall = new Map<number, Set<string>>();
  /** bumped by every change a kept order may miss: per wall, and for all walls */
  private readonly wallGenerations = new Map<number, number>();
  private allGeneration = 0;
  private readonly building = new Map<string, Promise<Order | null>>();
  private readonly unsubscribe: () => void;
  /** rendered-post lookups and posts dropped for room, read by the metrics on scrape */
  readonly stats = { hits: 0, misses: 0, evictions: 0 };

  constructor(changes: ChangeBus, options: FragmentCacheOptions) {
    const clock = options.clock ?? (() => performance.now());
    this.texts = new LRUCache({
      maxSize: options.maxBytes,
      // the bytes, the key and stamp (UTF-16), and the entry's own overhead
      sizeCalculation: (f, key) => f.bytes.length + 2 * (f.stamp.length + key.length) + 160,
      dispose: (_f, _key, reason) => {
        if (reason === 'evict') this.stats.evictions++;
      },
    });
    this.orders = new LRUCache<string, Order | Anchors>({
      maxSize: ORDER_ENTRIES_MAX,
      sizeCalculation: (o) => ('entries' in o ? o.entries.length : o.keys.length) + 1,
      ttl: options.ttlMs,
      ttlResolution: 0,
      perf: { now: clock },
      dispose: (order, key) => {
        const keys = this.ordersByWall.get(order.wallId);
        keys?.delete(key);
        if (keys?.size === 0) this.ordersByWall.delete(order.wallId);
      },
    });
    this.unsubscribe = changes.subscribe((change) => {
      if (change.kind === 'all') {
        this.allGeneration += 1;
        this.orders.clear();
      } else if (change.kind === 'wall') {
        this.wallGenerations.set(change.wallId, (this.wallGenerations.get(change.wallId) ?? 0) + 1);
        for (const key of [...(this.ordersByWall.get(change.wallId) ?? [])]) this.orders.delete(key);
      }
    });
  }

  /** The page's posts in order, each with its current stamp. */
  async page(db: Kysely<Database>, f: ListFilter): Promise<PageEntry[]> {
    const end = f.offset + f.limit;
    const key = `${f.wallId}|${f.createdFrom ?? ''}|${f.media.join(',')}`;
    if (end > ORDER_WINDOW_MAX) return this.deepPage(db, f, key);
    let order = this.orders.get(key) as Order | undefined;
    if (!order || (!order.complete && order.entries.length < end))
      order = (await this.buildOrder(db, f, key, end)) ?? undefined;
    if (!order) return (await listPageStamps(db, f)).map(entryOf);
    return order.entries.slice(f.offset, end);
  }

  /** The rendered post (UTF-8) under `key` when it was rendered from `stamp`. */
  rendered(key: string, stamp: string): Buffer | undefined {
    const hit = this.texts.get(key);
    if (hit !== undefined && hit.stamp === stamp) {
      this.stats.hits++;
      return hit.bytes;
    }
    this.stats.misses++;
    return undefined;
  }

  /** rendered posts held */
  get size(): number {
    return this.texts.size;
  }

  /** memory the rendered posts take */
  get bytes(): number {
    return this.texts.calculatedSize;
  }

  keep(key: string, stamp: string, bytes: Buffer): void {
    this.texts.set(key, { stamp, bytes });
  }

  close(): void {
    this.unsubscribe();
    this.texts.clear();
    this.orders.clear();
  }

  /**
   * Reads the first posts (at least `end`) and keeps them — unless a change
   * of the wall was announced while reading: then what was read is used for
   * this page only. Concurrent reads of one order share one query.
   */
  private async buildOrder(db: Kysely<Database>, f: ListFilter, key: string, end: number): Promise<Order | null> {
    const pending = this.building.get(key);
    if (pending) {
      const order = await pending;
      if (order && (order.complete || order.entries.length >= end)) return order;
    }
    const size = Math.min(ORDER_WINDOW_MAX, Math.max(ORDER_WINDOW_MIN, 2 ** Math.ceil(Math.log2(end))));
    const generation = this.generation(f.wallId);
    const reading = listFirstStamps(db, { ...f, limit: size }).then((stamps): Order | null => {
      const order = { wallId: f.wallId, entries: stamps.map(entryOf), complete: stamps.length < size };
      if (this.generation(f.wallId) !== generation) return order;
      this.orders.set(key, order);
      this.indexByWall(f.wallId, key);
      return order;
    });
    this.building.set(key, reading);
    try {
      return await reading;
    } finally {
      if (this.building.get(key) === reading) this.building.delete(key);
    }
  }

  /** A page past the kept window: from the store, starting at the nearest anchor. */
  private async deepPage(db: Kysely<Database>, f: ListFilter, key: string): Promise<PageEntry[]> {
    const k = Math.floor(f.offset / ANCHOR_STEP);
    const anchor = k === 0 ? null : await this.anchor(db, f, `a|${key}`, k);
    if (anchor === undefined) return []; // the wall has fewer posts than the offset
    const from = anchor === null ? f : { ...f, offset: f.offset - k * ANCHOR_STEP };
    return (await listPageStamps(db, from, anchor)).map(entryOf);
  }

  /**
   * The sort key of the post at position k × ANCHOR_STEP: extended from the
   * last kept anchor, one ANCHOR_STEP-long index walk per anchor, and kept
   * unless a change of the wall was announced meanwhile. Undefined when the
   * wall has fewer posts.
   */
  private async anchor(db: Kysely<Database>, f: ListFilter, key: string, k: number): Promise<SortKey | undefined> {
    const generation = this.generation(f.wallId);
    const kept = this.orders.get(key) as Anchors | undefined;
    const keys = kept ? [...kept.keys] : [];
    while (keys.length < k) {
      const next = await sortKeyAfter(db, f, keys.at(-1) ?? null, ANCHOR_STEP);
      if (!next) return undefined;
      keys.push(next);
    }
    if (keys.length !== kept?.keys.length && this.generation(f.wallId) === generation) {
      this.orders.set(key, { wallId: f.wallId, keys });
      this.indexByWall(f.wallId, key);
    }
    return keys[k - 1];
  }

  private indexByWall(wallId: number, key: string): void {
    let keys = this.ordersByWall.get(wallId);
    if (!keys) this.ordersByWall.set(wallId, (keys = new Set()));
    keys.add(key);
  }

  private generation(wallId: number): string {
    return `${this.allGeneration}|${this.wallGenerations.get(wallId) ?? 0}`;
  }
}

/** UTF-8 bytes of a text in a buffer of their own (not a slice of Node's shared pool, which a kept slice would pin). */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * The rendered posts of a page (UTF-8), in order; a post deleted since its id was
 * read is left out. `scope` names everything besides the row the rendering
 * depends on (family, format, wall flags). Without a cache every post of the
 * page is read and rendered.
 */
export async function pageFragments(
  db: Kysely<Database>,
  cache: FragmentCache | null,
  scope: string,
  filter: ListFilter,
  render: (post: PostRow) => string,
): Promise<{ items: Buffer[]; stamps: string }> {
  const page = cache ? await cache.page(db, filter) : (await listPageStamps(db, filter)).map(entryOf);
  const texts = new Map<number, PageEntry & { bytes: Buffer }>();
  const missing: number[] = [];
  for (const { id, stamp } of page) {
    const bytes = cache?.rendered(`${scope}|${id}`, stamp);
    if (bytes === undefined) missing.push(id);
    else texts.set(id, { id, stamp, bytes });
  }
  for (const post of await postsByIds(db, missing)) {
    const bytes = ownBytes(render(post));
    // kept under the stamp of the row rendered, which may be newer than the page's
    const { stamp } = entryOf(post);
    texts.set(post.id, { id: post.id, stamp, bytes });
    cache?.keep(`${scope}|${post.id}`, stamp, bytes);
  }
  const items: Buffer[] = [];
  let stamps = '';
  for (const { id } of page) {
    const text = texts.get(id);
    if (text === undefined) continue;
    items.push(text.bytes);
    stamps += `${id}:${text.stamp}\n`;
  }
  return { items, stamps };
}

/**
 * Bumped whenever what a post renders to changes for the same row (a
 * presenter, the JSON or XML writer): list tags are made from stamps, not
 * from bodies, and must not survive such a change.
 */
const RENDERING = 1;

/**
 * A strong entity tag of a list answer without hashing its body: the body is
 * a function of the scope (family, format, wall flags), the head and the
 * stamps of the posts it holds (each rendered from exactly one row revision),
 * so a hash of those, a few dozen bytes a post, names it.
 */
export function listEtag(scope: string, listName: string, head: object, stamps: string): string {
  const digest = createHash('sha256')
    .update(`${RENDERING}|${scope}|${listName}|${JSON.stringify(head)}\n${stamps}`)
    .digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}
