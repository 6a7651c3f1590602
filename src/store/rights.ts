// All SQL of rights management (migration 0034; the rules: src/domain/rights.ts).
// A post's rights state lives twice on purpose: in post_rights with its
// evidence, and in posts.rights_state beside posts.rights_hold, which the
// public reads' one predicate (visiblePost) and the change log read. Every
// write of a state goes through setRightsState, which writes the state and
// the hold in one statement, in the caller's transaction.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, PostRightsTable, RightsEventsTable, RightsOptOutsTable } from './schema.js';
import {
  dayStart,
  DEFAULT_RIGHTS_SETTINGS,
  isHeld,
  type OptOutReason,
  type RightsEventKind,
  type RightsRequirement,
  type RightsSettings,
  type RightsState,
} from '../domain/rights.js';
import type { Arrival } from '../domain/arrival.js';
import { IMAGE_CHECK_BY } from '../domain/image-rules.js';
import { PROVIDER_CHECK_BY } from '../domain/provider-rules.js';
import { UPLOAD_FEED } from '../domain/uploads.js';
import { CUSTOM_FEED } from './custom-posts.js';
import { decisionColumns } from './post-columns.js';

export type PostRightsRow = Selectable<PostRightsTable>;
export type RightsEventRow = Selectable<RightsEventsTable>;
export type OptOutRow = Selectable<RightsOptOutsTable>;

/** An account's settings with the connection that asks on each network. */
export interface StoredRightsSettings extends RightsSettings {
  /** network (lowercase, as connections name it) → connection id */
  connections: Record<string, number>;
}

// ---------- the hold ----------

/**
 * Whether a row of `posts` never waits for rights: a custom post (the
 * brand's own) or an attendee's upload (its poster agreed to the wall's
 * terms) — the posts of the wall's built-in feeds.
 */
const rightsExempt = sql<boolean>`exists (select 1 from feeds f where f.id = posts.feed_id and (
  (f.source = ${CUSTOM_FEED.source} and f.source_type = ${CUSTOM_FEED.sourceType})
  or (f.source = ${UPLOAD_FEED.source} and f.source_type = ${UPLOAD_FEED.sourceType})))`;

/**
 * posts.rights_hold as SQL, for rows of `posts` on a wall that requires
 * `requirement` (src/domain/rights.ts isHeld is its twin; custom posts and
 * uploads are never held).
 */
function holdExpression(requirement: RightsRequirement) {
  if (requirement === 'none') return sql<number>`0`;
  if (requirement === 'all')
    return sql<number>`case when posts.rights_state = 'granted' or ${rightsExempt} then 0 else 1 end`;
  return sql<number>`case when posts.rights_state = 'granted' or ${rightsExempt} then 0
    when exists (select 1 from post_products pp where pp.post_id = posts.id) then 1 else 0 end`;
}

/** What a post arriving on the wall (ingested, never asked) gets as its hold. */
export async function arrivalHold(db: Kysely<Database>, wallId: number): Promise<number> {
  const wall = await db.selectFrom('walls').select('rights_required').where('id', '=', wallId).executeTakeFirst();
  return wall?.rights_required === 'all' ? 1 : 0;
}

/**
 * Sets the hold of a wall's posts (those in `postIds`, or all) to what the
 * wall's requirement makes of their rights and product tags, writing only
 * the rows that change. Returns how many changed.
 */
