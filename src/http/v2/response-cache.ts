// Rendered v2 read answers, kept until a write could change them.
//
// Key: family, format, account, wall and the normalized parameters. Every
// write announces itself on the ChangeBus and drops exactly the entries of
// the wall (or account) it touched; writes by another process are announced
// by PostgreSQL's notifications, or noticed through SQLite's
// `PRAGMA data_version` (and drop everything). Whatever happens to those
// messages, an entry lives `ttlMs` at most. Entries carry a strong ETag and,
// once asked for, gzip/brotli bodies.
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { Change, ChangeBus } from '../../store/changes.js';
import { bodyEtag } from '../etag.js';

export interface CachedResponse {
  body: Buffer;
  contentType: string;
  etag: string;
  wallId: number;
  accountId: number;
  gzip?: Buffer;
  br?: Buffer;
}

export interface ResponseCacheOptions {
  maxBytes: number;
  /** longest life of an entry, ms */
  ttlMs: number;
  /** monotonic milliseconds; tests inject a clock */
  clock?: () => number;
}

export class ResponseCache {
  private readonly lru: LRUCache<string, CachedResponse>;
  private readonly byWall = new Map<number, Set<string>>();
  private readonly byAccount = new Map<number, Set<string>>();
  private readonly unsubscribe: () => void;
  /** invalidations so far: for all, per wall, per account (see `version`) */
  private allVersion = 0;
  private readonly wallVersions = new Map<number, number>();
  private readonly accountVersions = new Map<number, number>();
  /** keys answered once and not kept (see `admit`) */
  private readonly asked = new LRUCache<string, true>({ max: 50_000 });
  /** the cache's clock: pass `now()` taken before building an answer to `set` */
  readonly now: () => number;
  /** lookups and entries dropped for room, read by the metrics on scrape */
  readonly stats = { hits: 0, misses: 0, evictions: 0 };

  constructor(changes: ChangeBus, options: ResponseCacheOptions) {
    this.now = options.clock ?? (() => performance.now());
    this.lru = new LRUCache<string, CachedResponse>({
      maxSize: options.maxBytes,
      sizeCalculation: (e) => e.body.length + (e.gzip?.length ?? 0) + (e.br?.length ?? 0) + 256,
      dispose: (entry, key, reason) => {
        if (reason === 'evict') this.stats.evictions++;
        this.unindex(key, entry);
      },
      ttl: options.ttlMs,
      // read the clock on every check: no timer, and an injected clock is seen at once
      ttlResolution: 0,
      perf: { now: this.now },
    });
    this.unsubscribe = changes.subscribe((change) => this.invalidate(change));
  }

  get(key: string): CachedResponse | undefined {
    const hit = this.lru.get(key);
    if (hit) this.stats.hits++;
    else this.stats.misses++;
    return hit;
  }

  /**
   * Whether an answer just built for `key` is worth keeping: only one asked
   * for twice while it was remembered as asked (a doorkeeper). A wall's page 1,
   * asked by every viewer, is kept from its second call on; the long tail of
   * one-off pages (random offsets and limits) never displaces it, nor costs
   * the memory churn of entries no one reads again.
   */
  admit(key: string): boolean {
    if (this.asked.delete(key)) return true;
    this.asked.set(key, true);
    return false;
  }

  /**
   * What has been invalidated for a wall and its account so far. Taken before
   * an answer is built and given to `set`: an answer whose wall or account
   * changed while it was built (a write committed between its reads and
   * `set`) is sent, but never kept.
   */
  version(wallId: number, accountId: number): string {
    return `${this.allVersion}|${this.wallVersions.get(wallId) ?? 0}|${this.accountVersions.get(accountId) ?? 0}`;
  }

  /**
   * `start`: `now()` before the answer was built, so its life counts from what it read;
   * `version`: `version()` taken then too; `etag`: the answer's own strong tag
   * when it has one (else a hash of the body).
   */
  set(
    key: string,
    entry: Omit<CachedResponse, 'etag'> & { etag?: string },
    start = this.now(),
    version = this.version(entry.wallId, entry.accountId),
  ): CachedResponse {
    const full: CachedResponse = { ...entry, etag: entry.etag ?? bodyEtag(entry.body) };
    if (version !== this.version(entry.wallId, entry.accountId)) return full;
    this.lru.set(key, full, { start });
    if (this.lru.has(key)) {
      index(this.byWall, entry.wallId, key);
      index(this.byAccount, entry.accountId, key);
    }
    return full;
  }

  /** The body in the best encoding the client accepts, compressed once per entry. */
  encoded(entry: CachedResponse, acceptEncoding: string | undefined): { body: Buffer; encoding: 'br' | 'gzip' | null } {
    const accepted = parseAcceptEncoding(acceptEncoding);
    if (entry.body.length < 1024) return { body: entry.body, encoding: null };
    if (accepted.has('br')) {
      entry.br ??= brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
      return { body: entry.br, encoding: 'br' };
    }
    if (accepted.has('gzip')) {
      entry.gzip ??= gzipSync(entry.body, { level: 6 });
      return { body: entry.gzip, encoding: 'gzip' };
    }
    return { body: entry.body, encoding: null };
  }

  invalidate(change: Change): void {
    if (change.kind === 'all') {
      this.allVersion += 1;
      return this.clear();
    }
    const versions = change.kind === 'wall' ? this.wallVersions : this.accountVersions;
    const id = change.kind === 'wall' ? change.wallId : change.accountId;
    versions.set(id, (versions.get(id) ?? 0) + 1);
    const keys = change.kind === 'wall' ? this.byWall.get(change.wallId) : this.byAccount.get(change.accountId);
    for (const key of [...(keys ?? [])]) this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
    this.asked.clear();
    this.byWall.clear();
    this.byAccount.clear();
  }

  get size(): number {
    return this.lru.size;
  }

  /** memory the entries take (bodies and their compressed forms) */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  close(): void {
    this.unsubscribe();
    this.clear();
  }

  private unindex(key: string, entry: CachedResponse) {
    unindex(this.byWall, entry.wallId, key);
    unindex(this.byAccount, entry.accountId, key);
  }
}

function index(map: Map<number, Set<string>>, id: number, key: string) {
  let set = map.get(id);
  if (!set) map.set(id, (set = new Set()));
  set.add(key);
}

function unindex(map: Map<number, Set<string>>, id: number, key: string) {
  const set = map.get(id);
  if (!set) return;
  set.delete(key);
  if (set.size === 0) map.delete(id);
}

/** Codings the client accepts (q > 0). */
export function parseAcceptEncoding(header: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!header) return out;
  for (const part of header.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (token && !(q && Number(q.slice(2)) === 0)) out.add(token);
  }
  return out;
}
