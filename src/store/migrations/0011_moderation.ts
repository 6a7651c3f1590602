import type { Kysely } from 'kysely';
import { addColumns } from './helpers.js';

export const description =
  'moderation mode and rules of walls and feeds, post states (existing posts: approved); new list indexes';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Moderation mode of walls (auto | manual) and feeds (null = the
  // wall's), and each post's state (approved | pending | rejected)
  // with its last decision: who, when, why. Every post stored before
  // is approved, every wall auto: nothing public changes.
  await addColumns(db, 'walls', [
    ['moderation', 'text', (c) => c.notNull().defaultTo('auto')],
    // The wall's ordered moderation rules (JSON of src/domain/rules.ts `Rule[]`).
    ['rules', 'text', (c) => c.notNull().defaultTo('[]')],
  ]);
  await addColumns(db, 'feeds', [['moderation', 'text']]);
  await addColumns(db, 'posts', [
    ['state', 'text', (c) => c.notNull().defaultTo('approved')],
    ['decided_by', 'text'],
    ['decided_at', 'bigint'],
    ['decision_reason', 'text'],
  ]);
  // The public list filters on wall, hidden and state (both equalities)
  // and orders by pin, created, id: the covering index takes the state.
  await db.schema
    .createIndex('posts_wall_public')
    .on('posts')
    .columns(['wall_id', 'hidden', 'state', 'pin', 'created_at', 'id', 'media'])
    .execute();
  await db.schema.dropIndex('posts_wall_list_cover').execute();
  // The queue: a wall's posts of one state, oldest (or newest) first.
  await db.schema
    .createIndex('posts_wall_state')
    .on('posts')
    .columns(['wall_id', 'state', 'created_at', 'id'])
    .execute();
}
