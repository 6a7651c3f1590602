// What every management operation shares, whether it comes from the
// management API or the CLI: who acts, when, the audit log entry written in
// the same transaction as the change, and the change notifications that
// follow the commit.
import type { Kysely, Transaction } from 'kysely';
import type { Cleaned } from '../../domain/writes.js';
import type { Database } from '../schema.js';
import { isUniqueViolation } from '../dialect.js';

export interface FieldError {
  /** the field as the caller named it: `name`, `cta.url`, `tags[2].left`, `postIds[0]`, `limit` */
  field: string;
  message: string;
}

/**
 * A management operation refused: the HTTP status it maps to, a message,
 * and (400) every bad field. Thrown by the store layer, rendered by the
 * management API's error handler and by the CLI.
 */
export class ManageError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ManageError';
  }
}

export function invalid(fieldErrors: FieldError[]): ManageError {
  return new ManageError(400, fieldErrors.map((e) => e.message).join('; ') || 'request is invalid', fieldErrors);
}

/** The value a write stores (contract §7, src/domain/writes.ts), or a 400 naming every refused field. */
export function stored<V>(cleaned: Cleaned<V>): V {
  if (cleaned.problems.length > 0) throw invalid(cleaned.problems);
  return cleaned.value;
}

export const invalidField = (field: string, message: string) => invalid([{ field, message }]);
export const notFound = (what: string, id: number | string) => new ManageError(404, `${what} ${id} not found`);
export const conflict = (message: string) => new ManageError(409, message);

export interface Actor {
  /** the operator token's id; null for the CLI */
  tokenId: number | null;
  /** the operator token's name, or `cli` */
  name: string;
}

export const CLI_ACTOR: Actor = { tokenId: null, name: 'cli' };

/** Where committed changes are announced (the ChangeBus of a running server). */
export interface ChangeSink {
  wallChanged(wallId: number): void;
  accountChanged(accountId: number): void;
}

export interface Op {
  db: Kysely<Database>;
  actor: Actor;
  /** epoch ms of the operation */
  now: number;
  /** absent in the CLI: there is no in-process reader to tell */
  changes?: ChangeSink;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: number | null;
  before?: unknown;
  after?: unknown;
  /** extra details (bulk post ids, …) */
  details?: Record<string, unknown>;
}

export interface Tx {
  trx: Transaction<Database>;
  audit(entry: AuditEntry): void;
  wallChanged(wallId: number): void;
  accountChanged(accountId: number): void;
}

/**
 * Runs `fn` in one transaction together with its audit entries; announces
 * the changes it recorded only after the commit. A unique-constraint
 * violation (a concurrent write took the value) becomes a 409.
 */
export async function audited<T>(op: Op, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const walls = new Set<number>();
  const accounts = new Set<number>();
  let result: T;
  try {
    result = await op.db.transaction().execute(async (trx) => {
      const entries: AuditEntry[] = [];
      const value = await fn({
        trx,
        audit: (e) => entries.push(e),
        wallChanged: (id) => walls.add(id),
        accountChanged: (id) => accounts.add(id),
      });
      if (entries.length > 0) {
        await trx
          .insertInto('audit_log')
          .values(
            entries.map((e) => ({
              at: op.now,
              token_id: op.actor.tokenId,
              token_name: op.actor.name,
              action: e.action,
              target_type: e.targetType,
              target_id: e.targetId,
              summary: JSON.stringify({ before: e.before ?? null, after: e.after ?? null, ...(e.details ?? {}) }),
            })),
          )
          .execute();
      }
      return value;
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('a concurrent change took this value; read the resource again and retry');
    throw err;
  }
  for (const id of walls) op.changes?.wallChanged(id);
  for (const id of accounts) op.changes?.accountChanged(id);
  return result;
}

/** The fields of `after` whose value differs from `before` (for the audit summary). */
export function diff<T extends object>(before: T, after: T): { before: Partial<T>; after: Partial<T> } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

// ---------- cursor pagination ----------

export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;

export interface Page<T> {
  data: T[];
  /** pass as `cursor` for the next page; null on the last page */
  nextCursor: string | null;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

/** An opaque cursor: base64url of the JSON of the last row's sort key. */
export function encodeCursor(key: readonly (number | string)[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The sort key of a cursor, checked to be `size` safe integers; a 400 naming `cursor` otherwise. */
export function decodeCursor(cursor: string | undefined, size: number): number[] | null {
  if (cursor === undefined) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  if (!Array.isArray(key) || key.length !== size || !key.every((n) => Number.isSafeInteger(n))) {
    throw invalidField('cursor', 'cursor is not one this API returned');
  }
  return key as number[];
}

/** Rows were fetched with limit + 1: the page and, when there is more, the cursor after its last row. */
export function pageOf<R, T>(rows: R[], limit: number, key: (row: R) => number[], map: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { data: kept.map(map), nextCursor: more && last !== undefined ? encodeCursor(key(last)) : null };
}

export const pageLimit = (p: PageRequest) => p.limit ?? PAGE_DEFAULT;

/**
 * A page of rows in ascending id order. `fetch` gets the id the cursor ends
 * after (undefined on the first page) and how many rows to take: one more than
 * the page, to tell whether there is a next one.
 */
export async function pageById<R extends { id: number }, T>(
  page: PageRequest,
  fetch: (afterId: number | undefined, take: number) => Promise<R[]>,
  map: (row: R) => T,
): Promise<Page<T>> {
  const after = decodeCursor(page.cursor, 1);
  const limit = pageLimit(page);
  return pageOf(await fetch(after?.[0], limit + 1), limit, (r) => [r.id], map);
}

export const iso = (ms: number) => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
