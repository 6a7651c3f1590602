// The select of one page of a management list, keyed by id: the rows after
// (or, newest first, before) the cursor's id, `take` of them.
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';

const id = sql.ref('id');

/** Oldest first: the rows with an id above `afterId` (all on the first page), in id order, `take` of them. */
export function pageAfterId<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  afterId: number | undefined,
  take: number,
): SelectQueryBuilder<DB, TB, O> {
  if (afterId !== undefined) q = q.where(sql<SqlBool>`${id} > ${afterId}`);
  return q.orderBy(id).limit(take);
}

/** Newest first: the rows with an id below `beforeId` (all on the first page), in descending id order, `take` of them. */
export function pageBeforeId<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  beforeId: number | undefined,
  take: number,
): SelectQueryBuilder<DB, TB, O> {
  if (beforeId !== undefined) q = q.where(sql<SqlBool>`${id} < ${beforeId}`);
  return q.orderBy(id, 'desc').limit(take);
}
