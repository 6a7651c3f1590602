// The change log. Store triggers write one row per change
// of a post (created, updated, approved, rejected, hidden, deleted), of a
// wall's life (deleted, restored) and of a feed's health (failing,
// recovered), in the transaction that made the change — whoever made it: an
// instance, a worker, the CLI, a manual SQL edit. Rows are numbered in
// COMMIT order (`seq`), which is what lets a reader that remembers the last
// number it saw (the change feed, the webhook dispatcher) never miss or
// repeat a change:
// - SQLite has one writer at a time, so AUTOINCREMENT order is commit order.
// - PostgreSQL commits concurrently, and a number drawn inside a transaction
//   can commit after a higher one (a reader past the higher one would skip
//   it forever). Rows are inserted unnumbered; a DEFERRED constraint trigger
//   numbers them just before commit, after taking the lock on the single
//   `change_log` row, which it holds until the transaction has committed:
//   numbers are drawn and made visible one transaction at a time. The lock is
//   the last one the transaction takes, so it cannot close a deadlock.
import { sql, type Kysely } from 'kysely';
import { idColumn, idColumnType, type DialectName } from '../dialect.js';
import { statementTrigger } from './helpers.js';

export const description = 'the change log (change feed, webhooks) and the triggers that fill it';

/** Visible to the public reads: approved and not hidden (the wall's own state aside). */
const VISIBLE = (row: string) => `case when ${row}.state = 'approved' and ${row}.hidden = 0 then 1 else 0 end`;

/** What an update of a post was, from its row before (`o`) and after (`n`). */
const UPDATE_KIND = (o: string, n: string) => `case
  when ${n}.state <> ${o}.state and ${n}.state in ('approved', 'rejected') then ${n}.state
  when ${n}.hidden = 1 and ${o}.hidden = 0 then 'hidden'
  else 'updated' end`;

