// What needs an operator's attention across the walls a token sees — the
// console's Home in one read: posts waiting, failing feeds and webhooks,
// accounts near their daily call limit, today's impressions and clicks.
import type { Kysely } from 'kysely';
import { dayText } from '../domain/analytics.js';
import { isoOrNull, utcDay } from '../domain/dates.js';
import { scopeFilter, type AccountScope } from '../domain/roles.js';
import { redactedUrl } from '../domain/webhook-url.js';
import type { QuotaCounter } from '../quota/quota.js';
import { ATTENTION_MAX, type AttentionRecord } from '../schemas/attention.js';
import {
  accountsAtShare,
  attentionScope,
  failedFeeds,
  failedWebhooks,
  wallFiguresOfDay,
  wallsWithPending,
} from '../store/attention.js';
import type { Database } from '../store/schema.js';

/** An account is near its quota from this share of its daily call limit on. */
export const NEAR_QUOTA_PERCENT = 80;
/**
 * The store's copy of today's calls trails a shared (Redis) counter by
 * seconds: accounts from this share on are read again from the counter.
 */
const CANDIDATE_PERCENT = 60;

const listed = <T>(items: readonly T[]) => ({ total: items.length, items: items.slice(0, ATTENTION_MAX) });

/** How full an account's day is: calls per limit (a limit of 0 with calls is full). */
const fullness = (a: { calls: number; dailyCallLimit: number }) =>
  a.dailyCallLimit > 0 ? a.calls / a.dailyCallLimit : Infinity;

/**
 * The accounts at NEAR_QUOTA_PERCENT or more of their limit today, the
 * fullest first; today's calls as the running server's quota counter knows
 * them (as the usage report counts them), when it is given.
 */
async function nearQuota(
  db: Kysely<Database>,
  accountIds: number[] | null,
  day: number,
  quota?: Pick<QuotaCounter, 'todayCalls'>,
) {
  const candidates = await accountsAtShare(db, accountIds, day, CANDIDATE_PERCENT);
  const counted = await Promise.all(
    candidates.map(async (a) => (quota ? { ...a, calls: await quota.todayCalls(a.accountId, day, a.calls) } : a)),
  );
  return counted
    .filter((a) => a.calls > 0 && a.calls * 100 >= a.dailyCallLimit * NEAR_QUOTA_PERCENT)
    .sort((a, b) => fullness(b) - fullness(a) || a.accountId - b.accountId);
}

/** What needs attention on the accounts of `scope` (null: every account) at `now`. */
export async function attention(
  db: Kysely<Database>,
  scope: AccountScope,
  now: number,
  quota?: Pick<QuotaCounter, 'todayCalls'>,
): Promise<AttentionRecord> {
  const accountIds = scopeFilter(scope);
  const day = utcDay(now);
  const [seen, pending, feeds, webhooks, full, figures] = await Promise.all([
    attentionScope(db, accountIds),
    wallsWithPending(db, accountIds),
    failedFeeds(db, accountIds, ATTENTION_MAX),
    failedWebhooks(db, accountIds, ATTENTION_MAX),
    nearQuota(db, accountIds, day, quota),
    wallFiguresOfDay(db, accountIds, day),
  ]);
  const walls = [...figures].sort(
    (a, b) => b.impressions - a.impressions || b.clicks - a.clicks || a.wallId - b.wallId,
  );
  return {
    day: dayText(day),
    accounts: seen.accounts,
    walls: seen.walls,
    pending: { posts: pending.reduce((sum, w) => sum + w.pending, 0), walls: listed(pending) },
    failingFeeds: {
      total: feeds.total,
      items: feeds.rows.map((f) => ({ ...f, lastErrorAt: isoOrNull(f.lastErrorAt) })),
    },
    failingWebhooks: {
      total: webhooks.total,
      // a query may carry the receiver's token: origin and path only, for any role
      items: webhooks.rows.map((w) => ({ ...w, url: redactedUrl(w.url), lastErrorAt: isoOrNull(w.lastErrorAt) })),
    },
    nearQuota: listed(full),
    today: {
      impressions: figures.reduce((sum, w) => sum + w.impressions, 0),
      clicks: figures.reduce((sum, w) => sum + w.clicks, 0),
      walls: listed(walls),
    },
  };
}
