// Publishable key → grant answers kept in memory, so an embed read costs no
// key query. Dropped when they can change: a change of the key's wall (a key
// created or revoked announces its wall — on this instance at once, on the
// others through PostgreSQL's notifications, on SQLite through data_version),
// of its account, or `all`; and in any case after `ttlMs`. Unknown keys are
// never cached.
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { ChangeBus } from '../../store/changes.js';
import {
  findPublishableKeyByHash,
  hashPublishableKey,
  type PublishableKeyGrant,
} from '../../store/publishable-keys.js';
import type { Database } from '../../store/schema.js';

interface Entry {
  hash: Buffer;
  grant: PublishableKeyGrant;
}

export class PublishableKeyCache {
  private readonly byHash: LRUCache<string, Entry>;
  private readonly unsubscribe: () => void;
  /** bumped by every invalidation: a lookup that raced one does not cache what it read */
  private generation = 0;
  /** lookups and entries dropped for room, read by the metrics on scrape */
  readonly stats = { hits: 0, misses: 0, evictions: 0 };

  constructor(changes: ChangeBus, ttlMs: number) {
    this.byHash = new LRUCache<string, Entry>({
      max: 50_000,
      ttl: ttlMs,
      ttlResolution: 0,
      dispose: (_entry, _hash, reason) => {
        if (reason === 'evict') this.stats.evictions++;
      },
    });
    this.unsubscribe = changes.subscribe((change) => {
      this.generation++;
      if (change.kind === 'all') return this.byHash.clear();
      const stale: string[] = [];
      for (const [hash, { grant }] of this.byHash.entries()) {
        if (change.kind === 'wall' ? grant.wallId === change.wallId : grant.accountId === change.accountId)
          stale.push(hash);
      }
      for (const hash of stale) this.byHash.delete(hash);
    });
  }

  async lookup(db: Kysely<Database>, plaintext: string): Promise<PublishableKeyGrant | null> {
    const hex = hashPublishableKey(plaintext);
    const hit = this.byHash.get(hex);
    if (hit && timingSafeEqual(hit.hash, Buffer.from(hex, 'hex'))) {
      this.stats.hits++;
      return hit.grant;
    }
    this.stats.misses++;
    const generation = this.generation;
    const grant = await findPublishableKeyByHash(db, hex);
    if (grant && generation === this.generation) this.byHash.set(hex, { hash: Buffer.from(hex, 'hex'), grant });
    return grant;
  }

  /** keys held */
  get size(): number {
    return this.byHash.size;
  }

  close(): void {
    this.unsubscribe();
    this.byHash.clear();
  }
}
