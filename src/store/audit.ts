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
  /** the entries about one post: its own, and its wall's bulk actions that listed it (wallId null: its own only) */
  post?: { postId: number; wallId: number | null };
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
  if (query.post !== undefined) {
    const { postId, wallId } = query.post;
    q = q.where((eb) =>
      eb.or([
        eb.and([eb('target_type', '=', 'post'), eb('target_id', '=', postId)]),
        ...(wallId === null
          ? []
          : [
              eb.and([
                eb('target_type', '=', 'wall'),
                eb('target_id', '=', wallId),
                eb('action', 'like', 'posts.bulk.%'),
                eb.or(listedIn(postId).map((pattern) => eb('summary', 'like', pattern))),
              ]),
            ]),
      ]),
    );
  }
  return pageBeforeId(q, beforeId, take).execute();
}

/**
 * The summaries of bulk actions that list `postId`: a bulk entry's summary is
 * `{"before":…,"after":…,"postIds":[…]}` (manage/posts.ts: the details come
 * last), so the id is the whole list, its first, a middle or its last item of
 * the array that ends the summary. Plain LIKE reads the same on both stores.
 */
function listedIn(postId: number): string[] {
  const list = '%"postIds":[';
  return [`${list}${postId}]}`, `${list}${postId},%`, `${list}%,${postId},%`, `${list}%,${postId}]}`];
}
