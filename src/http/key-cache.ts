// Key → account answers kept in memory, so an authenticated read costs no
// store query. Dropped exactly when they can change: any change to the
// account (plan, limit, keys) on the change bus, and everything on `all`
// (e.g. another process wrote to the SQLite file). Unknown keys are never cached.
import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeBus } from '../store/changes.js';
import { findKeyOwnerByHash, hashSecret, type KeyOwner } from '../store/keys.js';
import type { Database } from '../store/schema.js';

interface Entry {
  hash: Buffer;
  owner: KeyOwner;
}

export class KeyCache {
  private readonly byHash = new Map<string, Entry>();
  private readonly unsubscribe: () => void;

  constructor(
    changes: ChangeBus,
    private readonly max = 100_000,
  ) {
    this.unsubscribe = changes.subscribe((change) => {
      if (change.kind === 'all') this.byHash.clear();
      else if (change.kind === 'account') {
        for (const [hash, entry] of this.byHash)
          if (entry.owner.accountId === change.accountId) this.byHash.delete(hash);
      }
    });
  }

  async lookup(db: Kysely<Database>, plaintext: string): Promise<KeyOwner | null> {
    const hex = hashSecret(plaintext);
    const hit = this.byHash.get(hex);
    if (hit && timingSafeEqual(hit.hash, Buffer.from(hex, 'hex'))) return hit.owner;
    const owner = await findKeyOwnerByHash(db, hex);
    if (owner) {
      if (this.byHash.size >= this.max) this.byHash.clear();
      this.byHash.set(hex, { hash: Buffer.from(hex, 'hex'), owner });
    }
    return owner;
  }

  close(): void {
    this.unsubscribe();
    this.byHash.clear();
  }
}
