// Accounts, their user keys and their daily usage, as the management API
// and the CLI see them.
import type { Kysely, Selectable } from 'kysely';
import { utcDay } from '../domain/dates.js';
import { cleanWrite, NAME_RULES } from '../domain/writes.js';
import { DEFAULT_DAILY_CALL_LIMIT } from '../store/datafile.js';
import { generateUserKey, hashSecret, keyPrefix } from '../store/keys.js';
import type { AccountsTable, Database, UserKeysTable } from '../store/schema.js';
import type { QuotaCounter } from '../quota/quota.js';
import { audited, diff, type Op } from './op.js';
import { conflict, notFound, stored } from '../domain/errors.js';
import { scopeIds, type AccountScope } from '../domain/roles.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import type { AccountInput, AccountPatch, AccountRecord, UsageRecord, UserKeyRecord } from '../schemas/accounts.js';

const accountRecord = (r: Selectable<AccountsTable>): AccountRecord => ({
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
  return pageById(
    page,
    (afterId, take) => {
      let q = db.selectFrom('accounts').selectAll();
      if (scope !== null) q = q.where('id', 'in', scopeIds(scope));
      if (afterId !== undefined) q = q.where('id', '>', afterId);
      return q.orderBy('id').limit(take).execute();
    },
    accountRecord,
  );
}

async function accountRow(db: Kysely<Database>, id: number) {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('account', id);
  return row;
}

export async function getAccount(db: Kysely<Database>, id: number): Promise<AccountRecord> {
  return accountRecord(await accountRow(db, id));
}

export async function createAccount(op: Op, given: AccountInput): Promise<AccountRecord> {
  const input = stored(cleanWrite(given, NAME_RULES));
  return audited(op, async (tx) => {
    const row = await tx.trx
      .insertInto('accounts')
      .values({
        name: input.name,
        plan: input.plan,
        daily_call_limit: input.dailyCallLimit ?? DEFAULT_DAILY_CALL_LIMIT,
        created_at: op.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
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
    const row = await tx.trx
      .updateTable('accounts')
      .set(set)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
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
    const wall = await tx.trx.selectFrom('walls').select('id').where('account_id', '=', id).limit(1).executeTakeFirst();
    if (wall) throw conflict(`account ${id} still has walls (wall ${wall.id}); delete and purge them first`);
    const products = tx.trx.selectFrom('products').select('id').where('account_id', '=', id);
    await tx.trx.deleteFrom('post_products').where('product_id', 'in', products).execute();
    await tx.trx.deleteFrom('products').where('account_id', '=', id).execute();
    await tx.trx.deleteFrom('user_keys').where('account_id', '=', id).execute();
    await tx.trx.deleteFrom('usage_daily').where('account_id', '=', id).execute();
    await tx.trx.deleteFrom('idempotency_keys').where('account_id', '=', id).execute();
    await tx.trx.deleteFrom('accounts').where('id', '=', id).execute();
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
  const rows = await db
    .selectFrom('usage_daily')
    .select(['day', 'calls'])
    .where('account_id', '=', id)
    .where('day', '>=', first)
    .where('day', '<=', today)
    .execute();
  const calls = new Map(rows.map((r) => [Number(r.day), Number(r.calls)]));
  const days = Array.from({ length: USAGE_DAYS }, (_, i) => ({
    day: iso((first + i) * 86_400_000).slice(0, 10),
    calls: calls.get(first + i) ?? 0,
  }));
  if (quota) days[USAGE_DAYS - 1]!.calls = await quota.todayCalls(id, today, days[USAGE_DAYS - 1]!.calls);
  return { accountId: id, dailyCallLimit: account.daily_call_limit, days };
}

// ---------- user keys ----------

const keyRecord = (r: Selectable<UserKeysTable>): UserKeyRecord => ({
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
  return pageById(
    page,
    (afterId, take) => {
      let q = db.selectFrom('user_keys').selectAll().where('account_id', '=', accountId);
      if (afterId !== undefined) q = q.where('id', '>', afterId);
      return q.orderBy('id').limit(take).execute();
    },
    keyRecord,
  );
}

async function keyRow(db: Kysely<Database>, accountId: number, keyId: number) {
  await accountRow(db, accountId);
  const row = await db
    .selectFrom('user_keys')
    .selectAll()
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw notFound('user key', keyId);
  return row;
}

export async function getUserKey(db: Kysely<Database>, accountId: number, keyId: number): Promise<UserKeyRecord> {
  return keyRecord(await keyRow(db, accountId, keyId));
}

/** Makes a key; its plaintext is in the result and nowhere else (only the SHA-256 is stored). */
export async function createUserKey(op: Op, accountId: number): Promise<UserKeyRecord & { key: string }> {
  const key = generateUserKey();
  return audited(op, async (tx) => {
    await accountRow(tx.trx, accountId);
    const row = await tx.trx
      .insertInto('user_keys')
      .values({
        account_id: accountId,
        key_hash: hashSecret(key),
        prefix: keyPrefix(key),
        created_at: op.now,
        last_used_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
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

async function revokeRow(op: Op, row: Selectable<UserKeysTable>): Promise<UserKeyRecord> {
  return audited(op, async (tx) => {
    const res = await tx.trx
      .updateTable('user_keys')
      .set({ revoked_at: op.now })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw conflict(`user key ${row.id} is already revoked`);
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
  const row = await op.db
    .selectFrom('user_keys')
    .selectAll()
    .where('key_hash', '=', hashSecret(plaintext))
    .executeTakeFirst();
  if (!row) throw notFound('user key', '(given)');
  return revokeRow(op, row);
}
