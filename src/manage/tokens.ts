// Operator tokens of the management API: made and revoked with the CLI,
// stored as SHA-256 only, looked up by hash and compared in constant time.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashSecret, KEY_LAST_USED_RESOLUTION_MS as LAST_USED_RESOLUTION_MS, keyPrefix } from '../store/keys.js';
import { cleanWrite, NAME_RULES } from '../domain/writes.js';
import {
  activeOperatorTokenByHash,
  allOperatorTokens,
  findOperatorToken,
  findOperatorTokenByPlaintext,
  insertOperatorToken,
  operatorTokensPage,
  revokeOperatorTokenRow,
  touchOperatorToken,
  type OperatorTokenRow,
} from '../store/operator-tokens.js';
import { accountOf } from '../store/ownership.js';
import type { Database } from '../store/schema.js';
import { audited, type Op } from './op.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import { conflict, found, invalidField, notFound, stored } from '../domain/errors.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { isRole, scopeFromText, scopeToText, type AccountScope, type Role } from '../domain/roles.js';

/** `wop_` + 43 base64url characters (256 bits). */
export function generateOperatorToken(): string {
  return `wop_${randomBytes(32).toString('base64url')}`;
}

export interface OperatorTokenRecord {
  id: number;
  name: string;
  prefix: string;
  role: Role;
  /** the account ids the token is limited to; null = every account */
  accounts: number[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type Row = OperatorTokenRow;

const record = (r: Row): OperatorTokenRecord => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  role: roleOf(r.role),
  accounts: scopeFromText(r.account_ids) as number[] | null,
  createdAt: iso(r.created_at),
  lastUsedAt: isoOrNull(r.last_used_at),
  revokedAt: isoOrNull(r.revoked_at),
});

export const TOKEN_NAME_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]{0,98}[\x21-\x7E])?$/;

/** A stored role this version does not know reads as the least able one. */
const roleOf = (stored: string): Role => (isRole(stored) ? stored : 'viewer');

export interface OperatorTokenInput {
  name: string;
  /** default admin */
  role?: Role;
  /** the accounts the token is limited to; absent or null = every account */
  accounts?: readonly number[] | null;
}

/**
 * Makes a token; the plaintext is in the result and nowhere else. Every
 * account of its scope must exist (404 otherwise).
 */
export async function createOperatorToken(
  op: Op,
  given: string | OperatorTokenInput,
): Promise<OperatorTokenRecord & { token: string }> {
  const input = typeof given === 'string' ? { name: given } : given;
  const { name } = stored(cleanWrite({ name: input.name }, NAME_RULES));
  const role = input.role ?? 'admin';
  if (!isRole(role)) throw invalidField('role', 'role must be admin, editor, moderator or viewer');
  const scope: AccountScope = input.accounts ?? null;
  const token = generateOperatorToken();
  return audited(op, async (tx) => {
    for (const accountId of scope ?? []) {
      if ((await accountOf(tx.trx, 'account', accountId)) === null) throw notFound('account', accountId);
    }
    const row = await insertOperatorToken(tx.trx, {
      name,
      token_hash: hashSecret(token),
      prefix: keyPrefix(token),
      role,
      account_ids: scopeToText(scope),
      created_at: op.now,
      last_used_at: null,
      revoked_at: null,
    });
    const rec = record(row);
    tx.audit({
      action: 'operator_token.create',
      targetType: 'operator_token',
      targetId: row.id,
      accountId: null,
      after: { name, prefix: rec.prefix, role: rec.role, accounts: rec.accounts },
    });
    return { ...rec, token };
  });
}

export async function listOperatorTokens(db: Kysely<Database>): Promise<OperatorTokenRecord[]> {
  return (await allOperatorTokens(db)).map(record);
}

/** A page of operator tokens, oldest first (the management API). */
export async function listOperatorTokenPage(
  db: Kysely<Database>,
  page: PageRequest,
): Promise<Page<OperatorTokenRecord>> {
  return pageById(page, (afterId, take) => operatorTokensPage(db, afterId, take), record);
}

/** One token by id (the caller's own, for `GET /tokens/current`). */
export async function getOperatorToken(db: Kysely<Database>, id: number): Promise<OperatorTokenRecord> {
  return record(found(await findOperatorToken(db, id), 'operator token', id));
}

/** Revokes by id, or by the plaintext token itself. */
export async function revokeOperatorToken(op: Op, idOrToken: string): Promise<OperatorTokenRecord> {
  return audited(op, async (tx) => {
    const row = /^\d{1,15}$/.test(idOrToken)
      ? await findOperatorToken(tx.trx, Number(idOrToken))
      : await findOperatorTokenByPlaintext(tx.trx, idOrToken);
    if (!row) throw notFound('operator token', /^\d{1,15}$/.test(idOrToken) ? idOrToken : '(given)');
    if (row.revoked_at !== null) throw conflict(`operator token ${row.id} is already revoked`);
    await revokeOperatorTokenRow(tx.trx, row.id, op.now);
    tx.audit({
      action: 'operator_token.revoke',
      targetType: 'operator_token',
      targetId: row.id,
      accountId: null,
      before: { revokedAt: null },
      after: { revokedAt: iso(op.now) },
    });
    return record({ ...row, revoked_at: op.now });
  });
}

export interface Operator {
  id: number;
  name: string;
  role: Role;
  /** the accounts the token is limited to; null = every account */
  accounts: AccountScope;
}

/** The active token's owner, or null (unknown, revoked). */
export async function findOperator(db: Kysely<Database>, plaintext: string, now: number): Promise<Operator | null> {
  const hash = hashSecret(plaintext);
  const row = await activeOperatorTokenByHash(db, hash);
  if (!row) return null;
  if (!timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
    await touchOperatorToken(db, row.id, now, LAST_USED_RESOLUTION_MS);
  }
  return { id: row.id, name: row.name, role: roleOf(row.role), accounts: scopeFromText(row.account_ids) };
}
