// Store side of ingestion: the per-feed state (schedule, cursor, failures,
// lease) and the post upsert. Every write is a short transaction of its own;
// nothing here runs while an upstream request is in flight.
import { arrivalHold } from './rights.js';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, FeedIngestStateTable, PostsTable } from './schema.js';
import { decisionColumns, postDefaults, UPSTREAM_COLUMNS } from './post-columns.js';
import { initialMediaStates, syncPostMedia } from './media-queue.js';
import type { Arrival } from '../domain/arrival.js';
import type { ModerationMode } from '../domain/lists.js';
import { explainedDecision, type Rule } from '../domain/rules.js';
import { historyPost, type HistoryFinding, type HistoryJudge } from '../domain/spam.js';

export type IngestStateRow = Selectable<FeedIngestStateTable>;

/** Makes a state row, due at once, for every feed with a connector that has none. */
export async function ensureIngestStates(db: Kysely<Database>, intervalS: number): Promise<void> {
  await db
    .insertInto('feed_ingest_state')
    .columns(['feed_id', 'interval_s', 'next_poll_at'])
    .expression((eb) =>
      eb
        .selectFrom('feeds')
        .select((s) => [
          'feeds.id',
          s.cast<number>(s.val(intervalS), 'integer').as('interval_s'),
          s.cast<number>(s.val(0), 'bigint').as('next_poll_at'),
        ])
        .where('feeds.connector', 'is not', null)
        .where((w) =>
          w.not(
            w.exists(w.selectFrom('feed_ingest_state as s').select('s.feed_id').whereRef('s.feed_id', '=', 'feeds.id')),
          ),
        ),
    )
    .onConflict((oc) => oc.column('feed_id').doNothing())
    .execute();
}

/**
 * Feeds to poll now, most overdue first: enabled, with a connector, on a live
 * wall, due (or whose connector setting changed since the cursor was made),
 * and not leased by a poller.
 */