const FEED_KIND = (n: string) => `case when ${n}.failing = 1 then 'feed_failing' else 'feed_recovered' end`;
const WALL_KIND = (n: string) => `case when ${n}.deleted_at is null then 'wall_restored' else 'wall_deleted' end`;

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const postgres = dialect === 'postgres';
  let table = db.schema.createTable('changes');
  // PostgreSQL: `id` is insertion order, `seq` the commit order set by the commit trigger
  table = postgres
    ? table
        .addColumn('id', idColumnType(dialect), idColumn(dialect))
        .addColumn('seq', 'bigint')
        .addColumn('txid', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
    : table.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('wall_id', 'bigint', (c) => c.notNull())
    .addColumn('post_id', 'bigint')
    .addColumn('feed_id', 'bigint')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('changes_wall').on('changes').columns(['wall_id', 'seq']).execute();
  await db.schema.createIndex('changes_account').on('changes').columns(['account_id', 'seq']).execute();
  await db.schema.createIndex('changes_at').on('changes').column('at').execute();
  if (postgres) {
    await db.schema.createIndex('changes_seq').on('changes').column('seq').unique().execute();
    await sql`create index changes_unnumbered on changes (txid) where seq is null`.execute(db);
  }

  // one row: the last number drawn (PostgreSQL) and how far history was pruned
  await db.schema
    .createTable('change_log')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('pruned_through', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into change_log (id, last_seq, pruned_through) values (1, 0, 0)`.execute(db);

  for (const statement of postgres ? postgresTriggers() : sqliteTriggers()) await sql.raw(statement).execute(db);
}

function sqliteTriggers(): string[] {
  const now = `cast(unixepoch('subsec') * 1000 as integer)`;
  const insert = `insert into changes (account_id, wall_id, post_id, feed_id, kind, visible, at)`;
  return [
    `create trigger changes_post_insert after insert on posts for each row begin
       ${insert} select w.account_id, new.wall_id, new.id, new.feed_id, 'created', ${VISIBLE('new')}, ${now}
       from walls w where w.id = new.wall_id;
     end`,
    // `new.rev = old.rev`: the statement itself, not the revision trigger's own write of the row
    `create trigger changes_post_update after update on posts for each row when new.rev = old.rev begin
       ${insert} select w.account_id, new.wall_id, new.id, new.feed_id, ${UPDATE_KIND('old', 'new')}, ${VISIBLE('new')}, ${now}
       from walls w where w.id = new.wall_id;
     end`,
    // a purge (posts of a deleted wall) is told by the wall's own `wall_deleted`
    `create trigger changes_post_delete after delete on posts for each row begin
       ${insert} select w.account_id, old.wall_id, old.id, old.feed_id, 'deleted', 0, ${now}
       from walls w where w.id = old.wall_id and w.deleted_at is null;
     end`,
    `create trigger changes_wall_life after update of deleted_at on walls for each row
       when (old.deleted_at is null) <> (new.deleted_at is null) begin
       ${insert} values (new.account_id, new.id, null, null, ${WALL_KIND('new')}, 0, ${now});
     end`,
    `create trigger changes_feed_health after update of failing on feed_ingest_state for each row
       when old.failing <> new.failing begin
       ${insert} select w.account_id, w.id, null, new.feed_id, ${FEED_KIND('new')}, 0, ${now}
       from feeds f join walls w on w.id = f.wall_id where f.id = new.feed_id;
     end`,
  ];
}

function postgresTriggers(): string[] {
  const insert = `insert into changes (account_id, wall_id, post_id, feed_id, kind, visible, at)`;
  const now = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
  // every statement that logged something asks for numbering at commit (once per transaction)
  const numberAtCommit = `insert into change_log_pending (txid) values (pg_current_xact_id()) on conflict do nothing;`;
  const logging = (name: string, body: string) =>
    `create function wallery_log_${name}() returns trigger language plpgsql as $$
     begin
       ${body}
       if found then ${numberAtCommit} end if;
       return null;
     end $$`;
  return [
    `create table change_log_pending (txid xid8 primary key)`,
    // runs at commit: the lock on change_log's row is held until the commit is visible
    `create function wallery_number_changes() returns trigger language plpgsql as $$
     declare
       n bigint;
       base bigint;
     begin
       select count(*) into n from changes where txid = new.txid and seq is null;
       update change_log set last_seq = last_seq + n where id = 1 returning last_seq - n into base;
       update changes c set seq = base + r.rn, at = ${now}
         from (select id, row_number() over (order by id) as rn from changes where txid = new.txid and seq is null) r
         where c.id = r.id;
       delete from change_log_pending where txid = new.txid;
       return null;
     end $$`,
    `create constraint trigger change_log_number after insert on change_log_pending
       deferrable initially deferred for each row execute function wallery_number_changes()`,
    logging(
      'post_insert',
      `${insert} select w.account_id, n.wall_id, n.id, n.feed_id, 'created', ${VISIBLE('n')}, ${now}
         from new_rows n join walls w on w.id = n.wall_id order by n.id;`,
    ),
    logging(
      'post_update',
      `${insert} select w.account_id, n.wall_id, n.id, n.feed_id, ${UPDATE_KIND('o', 'n')}, ${VISIBLE('n')}, ${now}
         from new_rows n join old_rows o on o.id = n.id join walls w on w.id = n.wall_id order by n.id;`,
    ),
    logging(
      'post_delete',
      `${insert} select w.account_id, o.wall_id, o.id, o.feed_id, 'deleted', 0, ${now}
         from old_rows o join walls w on w.id = o.wall_id where w.deleted_at is null order by o.id;`,
    ),
    logging(
      'wall_life',
      `${insert} select n.account_id, n.id, null, null, ${WALL_KIND('n')}, 0, ${now}
         from new_rows n join old_rows o on o.id = n.id
         where (o.deleted_at is null) <> (n.deleted_at is null) order by n.id;`,
    ),
    logging(
      'feed_health',
      `${insert} select w.account_id, w.id, null, n.feed_id, ${FEED_KIND('n')}, 0, ${now}
         from new_rows n join old_rows o on o.feed_id = n.feed_id
         join feeds f on f.id = n.feed_id join walls w on w.id = f.wall_id
         where n.failing <> o.failing order by n.feed_id;`,
    ),
    statementTrigger('changes_post_insert', 'insert', 'posts', 'wallery_log_post_insert'),
    statementTrigger('changes_post_update', 'update', 'posts', 'wallery_log_post_update'),
    statementTrigger('changes_post_delete', 'delete', 'posts', 'wallery_log_post_delete'),
    statementTrigger('changes_wall_life', 'update', 'walls', 'wallery_log_wall_life'),
    statementTrigger('changes_feed_health', 'update', 'feed_ingest_state', 'wallery_log_feed_health'),
  ];
}
