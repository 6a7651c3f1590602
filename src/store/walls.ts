// Walls. A deleted wall (deleted_at set) is invisible to the public API and
// the embed; only an operator can restore or purge it (contract §7).
import type { ExpressionBuilder, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { EmbedLayout } from '../domain/lists.js';
import type { Database, WallsTable } from './schema.js';
import { hiddenPost, visiblePost } from './posts.js';
import { ofAccounts, pageAfterId, type AccountFilter } from './paging.js';
import { insertRow } from './rows.js';
import { reusableQuery } from './reusable.js';

export type WallRow = Selectable<WallsTable>;

/** The live-wall predicate: not soft-deleted. Use as `.where(liveWall)`. */
export function liveWall(eb: ExpressionBuilder<Database, 'walls'>) {
  return eb('walls.deleted_at', 'is', null);
}

/**
 * The one "find a wall": by id, live or deleted; with `live`, only a live one;
 * with `accountId`, only one of that account (another account's is not found).
 */
export async function findWall(
  db: Kysely<Database>,
  id: number,
  only: { live?: boolean; accountId?: number } = {},
): Promise<WallRow | null> {
  let q = db.selectFrom('walls').selectAll().where('walls.id', '=', id);
  if (only.live) q = q.where(liveWall);
  if (only.accountId !== undefined) q = q.where('walls.account_id', '=', only.accountId);
  return (await q.executeTakeFirst()) ?? null;
}

const liveWallOf = reusableQuery((db, wallId: number, accountId: number) =>
  db
    .selectFrom('walls')
    .selectAll()
    .where('walls.id', '=', wallId)
    .where(liveWall)
    .where('walls.account_id', '=', accountId),
);

/**
 * The live wall with this id owned by this account, or null (unknown,
 * deleted, or another account's). Every public read asks it first: compiled once.
 */
export async function findLiveWall(db: Kysely<Database>, wallId: number, accountId: number): Promise<WallRow | null> {
  return (await liveWallOf(db, wallId, accountId))[0] ?? null;
}

/** What a public page needs of a wall. */
export interface PublicWall {
  id: number;
  name: string;
  slug: string | null;
  /** the embed's layout when a page does not choose one; null: the page's own default */
  layout: EmbedLayout | null;
}

/** A live wall a public page names by numeric id or by URL slug (the wall's `url`). */
export async function findLiveWallByIdOrSlug(db: Kysely<Database>, idOrSlug: string): Promise<PublicWall | null> {
  if (idOrSlug === '') return null;
  const live = db.selectFrom('walls').select(['id', 'name', 'url', 'layout']).where(liveWall);
  // a number is an id first; a slug made of digits is still found by its slug
  const byId = /^[1-9]\d{0,14}$/.test(idOrSlug)
    ? await live.where('id', '=', Number(idOrSlug)).executeTakeFirst()
    : undefined;
  const row = byId ?? (await live.where('url', '=', idOrSlug).orderBy('id').limit(1).executeTakeFirst());
  return row
    ? {
        id: row.id,
        name: row.name,
        slug: row.url || null,
        layout: row.layout,
      }
    : null;
}

/** A wall with the counts the console's wall list shows. */
export type WallWithCounts = WallRow & {
  feed_count: number;
  post_count: number;
  approved_count: number;
  pending_count: number;
  rejected_count: number;
  hidden_count: number;
};

function wallsWithCounts(db: Kysely<Database>) {
  return db
    .selectFrom('walls')
    .selectAll('walls')
    .select((eb) => {
      // how many of the wall's posts (the caller's where narrows them)
      const countPosts = () =>
        eb.selectFrom('posts').select(eb.fn.countAll<number>().as('n')).whereRef('posts.wall_id', '=', 'walls.id');
      return [
        eb
          .selectFrom('feeds')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('feeds.wall_id', '=', 'walls.id')
          .as('feed_count'),
        countPosts().as('post_count'),
        // approved = what the public API shows (approved, not hidden)
        countPosts().where(visiblePost).as('approved_count'),
        countPosts().where('posts.state', '=', 'pending').as('pending_count'),
        countPosts().where('posts.state', '=', 'rejected').as('rejected_count'),
        countPosts().where(hiddenPost).as('hidden_count'),
      ];
    });
}

/** A page of walls with their counts in id order: of these accounts (null: all), one account, live or deleted ones. */
export async function wallsPage(
  db: Kysely<Database>,
  filter: AccountFilter & { state?: 'live' | 'deleted' | 'all' },
  afterId: number | undefined,
  take: number,
): Promise<WallWithCounts[]> {
  let q = ofAccounts(wallsWithCounts(db), 'walls.account_id', filter);
  if (filter.state === 'live') q = q.where(liveWall);
  if (filter.state === 'deleted') q = q.where('walls.deleted_at', 'is not', null);
  return (await pageAfterId(q, afterId, take).execute()) as WallWithCounts[];
}

export async function findWallWithCounts(db: Kysely<Database>, id: number): Promise<WallWithCounts | undefined> {
  return (await wallsWithCounts(db).where('walls.id', '=', id).executeTakeFirst()) as WallWithCounts | undefined;
}

/** The wall of the account that already has this URL slug (but `exceptWall`), if any. */
export async function wallWithSlug(
  db: Kysely<Database>,
  accountId: number,
  url: string,
  exceptWall: number | null,
): Promise<number | undefined> {
  let q = db.selectFrom('walls').select('id').where('account_id', '=', accountId).where('url', '=', url);
  if (exceptWall !== null) q = q.where('id', '<>', exceptWall);
  return (await q.executeTakeFirst())?.id;
}

export const insertWall = (db: Kysely<Database>, values: Insertable<WallsTable>) => insertRow(db, 'walls', values);

export async function updateWallRow(db: Kysely<Database>, id: number, set: Updateable<WallsTable>): Promise<void> {
  await db.updateTable('walls').set(set).where('id', '=', id).execute();
}

/** Soft delete; false when the wall was not live for this account. */
export async function softDeleteWall(db: Kysely<Database>, wallId: number, accountId: number, now: number) {
  const res = await db
    .updateTable('walls')
    .set({ deleted_at: now })
    .where('id', '=', wallId)
    .where('account_id', '=', accountId)
    .where(liveWall)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The rows of a purge, inside the caller's transaction: tags, posts, feeds, the wall. */
export async function purgeWallRows(trx: Kysely<Database>, wallId: number): Promise<void> {
  const postIds = trx.selectFrom('posts').select('id').where('wall_id', '=', wallId);
  await trx.deleteFrom('post_products').where('post_id', 'in', postIds).execute();
  await trx.deleteFrom('posts').where('wall_id', '=', wallId).execute();
  await trx.deleteFrom('feeds').where('wall_id', '=', wallId).execute();
  await trx.deleteFrom('walls').where('id', '=', wallId).execute();
}
