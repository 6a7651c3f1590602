// Accounts, their user keys and their daily usage, as the management API
// and the CLI see them.
import type { Kysely } from 'kysely';
import { utcDay } from '../domain/dates.js';
import { cleanWrite, NAME_RULES } from '../domain/writes.js';
import { DEFAULT_DAILY_CALL_LIMIT } from '../store/datafile.js';
import {
  accountsPage,
  anyWallOf,
  deleteAccountRows,
  findAccount,
  insertAccount,
  updateAccountRow,
  type AccountRow,
} from '../store/accounts.js';
import {
  findUserKey,
  findUserKeyByPlaintext,
  generateUserKey,
  insertUserKey,
  revokeUserKeyById,
  userKeysPage,
  type UserKeyRow,
} from '../store/keys.js';
import type { Database } from '../store/schema.js';
import { usageDays } from '../store/usage.js';
import type { QuotaCounter } from '../quota/quota.js';
import { audited, diff, type Op } from './op.js';
import { conflict, found, stored } from '../domain/errors.js';
import { scopeFilter, type AccountScope } from '../domain/roles.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import type { AccountInput, AccountPatch, AccountRecord, UsageRecord, UserKeyRecord } from '../schemas/accounts.js';

const accountRecord = (r: AccountRow): AccountRecord => ({
  id: r.id,
  name: r.name,
  plan: r.plan,
  dailyCallLimit: r.daily_call_limit,
  createdAt: iso(r.created_at),
});

/** Every account, or those of `scope` (an operator token's accounts). */
export async function listAccounts(
  db: Kysely<Database>,
  page: PageRequest,
  scope: AccountScope = null,
): Promise<Page<AccountRecord>> {
  return pageById(page, (afterId, take) => accountsPage(db, scopeFilter(scope), afterId, take), accountRecord);
}

async function accountRow(db: Kysely<Database>, id: number) {
  return found(await findAccount(db, id), 'account', id);
}

export async function getAccount(db: Kysely<Database>, id: number): Promise<AccountRecord> {
  return accountRecord(await accountRow(db, id));
}

export async function createAccount(op: Op, given: AccountInput): Promise<AccountRecord> {
  const input = stored(cleanWrite(given, NAME_RULES));
  return audited(op, async (tx) => {
    const row = await insertAccount(tx.trx, {
      name: input.name,
      plan: input.plan,
      daily_call_limit: input.dailyCallLimit ?? DEFAULT_DAILY_CALL_LIMIT,
      created_at: op.now,
    });
    const rec = accountRecord(row);
    tx.audit({ action: 'account.create', targetType: 'account', targetId: row.id, after: rec });
    return rec;
  });
}

export async function updateAccount(op: Op, id: number, change: AccountPatch): Promise<AccountRecord> {
  const patch = stored(cleanWrite(change, NAME_RULES));
  return audited(op, async (tx) => {
    const before = accountRecord(await accountRow(tx.trx, id));
    const set = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.plan !== undefined ? { plan: patch.plan } : {}),
      ...(patch.dailyCallLimit !== undefined ? { daily_call_limit: patch.dailyCallLimit } : {}),
    };
    const row = await updateAccountRow(tx.trx, id, set);
    const after = accountRecord(row);
    tx.audit({ action: 'account.update', targetType: 'account', targetId: id, ...diff(before, after) });
    // plan and limit decide what every key of the account may do
    tx.accountChanged(id);
    return after;
  });
}

/**
 * Deletes an account with its keys, products and usage. Refused while it
 * still has walls (live or deleted): delete and purge them first, so that
 * no wall is ever erased as a side effect.
 */
export async function deleteAccount(op: Op, id: number): Promise<AccountRecord> {
  return audited(op, async (tx) => {
    const before = accountRecord(await accountRow(tx.trx, id));
    const wall = await anyWallOf(tx.trx, id);
    if (wall) throw conflict(`account ${id} still has walls (wall ${wall.id}); delete and purge them first`);
    await deleteAccountRows(tx.trx, id);
    tx.audit({ action: 'account.delete', targetType: 'account', targetId: id, accountId: id, before });
    tx.accountChanged(id);
    return before;
  });
}

