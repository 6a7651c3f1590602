// The select of one page of a management list, keyed by id: the rows after
// (or, newest first, before) the cursor's id, `take` of them. And the reads
// of rows that belong to a parent row: one by id within its parent, or a page.
import { sql, type Kysely, type SelectQueryBuilder, type SqlBool, type StringReference } from 'kysely';
import type { Database } from './schema.js';

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

/**
 * The reads of the rows that belong to a parent row (an account's user keys,
 * a wall's publishable keys, an endpoint's delivery log), given the select of
 * a parent's rows: one of them by id (none when it is another parent's), or
 * a page of them, oldest or newest first.
 */
export function childRows<TB extends keyof Database, O>(
  ofParent: (db: Kysely<Database>, parentId: number) => SelectQueryBuilder<Database, TB, O>,
) {
  type Page = (db: Kysely<Database>, parentId: number, cursorId: number | undefined, take: number) => Promise<O[]>;
  const find = (db: Kysely<Database>, parentId: number, rowId: number): Promise<O | undefined> =>
    ofParent(db, parentId)
      .where(sql<SqlBool>`${id} = ${rowId}`)
      .executeTakeFirst();
  const oldestFirst: Page = (db, parentId, afterId, take) =>
    pageAfterId(ofParent(db, parentId), afterId, take).execute();
  const newestFirst: Page = (db, parentId, beforeId, take) =>
    pageBeforeId(ofParent(db, parentId), beforeId, take).execute();
  return { find, oldestFirst, newestFirst };
}

/** The accounts a management list shows: those of an operator token's scope (null: every account), one when given. */
export interface AccountFilter {
  accountIds: number[] | null;
  accountId?: number;
}

/** The rows of `q` whose account (`column`) the filter lets through. */
export function ofAccounts<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  column: StringReference<DB, TB>,
  filter: AccountFilter,
): SelectQueryBuilder<DB, TB, O> {
  const account = sql.ref(column);
  if (filter.accountIds !== null) q = q.where(sql<SqlBool>`${account} in (${sql.join(filter.accountIds)})`);
  if (filter.accountId !== undefined) q = q.where(sql<SqlBool>`${account} = ${filter.accountId}`);
  return q;
}
