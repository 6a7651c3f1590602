// Walls and their feeds. A deleted wall (deleted_at set) is invisible to the
// public API; only an operator can restore or purge it (contract §7).
import type { Kysely, Selectable } from 'kysely';
import type { Database, FeedsTable, WallsTable } from './schema.js';

export type WallRow = Selectable<WallsTable>;
export type FeedRow = Selectable<FeedsTable>;

/** The live wall with this id owned by this account, or null (unknown, deleted, or another account's). */
export async function findLiveWall(db: Kysely<Database>, wallId: number, accountId: number): Promise<WallRow | null> {
  const row = await db
    .selectFrom('walls')
    .selectAll()
    .where('id', '=', wallId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

export async function listFeeds(db: Kysely<Database>, wallId: number): Promise<FeedRow[]> {
  return db.selectFrom('feeds').selectAll().where('wall_id', '=', wallId).orderBy('id').execute();
}

/** Soft delete; false when the wall was not live for this account. */
export async function softDeleteWall(db: Kysely<Database>, wallId: number, accountId: number, now: number) {
  const res = await db
    .updateTable('walls')
    .set({ deleted_at: now })
    .where('id', '=', wallId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
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
