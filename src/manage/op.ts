// What every management operation shares, whether it comes from the
// management API or the CLI: who acts, when, the audit log entry written in
// the same transaction as the change, and the change notifications that
// follow the commit.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import { isUniqueViolation } from '../store/dialect.js';
import { insertAuditEntries } from '../store/audit.js';
import { accountOf, isOwnedKind } from '../store/ownership.js';
import { conflict } from '../domain/errors.js';
import { boundedSummary } from '../domain/audit-summary.js';

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
  /**
   * The account the entry belongs to (a token scoped to accounts sees only
   * theirs); null for none (operator tokens). When absent, it is found from
   * the target in the same transaction (accountOfTarget) — give it whenever
   * the target is gone after the write (deletes).
   */
  accountId?: number | null;
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
        const accounts = await Promise.all(
          entries.map((e) =>
            e.accountId !== undefined ? e.accountId : accountOfTarget(trx, e.targetType, e.targetId),
          ),
        );
        await insertAuditEntries(
          trx,
          entries.map((e, i) => ({
            at: op.now,
            token_id: op.actor.tokenId,
            token_name: op.actor.name,
            action: e.action,
            target_type: e.targetType,
            target_id: e.targetId,
            account_id: accounts[i] ?? null,
            // large values (a 1 MiB rule list) as their digest: the log grows by kilobytes a write at most
            summary: JSON.stringify(
              boundedSummary({ before: e.before ?? null, after: e.after ?? null, ...(e.details ?? {}) }),
            ),
          })),
        );
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

/** The account of an audit entry's target, as it is now; null when there is none (or no longer). */
async function accountOfTarget(
  db: Kysely<Database>,
  targetType: string,
  targetId: number | null,
): Promise<number | null> {
  if (targetId === null || !isOwnedKind(targetType)) return null;
  return accountOf(db, targetType, targetId);
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
