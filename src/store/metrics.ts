// What a `/metrics` scrape reads from the store: a few aggregate rows, never
// one row per feed or endpoint, so a scrape costs the same with 10 feeds or
// 10,000 (each is one indexed-or-scanned aggregate over a small table).
import { sql, type Kysely } from 'kysely';
import { latestChangeSeq } from './change-log.js';
import type { Database } from './schema.js';

export type FeedState = 'healthy' | 'failing' | 'disabled';

export interface FeedStateSummary {
  state: FeedState;
  /** feeds with a connector in this state (walls not deleted) */
  feeds: number;
  /** of them, due now (next poll time passed) */
  due: number;
  /** how far behind the most overdue of them is, ms (0 when none is due) */
  lagMs: number;
}

/**
 * Feeds with a connector per state, and how overdue the due ones are. Grouped
 * by the two columns the state is made of: four rows at most.
 */
export async function feedStateSummary(db: Kysely<Database>, now: number): Promise<FeedStateSummary[]> {
  const rows = await db
    .selectFrom('feed_ingest_state as s')
    .innerJoin('feeds as f', 'f.id', 's.feed_id')
    .innerJoin('walls as w', 'w.id', 'f.wall_id')
    .where('f.connector', 'is not', null)
    .where('w.deleted_at', 'is', null)
    .select([
      'f.enabled',
      's.failing',
      (eb) => eb.fn.countAll<number>().as('feeds'),
      sql<number>`sum(case when s.next_poll_at <= ${now} then 1 else 0 end)`.as('due'),
      sql<number | null>`min(case when s.next_poll_at <= ${now} then s.next_poll_at end)`.as('oldest_due'),
    ])
    .groupBy(['f.enabled', 's.failing'])
    .execute();
  const out = new Map<FeedState, FeedStateSummary>(
    (['healthy', 'failing', 'disabled'] as const).map((state) => [state, { state, feeds: 0, due: 0, lagMs: 0 }]),
  );
  for (const r of rows) {
    const state: FeedState = Number(r.enabled) === 0 ? 'disabled' : Number(r.failing) === 1 ? 'failing' : 'healthy';
    const s = out.get(state)!;
    s.feeds += Number(r.feeds);
    // a disabled feed is never polled: it is not late
    if (state === 'disabled') continue;
    s.due += Number(r.due ?? 0);
    if (r.oldest_due !== null) s.lagMs = Math.max(s.lagMs, now - Number(r.oldest_due));
  }
  return [...out.values()];
}

export interface WebhookSummary {
  /** endpoints per state; `paused`: switched off by their owner */
  endpoints: Record<'active' | 'failing' | 'disabled' | 'paused', number>;
  /**
   * Change-log entries after the cursors of the endpoints still delivering
   * (enabled, not disabled): an upper bound of the events waiting, since an
   * endpoint skips the kinds it did not subscribe to.
   */
  backlog: number;
}

export async function webhookSummary(db: Kysely<Database>): Promise<WebhookSummary> {
  const [rows, latest] = await Promise.all([
    db
      .selectFrom('webhooks')
      .select([
        'enabled',
        'state',
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.sum<number>('last_seq').as('seqs'),
      ])
      .groupBy(['enabled', 'state'])
      .execute(),
    latestChangeSeq(db),
  ]);
  const summary: WebhookSummary = { endpoints: { active: 0, failing: 0, disabled: 0, paused: 0 }, backlog: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    if (Number(r.enabled) === 0) summary.endpoints.paused += n;
    else summary.endpoints[r.state] += n;
    if (Number(r.enabled) === 1 && r.state !== 'disabled') summary.backlog += n * latest - Number(r.seqs ?? 0);
  }
  summary.backlog = Math.max(0, summary.backlog);
  return summary;
}

/** Why pending posts wait (src/metrics: `wallery_moderation_queue_posts`). */
export type QueueReason = 'mode' | 'rule' | 'automatic' | 'check' | 'person';

/**
 * Pending posts of live walls by why they wait, from who decided (`decided_by`):
 * nobody (the moderation mode), a rule (explained when it kept a detail), an
 * automatic check still to come (`check:…`), or a person. One grouped scan of
 * the pending posts (posts_wall_state), five rows at most.
 */
export async function moderationQueueSummary(db: Kysely<Database>): Promise<Record<QueueReason, number>> {
  const reason = sql<QueueReason>`case
    when p.decided_by is null then 'mode'
    when p.decided_by like 'rule:%' and p.decision_detail is not null then 'automatic'
    when p.decided_by like 'rule:%' then 'rule'
    when p.decided_by like 'check:%' then 'check'
    else 'person' end`;
  const rows = await db
    .selectFrom('posts as p')
    .innerJoin('walls as w', 'w.id', 'p.wall_id')
    .where('p.state', '=', 'pending')
    .where('w.deleted_at', 'is', null)
    .select([reason.as('reason'), (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(reason)
    .execute();
  const out: Record<QueueReason, number> = { mode: 0, rule: 0, automatic: 0, check: 0, person: 0 };
  for (const r of rows) out[r.reason] = Number(r.n);
  return out;
}
