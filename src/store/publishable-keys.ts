// Publishable wall keys (`pk_…`): read-only, one wall each, for web pages.
// Stored as SHA-256 only, with the origins allowed to use them (an empty
// list: any). This module holds the key format and the lookup the embed API
// authenticates with; the table is made by migrations/0009_publishable_keys.ts,
// the audited management operations are in manage/publishable-keys.ts.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, PublishableKeysTable } from './schema.js';
import { childRows } from './paging.js';
import { insertRowReturning } from './rows.js';

export const PUBLISHABLE_KEY_PREFIX = 'pk_';

/** A new key: `pk_` + 32 base64url characters (192 random bits). */
export function generatePublishableKey(): string {
  return `${PUBLISHABLE_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

export function hashPublishableKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

/** `pk_` and the next 6 characters: enough to tell keys apart, far too little to guess one. */
export const publishableKeyPrefix = (plaintext: string) => plaintext.slice(0, 9);

/** What an embed request may do with a key. */
export interface PublishableKeyGrant {
  keyId: number;
  wallId: number;
  accountId: number;
  /** normalised origins; empty = any */
  origins: string[];
  /** the wall lets any site frame its hosted page (for a key with no origins) */
  allowFraming: boolean;
}

/** The grant of an active key, by its hex SHA-256; null when unknown or revoked. */
export async function findPublishableKeyByHash(
  db: Kysely<Database>,
  hash: string,
): Promise<PublishableKeyGrant | null> {
  const row = await db
    .selectFrom('publishable_keys')
    .innerJoin('walls', 'walls.id', 'publishable_keys.wall_id')
    .select([
      'publishable_keys.id',
      'publishable_keys.key_hash',
      'publishable_keys.wall_id',
      'publishable_keys.origins',
      'walls.account_id',
      'walls.allow_framing',
    ])
    .where('publishable_keys.key_hash', '=', hash)
    .where('publishable_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  // the index matched; decide in constant time all the same
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  return {
    keyId: row.id,
    wallId: row.wall_id,
    accountId: row.account_id,
    origins: parseOrigins(row.origins),
    allowFraming: row.allow_framing !== 0,
  };
}

export function parseOrigins(json: string): string[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? list.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

export type PublishableKeyRow = Selectable<PublishableKeysTable>;

export const insertPublishableKey = (db: Kysely<Database>, values: Insertable<PublishableKeysTable>) =>
  insertRowReturning(db, 'publishable_keys', values);

/** The wall's keys, revoked ones too. */
const wallKeys = childRows((db, wallId) => db.selectFrom('publishable_keys').selectAll().where('wall_id', '=', wallId));

/** A page of the wall's keys (revoked ones too) in id order. */
export const publishableKeysPage = wallKeys.oldestFirst;

/** The wall's key by id (revoked or not). */
export const findPublishableKey = wallKeys.find;

/** The oldest live key of the wall (only its prefix is known), if any. */
export async function firstLiveKeyPrefix(db: Kysely<Database>, wallId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('publishable_keys')
    .select(['prefix'])
    .where('wall_id', '=', wallId)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
  return row?.prefix;
}

/** Revokes the key; false when it was revoked already. */
export async function revokePublishableKeyRow(db: Kysely<Database>, keyId: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('publishable_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
