// The reads behind the console's Home (src/manage/attention.ts): what needs
// an operator's attention across the live walls of some accounts (null:
// every account) — one query per kind, each starting from the walls or
// accounts so that it runs on their indexes (posts by wall and state,
// analytics counters by wall and day, usage by account and day).
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database, WebhookState } from './schema.js';
import { liveWall } from './walls.js';

/** The accounts' ids as a filter of `column`, or no filter (null: every account). */
const inAccounts = (column: string, accountIds: number[] | null) =>
  accountIds === null ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.ref(column)} in (${sql.join(accountIds)})`;

/** The live walls of the accounts. */
const liveWalls = (db: Kysely<Database>, accountIds: number[] | null) =>
  db.selectFrom('walls').where(liveWall).where(inAccounts('walls.account_id', accountIds));

/** How many accounts and live walls the filter sees. */
export async function attentionScope(
  db: Kysely<Database>,
  accountIds: number[] | null,
): Promise<{ accounts: number; walls: number }> {
  const [accounts, walls] = await Promise.all([
    db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(inAccounts('accounts.id', accountIds))
      .executeTakeFirstOrThrow(),
    liveWalls(db, accountIds)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { accounts: Number(accounts.n), walls: Number(walls.n) };
}

export interface PendingWall {
  wallId: number;
  wallName: string;
  accountId: number;
  pending: number;
}

/** The live walls with posts waiting for a decision, most first (then by id). */
export async function wallsWithPending(db: Kysely<Database>, accountIds: number[] | null): Promise<PendingWall[]> {
  const counted = liveWalls(db, accountIds)
    .select((eb) => [
      'walls.id as wall_id',
      'walls.name as wall_name',
      'walls.account_id as account_id',
      eb
        .selectFrom('posts')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('posts.wall_id', '=', 'walls.id')
        .where('posts.state', '=', 'pending')
        .as('pending'),
    ])
    .as('w');
  const rows = await db
    .selectFrom(counted)
    .selectAll()
    .where('w.pending', '>', 0)
    .orderBy('w.pending', 'desc')
    .orderBy('w.wall_id')
    .execute();
  return rows.map((r) => ({
    wallId: Number(r.wall_id),
    wallName: r.wall_name,
    accountId: Number(r.account_id),
    pending: Number(r.pending),
  }));
}

export interface FailedFeed {
  feedId: number;
  feedName: string;
  wallId: number;
  wallName: string;
  failures: number;
  failing: boolean;
  lastError: string | null;
  lastErrorAt: number | null;
}

/**
 * The enabled feeds of live walls whose last poll failed: the repeatedly
 * failing first, then the most failures in a row, then by id; `take` of
 * them, and how many there are.
 */
export async function failedFeeds(
  db: Kysely<Database>,
  accountIds: number[] | null,
  take: number,
): Promise<{ total: number; rows: FailedFeed[] }> {
  const failed = db
    .selectFrom('feeds')
    .innerJoin('walls', 'walls.id', 'feeds.wall_id')
    .innerJoin('feed_ingest_state as st', 'st.feed_id', 'feeds.id')
    .where(liveWall)
    .where(inAccounts('walls.account_id', accountIds))
    .where('feeds.enabled', '=', 1)
    .where('st.consecutive_failures', '>', 0);
  const [count, rows] = await Promise.all([
    failed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    failed
      .select([
        'feeds.id as feed_id',
        'feeds.name as feed_name',
        'walls.id as wall_id',
        'walls.name as wall_name',
        'st.consecutive_failures as failures',
        'st.failing as failing',
        'st.last_error as last_error',
        'st.last_error_at as last_error_at',
      ])
      .orderBy('st.failing', 'desc')
      .orderBy('st.consecutive_failures', 'desc')
      .orderBy('feeds.id')
      .limit(take)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      feedId: Number(r.feed_id),
      feedName: r.feed_name,
      wallId: Number(r.wall_id),
      wallName: r.wall_name,
      failures: Number(r.failures),
      failing: Number(r.failing) === 1,
      lastError: r.last_error,
      lastErrorAt: r.last_error_at === null ? null : Number(r.last_error_at),
    })),
  };
}

export interface FailedWebhook {
  webhookId: number;
  accountId: number;
  accountName: string;
  url: string;
  state: Exclude<WebhookState, 'active'>;
  failures: number;
  lastErrorAt: number | null;
}

/** The webhook endpoints that are failing or were disabled by failures: disabled first, then by id; `take` of them, and how many. */
export async function failedWebhooks(
  db: Kysely<Database>,
  accountIds: number[] | null,
  take: number,
): Promise<{ total: number; rows: FailedWebhook[] }> {
  const failed = db
    .selectFrom('webhooks')
    .innerJoin('accounts', 'accounts.id', 'webhooks.account_id')
    .where(inAccounts('webhooks.account_id', accountIds))
    .where('webhooks.state', '<>', 'active');
  const [count, rows] = await Promise.all([
    failed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    failed
      .select([
        'webhooks.id as webhook_id',
        'webhooks.account_id as account_id',
        'accounts.name as account_name',
        'webhooks.url as url',
        'webhooks.state as state',
        'webhooks.consecutive_failures as failures',
        'webhooks.last_error_at as last_error_at',
      ])
      // 'disabled' sorts before 'failing'
      .orderBy('webhooks.state')
      .orderBy('webhooks.id')
      .limit(take)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      webhookId: Number(r.webhook_id),
      accountId: Number(r.account_id),
      accountName: r.account_name,
      url: r.url,
      state: r.state as FailedWebhook['state'],
      failures: Number(r.failures),
      lastErrorAt: r.last_error_at === null ? null : Number(r.last_error_at),
    })),
  };
}

export interface AccountCalls {
  accountId: number;
  accountName: string;
  calls: number;
  dailyCallLimit: number;
}

/**
 * The accounts whose stored calls on `day` are at least `percent` % of
 * their daily call limit (the store's count: the caller may read a live
 * counter). Integers only: PostgreSQL types the parameter as the bigint it
 * multiplies.
 */
export async function accountsAtShare(
  db: Kysely<Database>,
  accountIds: number[] | null,
  day: number,
  percent: number,
): Promise<AccountCalls[]> {
  const rows = await db
    .selectFrom('accounts')
    .innerJoin('usage_daily as u', (j) => j.onRef('u.account_id', '=', 'accounts.id').on('u.day', '=', day))
    .select(['accounts.id as account_id', 'accounts.name as name', 'accounts.daily_call_limit as limit', 'u.calls'])
    .where(inAccounts('accounts.id', accountIds))
    .where('u.calls', '>', 0)
    .where(sql<SqlBool>`u.calls * 100 >= accounts.daily_call_limit * ${Math.round(percent)}`)
    .orderBy('accounts.id')
    .execute();
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    accountName: r.name,
    calls: Number(r.calls),
    dailyCallLimit: Number(r.limit),
  }));
}

export interface WallDayFigures {
  wallId: number;
  wallName: string;
  impressions: number;
  clicks: number;
}

/** The live walls' impressions and clicks of every kind on `day`, those with any. */
export async function wallFiguresOfDay(
  db: Kysely<Database>,
  accountIds: number[] | null,
  day: number,
): Promise<WallDayFigures[]> {
  const rows = await liveWalls(db, accountIds)
    .innerJoin('analytics_daily as a', (j) => j.onRef('a.wall_id', '=', 'walls.id').on('a.day', '=', day))
    .select([
      'walls.id as wall_id',
      'walls.name as wall_name',
      sql<number>`sum(case when a.type = 'impression' then a.n else 0 end)`.as('impressions'),
      sql<number>`sum(case when a.type in ('click', 'cta_click', 'product_click') then a.n else 0 end)`.as('clicks'),
    ])
    .groupBy(['walls.id', 'walls.name'])
    .execute();
  return rows
    .map((r) => ({
      wallId: Number(r.wall_id),
      wallName: r.wall_name,
      impressions: Number(r.impressions),
      clicks: Number(r.clicks),
    }))
    .filter((w) => w.impressions > 0 || w.clicks > 0);
}
