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

export type OperatorResult = 'ok' | 'not_found' | 'not_deleted';

export async function restoreWall(db: Kysely<Database>, wallId: number): Promise<OperatorResult> {
  const wall = await db.selectFrom('walls').select(['deleted_at']).where('id', '=', wallId).executeTakeFirst();
  if (!wall) return 'not_found';
  if (wall.deleted_at === null) return 'not_deleted';
  await db.updateTable('walls').set({ deleted_at: null }).where('id', '=', wallId).execute();
  return 'ok';
}

/** Erases a soft-deleted wall with its feeds, posts and tags. Live walls are refused. */
export async function purgeWall(db: Kysely<Database>, wallId: number): Promise<OperatorResult> {
  return db.transaction().execute(async (trx) => {
    const wall = await trx.selectFrom('walls').select(['deleted_at']).where('id', '=', wallId).executeTakeFirst();
    if (!wall) return 'not_found';
    if (wall.deleted_at === null) return 'not_deleted';
    await purgeWallRows(trx, wallId);
    return 'ok';
  });
}

/** The rows of a purge, inside the caller's transaction: tags, posts, feeds, the wall. */
export async function purgeWallRows(trx: Kysely<Database>, wallId: number): Promise<void> {
  const postIds = trx.selectFrom('posts').select('id').where('wall_id', '=', wallId);
  await trx.deleteFrom('post_products').where('post_id', 'in', postIds).execute();
  await trx.deleteFrom('posts').where('wall_id', '=', wallId).execute();
  await trx.deleteFrom('feeds').where('wall_id', '=', wallId).execute();
  await trx.deleteFrom('walls').where('id', '=', wallId).execute();
}