// ---------- usage ----------

export const USAGE_DAYS = 30;

/**
 * The last 30 UTC days of an account's calls. With the running server's
 * quota counter, today is what that counter knows: calls it reserved ahead
 * but has not answered are left out.
 */
export async function accountUsage(
  db: Kysely<Database>,
  id: number,
  now: number,
  quota?: Pick<QuotaCounter, 'todayCalls'>,
): Promise<UsageRecord> {
  const account = await accountRow(db, id);
  const today = utcDay(now);
  const first = today - (USAGE_DAYS - 1);
  const rows = await usageDays(db, id, first, today);
  const calls = new Map(rows.map((r) => [r.day, r.calls]));
  const days = Array.from({ length: USAGE_DAYS }, (_, i) => ({
    day: iso((first + i) * 86_400_000).slice(0, 10),
    calls: calls.get(first + i) ?? 0,
  }));
  if (quota) days[USAGE_DAYS - 1]!.calls = await quota.todayCalls(id, today, days[USAGE_DAYS - 1]!.calls);
  return { accountId: id, dailyCallLimit: account.daily_call_limit, days };
}

// ---------- user keys ----------

const keyRecord = (r: UserKeyRow): UserKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  prefix: r.prefix,
  createdAt: iso(r.created_at),
  lastUsedAt: isoOrNull(r.last_used_at),
  revokedAt: isoOrNull(r.revoked_at),
});

export async function listUserKeys(
  db: Kysely<Database>,
  accountId: number,
  page: PageRequest,
): Promise<Page<UserKeyRecord>> {
  await accountRow(db, accountId);
  return pageById(page, (afterId, take) => userKeysPage(db, accountId, afterId, take), keyRecord);
}

async function keyRow(db: Kysely<Database>, accountId: number, keyId: number) {
  await accountRow(db, accountId);
  return found(await findUserKey(db, accountId, keyId), 'user key', keyId);
}

export async function getUserKey(db: Kysely<Database>, accountId: number, keyId: number): Promise<UserKeyRecord> {
  return keyRecord(await keyRow(db, accountId, keyId));
}

/** Makes a key; its plaintext is in the result and nowhere else (only the SHA-256 is stored). */
export async function createUserKey(op: Op, accountId: number): Promise<UserKeyRecord & { key: string }> {
  const key = generateUserKey();
  return audited(op, async (tx) => {
    await accountRow(tx.trx, accountId);
    const row = await insertUserKey(tx.trx, accountId, key, op.now);
    const rec = keyRecord(row);
    tx.audit({
      action: 'user_key.create',
      targetType: 'user_key',
      targetId: row.id,
      after: { accountId, prefix: rec.prefix },
    });
    tx.accountChanged(accountId);
    return { ...rec, key };
  });
}

async function revokeRow(op: Op, row: UserKeyRow): Promise<UserKeyRecord> {
  return audited(op, async (tx) => {
    if (!(await revokeUserKeyById(tx.trx, row.id, op.now))) throw conflict(`user key ${row.id} is already revoked`);
    tx.audit({
      action: 'user_key.revoke',
      targetType: 'user_key',
      targetId: row.id,
      before: { revokedAt: null },
      after: { revokedAt: iso(op.now) },
      details: { accountId: row.account_id, prefix: row.prefix },
    });
    tx.accountChanged(row.account_id);
    return keyRecord({ ...row, revoked_at: op.now });
  });
}

/** Revokes a key of the account by id: calls with it are 401 from then on. */
export async function revokeUserKey(op: Op, accountId: number, keyId: number): Promise<UserKeyRecord> {
  return revokeRow(op, await keyRow(op.db, accountId, keyId));
}

/** Revokes the key with this plaintext (the CLI's `keys revoke KEY`). */
export async function revokeUserKeyByPlaintext(op: Op, plaintext: string): Promise<UserKeyRecord> {
  return revokeRow(op, found(await findUserKeyByPlaintext(op.db, plaintext), 'user key', '(given)'));
}
