// Feeds of a wall, with their post count and ingestion state (store/ingest.ts)
// once a poller has seen them.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { ModerationMode } from '../domain/lists.js';
import type { Database, FeedsTable } from './schema.js';
import { pageAfterId } from './paging.js';
import { insertRow } from './rows.js';
import { reusableQuery } from './reusable.js';

export type FeedRow = Selectable<FeedsTable>;

/** What the public API shows of a feed (W1/C1). */
export type PublicFeedRow = Pick<FeedRow, 'id' | 'name' | 'source' | 'source_type' | 'created_at' | 'updated_at'>;

/**
 * A wall's feeds in id order, as the public API shows them. W1/C1 ask it on
 * every call: compiled once, and only the shown columns (a feed's connector
 * JSON is the largest of its values and never shown).
 */
export const publicFeedsOf: (db: Kysely<Database>, wallId: number) => Promise<PublicFeedRow[]> = reusableQuery(
  (db, wallId: number) =>
    db
      .selectFrom('feeds')
      .select(['id', 'name', 'source', 'source_type', 'created_at', 'updated_at'])
      .where('wall_id', '=', wallId)
      .orderBy('id'),
);

/** A feed with its post count and its ingestion state (the st_ columns: null before a poller saw it). */
export type FeedWithState = FeedRow & {
  post_count: number;
  st_next_poll_at: number | null;
  st_interval_s: number | null;
  st_failures: number | null;
  st_failing: number | null;
  st_last_error: string | null;
  st_last_error_at: number | null;
  st_last_polled_at: number | null;
  st_last_success_at: number | null;
  st_last_warnings: number | null;
  st_last_warning: string | null;
  st_last_warning_at: number | null;
};

function feedsWithState(db: Kysely<Database>) {
  return db
    .selectFrom('feeds')
    .leftJoin('feed_ingest_state as st', 'st.feed_id', 'feeds.id')
    .selectAll('feeds')
    .select([
      'st.next_poll_at as st_next_poll_at',
      'st.interval_s as st_interval_s',
      'st.consecutive_failures as st_failures',
      'st.failing as st_failing',
      'st.last_error as st_last_error',
      'st.last_error_at as st_last_error_at',
      'st.last_polled_at as st_last_polled_at',
      'st.last_success_at as st_last_success_at',
      'st.last_warnings as st_last_warnings',
      'st.last_warning as st_last_warning',
      'st.last_warning_at as st_last_warning_at',
    ])
    .select((eb) =>
      eb
        .selectFrom('posts')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('posts.feed_id', '=', 'feeds.id')
        .as('post_count'),
    );
}

/** A page of the wall's feeds with their state, in id order. */
export async function feedsPage(
  db: Kysely<Database>,
  wallId: number,
  afterId: number | undefined,
  take: number,
): Promise<FeedWithState[]> {
  const q = feedsWithState(db).where('feeds.wall_id', '=', wallId);
  return (await pageAfterId(q, afterId, take).execute()) as FeedWithState[];
}

/** The feed with its state; with `wallId`, only a feed of that wall. */
export async function findFeedWithState(
  db: Kysely<Database>,
  feedId: number,
  wallId?: number,
): Promise<FeedWithState | undefined> {
  let q = feedsWithState(db).where('feeds.id', '=', feedId);
  if (wallId !== undefined) q = q.where('feeds.wall_id', '=', wallId);
  return (await q.executeTakeFirst()) as FeedWithState | undefined;
}

export const insertFeed = (db: Kysely<Database>, values: Insertable<FeedsTable>) => insertRow(db, 'feeds', values);

export async function updateFeedRow(db: Kysely<Database>, id: number, set: Updateable<FeedsTable>): Promise<void> {
  await db.updateTable('feeds').set(set).where('id', '=', id).execute();
}

/** "Poll now": the feed is due at once (a feed already due keeps its time). */
export async function makeFeedDue(db: Kysely<Database>, feedId: number, now: number): Promise<void> {
  await db
    .updateTable('feed_ingest_state')
    .set({ next_poll_at: now })
    .where('feed_id', '=', feedId)
    .where('next_poll_at', '>', now)
    .execute();
}

/** Deletes a feed with its posts and their product tags. */
export async function deleteFeedRows(db: Kysely<Database>, feedId: number): Promise<void> {
  const posts = db.selectFrom('posts').select('id').where('feed_id', '=', feedId);
  await db.deleteFrom('post_products').where('post_id', 'in', posts).execute();
  await db.deleteFrom('posts').where('feed_id', '=', feedId).execute();
  await db.deleteFrom('feeds').where('id', '=', feedId).execute();
}

/** A feed Wallery fills itself (operators' custom posts, attendee uploads): what names it on its wall. */
export interface BuiltInFeed {
  name: string;
  source: string;
  sourceType: string;
}

/**
 * The wall's built-in feed of this kind, made on first need (the oldest one
 * when several exist); `moderation`, when given, is the mode a new one gets.
 */
export async function builtInFeedId(
  trx: Kysely<Database>,
  wallId: number,
  feed: BuiltInFeed,
  now: number,
  moderation?: ModerationMode | null,
): Promise<number> {
  const existing = await trx
    .selectFrom('feeds')
    .select('id')
    .where('wall_id', '=', wallId)
    .where('source', '=', feed.source)
    .where('source_type', '=', feed.sourceType)
    .orderBy('id')
    .executeTakeFirst();
  if (existing) return existing.id;
  const created = await trx
    .insertInto('feeds')
    .values({
      wall_id: wallId,
      name: feed.name,
      source: feed.source,
      source_type: feed.sourceType,
      ...(moderation !== undefined ? { moderation } : {}),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}
