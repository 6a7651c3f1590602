// Accounts: their rows, and everything deleted with one.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { AccountsTable, Database } from './schema.js';
import { pageAfterId } from './paging.js';

export type AccountRow = Selectable<AccountsTable>;

/** A page of accounts in id order, of `accountIds` only when given (null: every account). */
export async function accountsPage(
  db: Kysely<Database>,
  accountIds: number[] | null,
  afterId: number | undefined,
  take: number,
): Promise<AccountRow[]> {
  let q = db.selectFrom('accounts').selectAll();
  if (accountIds !== null) q = q.where('id', 'in', accountIds);
  return pageAfterId(q, afterId, take).execute();
}

export async function findAccount(db: Kysely<Database>, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether any account exists at all (an empty store gets the demo data). */
export async function hasAccounts(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function insertAccount(db: Kysely<Database>, values: Insertable<AccountsTable>): Promise<AccountRow> {
  return db.insertInto('accounts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccountRow(
  db: Kysely<Database>,
  id: number,
  set: Updateable<AccountsTable>,
): Promise<AccountRow> {
  return db.updateTable('accounts').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** A wall of the account (live or deleted), if it has any. */
export async function anyWallOf(db: Kysely<Database>, accountId: number): Promise<{ id: number } | undefined> {
  return db.selectFrom('walls').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst();
}

/**
 * Deletes the account with its products (and their post links), keys, usage
 * and idempotency keys. Its walls must be gone first: none is erased here.
 */
export async function deleteAccountRows(db: Kysely<Database>, id: number): Promise<void> {
  const products = db.selectFrom('products').select('id').where('account_id', '=', id);
  await db.deleteFrom('post_products').where('product_id', 'in', products).execute();
  for (const table of ['products', 'user_keys', 'usage_daily', 'idempotency_keys'] as const)
    await db.deleteFrom(table).where('account_id', '=', id).execute();
  await db.deleteFrom('accounts').where('id', '=', id).execute();
}
