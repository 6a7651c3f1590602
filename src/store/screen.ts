// A wall's live screen state and its slides (migration 0030). The state row
// is made on the first change; every change to it or to the wall's slides
// moves its version on (one statement: the triggers of 0030 announce the
// wall on PostgreSQL, and the version tells screens which state is newest).
import type { Kysely, Selectable } from 'kysely';
import type { Database, ScreenSlidesTable, ScreenStatesTable } from './schema.js';

export type ScreenStateRow = Selectable<ScreenStatesTable>;
export type ScreenSlideRow = Selectable<ScreenSlidesTable>;
export type ScreenStateFields = Omit<ScreenStateRow, 'wall_id' | 'version' | 'updated_at'>;

export async function findScreenState(db: Kysely<Database>, wallId: number): Promise<ScreenStateRow | null> {
  return (await db.selectFrom('screen_states').selectAll().where('wall_id', '=', wallId).executeTakeFirst()) ?? null;
}

/** Writes the state with the next version; returns that version. */
export async function saveScreenState(
  db: Kysely<Database>,
  wallId: number,
  fields: ScreenStateFields,
  version: number,
  now: number,
): Promise<void> {
  await db
    .insertInto('screen_states')
    .values({ wall_id: wallId, ...fields, version, updated_at: now })
    .onConflict((oc) => oc.column('wall_id').doUpdateSet({ ...fields, version, updated_at: now }))
    .execute();
}

/** Moves the version on (a slide changed): screens read the state again. */
export async function bumpScreenVersion(db: Kysely<Database>, wallId: number, now: number): Promise<void> {
  await db
    .insertInto('screen_states')
    .values({ wall_id: wallId, version: 1, updated_at: now })
    .onConflict((oc) =>
      oc.column('wall_id').doUpdateSet((eb) => ({ version: eb('screen_states.version', '+', 1), updated_at: now })),
    )
    .execute();
}

export async function listScreenSlides(db: Kysely<Database>, wallId: number): Promise<ScreenSlideRow[]> {
  return db.selectFrom('screen_slides').selectAll().where('wall_id', '=', wallId).orderBy('id').execute();
}

export async function findScreenSlide(
  db: Kysely<Database>,
  wallId: number,
  slideId: number,
): Promise<ScreenSlideRow | null> {
  return (
    (await db
      .selectFrom('screen_slides')
      .selectAll()
      .where('wall_id', '=', wallId)
      .where('id', '=', slideId)
      .executeTakeFirst()) ?? null
  );
}

export async function countScreenSlides(db: Kysely<Database>, wallId: number): Promise<number> {
  const row = await db
    .selectFrom('screen_slides')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('wall_id', '=', wallId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type SlideFields = Omit<ScreenSlideRow, 'id' | 'wall_id' | 'created_at' | 'updated_at'>;

export async function insertScreenSlide(
  db: Kysely<Database>,
  wallId: number,
  fields: SlideFields,
  now: number,
): Promise<number> {
  const row = await db
    .insertInto('screen_slides')
    .values({ wall_id: wallId, ...fields, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateScreenSlide(
  db: Kysely<Database>,
  slideId: number,
  fields: Partial<SlideFields>,
  now: number,
): Promise<void> {
  await db
    .updateTable('screen_slides')
    .set({ ...fields, updated_at: now })
    .where('id', '=', slideId)
    .execute();
}

export async function deleteScreenSlide(db: Kysely<Database>, slideId: number): Promise<void> {
  await db.deleteFrom('screen_slides').where('id', '=', slideId).execute();
}
