// All SQL of connections (migrations/0031_connections.ts). The secret column
// is only ever written sealed (src/connections/secrets.ts) and only read by
// the code that opens it for a poll or a token refresh.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { ConnectionsTable, Database } from './schema.js';
import { insertRowReturning } from './rows.js';

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
 * true when this call changed the status (the caller announces it).
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
