// The change log tells a hold: a post a rule put in the approval queue —
// arriving held, or held later (the image check's decision on a post that
// waited for it, rules re-applied to a visible post) — is logged `held`
// instead of `created` or `updated`, so webhooks can send `post.held` and the
// change feed shows it. A post the moderation mode alone made pending, or one
// waiting for an automatic check (`check:image`), is not held by anything yet.
// Only the two post triggers of 0015 change; their other kinds stay as they were.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

export const description = 'the change log logs a post a rule holds as `held` (webhook `post.held`)';

const VISIBLE = (row: string) => `case when ${row}.state = 'approved' and ${row}.hidden = 0 then 1 else 0 end`;

/** Pending by a rule's decision (`rule:<id>`). */
const HELD = (row: string) => `${row}.state = 'pending' and ${row}.decided_by like 'rule:%'`;

const INSERT_KIND = (n: string) => `case when ${HELD(n)} then 'held' else 'created' end`;

/** 0015's kinds, and `held` when a rule's hold is new: the post was not pending, or another decision held it. */
const UPDATE_KIND = (o: string, n: string) => `case
  when ${n}.state <> ${o}.state and ${n}.state in ('approved', 'rejected') then ${n}.state
  when ${n}.hidden = 1 and ${o}.hidden = 0 then 'hidden'
  when ${HELD(n)} and (${o}.state <> 'pending' or coalesce(${o}.decided_by, '') <> ${n}.decided_by) then 'held'
  else 'updated' end`;

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  for (const statement of dialect === 'postgres' ? postgres() : sqlite()) await sql.raw(statement).execute(db);
}

function sqlite(): string[] {
  const now = `cast(unixepoch('subsec') * 1000 as integer)`;
  const insert = `insert into changes (account_id, wall_id, post_id, feed_id, kind, visible, at)`;
  return [
    'drop trigger changes_post_insert',
    'drop trigger changes_post_update',
    `create trigger changes_post_insert after insert on posts for each row begin
       ${insert} select w.account_id, new.wall_id, new.id, new.feed_id, ${INSERT_KIND('new')}, ${VISIBLE('new')}, ${now}
       from walls w where w.id = new.wall_id;
     end`,
    // `new.rev = old.rev`: the statement itself, not the revision trigger's own write of the row
    `create trigger changes_post_update after update on posts for each row when new.rev = old.rev begin
       ${insert} select w.account_id, new.wall_id, new.id, new.feed_id, ${UPDATE_KIND('old', 'new')}, ${VISIBLE('new')}, ${now}
       from walls w where w.id = new.wall_id;
     end`,
  ];
}

function postgres(): string[] {
  const insert = `insert into changes (account_id, wall_id, post_id, feed_id, kind, visible, at)`;
  const now = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  const numberAtCommit = `insert into change_log_pending (txid) values (pg_current_xact_id()) on conflict do nothing;`;
  // the functions 0015's statement triggers call, replaced in place (the triggers stay)
  const logging = (name: string, body: string) =>
    `create or replace function wallery_log_${name}() returns trigger language plpgsql as $$
     begin
       ${body}
       if found then ${numberAtCommit} end if;
       return null;
     end $$`;
  return [
    logging(
      'post_insert',
      `${insert} select w.account_id, n.wall_id, n.id, n.feed_id, ${INSERT_KIND('n')}, ${VISIBLE('n')}, ${now}
         from new_rows n join walls w on w.id = n.wall_id order by n.id;`,
    ),
    logging(
      'post_update',
      `${insert} select w.account_id, n.wall_id, n.id, n.feed_id, ${UPDATE_KIND('o', 'n')}, ${VISIBLE('n')}, ${now}
         from new_rows n join old_rows o on o.id = n.id join walls w on w.id = n.wall_id order by n.id;`,
    ),
  ];
}
