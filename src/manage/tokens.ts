// Operator tokens of the management API: made and revoked with the CLI,
// stored as SHA-256 only, looked up by hash and compared in constant time.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { hashSecret, KEY_LAST_USED_RESOLUTION_MS as LAST_USED_RESOLUTION_MS, keyPrefix } from '../store/keys.js';
import { cleanWrite, NAME_RULES } from '../domain/writes.js';
import type { Database, OperatorTokensTable } from '../store/schema.js';
import { audited, type Op } from './op.js';
import { conflict, notFound, stored } from '../domain/errors.js';
import { iso, isoOrNull } from '../domain/dates.js';

/** `wop_` + 43 base64url characters (256 bits). */
export function generateOperatorToken(): string {
  return `wop_${randomBytes(32).toString('base64url')}`;
}

export interface OperatorTokenRecord {
  id: number;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type Row = Selectable<OperatorTokensTable>;

const record = (r: Row): OperatorTokenRecord => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdAt: iso(r.created_at),
  lastUsedAt: isoOrNull(r.last_used_at),
  revokedAt: isoOrNull(r.revoked_at),
});

export const TOKEN_NAME_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]{0,98}[\x21-\x7E])?$/;

/** Makes a token; the plaintext is in the result and nowhere else. */
export async function createOperatorToken(op: Op, given: string): Promise<OperatorTokenRecord & { token: string }> {
  const { name } = stored(cleanWrite({ name: given }, NAME_RULES));
  const token = generateOperatorToken();
  return audited(op, async (tx) => {
    const row = await tx.trx
      .insertInto('operator_tokens')
      .values({
        name,
        token_hash: hashSecret(token),
        prefix: keyPrefix(token),
        created_at: op.now,
        last_used_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const rec = record(row);
    tx.audit({
      action: 'operator_token.create',
      targetType: 'operator_token',
      targetId: row.id,
      after: { name, prefix: rec.prefix },
    });
    return { ...rec, token };
  });
}

export async function listOperatorTokens(db: Kysely<Database>): Promise<OperatorTokenRecord[]> {
  const rows = await db.selectFrom('operator_tokens').selectAll().orderBy('id').execute();
  return rows.map(record);
}

/** Revokes by id, or by the plaintext token itself. */
export async function revokeOperatorToken(op: Op, idOrToken: string): Promise<OperatorTokenRecord> {
  return audited(op, async (tx) => {
    let q = tx.trx.selectFrom('operator_tokens').selectAll();
    q = /^\d{1,15}$/.test(idOrToken)
      ? q.where('id', '=', Number(idOrToken))
      : q.where('token_hash', '=', hashSecret(idOrToken));
    const row = await q.executeTakeFirst();
    if (!row) throw notFound('operator token', /^\d{1,15}$/.test(idOrToken) ? idOrToken : '(given)');
    if (row.revoked_at !== null) throw conflict(`operator token ${row.id} is already revoked`);
    await tx.trx.updateTable('operator_tokens').set({ revoked_at: op.now }).where('id', '=', row.id).execute();
    tx.audit({
      action: 'operator_token.revoke',
      targetType: 'operator_token',
      targetId: row.id,
      before: { revokedAt: null },
      after: { revokedAt: iso(op.now) },
    });
    return record({ ...row, revoked_at: op.now });
  });
}

export interface Operator {
  id: number;
  name: string;
}

/** The active token's owner, or null (unknown, revoked). */
export async function findOperator(db: Kysely<Database>, plaintext: string, now: number): Promise<Operator | null> {
  const hash = hashSecret(plaintext);
  const row = await db
    .selectFrom('operator_tokens')
    .select(['id', 'name', 'token_hash', 'last_used_at'])
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  if (!timingSafeEqual(Buffer.from(row.token_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
    await db
      .updateTable('operator_tokens')
      .set({ last_used_at: now })
      .where('id', '=', row.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - LAST_USED_RESOLUTION_MS)]))
      .execute();
  }
  return { id: row.id, name: row.name };
}
