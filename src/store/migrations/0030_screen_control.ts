// The live control of a wall's event screen (src/domain/screen-control.ts):
// one row of screen state per wall that has ever been controlled — paused,
// the post in the spotlight and until when, the slide shown on demand and
// until when, the posts hidden from the screen, a layout, theme and QR
// banner override, the on/off schedule (a JSON list), and a version that
// every change moves on — and the wall's announcement and sponsor slides.
// On PostgreSQL both tables announce their wall like the tables of 0006, so
// a control issued on one instance reaches the screens held by every other.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { announcingTriggers, belongsTo, createIndexes, createTableWithId } from './helpers.js';

export const description = "a wall's live screen state (pause, spotlight, slides shown, hidden posts) and its slides";

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('screen_states')
    .addColumn('wall_id', 'bigint', (c) => c.primaryKey().references('walls.id').onDelete('cascade'))
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('spotlight_post_id', 'bigint')
    .addColumn('spotlight_until', 'bigint')
    .addColumn('slide_id', 'bigint')
    .addColumn('slide_until', 'bigint')
    // JSON list of post ids kept off the screen (they stay on the wall elsewhere)
    .addColumn('hidden_post_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('layout', 'text')
    .addColumn('theme', 'text')
    .addColumn('qr', 'integer', (c) => c.notNull().defaultTo(1))
    // JSON list of {at, action: on|off|message, message?}
    .addColumn('schedule', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await createTableWithId(db, dialect, 'screen_slides')
    .addColumn('wall_id', 'bigint', belongsTo('walls'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_url', 'text')
    .addColumn('sponsor', 'integer', (c) => c.notNull().defaultTo(0))
    // shown in the rotation after every this many posts; null: on demand only
    .addColumn('every_posts', 'integer')
    .addColumn('starts_at', 'bigint')
    .addColumn('ends_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await createIndexes(db, 'screen_slides', { screen_slides_wall: ['wall_id', 'id'] });
  if (dialect !== 'postgres') return;
  for (const table of ['screen_states', 'screen_slides']) {
    await sql
      .raw(
        `create function wallery_announce_${table}() returns trigger language plpgsql as $$
         begin
           if tg_op = 'INSERT' then
             perform wallery_announce('walls', array(select distinct wall_id from new_rows order by 1));
           elsif tg_op = 'UPDATE' then
             perform wallery_announce('walls', array(select wall_id from new_rows union select wall_id from old_rows order by 1));
           else
             perform wallery_announce('walls', array(select distinct wall_id from old_rows order by 1));
           end if;
           return null;
         end $$`,
      )
      .execute(db);
    for (const statement of announcingTriggers(table)) await sql.raw(statement).execute(db);
  }
}
