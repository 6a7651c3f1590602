// The moderation providers' store (issue 32): each answer a provider gave
// about a post (provider_checks), the posts waiting for a provider (pending,
// decided_by `check:provider`: the posts table is the queue — resumable,
// nothing leased; two workers asking for the same post write the same row),
// and their decision once the answer is in.
import type { Kysely } from 'kysely';
import type { Arrival } from '../domain/arrival.js';
import { PROVIDER_CHECK_BY, type ProviderAnswer } from '../domain/provider-rules.js';
import { RULE_FLAG_COLUMNS } from '../domain/post-fields.js';
import type { Database } from './schema.js';

const CHUNK = 500;

/** Posts waiting for a provider, oldest first, with what the rules read and their wall's rules and mode. */
export async function postsWaitingForProvider(db: Kysely<Database>, limit: number) {
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
      ...RULE_FLAG_COLUMNS.map((c) => `posts.${c}` as const),
      'walls.rules',
      'walls.moderation as wall_moderation',
      'feeds.moderation as feed_moderation',
    ])
    .where('posts.decided_by', '=', PROVIDER_CHECK_BY)
    .where('posts.state', '=', 'pending')
    .where('walls.deleted_at', 'is', null)
    .orderBy('posts.id')
    .limit(limit)
    .execute();
}

/** How many posts wait for a provider. */
export async function providerWaitingCount(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('decided_by', '=', PROVIDER_CHECK_BY)
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Writes a provider's answer about a post (replacing an earlier one of the same provider). */
export async function saveProviderAnswer(
  db: Kysely<Database>,
  postId: number,
  provider: string,
  answer: { model: string; protocol: string; labels: { label: string; score: number }[] },
  now: number,
): Promise<void> {
  const row = {
    model: answer.model.slice(0, 200),
    protocol: answer.protocol,
    labels: JSON.stringify(answer.labels.map((l) => ({ label: l.label.slice(0, 100), score: l.score }))),
    checked_at: now,
  };
  await db
    .insertInto('provider_checks')
    .values({ post_id: postId, provider, ...row })
    .onConflict((oc) => oc.columns(['post_id', 'provider']).doUpdateSet(row))
    .execute();
}

/** The stored answers about each post, by provider name (a post no provider answered for: an empty record). */
export async function providerAnswersOf(
  db: Kysely<Database>,
  postIds: readonly number[],
): Promise<Map<number, Record<string, ProviderAnswer>>> {
  const out = new Map<number, Record<string, ProviderAnswer>>(postIds.map((id) => [id, {}]));
  for (let i = 0; i < postIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('provider_checks')
      .select(['post_id', 'provider', 'model', 'protocol', 'labels'])
      .where('post_id', 'in', postIds.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) {
      const answers = out.get(Number(r.post_id));
      if (answers === undefined) continue;
      answers[r.provider] = {
        ok: true,
        model: r.model,
        protocol: r.protocol,
        labels: JSON.parse(r.labels) as { label: string; score: number }[],
      };
    }
  }
  return out;
}

/**
 * Decides a post that waited for a provider — unless someone decided it
 * meanwhile. Like every update of a post, it bumps its revision and writes a
 * change-log row (webhooks deliver it). Whether it was decided.
 */
export async function decideProviderWaitingPost(
  db: Kysely<Database>,
  postId: number,
  arrival: Arrival,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('posts')
    .set({
      state: arrival.state,
      decided_by: arrival.by,
      decided_at: arrival.by === null ? null : now,
      decision_reason: arrival.reason,
      decision_detail: arrival.detail ? JSON.stringify(arrival.detail) : null,
    })
    .where('id', '=', postId)
    .where('decided_by', '=', PROVIDER_CHECK_BY)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
