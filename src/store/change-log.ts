// STUB of the lead's change log (migration 0015_changes): the same exports,
// read from a table `change_log_stub` that the tests fill. Deleted when the
// real module lands in main.
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export type ChangeKind =
  | 'created'
  | 'updated'
  | 'approved'
  | 'rejected'
  | 'hidden'
  | 'deleted'
  | 'wall_deleted'
  | 'feed_failing'
  | 'feed_recovered';

export interface ChangeRow {
  seq: number;
  account_id: number;
  wall_id: number;
  post_id: number | null;
  feed_id: number | null;
  kind: ChangeKind;
  /** post publicly visible after the change */
  visible: boolean;
  /** ms */
  at: number;
}

interface StubRow {
  seq: number | string;
  account_id: number | string;
  wall_id: number | string;
  post_id: number | string | null;
  feed_id: number | string | null;
  kind: ChangeKind;
  visible: number | boolean;
  at: number | string;
}

const n = (v: number | string) => Number(v);

export async function changesAfter(
  db: Kysely<Database>,
  q: { after: number; accountId?: number; wallId?: number; kinds?: readonly ChangeKind[]; limit: number },
): Promise<ChangeRow[]> {
  if (q.kinds && q.kinds.length === 0) return [];
  const { rows } = await sql<StubRow>`select * from change_log_stub where seq > ${q.after}
    ${q.accountId !== undefined ? sql`and account_id = ${q.accountId}` : sql``}
    ${q.wallId !== undefined ? sql`and wall_id = ${q.wallId}` : sql``}
    ${q.kinds ? sql`and kind in (${sql.join(q.kinds.map((k) => sql`${k}`))})` : sql``}
    order by seq limit ${q.limit}`
    .execute(db)
    .catch(() => ({ rows: [] as StubRow[] }));
  return rows.map((r) => ({
    seq: n(r.seq),
    account_id: n(r.account_id),
    wall_id: n(r.wall_id),
    post_id: r.post_id === null ? null : n(r.post_id),
    feed_id: r.feed_id === null ? null : n(r.feed_id),
    kind: r.kind,
    visible: r.visible === true || Number(r.visible) === 1,
    at: n(r.at),
  }));
}

export async function latestChangeSeq(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ m: number | string | null }>`select max(seq) as m from change_log_stub`
    .execute(db)
    .catch(() => ({ rows: [{ m: 0 }] }));
  return n(rows[0]?.m ?? 0);
}
