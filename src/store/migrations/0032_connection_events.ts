// The change log tells a connection's trouble, whoever caused it — a poll the
// network refused (the ingest runtime's markConnectionFailed), a token refresh
// that failed (the OAuth refresh job), the expiry check, a manual SQL edit —
// so webhooks send `connection.failed` and `connection.expiring` the one way
// every other event is sent (src/webhooks/runtime.ts reads the change log):
// - `connection_failed`: the status became failing, expired or revoked;
// - `connection_expiring`: expiry_warned_at was set (the expiry check found
//   the token expiring within CONNECTION_EXPIRY_WARN_DAYS and not yet warned of).
// A connection belongs to an account, not a wall: its rows have wall_id 0
// (no wall's change feed shows them) and name the connection in connection_id.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addColumns, statementTrigger } from './helpers.js';

export const description = 'the change log logs connection.failed / connection.expiring (connection_id)';

const FAILED = `('failing', 'expired', 'revoked')`;

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await addColumns(db, 'changes', [['connection_id', 'bigint']]);
  for (const statement of dialect === 'postgres' ? postgres() : sqlite()) await sql.raw(statement).execute(db);
}

function sqlite(): string[] {
  const now = `cast(unixepoch('subsec') * 1000 as integer)`;
  const insert = `insert into changes (account_id, wall_id, post_id, feed_id, connection_id, kind, visible, at)`;
  return [
    `create trigger changes_connection_failed after update of status on connections for each row
       when new.status <> old.status and new.status in ${FAILED} begin
       ${insert} values (new.account_id, 0, null, null, new.id, 'connection_failed', 0, ${now});
     end`,
    `create trigger changes_connection_expiring after update of expiry_warned_at on connections for each row
       when new.expiry_warned_at is not null and new.expiry_warned_at is not old.expiry_warned_at begin
       ${insert} values (new.account_id, 0, null, null, new.id, 'connection_expiring', 0, ${now});
     end`,
  ];
}

function postgres(): string[] {
  const insert = `insert into changes (account_id, wall_id, post_id, feed_id, connection_id, kind, visible, at)`;
  const now = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  const numberAtCommit = `insert into change_log_pending (txid) values (pg_current_xact_id()) on conflict do nothing;`;
  return [
    `create function wallery_log_connection() returns trigger language plpgsql as $$
     begin
       ${insert} select n.account_id, 0, null, null, n.id, 'connection_failed', 0, ${now}
         from new_rows n join old_rows o on o.id = n.id
         where n.status <> o.status and n.status in ${FAILED} order by n.id;
       if found then ${numberAtCommit} end if;
       ${insert} select n.account_id, 0, null, null, n.id, 'connection_expiring', 0, ${now}
         from new_rows n join old_rows o on o.id = n.id
         where n.expiry_warned_at is not null and n.expiry_warned_at is distinct from o.expiry_warned_at order by n.id;
       if found then ${numberAtCommit} end if;
       return null;
     end $$`,
    statementTrigger('changes_connection', 'update', 'connections', 'wallery_log_connection'),
  ];
}
