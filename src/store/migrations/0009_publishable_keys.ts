// On PostgreSQL the table announces the key's wall on every write (like the
// tables of migration 0006), so a revocation reaches every instance's key
// cache and open streams at once.
import { sql, type Kysely } from 'kysely';
import { idColumn, idColumnType, type DialectName } from '../dialect.js';

export const description = 'publishable (embed) keys of walls';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('publishable_keys')
    .addColumn('id', idColumnType(dialect), idColumn(dialect))
    .addColumn('wall_id', 'bigint', (c) => c.notNull().references('walls.id').onDelete('cascade'))
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
    `create trigger wallery_announce_insert after insert on publishable_keys
           referencing new table as new_rows for each statement execute function wallery_announce_publishable_keys()`,
    `create trigger wallery_announce_update after update on publishable_keys
           referencing old table as old_rows new table as new_rows for each statement execute function wallery_announce_publishable_keys()`,
    `create trigger wallery_announce_delete after delete on publishable_keys
           referencing old table as old_rows for each statement execute function wallery_announce_publishable_keys()`,
    `create trigger wallery_announce_truncate after truncate on publishable_keys
           for each statement execute function wallery_announce_all()`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
