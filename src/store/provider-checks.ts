// The moderation providers' store (issue 32): each answer a provider gave
// about a post (provider_checks; two workers asking for the same post write
// the same row). The posts waiting for a provider (decided_by
// `check:provider`) are read and decided by src/store/waiting-posts.ts.
import type { Kysely } from 'kysely';
import type { ProviderAnswer } from '../domain/provider-rules.js';
import type { Database } from './schema.js';

const CHUNK = 500;

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