export async function refreshHolds(
  db: Kysely<Database>,
  wallId: number,
  postIds: readonly number[] | null = null,
): Promise<number> {
  if (postIds !== null && postIds.length === 0) return 0;
  const wall = await db.selectFrom('walls').select('rights_required').where('id', '=', wallId).executeTakeFirst();
  if (!wall) return 0;
  const hold = holdExpression(wall.rights_required);
  let q = db
    .updateTable('posts')
    .set({ rights_hold: hold })
    .where('wall_id', '=', wallId)
    .where((eb) => eb('rights_hold', '<>', hold));
  if (postIds !== null) q = q.where('id', 'in', [...postIds]);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The walls whose holds may be out of step (requiring rights): what the watcher's reconciliation walks. */
export async function wallsRequiringRights(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('walls')
    .select('id')
    .where('rights_required', '<>', 'none')
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

// ---------- settings ----------

export async function findRightsSettings(db: Kysely<Database>, accountId: number): Promise<StoredRightsSettings> {
  const row = await db
    .selectFrom('rights_settings')
    .select('settings')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  const stored = row ? (JSON.parse(row.settings) as Partial<StoredRightsSettings>) : {};
  return { ...DEFAULT_RIGHTS_SETTINGS, connections: {}, ...stored };
}

export async function saveRightsSettings(
  db: Kysely<Database>,
  accountId: number,
  settings: StoredRightsSettings,
  now: number,
): Promise<void> {
  const json = JSON.stringify(settings);
  await db
    .insertInto('rights_settings')
    .values({ account_id: accountId, settings: json, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ settings: json, updated_at: now }))
    .execute();
}

// ---------- a post's rights ----------

export async function findPostRights(db: Kysely<Database>, postId: number): Promise<PostRightsRow | undefined> {
  return db.selectFrom('post_rights').selectAll().where('post_id', '=', postId).executeTakeFirst();
}

export async function postRightsOf(db: Kysely<Database>, postIds: readonly number[]): Promise<PostRightsRow[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('post_rights')
    .selectAll()
    .where('post_id', 'in', [...postIds])
    .execute();
}

/** A new request (or a new one after an expired one): the row replaced, evidence of the old one kept in rights_events. */
export async function putRequest(db: Kysely<Database>, row: Insertable<PostRightsTable>): Promise<void> {
  await db.deleteFrom('post_rights').where('post_id', '=', row.post_id).execute();
  await db.insertInto('post_rights').values(row).execute();
}

export async function updatePostRights(
  db: Kysely<Database>,
  postId: number,
  change: Updateable<PostRightsTable>,
): Promise<void> {
  await db.updateTable('post_rights').set(change).where('post_id', '=', postId).execute();
}

/** What a change of a post's rights state reads of its wall, once: what it requires, and its rules (JSON, '[]' when none). */
export async function wallOfRightsChange(
  db: Kysely<Database>,
  wallId: number,
): Promise<{ rights_required: RightsRequirement; rules: string }> {
  const wall = await db
    .selectFrom('walls')
    .select(['rights_required', 'rules'])
    .where('id', '=', wallId)
    .executeTakeFirst();
  return wall ?? { rights_required: 'none', rules: '[]' };
}

/**
 * Sets a post's rights state where the public reads and the change log see
 * it: posts.rights_state and its hold in one statement, so the log's one
 * `rights_<state>` change carries the visibility the new state gives (a
 * grant on a "rights required" wall logs visible 1; a second statement for
 * the hold would log the grant as not visible, then an `updated` change).
 * Call inside the transaction that updates post_rights, with what the
 * post's wall requires (wallOfRightsChange).
 */
export async function setRightsState(
  db: Kysely<Database>,
  post: { id: number; wallId: number },
  state: RightsState | null,
  requirement: RightsRequirement,
): Promise<void> {
  await db
    .updateTable('posts')
    .set({ rights_state: state, rights_hold: holdWithState(requirement, state) })
    .where('id', '=', post.id)
    .execute();
}

/**
 * Sets the moderation state a `rights` rule decided for a post whose rights
 * changed — only a pending or approved post (a rule never brings back a
 * rejected one), and only when the state differs. A post waiting for the
 * image check or a provider is left waiting: the check decides it with the
 * whole list, reading its rights state then (a grant must not approve a
 * picture nobody checked). Its own statement after
 * setRightsState's, so the change log records `approved` / `rejected` after
 * the `rights_<state>` change. Whether the post changed.
 */
export async function decideByRightsRule(
  db: Kysely<Database>,
  postId: number,
  decision: Arrival,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('posts')
    .set(decisionColumns(decision, now))
    .where('id', '=', postId)
    .where('state', 'in', ['pending', 'approved'])
    .where('state', '<>', decision.state)
    .where((eb) =>
      eb.or([eb('decided_by', 'is', null), eb('decided_by', 'not in', [IMAGE_CHECK_BY, PROVIDER_CHECK_BY])]),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The hold a post of `posts` gets on a wall requiring `requirement` once its state is `state` (isHeld, in SQL for the product tags). */
function holdWithState(requirement: RightsRequirement, state: RightsState | null) {
  if (!isHeld(requirement, state, true)) return sql<number>`0`;
  if (isHeld(requirement, state, false)) return sql<number>`case when ${rightsExempt} then 0 else 1 end`;
  return sql<number>`case when ${rightsExempt} then 0
    when exists (select 1 from post_products pp where pp.post_id = posts.id) then 1 else 0 end`;
}

export async function addRightsEvent(
  db: Kysely<Database>,
  event: { postId: number; accountId: number; at: number; kind: RightsEventKind; actor: string; detail: object },
): Promise<void> {
  await db
    .insertInto('rights_events')
    .values({
      post_id: event.postId,
      account_id: event.accountId,
      at: event.at,
      kind: event.kind,
      actor: event.actor,
      detail: JSON.stringify(event.detail),
    })
    .execute();
}

export async function rightsEventsOf(db: Kysely<Database>, postId: number): Promise<RightsEventRow[]> {
  return db.selectFrom('rights_events').selectAll().where('post_id', '=', postId).orderBy('id').execute();
}

// ---------- the limits ----------

/** Requests an account sent since the start of `now`'s day (UTC), all, and to one author. */
export async function requestsToday(
  db: Kysely<Database>,
  accountId: number,
  author: string,
  now: number,
): Promise<{ total: number; author: number }> {
  const since = dayStart(now);
  const row = await db
    .selectFrom('rights_events')
    .innerJoin('post_rights', 'post_rights.post_id', 'rights_events.post_id')
    .select([
      sql<number>`count(*)`.as('total'),
      sql<number>`sum(case when post_rights.author = ${author} then 1 else 0 end)`.as('author'),
    ])
    .where('rights_events.account_id', '=', accountId)
    .where('rights_events.kind', '=', 'requested')
    .where('rights_events.at', '>=', since)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), author: Number(row?.author ?? 0) };
}

// ---------- the opt-out list ----------

export async function findOptOut(
  db: Kysely<Database>,
  accountId: number,
  author: string,
): Promise<OptOutRow | undefined> {
  return db
    .selectFrom('rights_optouts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('author', '=', author)
    .executeTakeFirst();
}

/** Puts an author on the list (kept as first put there when already on it). */
export async function addOptOut(
  db: Kysely<Database>,
  row: {
    accountId: number;
    author: string;
    reason: OptOutReason;
    postId: number | null;
    note: string | null;
    now: number;
  },
): Promise<void> {
  await db
    .insertInto('rights_optouts')
    .values({
      account_id: row.accountId,
      author: row.author,
      reason: row.reason,
      post_id: row.postId,
      note: row.note,
      created_at: row.now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'author']).doNothing())
    .execute();
}

export async function removeOptOut(db: Kysely<Database>, accountId: number, author: string): Promise<boolean> {
  const r = await db
    .deleteFrom('rights_optouts')
    .where('account_id', '=', accountId)
    .where('author', '=', author)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function listOptOuts(db: Kysely<Database>, accountId: number): Promise<OptOutRow[]> {
  return db
    .selectFrom('rights_optouts')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('author')
    .execute();
}

// ---------- the watcher ----------

/**
 * Takes up to `limit` requests whose listening is due (requested or granted
 * through a reply, `listen_at` passed), leasing them to `owner` until
 * `leaseUntil` so two workers never handle one at once.
 */
export async function leaseDueListens(
  db: Kysely<Database>,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<PostRightsRow[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('post_rights')
      .select('post_id')
      .where('listen_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('listen_at')
      .limit(limit)
      .execute();
    if (due.length === 0) return [];
    const ids = due.map((r) => r.post_id);
    await trx
      .updateTable('post_rights')
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where('post_id', 'in', ids)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .execute();
    return trx
      .selectFrom('post_rights')
      .selectAll()
      .where('post_id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('lease_until', '=', leaseUntil)
      .execute();
  });
}

/** Requests still unanswered past their expiry. */
export async function expiredRequests(db: Kysely<Database>, now: number, limit: number): Promise<PostRightsRow[]> {
  return db
    .selectFrom('post_rights')
    .selectAll()
    .where('state', '=', 'requested')
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

// ---------- the evidence report ----------

/** The rights rows of an account (optionally one wall, some states), oldest request first. */
export async function rightsForReport(
  db: Kysely<Database>,
  filter: { accountId: number; wallId?: number; states?: readonly RightsState[] },
): Promise<PostRightsRow[]> {
  let q = db.selectFrom('post_rights').selectAll().where('account_id', '=', filter.accountId);
  if (filter.wallId !== undefined) q = q.where('wall_id', '=', filter.wallId);
  if (filter.states !== undefined && filter.states.length > 0) q = q.where('state', 'in', [...filter.states]);
  return q.orderBy('requested_at').orderBy('post_id').execute();
}

// ---------- the posts asked about ----------

/** A post as asking needs it: where it is, who wrote it, its feed's connector settings. */
export interface AskedPostRow {
  id: number;
  wall_id: number;
  account_id: number;
  external_id: string | null;
  network_name: string;
  username: string;
  author_name: string;
  link_url: string;
  rights_state: RightsState | null;
  connector: Record<string, unknown> | null;
  /** a custom post or an upload: it never needs rights (see rightsExempt) */
  exempt: boolean;
}

const isBuiltIn = (source: string, sourceType: string) =>
  [CUSTOM_FEED, UPLOAD_FEED].some((f) => f.source === source && f.sourceType === sourceType);

export async function askedPosts(db: Kysely<Database>, postIds: readonly number[]): Promise<AskedPostRow[]> {
  if (postIds.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .innerJoin('walls', 'walls.id', 'posts.wall_id')
    .innerJoin('feeds', 'feeds.id', 'posts.feed_id')
    .select([
      'posts.id',
      'posts.wall_id',
      'walls.account_id',
      'posts.external_id',
      'posts.network_name',
      'posts.username',
      'posts.author_name',
      'posts.link_url',
      'posts.rights_state',
      'feeds.connector',
      'feeds.source',
      'feeds.source_type',
    ])
    .where('posts.id', 'in', [...postIds])
    .execute();
  return rows.map(({ source, source_type, ...r }) => ({
    ...r,
    connector: r.connector ? (JSON.parse(r.connector) as Record<string, unknown>) : null,
    exempt: isBuiltIn(source, source_type),
  }));
}

/**
 * Posts the walls' asking rules pick (walls.rights_auto): approved, shown
 * (not hidden), never asked, of a network in `networks`, made since `since`;
 * on a `shoppable` rule, tagged with products. Oldest first.
 */
export async function autoRequestCandidates(
  db: Kysely<Database>,
  filter: { networks: readonly string[]; since: number; limit: number; exclude: readonly number[] },
): Promise<number[]> {
  if (filter.networks.length === 0) return [];
  let q = db
    .selectFrom('posts')
    .innerJoin('walls', 'walls.id', 'posts.wall_id')
    .select('posts.id')
    .where('walls.rights_auto', '<>', 'off')
    .where('walls.deleted_at', 'is', null)
    .where('posts.state', '=', 'approved')
    .where('posts.hidden', '=', 0)
    .where('posts.rights_state', 'is', null)
    .where('posts.network_name', 'in', [...filter.networks])
    .where('posts.created_at', '>=', filter.since)
    .where((eb) =>
      eb.or([
        eb('walls.rights_auto', '=', 'approved'),
        eb.exists(
          eb
            .selectFrom('post_products')
            .select('post_products.post_id')
            .whereRef('post_products.post_id', '=', 'posts.id'),
        ),
      ]),
    );
  if (filter.exclude.length > 0) q = q.where('posts.id', 'not in', [...filter.exclude]);
  const rows = await q.orderBy('posts.id').limit(filter.limit).execute();
  return rows.map((r) => r.id);
}

/** Which of these posts are on the wall. */
export async function postIdsOnWall(
  db: Kysely<Database>,
  wallId: number,
  postIds: readonly number[],
): Promise<Set<number>> {
  if (postIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('wall_id', '=', wallId)
    .where('id', 'in', [...postIds])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** A post of a wall as its rights record shows it. */
export async function rightsPostOfWall(db: Kysely<Database>, wallId: number, postId: number) {
  return db
    .selectFrom('posts')
    .select(['id', 'wall_id', 'network_name', 'username', 'author_name', 'link_url', 'rights_state', 'rights_hold'])
    .where('id', '=', postId)
    .where('wall_id', '=', wallId)
    .executeTakeFirst();
}
