// Inserting a row into any table keyed by a generated `id`, written once.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from './schema.js';

/** The tables whose rows are keyed by a generated `id`. */
type IdTable = { [T in keyof Database]: 'id' extends keyof Database[T] ? T : never }[keyof Database];

/** Inserts the row; its id. */
export async function insertRow<T extends IdTable>(
  db: Kysely<Database>,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  const { id } = await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Inserts the row; the row as stored (its id and defaults filled in). */
export async function insertRowReturning<T extends IdTable>(
  db: Kysely<Database>,
  table: T,
  values: Insertable<Database[T]>,
): Promise<Selectable<Database[T]>> {
  return db.insertInto(table).values(values).returningAll().executeTakeFirstOrThrow();
}
