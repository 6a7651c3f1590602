// All SQL of connections (migrations/0031_connections.ts). The secret column
// is only ever written sealed (src/connections/secrets.ts) and only read by
// the code that opens it for a poll or a token refresh.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { ConnectionsTable, Database } from './schema.js';
import { insertRowReturning } from './rows.js';
import { pageAfterId } from './paging.js';

export type ConnectionRow = Selectable<ConnectionsTable>;

export async function insertConnection(
  db: Kysely<Database>,
  row: Insertable<ConnectionsTable>,
): Promise<ConnectionRow> {
  return insertRowReturning(db, 'connections', row);
}

export async function findConnection(db: Kysely<Database>, id: number): Promise<ConnectionRow | undefined> {
  return db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listConnections(db: Kysely<Database>, accountId: number): Promise<ConnectionRow[]> {
  return db.selectFrom('connections').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** A page of an account's connections, oldest first. */
export async function connectionsPage(
  db: Kysely<Database>,
  accountId: number,
  afterId: number | undefined,
  take: number,
): Promise<ConnectionRow[]> {
  return pageAfterId(
    db.selectFrom('connections').selectAll().where('account_id', '=', accountId),
    afterId,
    take,
  ).execute();
}

/**
 * The feeds of an account's walls (live or deleted) that read with each of
 * its connections (their connector's `connectionId`): connection id → feed ids.
 */
export async function feedsByConnection(db: Kysely<Database>, accountId: number): Promise<Map<number, number[]>> {
  const rows = await db
    .selectFrom('feeds')
    .innerJoin('walls', 'walls.id', 'feeds.wall_id')
    .select(['feeds.id', 'feeds.connector'])
    .where('walls.account_id', '=', accountId)
    .where('feeds.connector', 'like', '%"connectionId"%')
    .orderBy('feeds.id')
    .execute();
  const out = new Map<number, number[]>();
  for (const row of rows) {
    let id: unknown;
    try {
      id = (JSON.parse(row.connector ?? 'null') as { connectionId?: unknown } | null)?.connectionId;
    } catch {
      continue;
    }
    if (typeof id !== 'number') continue;
    out.set(id, [...(out.get(id) ?? []), row.id]);
  }
  return out;
}

/**
 * Active connections whose token expires after `now` and within `windowMs`,
 * not warned of since the window of their current expiry opened: what the
 * expiry check warns of (`connection.expiring`).
 */
export async function connectionsToWarn(
  db: Kysely<Database>,
  now: number,
  windowMs: number,
  limit: number,
): Promise<ConnectionRow[]> {
  return db
    .selectFrom('connections')
    .selectAll()
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .where('expires_at', '<=', now + windowMs)
    .where((eb) =>
      eb.or([eb('expiry_warned_at', 'is', null), eb('expiry_warned_at', '<', eb('expires_at', '-', windowMs))]),
    )
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/**
 * Records that the expiry of a connection was warned of, once: only while it
 * still expires at `expiresAt` and was not warned of in this window by
 * another worker. True when this call set it (the store's trigger logs
 * `connection_expiring`, which webhooks send).
 */
export async function markExpiryWarned(
  db: Kysely<Database>,
  id: number,
  expiresAt: number,
  windowMs: number,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('connections')
    .set({ expiry_warned_at: now })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('expires_at', '=', expiresAt)
    .where((eb) => eb.or([eb('expiry_warned_at', 'is', null), eb('expiry_warned_at', '<', expiresAt - windowMs)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function updateConnection(
  db: Kysely<Database>,
  id: number,
  set: Updateable<ConnectionsTable>,
): Promise<boolean> {
  const res = await db.updateTable('connections').set(set).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Records that the network refused the connection (status and why), once:
 * true when this call changed the status. The store's trigger
 * (migrations/0032_connection_events.ts) logs it in the same transaction, and
 * webhooks send `connection.failed` from that row: whoever calls this — the
 * ingest runtime, the OAuth refresh job — announces nothing more.
 */
export async function markConnectionFailed(
  db: Kysely<Database>,
  id: number,
  status: string,
  detail: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('connections')
    .set({ status, status_detail: detail.slice(0, 1000), status_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '!=', status)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteConnection(db: Kysely<Database>, id: number): Promise<boolean> {
  const res = await db.deleteFrom('connections').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
