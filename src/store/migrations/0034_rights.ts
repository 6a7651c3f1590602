// Rights management (src/domain/rights.ts, src/rights/):
// - posts.rights_state: the post's rights state (null: never asked), and
//   posts.rights_hold: 1 while its wall requires rights it lacks. The public
//   reads' predicate (src/store/posts.ts visiblePost) and the change log's
//   `visible` treat a held post like a hidden one, so every public view —
//   v2, the embed, its live stream, the hosted page, webhooks — leaves it out
//   through the one predicate. The list's covering index takes the column.
// - walls.rights_required (none | shoppable | all) and walls.rights_auto
//   (off | approved | shoppable: the wall's asking rule).
// - post_rights: one row per post ever asked, the evidence kept with it (the
//   request's text, id and link, the answer's id, link, text and times). It
//   is not tied to the posts table: the legal team's evidence outlives a post
//   removed from the wall, so it keeps the post's link, author and network.
// - rights_events: the evidence trail, one row per step (requested, granted,
//   an answer edited, recorded by hand, …).
// - rights_optouts: authors never asked again (declined, blocked the brand,
//   put there by an operator), per account.
// - rights_settings: an account's request template, grant hashtag, decline
//   words, limits, and which connection asks on each network (JSON).
// The change log logs a rights state change as `rights_<state>` (webhooks
// `post.rights_granted`, …).
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { addColumns, belongsTo, createIndexes, createTableWithId } from './helpers.js';

export const description =
  'rights management: post rights state and hold, wall requirement, evidence, opt-outs, settings; change kinds rights_*';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await addColumns(db, 'posts', [
    ['rights_state', 'text'],
    ['rights_hold', 'integer', (c) => c.notNull().defaultTo(0)],
  ]);
  await addColumns(db, 'walls', [
    ['rights_required', 'text', (c) => c.notNull().defaultTo('none')],
    ['rights_auto', 'text', (c) => c.notNull().defaultTo('off')],
  ]);
  // the public list's covering index, with the hold beside the other equalities
  await db.schema.dropIndex('posts_wall_public').execute();
  await db.schema
    .createIndex('posts_wall_public')
    .on('posts')
    .columns(['wall_id', 'hidden', 'rights_hold', 'state', 'pin', 'created_at', 'id', 'media'])
    .execute();

  await db.schema
    .createTable('post_rights')
    .addColumn('post_id', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('wall_id', 'bigint', (c) => c.notNull())
    // the post as it was asked about (kept if the post goes)
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('post_url', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    // reply | manual
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'bigint')
    .addColumn('request_text', 'text', (c) => c.notNull())
    // the request reply upstream: its id, link, and what the channel needs to find answers (JSON)
    .addColumn('request_id', 'text')
    .addColumn('request_url', 'text')
    .addColumn('request_ref', 'text')
    // the post's author upstream (an account id, a DID): only their answer counts
    .addColumn('author_ref', 'text')
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('answer_id', 'text')
    .addColumn('answer_url', 'text')
    .addColumn('answer_text', 'text')
    .addColumn('answered_at', 'bigint')
    .addColumn('answer_edited_at', 'bigint')
    // who settled it: `reply` (the author's answer upstream), a token name or `cli` (recorded by hand)
    .addColumn('decided_by', 'text')
    .addColumn('note', 'text')
    // the watcher: when it listens next, and the worker listening now (two workers never send a change twice)
    .addColumn('listen_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'post_rights', {
    post_rights_account_day: ['account_id', 'requested_at'],
    post_rights_author_day: ['account_id', 'author', 'requested_at'],
    post_rights_listen: ['listen_at'],
    post_rights_wall_state: ['wall_id', 'state'],
  });

  await createTableWithId(db, dialect, 'rights_events')
    .addColumn('post_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // a token name, `cli`, `reply` (the author upstream), `watcher` (an expiry)
    .addColumn('actor', 'text', (c) => c.notNull())
    // JSON: { state?, url?, id?, text?, note? }
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await createIndexes(db, 'rights_events', {
    rights_events_post: ['post_id', 'id'],
    rights_events_account: ['account_id', 'at'],
  });

  await db.schema
    .createTable('rights_optouts')
    .addColumn('account_id', 'bigint', belongsTo('accounts'))
    // src/domain/rights.ts authorKey: network:handle
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('post_id', 'bigint')
    .addColumn('note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rights_optouts_pk', ['account_id', 'author'])
    .execute();

  await db.schema
    .createTable('rights_settings')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    // JSON of RightsSettings (src/domain/rights.ts) with `connections`: { network: connectionId }
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  for (const statement of dialect === 'postgres' ? postgres() : sqlite()) await sql.raw(statement).execute(db);
}

// ---------- the change log (0015, 0027): a held post is not visible; a rights change is its own kind ----------

const VISIBLE = (row: string) =>
  `case when ${row}.state = 'approved' and ${row}.hidden = 0 and ${row}.rights_hold = 0 then 1 else 0 end`;

const HELD = (row: string) => `${row}.state = 'pending' and ${row}.decided_by like 'rule:%'`;

const INSERT_KIND = (n: string) => `case when ${HELD(n)} then 'held' else 'created' end`;

/** 0027's kinds, after `rights_<state>` when the rights state changed (the rights service changes nothing else in that write). */
const UPDATE_KIND = (o: string, n: string) => `case
  when coalesce(${n}.rights_state, '') <> coalesce(${o}.rights_state, '') and ${n}.rights_state is not null
    then 'rights_' || ${n}.rights_state
  when ${n}.state <> ${o}.state and ${n}.state in ('approved', 'rejected') then ${n}.state
  when ${n}.hidden = 1 and ${o}.hidden = 0 then 'hidden'
  when ${HELD(n)} and (${o}.state <> 'pending' or coalesce(${o}.decided_by, '') <> ${n}.decided_by) then 'held'
  else 'updated' end`;

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
