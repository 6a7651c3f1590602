// Reading and pruning the change log (written by the store's own triggers,
// migration src/store/migrations/0015_changes.ts). Rows come in commit order: a reader
// that asks for what follows the last seq it saw never misses or repeats one.
import type { Kysely } from 'kysely';
import type { ChangeKind } from '../domain/changes.js';
import type { Database } from './schema.js';

export type { ChangeKind } from '../domain/changes.js';

export interface ChangeRow {
  seq: number;
  account_id: number;
  wall_id: number;
  post_id: number | null;
  feed_id: number | null;
  /** the connection of a connection change (its wall_id is 0); null or absent otherwise */
  connection_id?: number | null;
  kind: ChangeKind;
  /** the post is publicly visible (approved, not hidden) after the change */
  visible: boolean;
  /** commit time (ms) */
  at: number;
}

export interface ChangesQuery {
  /** the last seq already seen (0: from the start) */
  after: number;
  accountId?: number;
  wallId?: number;
  kinds?: readonly ChangeKind[];
  limit: number;
}

/** The changes after `after`, oldest first. */
export async function changesAfter(db: Kysely<Database>, q: ChangesQuery): Promise<ChangeRow[]> {
  let query = db
    .selectFrom('changes')
    .select(['seq', 'account_id', 'wall_id', 'post_id', 'feed_id', 'connection_id', 'kind', 'visible', 'at'])
    .where('seq', '>', q.after);
  if (q.wallId !== undefined) query = query.where('wall_id', '=', q.wallId);
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId);
  if (q.kinds?.length === 0) return [];
  if (q.kinds) query = query.where('kind', 'in', [...q.kinds]);
  const rows = await query.orderBy('seq').limit(q.limit).execute();
  return rows.map((r) => ({ ...r, visible: r.visible === 1 }));
}

/** The seq of the newest committed change (0 when there has been none). */
export async function latestChangeSeq(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('change_log')
    .select((eb) => [
      'pruned_through',
      eb
        .selectFrom('changes')
        .select((e) => e.fn.max('seq').as('m'))
        .as('newest'),
    ])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return Math.max(Number(row.newest ?? 0), row.pruned_through);
}

/** Every change up to this seq is gone: a cursor before it names history that cannot be read. */
export async function prunedThrough(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('change_log').select('pruned_through').where('id', '=', 1).executeTakeFirstOrThrow();
  return row.pruned_through;
}

/**
 * Deletes changes committed before `before` (ms), at most `batch` of them,
 * oldest first, and moves the pruned mark. Returns how many were deleted
 * (call again while it returns `batch`).
 */
export async function pruneChanges(db: Kysely<Database>, before: number, batch: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('changes')
      .select('seq')
      .where('at', '<', before)
      .orderBy('seq')
      .limit(1)
      .offset(batch - 1)
      .executeTakeFirst();
    const through =
      last?.seq ??
      (
        await trx
          .selectFrom('changes')
          .select((e) => e.fn.max('seq').as('m'))
          .where('at', '<', before)
          .executeTakeFirst()
      )?.m;
    if (through === null || through === undefined) return 0;
    const res = await trx.deleteFrom('changes').where('seq', '<=', Number(through)).executeTakeFirst();
    const mark = await trx
      .selectFrom('change_log')
      .select('pruned_through')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('change_log')
      .set({ pruned_through: Math.max(mark.pruned_through, Number(through)) })
      .where('id', '=', 1)
      .execute();
    return Number(res.numDeletedRows);
  });
}

const PRUNE_BATCH = 5_000;

/** Prunes every change committed before `before` (ms), a short transaction per batch. Returns how many. */
export async function pruneChangeLog(db: Kysely<Database>, before: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await pruneChanges(db, before, PRUNE_BATCH);
    total += n;
    if (n < PRUNE_BATCH) return total;
  }
}
