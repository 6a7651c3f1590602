// What moderation rules read of stored posts (src/domain/rules.ts judges them).
import type { Kysely } from 'kysely';
import type { PostState } from '../domain/lists.js';
import { RULE_FLAG_COLUMNS } from '../domain/post-fields.js';
import type { Database } from './schema.js';

/** A page of the wall's posts in these states, in id order after `afterId`, with the columns rules judge. */
export async function postsToJudge(
  db: Kysely<Database>,
  wallId: number,
  states: readonly PostState[],
  afterId: number,
  take: number,
) {
  // the flags: those of the registry that rules see (a new one is read with no change here)
  return db
    .selectFrom('posts')
    .select([
      'id',
      'wall_id',
      'created_at',
      'state',
      'content',
      'author_name',
      'username',
      'network_name',
      'media',
      'lang',
      ...RULE_FLAG_COLUMNS,
    ])
    .where('wall_id', '=', wallId)
    .where('state', 'in', [...states])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(take)
    .execute();
}
