// The audit log: every management write, newest first, paged, filtered.
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../client';
import type { AuditQuery } from '../records';
import { cursorParam, pagedQuery } from './paging';

/** The filters as a form holds them: text, '' for "any". */
export interface AuditFilters {
  accountId: string;
  targetType: '' | NonNullable<AuditQuery['targetType']>;
  targetId: string;
  tokenName: string;
  action: string;
}
export const NO_AUDIT_FILTERS: AuditFilters = {
  accountId: '',
  targetType: '',
  targetId: '',
  tokenName: '',
  action: '',
};
const PAGE = '25';

function queryOf(f: AuditFilters): AuditQuery {
  const q: AuditQuery = { limit: PAGE };
  if (f.accountId) q.accountId = f.accountId;
  if (f.targetType) q.targetType = f.targetType;
  if (f.targetId.trim()) q.targetId = f.targetId.trim();
  if (f.tokenName.trim()) q.tokenName = f.tokenName.trim();
  if (f.action.trim()) q.action = f.action.trim();
  return q;
}

export const auditQueries = {
  list: (filters: AuditFilters) =>
    pagedQuery(['audit', filters], (cursor) =>
      unwrap(api.GET('/audit', { params: { query: { ...queryOf(filters), ...cursorParam(cursor) } } })),
    ),
};

export const useAuditLog = (filters: AuditFilters) => useInfiniteQuery(auditQueries.list(filters));

/** One post's history: its own changes and the bulk actions that included it, newest first. */
export const usePostHistory = (postId: number) =>
  useInfiniteQuery(
    pagedQuery(['audit', 'post', postId], (cursor) =>
      unwrap(api.GET('/audit', { params: { query: { postId: String(postId), limit: PAGE, ...cursorParam(cursor) } } })),
    ),
  );
