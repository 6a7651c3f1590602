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
