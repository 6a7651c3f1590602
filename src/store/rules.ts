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
  return db
    .selectFrom('posts')
    .select(JUDGED)
    .where('wall_id', '=', wallId)
    .where('state', 'in', [...states])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(take)
    .execute();
}

/** The columns rules judge: those of the registry's flags that rules see (a new one is read with no change here). */
const JUDGED = [
  'id',
  'wall_id',
  'state',
  'content',
  'author_name',
  'username',
  'network_name',
  'media',
  'created_at',
  'author_created_at',
  'text_hash',
  'lang',
  // the `rights` rule's
  'rights_state',
  ...RULE_FLAG_COLUMNS,
] as const;

/**
 * A page of every post of the wall (whatever its state), in the order the
 * history rules (duplicate, burst) read them: created time, then id, after
 * the post `after` (null: from the first). One range of posts_wall_created.
 */
export async function postsInCreatedOrder(
  db: Kysely<Database>,
  wallId: number,
  after: { created_at: number; id: number } | null,
  take: number,
) {
  let q = db.selectFrom('posts').select(JUDGED).where('wall_id', '=', wallId);
  if (after !== null)
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '>', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
      ]),
    );
  return q.orderBy('created_at').orderBy('id').limit(take).execute();
}
