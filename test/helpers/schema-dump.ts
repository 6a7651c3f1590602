// A store's schema as plain data, so that two stores can be compared with
// toEqual: SQLite's sqlite_master (tables, indexes, triggers with their SQL)
// and every table's columns and indexes; PostgreSQL's columns, constraints,
// indexes, triggers and functions from its catalogs. Kysely's own migration
// bookkeeping is left out (its timestamps differ from store to store).
import { sql, type Kysely } from 'kysely';
import type { Store } from '../../src/store/store.js';

type Rows = Record<string, unknown>[];

async function rows(db: Kysely<unknown>, query: ReturnType<typeof sql>): Promise<Rows> {
  return (await query.execute(db)).rows as Rows;
}

export async function dumpSchema(store: Store): Promise<Record<string, Rows>> {
  const db = store.db as unknown as Kysely<unknown>;
  if (store.name === 'sqlite') {
    const master = await rows(
      db,
      sql`select type, name, tbl_name, sql from sqlite_master where name not like 'kysely_%' order by type, name`,
    );
    const dump: Record<string, Rows> = { master };
    for (const { name } of master.filter((m) => m.type === 'table') as { name: string }[]) {
      dump[`${name}.columns`] = await rows(db, sql`select * from pragma_table_info(${name}) order by cid`);
      dump[`${name}.indexes`] = await rows(
        db,
        sql`select name, "unique", origin, partial from pragma_index_list(${name}) order by name`,
      );
    }
    return dump;
  }
  return {
    columns: await rows(
      db,
      sql`select table_name, column_name, ordinal_position, data_type, is_nullable, column_default
          from information_schema.columns
          where table_schema = 'public' and table_name not like 'kysely_%'
          order by table_name, ordinal_position`,
    ),
    constraints: await rows(
      db,
      sql`select c.conrelid::regclass::text as table_name, c.conname, pg_get_constraintdef(c.oid) as definition
          from pg_constraint c join pg_namespace n on n.oid = c.connamespace
          where n.nspname = 'public' and c.conrelid::regclass::text not like 'kysely_%'
          order by 1, 2`,
    ),
    indexes: await rows(
      db,
      sql`select tablename, indexname, indexdef from pg_indexes
          where schemaname = 'public' and tablename not like 'kysely_%' order by tablename, indexname`,
    ),
    triggers: await rows(
      db,
      sql`select event_object_table, trigger_name, event_manipulation, action_timing, action_orientation, action_statement
          from information_schema.triggers where trigger_schema = 'public'
          order by event_object_table, trigger_name, event_manipulation`,
    ),
    functions: await rows(
      db,
      sql`select p.proname, pg_get_function_identity_arguments(p.oid) as args, p.prosrc
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public' order by 1, 2`,
    ),
    sequences: await rows(
      db,
      sql`select sequence_name, data_type from information_schema.sequences
          where sequence_schema = 'public' order by sequence_name`,
    ),
  };
}

/** Every row of every table (Kysely's bookkeeping too), ordered, for "nothing changed" checks. */
export async function dumpRows(store: Store): Promise<Record<string, Rows>> {
  const db = store.db as unknown as Kysely<unknown>;
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name).sort();
  const dump: Record<string, Rows> = {};
  for (const table of tables) {
    const all = await rows(db, sql`select * from ${sql.table(table)}`);
    dump[table] = all
      .map((r) => JSON.stringify(r))
      .sort()
      .map((r) => JSON.parse(r) as Record<string, unknown>);
  }
  return dump;
}
