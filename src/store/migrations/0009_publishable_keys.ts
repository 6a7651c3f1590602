// On PostgreSQL the table announces the key's wall on every write (like the
// tables of migration 0006), so a revocation reaches every instance's key
// cache and open streams at once.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { announcingTriggers, belongsTo, createTableWithId } from './helpers.js';

export const description = 'publishable (embed) keys of walls';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createTableWithId(db, dialect, 'publishable_keys')
    .addColumn('wall_id', 'bigint', belongsTo('walls'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('publishable_keys_wall').on('publishable_keys').columns(['wall_id', 'id']).execute();
  if (dialect !== 'postgres') return;
  const ids = (rows: string) => `select r.wall_id from ${rows} r`;
  const announce = (query: string) =>
    `perform wallery_announce('walls', array(select distinct id from (${query}) x(id) order by id));`;
  const statements = [
    `create function wallery_announce_publishable_keys() returns trigger language plpgsql as $$
         begin
           if tg_op = 'INSERT' then ${announce(ids('new_rows'))}
           elsif tg_op = 'UPDATE' then ${announce(`${ids('new_rows')} union ${ids('old_rows')}`)}
           else ${announce(ids('old_rows'))}
           end if;
           return null;
         end $$`,
    ...announcingTriggers('publishable_keys'),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
