// Operator tokens of the management API, stored as SHA-256 only.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, OperatorTokensTable } from './schema.js';
import { hashSecret } from './keys.js';
import { pageAfterId } from './paging.js';
import { insertRowReturning } from './rows.js';

export type OperatorTokenRow = Selectable<OperatorTokensTable>;

export const insertOperatorToken = (db: Kysely<Database>, values: Insertable<OperatorTokensTable>) =>
  insertRowReturning(db, 'operator_tokens', values);

/** Every token (revoked too), in id order. */
export async function allOperatorTokens(db: Kysely<Database>): Promise<OperatorTokenRow[]> {
  return db.selectFrom('operator_tokens').selectAll().orderBy('id').execute();
}

export async function operatorTokensPage(
  db: Kysely<Database>,
  afterId: number | undefined,
  take: number,
): Promise<OperatorTokenRow[]> {
  return pageAfterId(db.selectFrom('operator_tokens').selectAll(), afterId, take).execute();
}

export async function findOperatorToken(db: Kysely<Database>, id: number): Promise<OperatorTokenRow | undefined> {
  return db.selectFrom('operator_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The token with this plaintext (revoked or not). */
export async function findOperatorTokenByPlaintext(
  db: Kysely<Database>,
  plaintext: string,
): Promise<OperatorTokenRow | undefined> {
  return db
    .selectFrom('operator_tokens')
    .selectAll()
    .where('token_hash', '=', hashSecret(plaintext))
    .executeTakeFirst();
}

export async function revokeOperatorTokenRow(db: Kysely<Database>, id: number, now: number): Promise<void> {
  await db.updateTable('operator_tokens').set({ revoked_at: now }).where('id', '=', id).execute();
}

/** The active (not revoked) token with this hash: what authentication needs of it. */
export async function activeOperatorTokenByHash(db: Kysely<Database>, hash: string) {
  return db
    .selectFrom('operator_tokens')
    .select(['id', 'name', 'token_hash', 'last_used_at', 'role', 'account_ids'])
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Records that the token was used at `now`, unless a use within `resolutionMs` is stored already. */
export async function touchOperatorToken(
  db: Kysely<Database>,
  id: number,
  now: number,
  resolutionMs: number,
): Promise<void> {
  await db
    .updateTable('operator_tokens')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - resolutionMs)]))
    .execute();
}