export async function dueFeedIds(db: Kysely<Database>, now: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('feed_ingest_state as s')
    .innerJoin('feeds as f', 'f.id', 's.feed_id')
    .innerJoin('walls as w', 'w.id', 'f.wall_id')
    .select('s.feed_id')
    .where('f.connector', 'is not', null)
    .where('f.enabled', '=', 1)
    .where('w.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([eb('s.next_poll_at', '<=', now), eb('s.cursor_for', 'is distinct from', eb.ref('f.connector'))]),
    )
    .where((eb) => eb.or([eb('s.lease_until', 'is', null), eb('s.lease_until', '<', now)]))
    .orderBy('s.next_poll_at')
    .orderBy('s.feed_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.feed_id);
}

export interface FeedToPoll {
  feedId: number;
  wallId: number;
  accountId: number;
  connector: string | null;
  enabled: boolean;
  source: string;
  sourceType: string;
  wallProfanity: boolean;
  wallDeleted: boolean;
  /** the feed's moderation mode, or its wall's when the feed has none */
  moderation: ModerationMode;
  /** JSON of the wall's moderation rules */
  rules: string;
  state: IngestStateRow | null;
}

export async function loadFeedToPoll(db: Kysely<Database>, feedId: number): Promise<FeedToPoll | null> {
  const feed = await db
    .selectFrom('feeds as f')
    .innerJoin('walls as w', 'w.id', 'f.wall_id')
    .select([
      'f.id',
      'f.wall_id',
      'w.account_id',
      'f.connector',
      'f.enabled',
      'f.source',
      'f.source_type',
      'w.profanity',
      'w.deleted_at',
      'f.moderation as feed_moderation',
      'w.moderation as wall_moderation',
      'w.rules',
    ])
    .where('f.id', '=', feedId)
    .executeTakeFirst();
  if (!feed) return null;
  const state = await db.selectFrom('feed_ingest_state').selectAll().where('feed_id', '=', feedId).executeTakeFirst();
  return {
    feedId: feed.id,
    wallId: feed.wall_id,
    accountId: feed.account_id,
    connector: feed.connector,
    enabled: feed.enabled === 1,
    source: feed.source,
    sourceType: feed.source_type,
    wallProfanity: feed.profanity !== 0,
    wallDeleted: feed.deleted_at !== null,
    moderation: feed.feed_moderation ?? feed.wall_moderation,
    rules: feed.rules,
    state: state ?? null,
  };
}

/** What a poller read of a feed's schedule before deciding to poll it. */
export type ScheduleRead = Pick<IngestStateRow, 'next_poll_at' | 'last_polled_at' | 'cursor_for'>;

/**
 * Takes the feed's lease until `until` unless another poller holds a live one.
 * With `read`, only while the feed's schedule is still the one this poller
 * read: every finished poll (success or failure) moves `last_polled_at` and
 * `next_poll_at` and sets `cursor_for`, so a feed another poller finished
 * between this poller's read and its claim is not polled twice — also on the
 * first poll or after a setting change, when the feed is due whatever
 * `next_poll_at` says. Without `read` (a forced poll) only the lease counts.
 * True when this poller holds the lease now.
 */
export async function claimFeed(
  db: Kysely<Database>,
  feedId: number,
  owner: string,
  now: number,
  until: number,
  read: ScheduleRead | null,
): Promise<boolean> {
  let q = db
    .updateTable('feed_ingest_state')
    .set({ lease_owner: owner, lease_until: until })
    .where('feed_id', '=', feedId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_owner', '=', owner)]));
  if (read) {
    q = q
      .where('next_poll_at', '=', read.next_poll_at)
      .where('last_polled_at', 'is not distinct from', read.last_polled_at)
      .where('cursor_for', 'is not distinct from', read.cursor_for);
  }
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export interface SuccessPatch {
  cursorJson: string | null;
  cursorFor: string;
  validators: { url: string; etag: string | null; lastModified: string | null } | null;
  nextPollAt: number;
  intervalS: number;
  now: number;
  newPosts: number;
  updatedPosts: number;
  /** what the poll read but not as it should be; null: the document was not read (304) */
  warnings: string[] | null;
}

/** After a good poll: new cursor and schedule, failures cleared, lease released. False if the lease was lost. */
export async function recordSuccess(
  db: Kysely<Database>,
  feedId: number,
  owner: string,
  p: SuccessPatch,
): Promise<boolean> {
  const res = await db
    .updateTable('feed_ingest_state')
    .set({
      cursor_json: p.cursorJson,
      cursor_for: p.cursorFor,
      validators_url: p.validators?.url ?? null,
      etag: p.validators?.etag ?? null,
      last_modified: p.validators?.lastModified ?? null,
      next_poll_at: p.nextPollAt,
      interval_s: p.intervalS,
      consecutive_failures: 0,
      failing: 0,
      last_polled_at: p.now,
      last_success_at: p.now,
      last_new_posts: p.newPosts,
      last_updated_posts: p.updatedPosts,
      ...(p.warnings === null
        ? {}
        : {
            last_warnings: p.warnings.length,
            ...(p.warnings.length > 0
              ? { last_warning: p.warnings.join('; ').slice(0, 1000), last_warning_at: p.now }
              : {}),
          }),
      lease_owner: null,
      lease_until: null,
    })
    .where('feed_id', '=', feedId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export interface FailurePatch {
  error: string;
  nextPollAt: number;
  now: number;
  failingAfter: number;
  /** the connector setting the attempt was made with */
  cursorFor: string;
}

/** After a failed poll: one more failure (failing from `failingAfter` on), the error kept, lease released. Returns the failure count. */
export async function recordFailure(
  db: Kysely<Database>,
  feedId: number,
  owner: string,
  p: FailurePatch,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('feed_ingest_state')
      .select(['consecutive_failures', 'failing', 'cursor_for'])
      .where('feed_id', '=', feedId)
      .executeTakeFirst();
    if (!row) return 0;
    // a different setting than the stored cursor's: the old cursor is dropped
    const fresh = row.cursor_for !== p.cursorFor;
    const failures = (fresh ? 0 : row.consecutive_failures) + 1;
    await trx
      .updateTable('feed_ingest_state')
      .set({
        consecutive_failures: failures,
        failing: failures >= p.failingAfter ? 1 : row.failing,
        last_error: p.error.slice(0, 1000),
        last_error_at: p.now,
        last_polled_at: p.now,
        next_poll_at: p.nextPollAt,
        lease_owner: null,
        lease_until: null,
        ...(fresh
          ? { cursor_json: null, cursor_for: p.cursorFor, validators_url: null, etag: null, last_modified: null }
          : {}),
      })
      .where('feed_id', '=', feedId)
      .where('lease_owner', '=', owner)
      .execute();
    return failures;
  });
}

/** Gives the lease back without touching anything else (deferred, or stopped mid-poll); optionally moves the next poll. */
export async function releaseFeed(
  db: Kysely<Database>,
  feedId: number,
  owner: string,
  nextPollAt?: number,
): Promise<void> {
  await db
    .updateTable('feed_ingest_state')
    .set({ lease_owner: null, lease_until: null, ...(nextPollAt !== undefined ? { next_poll_at: nextPollAt } : {}) })
    .where('feed_id', '=', feedId)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Created instants of the feed's newest posts (for the adaptive interval). */
export async function recentPostTimes(db: Kysely<Database>, feedId: number, n: number): Promise<number[]> {
  const rows = await db
    .selectFrom('posts')
    .select('created_at')
    .where('feed_id', '=', feedId)
    .where('external_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(n)
    .execute();
  return rows.map((r) => r.created_at);
}

// ---------- posts ----------

/** The posts columns an ingested post takes from upstream (src/ingest/normalize.ts fills them). */
export type PostFields = Pick<Selectable<PostsTable>, (typeof UPSTREAM_COLUMNS)[number] | 'created_at' | 'updated_at'>;

export interface IngestedPost extends PostFields {
  external_id: string;
  /** only for a new post: arrives hidden (sensitive or profane) */
  hidden: number;
  /** only for a new post: the decision of the wall's rule that matched it, made in the parse worker; not stored */
  arrival?: Arrival;
  /** the language of its text, detected in the parse worker (absent: not detected, stored as null) */
  lang?: string | null;
  /** the position of that rule in the wall's list: rules before it that read the wall's history are asked first; not stored */
  arrivalRule?: number;
  /** the SimHash of its text (src/domain/spam.ts textHash), made in the parse worker; absent: not computed (null stored) */
  text_hash?: string | null;
}

/** What ingestion decided about the posts it writes: the store applies it, and decides nothing itself. */
export interface PostWriteDecisions {
  /** the fingerprint of what upstream said about a post (src/ingest/upstream-hash.ts) */
  fingerprint: (post: IngestedPost) => string;
  /** the moderation state a post not stored yet arrives in */
  arrival: (post: IngestedPost) => Arrival;
  /**
   * The wall's rules that read its recent posts (duplicate, burst: src/ingest/arrival.ts
   * historyOf), judged here against the wall's stored posts of their window
   * and the batch's posts before each; absent when the wall has none.
   */
  history?: (() => HistoryJudge<Rule>) | undefined;
}

/** A new post of a batch, in the order the history rules read posts (created time, then its place in the batch). */
interface FreshPost {
  post: IngestedPost;
  finding: HistoryFinding<Rule> | null;
  /** its place in the batch's insert order (see judgeHistory) */
  group: number;
}

const key = (i: number) => -(i + 1);
const indexOfKey = (k: number) => -k - 1;

/**
 * The batch's new posts judged by the wall's history rules: the wall's posts
 * of the widest window (one indexed range read: posts_wall_created) and the
 * new posts are fed to the judge in created order — stored posts first on a
 * tie, then the new ones in batch order — each new post judged against those
 * before it. A duplicate names the post it repeats by id, so a new post that
 * repeats another new post is inserted after it (`group`: one insert per
 * group, in order; 1 when no new post repeats another).
 */
async function judgeHistory(
  db: Kysely<Database>,
  wallId: number,
  fresh: readonly IngestedPost[],
  judge: HistoryJudge<Rule>,
): Promise<FreshPost[]> {
  const sorted = fresh
    .map((post, i) => ({ post, i }))
    .sort((a, b) => a.post.created_at - b.post.created_at || a.i - b.i)
    .map(({ post }) => post);
  const from = sorted[0]!.created_at - judge.windowMs;
  const to = sorted[sorted.length - 1]!.created_at;
  const linksFrom = sorted[0]!.created_at - judge.linkWindowMs;
  const stored = await historyRows(db, wallId, from, to, judge.needsLinks ? linksFrom : null);
  const out: FreshPost[] = [];
  let s = 0;
  sorted.forEach((post, i) => {
    while (s < stored.length && stored[s]!.created_at <= post.created_at) {
      const r = stored[s++]!;
      judge.add(historyPost(r.id, r, r.text_hash, judge.needsLinks && r.created_at > linksFrom));
    }
    const h = historyPost(key(i), post, post.text_hash ?? null, judge.needsLinks);
    const finding = judge.judge(h, post.arrivalRule ?? Infinity);
    judge.add(h);
    const after = finding?.repeats != null && finding.repeats < 0 ? out[indexOfKey(finding.repeats)]!.group + 1 : 1;
    out.push({ post, finding, group: Math.max(out[i - 1]?.group ?? 1, after) });
  });
  return out;
}

/**
 * The wall's posts created in (from, to], in created order (then id), as the
 * history rules read them: the text only where it is needed — a post stored
 * without its SimHash, or (`linksFrom`) a post whose links are counted.
 * One indexed range read (posts_wall_created).
 */
export async function historyRows(
  db: Kysely<Database>,
  wallId: number,
  from: number,
  to: number,
  linksFrom: number | null,
) {
  return db
    .selectFrom('posts')
    .select((eb) => [
      'id',
      'created_at',
      'text_hash',
      'username',
      'author_name',
      'network_name',
      eb
        .case()
        .when(eb.or([eb('text_hash', 'is', null), ...(linksFrom !== null ? [eb('created_at', '>', linksFrom)] : [])]))
        .then(eb.ref('content'))
        .else('')
        .end()
        .as('content'),
    ])
    .where('wall_id', '=', wallId)
    .where('created_at', '>', from)
    .where('created_at', '<=', to)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * What the wall's history rules find about one stored post, judged against
 * the posts created before it (on a tie, those with a smaller id), as
 * ingestion would have: for a post whose decision waited (the image check),
 * so that a duplicate or a burst is not let through by the wait. Only rules
 * before `before` (the index of the rule that decided otherwise) are asked.
 */
export async function historyFindingOf(
  db: Kysely<Database>,
  post: { id: number; wall_id: number; created_at: number; text_hash: string | null } & Parameters<
    typeof historyPost
  >[1],
  judge: HistoryJudge<Rule>,
  before: number,
) {
  const linksFrom = post.created_at - judge.linkWindowMs;
  const rows = await historyRows(
    db,
    post.wall_id,
    post.created_at - judge.windowMs,
    post.created_at,
    judge.needsLinks ? linksFrom : null,
  );
  for (const r of rows) {
    if (r.id === post.id || (r.created_at === post.created_at && r.id > post.id)) continue;
    judge.add(historyPost(r.id, r, r.text_hash, judge.needsLinks && r.created_at > linksFrom));
  }
  return judge.judge(historyPost(post.id, post, post.text_hash, judge.needsLinks), before);
}

/** What the insert of a post already stored carries: its update never sets the state. */
const APPROVED: Arrival = { state: 'approved', by: null, reason: null };

/**
 * Inserts new posts and updates those upstream changed, deduplicated on
 * (feed, upstream id) by the unique index `posts_feed_external`, in one short
 * transaction. A post is rewritten only when its upstream fingerprint
 * changed: an unchanged upstream post is not written at all, so an
 * operator's edit of the content stays until the upstream itself edits the
 * post. Moderation state is never part of an update: a new post takes the
 * state `arrival` gives it, and an upstream edit of a rejected (or pending)
 * post leaves it so; a rejected post, kept, is never inserted again. `now`
 * dates a rule's decision.
 */
export async function upsertPosts(
  db: Kysely<Database>,
  wallId: number,
  feedId: number,
  posts: readonly IngestedPost[],
  { fingerprint, arrival, history }: PostWriteDecisions,
  now: number = Date.now(),
): Promise<{ inserted: number; updated: number }> {
  if (posts.length === 0) return { inserted: 0, updated: 0 };
  return db
    .transaction()
    .execute((trx) => upsertPostsIn(trx, wallId, feedId, posts, { fingerprint, arrival, history }, now));
}

/**
 * upsertPosts in the caller's transaction (an upload writes its consent and
 * picture beside its post). A new post on a wall that requires rights for
 * every post arrives held (posts.rights_hold) — except an upload
 * (`rightsExempt`): its poster agreed to the wall's terms on the upload page.
 */
export async function upsertPostsIn(
  trx: Kysely<Database>,
  wallId: number,
  feedId: number,
  posts: readonly IngestedPost[],
  { fingerprint, arrival, history }: PostWriteDecisions,
  now: number,
  { rightsExempt = false }: { rightsExempt?: boolean } = {},
): Promise<{ inserted: number; updated: number }> {
  const ids = posts.map((p) => p.external_id);
  const before = await trx
    .selectFrom('posts')
    .select('external_id')
    .where('feed_id', '=', feedId)
    .where('external_id', 'in', ids)
    .execute();
  const existed = new Set(before.map((r) => r.external_id));
  // a new post carries its media state from the start (no second write of it)
  const fresh = posts.filter((p) => !existed.has(p.external_id));
  const initial = await initialMediaStates(trx, fresh);
  const mediaStateOf = new Map(fresh.map((p, i) => [p.external_id, initial[i]!]));
  const hold = fresh.length === 0 || rightsExempt ? 0 : await arrivalHold(trx, wallId);
  const rowOf = (p: IngestedPost, a: Arrival): Insertable<PostsTable> => {
    // one literal's shape, filled column by column: no rest/spread copies of a row per post
    const row: Insertable<PostsTable> = {
      ...postDefaults(),
      wall_id: wallId,
      feed_id: feedId,
      created_at: p.created_at,
      updated_at: p.updated_at,
    };
    for (const c of UPSTREAM_COLUMNS) (row as Record<string, unknown>)[c] = p[c];
    row.external_id = p.external_id;
    row.upstream_hash = fingerprint(p);
    row.text_hash = p.text_hash ?? null;
    row.hidden = p.hidden;
    Object.assign(row, decisionColumns(a, now));
    row.media_state = mediaStateOf.get(p.external_id) ?? null;
    row.lang = p.lang ?? null;
    // an update leaves the hold as it is (not among the updated columns)
    row.rights_hold = hold;
    return row;
  };
  const write = (rows: Insertable<PostsTable>[]) =>
    trx
      .insertInto('posts')
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns(['feed_id', 'external_id'])
          .doUpdateSet((eb) => {
            const set: Record<string, unknown> = {
              updated_at: eb.ref('excluded.updated_at'),
              upstream_hash: eb.ref('excluded.upstream_hash'),
              text_hash: eb.ref('excluded.text_hash'),
            };
            for (const c of UPSTREAM_COLUMNS) set[c] = eb.ref(`excluded.${c}`);
            // detected from the content: rewritten with it
            set.lang = eb.ref('excluded.lang');
            return set as never;
          })
          .where((eb) => eb('posts.upstream_hash', 'is distinct from', eb.ref('excluded.upstream_hash'))),
      )
      .returning(['id', 'external_id'])
      .execute();

  const judge = history?.();
  let written: { id: number; external_id: string | null }[];
  if (judge === undefined || !judge.active || fresh.length === 0) {
    // only a post not stored yet is judged: an update never changes its state
    written = await write(posts.map((p) => rowOf(p, existed.has(p.external_id) ? APPROVED : arrival(p))));
  } else {
    const judged = await judgeHistory(trx, wallId, fresh, judge);
    const idOf = new Map<number, number>();
    const arrivalOfFresh = (f: FreshPost): Arrival => {
      if (f.finding === null) return arrival(f.post);
      const { rule, detail, repeats } = f.finding;
      const label = repeats !== null && repeats < 0 ? String(idOf.get(indexOfKey(repeats))) : detail.label;
      return explainedDecision(rule, { ...detail, label });
    };
    // the updates, and the new posts in order, a group at a time: a post is written after the one it repeats
    written = await write([
      ...posts.filter((p) => existed.has(p.external_id)).map((p) => rowOf(p, APPROVED)),
      ...judged.filter((f) => f.group === 1).map((f) => rowOf(f.post, arrivalOfFresh(f))),
    ]);
    const last = judged[judged.length - 1]!.group;
    for (let g = 1; g <= last; g++) {
      if (g > 1) {
        const rows = judged.filter((f) => f.group === g).map((f) => rowOf(f.post, arrivalOfFresh(f)));
        written.push(...(await write(rows)));
      }
      const idByExternal = new Map(written.map((r) => [r.external_id, r.id]));
      judged.forEach((f, i) => {
        if (f.group === g) idOf.set(i, idByExternal.get(f.post.external_id)!);
      });
    }
  }
  // the pictures of the posts written: queued for the media worker in the same transaction
  await syncPostMedia(
    trx,
    written.map((r) => r.id),
    now,
  );
  let inserted = 0;
  let updated = 0;
  for (const row of written) {
    if (row.external_id !== null && existed.has(row.external_id)) updated++;
    else inserted++;
  }
  return { inserted, updated };
}

/**
 * Deletes the feed's stored posts with these upstream ids: posts whose
 * authors have since asked not to be shown publicly (a Bluesky
 * `!no-unauthenticated` label). Moderation state goes with them: a hidden
 * copy could still be unhidden. Returns how many were deleted.
 */
export async function removeWithheldPosts(
  db: Kysely<Database>,
  feedId: number,
  externalIds: readonly string[],
): Promise<number> {
  let removed = 0;
  for (let i = 0; i < externalIds.length; i += 500) {
    const res = await db
      .deleteFrom('posts')
      .where('feed_id', '=', feedId)
      .where('external_id', 'in', externalIds.slice(i, i + 500))
      .executeTakeFirst();
    removed += Number(res.numDeletedRows);
  }
  return removed;
}

/** The upstream ids of a feed's stored posts, newest first, with when they were posted (epoch ms). */
export async function storedExternalIds(
  db: Kysely<Database>,
  feedId: number,
  limit: number,
): Promise<{ externalId: string; createdAt: number }[]> {
  const rows = await db
    .selectFrom('posts')
    .select(['external_id', 'created_at'])
    .where('feed_id', '=', feedId)
    .where('external_id', 'is not', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ externalId: r.external_id!, createdAt: Number(r.created_at) }));
}

/** Keeps the feed's `source`/`sourceType` naming its network, and `updatedAt` at the last poll that changed posts. */
export async function touchFeed(
  db: Kysely<Database>,
  feedId: number,
  patch: { source: string; sourceType: string; updatedAt: number | null },
): Promise<boolean> {
  const res = await db
    .updateTable('feeds')
    .set({
      source: patch.source,
      source_type: patch.sourceType,
      ...(patch.updatedAt !== null ? { updated_at: patch.updatedAt } : {}),
    })
    .where('id', '=', feedId)
    .where((eb) =>
      eb.or([
        eb('source', '<>', patch.source),
        eb('source_type', '<>', patch.sourceType),
        ...(patch.updatedAt !== null ? [eb('updated_at', '<>', patch.updatedAt)] : []),
      ]),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Every feed ingestion may poll now (a connector, enabled, on a live wall), by id: `ingest --once --force`. */
export async function pollableFeedIds(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('feeds as f')
    .innerJoin('walls as w', 'w.id', 'f.wall_id')
    .select('f.id')
    .where('f.connector', 'is not', null)
    .where('f.enabled', '=', 1)
    .where('w.deleted_at', 'is', null)
    .orderBy('f.id')
    .execute();
  return rows.map((r) => r.id);
}
