// Publishable keys of a wall as the management API and the CLI see them:
// create (the plaintext is in the answer only), list, revoke — audited.
import type { Kysely, Selectable } from 'kysely';
import { normaliseOrigin } from '../domain/origins.js';
import {
  findPublishableKey,
  generatePublishableKey,
  hashPublishableKey,
  insertPublishableKey,
  parseOrigins,
  publishableKeyPrefix,
  publishableKeysPage,
  revokePublishableKeyRow,
} from '../store/publishable-keys.js';
import type { Database, PublishableKeysTable } from '../store/schema.js';
import { requireWall } from './walls.js';
import { audited, type Op } from './op.js';
import { conflict, found, invalid, type FieldError } from '../domain/errors.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { pageById, type Page, type PageRequest } from './paging.js';

export const ORIGINS_MAX = 50;

export interface PublishableKeyRecord {
  id: number;
  wallId: number;
  /** `pk_` and the first characters of the key */
  prefix: string;
  /** normalised origins allowed to use the key; [] = any */
  origins: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface PublishableKeyInput {
  origins?: string[];
}

const record = (r: Selectable<PublishableKeysTable>): PublishableKeyRecord => ({
  id: r.id,
  wallId: r.wall_id,
  prefix: r.prefix,
  origins: parseOrigins(r.origins),
  createdAt: iso(r.created_at),
  revokedAt: isoOrNull(r.revoked_at),
});

/** The origins normalised (deduplicated, in the order given), or a 400 naming each bad one. */
export function cleanOrigins(given: readonly unknown[] | undefined): string[] {
  const list = given ?? [];
  const problems: FieldError[] = [];
  if (list.length > ORIGINS_MAX)
    problems.push({ field: 'origins', message: `origins must list at most ${ORIGINS_MAX} origins` });
  const origins: string[] = [];
  list.forEach((o, i) => {
    const normal = typeof o === 'string' ? normaliseOrigin(o) : null;
    if (normal === null)
      problems.push({
        field: `origins[${i}]`,
        message: `origins[${i}] must be an origin: http(s)://host[:port], without a path (e.g. https://shop.example)`,
      });
    else if (!origins.includes(normal)) origins.push(normal);
  });
  if (problems.length > 0) throw invalid(problems);
  return origins;
}

/** Makes a key for the wall; its plaintext is in the result and nowhere else. */
export async function createPublishableKey(
  op: Op,
  wallId: number,
  input: PublishableKeyInput,
): Promise<PublishableKeyRecord & { key: string }> {
  const origins = cleanOrigins(input.origins);
  const key = generatePublishableKey();
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    const row = await insertPublishableKey(tx.trx, {
      wall_id: wallId,
      prefix: publishableKeyPrefix(key),
      key_hash: hashPublishableKey(key),
      origins: JSON.stringify(origins),
      created_at: op.now,
      revoked_at: null,
    });
    const rec = record(row);
    tx.audit({
      action: 'publishable_key.create',
      targetType: 'publishable_key',
      targetId: row.id,
      after: { wallId, prefix: rec.prefix, origins },
    });
    tx.wallChanged(wallId);
    return { ...rec, key };
  });
}

export async function listPublishableKeys(
  db: Kysely<Database>,
  wallId: number,
  page: PageRequest,
): Promise<Page<PublishableKeyRecord>> {
  await requireWall(db, wallId);
  return pageById(page, (afterId, take) => publishableKeysPage(db, wallId, afterId, take), record);
}

/** Revokes a key of the wall: every instance refuses it from then on (see the embed key cache). */
export async function revokePublishableKey(op: Op, wallId: number, keyId: number): Promise<PublishableKeyRecord> {
  return audited(op, async (tx) => {
    await requireWall(tx.trx, wallId);
    const row = found(await findPublishableKey(tx.trx, wallId, keyId), 'publishable key', keyId);
    if (!(await revokePublishableKeyRow(tx.trx, keyId, op.now)))
      throw conflict(`publishable key ${keyId} is already revoked`);
    tx.audit({
      action: 'publishable_key.revoke',
      targetType: 'publishable_key',
      targetId: keyId,
      before: { revokedAt: null },
      after: { revokedAt: iso(op.now) },
      details: { wallId, prefix: row.prefix },
    });
    tx.wallChanged(wallId);
    return record({ ...row, revoked_at: op.now });
  });
}
