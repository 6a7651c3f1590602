// What several migrations write the same way: a table keyed by a generated
// id, a column that belongs to another table's row, columns added to a table
// that has rows, a table's indexes, PostgreSQL's statement-level triggers.
// Migrations are history: a helper must keep producing the SQL its
// migrations ran (a different need is a new helper, not a change here).
import type { ColumnDataType, ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { idColumn, idColumnType, type DialectName } from '../dialect.js';

/** A column's constraints, as `addColumn` takes them. */
export type ColumnConstraints = (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/** A new table whose first column is its generated id (the dialect's auto-increment key). */
export function createTableWithId<T extends string>(
  db: Kysely<unknown>,
  dialect: DialectName,
  table: T,
): CreateTableBuilder<T, 'id'> {
  return db.schema.createTable(table).addColumn('id', idColumnType(dialect), idColumn(dialect));
}

/** A required reference to a row of `table`: the row holding it is deleted with that row. */
export function belongsTo(table: string): ColumnConstraints {
  return (c) => c.notNull().references(`${table}.id`).onDelete('cascade');
}

/**
 * The columns of a secret stored as its SHA-256 only (user keys, operator
 * tokens): the hash (unique), the prefix that tells secrets apart, when it
 * was made, last used and revoked. For a create-table builder's `$call`.
 */
export function secretColumns(hashColumn: string) {
  return <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
    table
      .addColumn(hashColumn, 'text', (c) => c.notNull().unique())
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint');
}

/** A column added to a table that has rows: name, type and constraints (none: nullable). */
export type AddedColumn = readonly [name: string, type: ColumnDataType, constraints?: ColumnConstraints];

/** Adds the columns to `table` in order, one ALTER TABLE each (SQLite adds one column a statement). */
export async function addColumns(db: Kysely<unknown>, table: string, columns: readonly AddedColumn[]): Promise<void> {
  for (const [name, type, constraints] of columns)
    await db.schema.alterTable(table).addColumn(name, type, constraints).execute();
}

/** Creates indexes on `table`, in order: each index's name and the columns it covers. */
export async function createIndexes(
  db: Kysely<unknown>,
  table: string,
  indexes: Readonly<Record<string, string[]>>,
): Promise<void> {
  for (const [name, columns] of Object.entries(indexes))
    await db.schema.createIndex(name).on(table).columns(columns).execute();
}

/** The transition tables a statement-level trigger of each event sees. */
const TRANSITION_TABLES = {
  insert: 'new table as new_rows',
  update: 'old table as old_rows new table as new_rows',
  delete: 'old table as old_rows',
} as const;

/** PostgreSQL: a trigger that runs `fn()` once after each statement of `event` on `table`, with its transition tables. */
export function statementTrigger(
  name: string,
  event: keyof typeof TRANSITION_TABLES,
  table: string,
  fn: string,
): string {
  return `create trigger ${name} after ${event} on ${table}
       referencing ${TRANSITION_TABLES[event]} for each statement execute function ${fn}()`;
}

/**
 * PostgreSQL: the triggers through which every write to `table` announces
 * itself with its function `wallery_announce_<table>()`, and a TRUNCATE with
 * wallery_announce_all() (the functions of migration 0006).
 */
export function announcingTriggers(table: string): string[] {
  const fn = `wallery_announce_${table}`;
  return [
    statementTrigger('wallery_announce_insert', 'insert', table, fn),
    statementTrigger('wallery_announce_update', 'update', table, fn),
    statementTrigger('wallery_announce_delete', 'delete', table, fn),
    `create trigger wallery_announce_truncate after truncate on ${table}
       for each statement execute function wallery_announce_all()`,
  ];
}
