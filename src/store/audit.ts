// The audit log's rows: written with the change they record (same
// transaction), read newest first.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from './schema.js';
import { pageBeforeId } from './paging.js';

export type AuditRow = Selectable<AuditLogTable>;

export async function insertAuditEntries(db: Kysely<Database>, rows: Insertable<AuditLogTable>[]): Promise<void> {
  await db.insertInto('audit_log').values(rows).execute();
}

export interface AuditQuery {
  action?: string;
  targetType?: string;
  targetId?: number;
  tokenName?: string;
  accountId?: number;
  /** only the entries of these accounts; null: every entry */
  accountIds: number[] | null;
}

/** A page of entries matching `query`, newest first: ids below `beforeId`, `take` of them. */
export async function auditPage(
  db: Kysely<Database>,
  query: AuditQuery,
  beforeId: number | undefined,
  take: number,
): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll();
  if (query.action !== undefined) q = q.where('action', '=', query.action);
  if (query.targetType !== undefined) q = q.where('target_type', '=', query.targetType);
  if (query.targetId !== undefined) q = q.where('target_id', '=', query.targetId);
  if (query.tokenName !== undefined) q = q.where('token_name', '=', query.tokenName);
  if (query.accountId !== undefined) q = q.where('account_id', '=', query.accountId);
  if (query.accountIds !== null) q = q.where('account_id', 'in', query.accountIds);
  return pageBeforeId(q, beforeId, take).execute();
}
