// Posts waiting for an automatic check (pending, decided_by `check:image` or
// `check:provider`): the posts table is the queue — resumable, nothing
// leased — read by the check's runner oldest first, and each decided once
// the check's facts are in, unless someone decided it meanwhile.
import type { Kysely } from 'kysely';
import type { Arrival } from '../domain/arrival.js';
import { RULE_FLAG_COLUMNS } from '../domain/post-fields.js';
import { decisionColumns } from './post-columns.js';
import type { Database } from './schema.js';

/** Posts waiting for the check `by`, oldest first, with what the rules read and their wall's rules and mode. */
export async function postsWaitingFor(db: Kysely<Database>, by: string, limit: number) {
  return db
    .selectFrom('posts')
    .innerJoin('walls', 'walls.id', 'posts.wall_id')
    .innerJoin('feeds', 'feeds.id', 'posts.feed_id')
    .select([
      'posts.id',
      'posts.wall_id',
      'posts.created_at',
      'posts.media_state',
      'posts.content',
      'posts.author_name',
      'posts.username',
      'posts.network_name',
      'posts.media',
      // where the post's pictures are (a provider is shown them)
      'posts.picture',
      'posts.file',
      'posts.file_thumb',
      'posts.media_file',
      'posts.children',
      'posts.alt',
      'posts.user_picture',
      'posts.lang',
      'posts.author_created_at',
      'posts.text_hash',
      'posts.rights_state',
      ...RULE_FLAG_COLUMNS.map((c) => `posts.${c}` as const),
      'walls.rules',
      'walls.moderation as wall_moderation',
      'feeds.moderation as feed_moderation',
    ])
    .where('posts.decided_by', '=', by)
    .where('posts.state', '=', 'pending')
    .where('walls.deleted_at', 'is', null)
    .orderBy('posts.id')
    .limit(limit)
    .execute();
}

/**
 * Decides a post that waited for the check `by` — unless someone decided it
 * meanwhile. Like every update of a post, it bumps its revision and writes a
 * change-log row (webhooks deliver it). Whether it was decided.
 */
export async function decideWaitingPost(
  db: Kysely<Database>,
  postId: number,
  by: string,
  arrival: Arrival,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('posts')
    .set(decisionColumns(arrival, now))
    .where('id', '=', postId)
    .where('decided_by', '=', by)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
