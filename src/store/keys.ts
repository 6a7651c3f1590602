// User keys: stored as SHA-256 hashes only; the plaintext is shown once.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, UserKeysTable } from './schema.js';
import { childRows } from './paging.js';
import type { Plan } from '../domain/lists.js';

export function hashSecret(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

/** A new random key: `wk_` + 32 base62-ish characters (192 bits). */
export function generateUserKey(): string {
  return `wk_${randomBytes(24).toString('base64url')}`;
}

export function keyPrefix(plaintext: string): string {
  return plaintext.slice(0, Math.min(8, Math.max(1, plaintext.length - 4)));
}

export interface KeyOwner {
  accountId: number;
  plan: Plan;
  dailyCallLimit: number;
  /** the key's row, for `last_used_at` */
  keyId?: number;
  lastUsedAt?: number | null;
}

export async function findKeyOwner(db: Kysely<Database>, plaintext: string): Promise<KeyOwner | null> {
  return findKeyOwnerByHash(db, hashSecret(plaintext));
}

/** The owner of an active key, by the key's hex SHA-256. */
export async function findKeyOwnerByHash(db: Kysely<Database>, hash: string): Promise<KeyOwner | null> {
  const row = await db
    .selectFrom('user_keys')
    .innerJoin('accounts', 'accounts.id', 'user_keys.account_id')
    .select([
      'user_keys.key_hash',
      'user_keys.id as key_id',
      'user_keys.last_used_at',
      'accounts.id',
      'accounts.plan',
      'accounts.daily_call_limit',
    ])
    .where('user_keys.key_hash', '=', hash)
    .where('user_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  // The index lookup already matched; compare again in constant time so the
  // decision itself never depends on how many characters matched.
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  return {
    accountId: row.id,
    plan: row.plan,
    dailyCallLimit: row.daily_call_limit,
    keyId: row.key_id,
    lastUsedAt: row.last_used_at,
  };
}

/** `last_used_at` is kept to the minute: at most one write per key per minute, not one per call. */
export const KEY_LAST_USED_RESOLUTION_MS = 60_000;

/** Records that the owner's key was used at `now`, when the stored time is a minute old or more. */
/** Whether the key's `last_used_at` is due for a write (at most once a KEY_LAST_USED_RESOLUTION_MS). */
export function keyTouchDue(owner: KeyOwner, now: number): boolean {
  if (owner.keyId === undefined) return false;
  const last = owner.lastUsedAt ?? null;
  return last === null || now - last >= KEY_LAST_USED_RESOLUTION_MS;
}

export async function touchUserKey(db: Kysely<Database>, owner: KeyOwner, now: number): Promise<void> {
  if (!keyTouchDue(owner, now) || owner.keyId === undefined) return;
  // remember it on the (possibly cached) owner, so the next calls skip the write
  owner.lastUsedAt = now;
  await db
    .updateTable('user_keys')
    .set({ last_used_at: now })
    .where('id', '=', owner.keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - KEY_LAST_USED_RESOLUTION_MS)]))
    .execute();
}

export async function insertKeyHash(
  db: Kysely<Database>,
  accountId: number,
  keyHash: string,
  prefix: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('user_keys')
    .values({ account_id: accountId, key_hash: keyHash, prefix, created_at: now, last_used_at: null, revoked_at: null })
    .execute();
}

export async function createUserKey(db: Kysely<Database>, accountId: number, now: number): Promise<string> {
  const key = generateUserKey();
  await insertKeyHash(db, accountId, hashSecret(key), keyPrefix(key), now);
  return key;
}

/** Revokes by plaintext; returns false when no active key matched. */
export async function revokeUserKey(db: Kysely<Database>, plaintext: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('user_keys')
    .set({ revoked_at: now })
    .where('key_hash', '=', hashSecret(plaintext))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export type UserKeyRow = Selectable<UserKeysTable>;

/** The account's keys, revoked ones too. */
const accountKeys = childRows((db, accountId) =>
  db.selectFrom('user_keys').selectAll().where('account_id', '=', accountId),
);

/** A page of the account's keys in id order. */
export const userKeysPage = accountKeys.oldestFirst;

/** The account's key by id (revoked or not). */
export const findUserKey = accountKeys.find;

/** The key with this plaintext (revoked or not). */
export async function findUserKeyByPlaintext(db: Kysely<Database>, plaintext: string): Promise<UserKeyRow | undefined> {
  return db.selectFrom('user_keys').selectAll().where('key_hash', '=', hashSecret(plaintext)).executeTakeFirst();
}

/** Stores a new key of the account (its hash and prefix only); the row. */
export async function insertUserKey(
  db: Kysely<Database>,
  accountId: number,
  plaintext: string,
  now: number,
): Promise<UserKeyRow> {
  return db
    .insertInto('user_keys')
    .values({
      account_id: accountId,
      key_hash: hashSecret(plaintext),
      prefix: keyPrefix(plaintext),
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Revokes the key by id; false when it was revoked already. */
export async function revokeUserKeyById(db: Kysely<Database>, keyId: number, now: number): Promise<boolean> {
  const res = await db
    .updateTable('user_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
