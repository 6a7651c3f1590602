// The audit log: one entry per management write, newest first.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { decodeCursor, pageLimit, pageOf, type Page, type PageRequest } from './paging.js';
import { iso } from '../domain/dates.js';
import type { AuditRecord } from '../schemas/audit.js';
import { scopeIds, type AccountScope } from '../domain/roles.js';
import { redactedSummary } from '../domain/webhook-url.js';

export interface AuditFilter {
  action?: string;
  targetType?: string;
  targetId?: number;
  tokenName?: string;
  /** the entries of this account (its walls, feeds, posts, products, keys) */
  accountId?: number;
  /** only the entries of these accounts (an operator token's scope); absent or null: every entry */
  scope?: AccountScope;
}

export async function listAudit(
  db: Kysely<Database>,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Page<AuditRecord>> {
  const after = decodeCursor(page.cursor, 1);
  const limit = pageLimit(page);
  let q = db.selectFrom('audit_log').selectAll();
  if (filter.action !== undefined) q = q.where('action', '=', filter.action);
  if (filter.targetType !== undefined) q = q.where('target_type', '=', filter.targetType);
  if (filter.targetId !== undefined) q = q.where('target_id', '=', filter.targetId);
  if (filter.tokenName !== undefined) q = q.where('token_name', '=', filter.tokenName);
  if (filter.accountId !== undefined) q = q.where('account_id', '=', filter.accountId);
  if (filter.scope) q = q.where('account_id', 'in', scopeIds(filter.scope));
  if (after) q = q.where('id', '<', after[0]!);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return pageOf(
    rows,
    limit,
    (r) => [r.id],
    (r) => ({
      id: r.id,
      at: iso(r.at),
      tokenName: r.token_name,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      accountId: r.account_id,
      summary: summaryOf(r.target_type, r.summary),
    }),
  );
}

/** An entry's summary as shown: a webhook's URL without its query, also in entries written before it was stored so. */
function summaryOf(targetType: string, stored: string): AuditRecord['summary'] {
  const summary = JSON.parse(stored) as AuditRecord['summary'];
  return targetType === 'webhook' ? (redactedSummary(summary) as AuditRecord['summary']) : summary;
}
