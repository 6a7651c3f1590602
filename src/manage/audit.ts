// The audit log: one entry per management write, newest first.
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import { auditPage } from '../store/audit.js';
import { postsByIds } from '../store/posts.js';
import { iso } from '../domain/dates.js';
import type { AuditRecord } from '../schemas/audit.js';
import { scopeFilter, type AccountScope } from '../domain/roles.js';
import { redactedSummary } from '../domain/webhook-url.js';

export interface AuditFilter {
  action?: string;
  targetType?: string;
  targetId?: number;
  tokenName?: string;
  /** the history of one post: its own entries and the bulk actions of its wall that included it */
  postId?: number;
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
  const { scope, postId, ...match } = filter;
  const query = { ...match, accountIds: scopeFilter(scope), ...(postId === undefined ? {} : await postOf(db, postId)) };
  // newest first: the cursor's id is the last one shown, the page goes on below it
  return pageById(
    page,
    (beforeId, take) => auditPage(db, query, beforeId, take),
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

/** The post filter: the post and its wall (a post no longer stored: its own entries only). */
async function postOf(db: Kysely<Database>, postId: number) {
  const [row] = await postsByIds(db, [postId]);
  return { post: { postId, wallId: row?.wall_id ?? null } };
}

/** An entry's summary as shown: a webhook's URL without its query, also in entries written before it was stored so. */
function summaryOf(targetType: string, stored: string): AuditRecord['summary'] {
  const summary = JSON.parse(stored) as AuditRecord['summary'];
  return targetType === 'webhook' ? (redactedSummary(summary) as AuditRecord['summary']) : summary;
}
