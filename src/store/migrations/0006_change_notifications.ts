import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { announcingTriggers } from './helpers.js';

export const description = 'PostgreSQL: triggers announce every write to the other instances (SQLite: nothing)';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  // PostgreSQL tells every instance about every committed write, whoever
  // made it (src/store/change-listener.ts). SQLite needs nothing: its
  // instances notice another process's commit through data_version.
  if (dialect !== 'postgres') return;
  for (const statement of changeNotificationSql()) await sql.raw(statement).execute(db);
}

/**
 * The tables whose rows a cached read depends on, and the id each row
 * announces: a wall (its cached reads) or an account (its keys and every
 * cached read of its walls). Tables no cached read shows (usage, audit log,
 * operator tokens, ingestion state, idempotency keys) announce nothing.
 * Part of migration 0006 as it ran: a change here needs a new migration.
 */
const ANNOUNCING_TABLES: readonly {
  table: string;
  kind: 'walls' | 'accounts';
  /** the announced id of a transition-table row `r` */
  id: string;
  /** joined to `r` to find the id */
  join?: string;
  /** an UPDATE announces only rows where one of these changed (default: every row); needs `id`, no `join` */
  watched?: readonly string[];
}[] = [
  { table: 'accounts', kind: 'accounts', id: 'r.id' },
  // an update of last_used_at alone (once a minute per key in use) changes nothing a reader sees
  { table: 'user_keys', kind: 'accounts', id: 'r.account_id', watched: ['account_id', 'key_hash', 'revoked_at'] },
  { table: 'products', kind: 'accounts', id: 'r.account_id' },
  { table: 'walls', kind: 'walls', id: 'r.id' },
  { table: 'feeds', kind: 'walls', id: 'r.wall_id' },
  { table: 'posts', kind: 'walls', id: 'r.wall_id' },
  // a tag removed with its post finds no post here; the post's own delete announced the wall
  { table: 'post_products', kind: 'walls', id: 'p.wall_id', join: 'join posts p on p.id = r.post_id' },
];

/** More distinct ids than this in one statement announce `all` (a NOTIFY payload must stay under 8000 bytes). */
const MAX_ANNOUNCED_IDS = 100;

/**
 * Statement-level AFTER triggers with transition tables: one NOTIFY per
 * statement on channel `wallery_changes` (CHANGE_CHANNEL of
 * change-listener.ts), sent at commit (never on rollback),
 * naming the distinct wall or account ids the statement touched:
 * `{"walls" : [7011,7012]}`; `{"all":true}` for a TRUNCATE or a statement
 * touching more than MAX_ANNOUNCED_IDS of them.
 */
function changeNotificationSql(): string[] {
  const statements = [
    `create function wallery_announce(kind text, ids bigint[]) returns void language plpgsql as $$
     begin
       if cardinality(ids) = 0 then return; end if;
       perform pg_notify('wallery_changes', case when cardinality(ids) > ${MAX_ANNOUNCED_IDS}
         then '{"all":true}' else json_build_object(kind, ids)::text end);
     end $$`,
    `create function wallery_announce_all() returns trigger language plpgsql as $$
     begin
       perform pg_notify('wallery_changes', '{"all":true}');
       return null;
     end $$`,
  ];
  for (const t of ANNOUNCING_TABLES) {
    const ids = (rows: string) => `select ${t.id} from ${rows} r ${t.join ?? ''}`;
    // an update announces the ids before and after: a row may move to another wall or account
    const updated = t.watched
      ? `select v.id from new_rows r join old_rows o on o.id = r.id
           cross join lateral (values (${t.id}), (${t.id.replace(/^r\./, 'o.')})) v(id)
           where (${t.watched.map((c) => `r.${c}`).join(', ')}) is distinct from (${t.watched.map((c) => `o.${c}`).join(', ')})`
      : `${ids('new_rows')} union ${ids('old_rows')}`;
    const announce = (query: string) =>
      `perform wallery_announce('${t.kind}', array(select distinct id from (${query}) x(id) order by id));`;
    statements.push(
      `create function wallery_announce_${t.table}() returns trigger language plpgsql as $$
       begin
         if tg_op = 'INSERT' then ${announce(ids('new_rows'))}
         elsif tg_op = 'UPDATE' then ${announce(updated)}
         else ${announce(ids('old_rows'))}
         end if;
         return null;
       end $$`,
      ...announcingTriggers(t.table),
    );
  }
  return statements;
}
