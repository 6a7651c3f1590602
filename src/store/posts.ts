// Post reads and the custom-post write.
import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, PostsTable } from './schema.js';
import type { MediaKind } from '../domain/lists.js';
import type { PostListState, PostStatus, RightsListState } from '../schemas/posts.js';

export type PostRow = Selectable<PostsTable> & { feed_name: string };

/**
 * The visible-post predicate, defined once: what the public API, the embed and
 * the wall counts show — approved, not hidden, and not held for want of rights
 * its wall requires (posts.rights_hold, migration 0034). Use as `.where(visiblePost)`.
 */
export function visiblePost(eb: ExpressionBuilder<Database, 'posts'>) {
  return eb.and([eb('posts.state', '=', 'approved'), eb('posts.hidden', '=', 0), eb('posts.rights_hold', '=', 0)]);
}

/** Posts an operator hid (whatever their moderation state). Use as `.where(hiddenPost)`. */
export function hiddenPost(eb: ExpressionBuilder<Database, 'posts'>) {
  return eb('posts.hidden', '<>', 0);
}

/** Posts with their feed's name (a PostRow each): the select every post read starts from. */
export function selectPostsWithFeed(db: Kysely<Database>) {
  return db
    .selectFrom('posts')
    .innerJoin('feeds', 'feeds.id', 'posts.feed_id')
    .selectAll('posts')
    .select('feeds.name as feed_name');
}

export interface ListFilter {
  wallId: number;
  limit: number;
  offset: number;
  /** keep posts created at or after this instant */
  createdFrom: number | null;
  /** media kinds kept; empty keeps all */
  media: readonly MediaKind[];
}

/** Where a post stands in contract order: pinned first, newest first, larger id first. */
export interface SortKey {
  pin: number;
  created_at: number;
  id: number;
}

/**
 * A wall's visible posts (approved, not hidden) under the filter, in contract
 * order, from the covering index; with `from`, only the posts at or after
 * that one in the order.
 */
function visiblePosts(db: Kysely<Database>, f: Omit<ListFilter, 'limit' | 'offset'>, from: SortKey | null) {
  let q = db.selectFrom('posts').where('wall_id', '=', f.wallId).where(visiblePost);
  if (f.createdFrom !== null) q = q.where('created_at', '>=', f.createdFrom);
  if (f.media.length > 0 && f.media.length < 3) q = q.where('media', 'in', [...f.media]);
  // descending on all three: "at or after" in the order is "at most" as a row value
  if (from)
    q = q.where(({ eb, refTuple, tuple }) =>
      eb(refTuple('pin', 'created_at', 'id'), '<=', tuple(from.pin, from.created_at, from.id)),
    );
  return q.orderBy('pin', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc');
}

/**
 * The ids of a page of visible posts of a wall, in contract order. They come
 * from the covering index alone, skipping `offset` index entries (counted from
 * `from` when given), never rows: a deep offset costs an index walk, not a
 * row fetch per skipped post.
 */
export async function listPageIds(db: Kysely<Database>, f: ListFilter, from: SortKey | null = null): Promise<number[]> {
  const page = await visiblePosts(db, f, from).select('id').limit(f.limit).offset(f.offset).execute();
  return page.map((r) => r.id);
}

/** The sort key of the post `skip` places after `from` (or after the first post), if there is one. */
export async function sortKeyAfter(
  db: Kysely<Database>,
  f: Omit<ListFilter, 'limit' | 'offset'>,
  from: SortKey | null,
  skip: number,
): Promise<SortKey | undefined> {
  return visiblePosts(db, f, from).select(['pin', 'created_at', 'id']).limit(1).offset(skip).executeTakeFirst();
}

/** What a rendered post depends on besides its wall: its revision, its creation and its feed's id and name. */
export type PostStamp = Pick<PostRow, 'id' | 'rev' | 'feed_id' | 'created_at' | 'feed_name'>;

const STAMP_COLUMNS = [
  'posts.id',
  'posts.rev',
  'posts.feed_id',
  'posts.created_at',
  'feeds.name as feed_name',
] as const;

/** The stamps of a page of visible posts, in contract order (as `listPageIds`). */
export async function listPageStamps(
  db: Kysely<Database>,
  f: ListFilter,
  from: SortKey | null = null,
): Promise<PostStamp[]> {
  const ids = await listPageIds(db, f, from);
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('posts')
    .innerJoin('feeds', 'feeds.id', 'posts.feed_id')
    .select(STAMP_COLUMNS)
    .where('posts.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is PostStamp => r !== undefined);
}

/**
 * The stamps of the first `limit` visible posts, in contract order, in one
 * query: from offset 0 the join reads no row it does not return.
 */
export async function listFirstStamps(db: Kysely<Database>, f: Omit<ListFilter, 'offset'>): Promise<PostStamp[]> {
  let q = db
    .selectFrom('posts')
    .innerJoin('feeds', 'feeds.id', 'posts.feed_id')
    .select(STAMP_COLUMNS)
    .where('posts.wall_id', '=', f.wallId)
    .where(visiblePost);
  if (f.createdFrom !== null) q = q.where('posts.created_at', '>=', f.createdFrom);
  if (f.media.length > 0 && f.media.length < 3) q = q.where('posts.media', 'in', [...f.media]);
  return q
    .orderBy('posts.pin', 'desc')
    .orderBy('posts.created_at', 'desc')
    .orderBy('posts.id', 'desc')
    .limit(f.limit)
    .execute();
}

/** These posts, whole (any order; a post deleted meanwhile is absent). */
export async function postsByIds(db: Kysely<Database>, ids: readonly number[]): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  return selectPostsWithFeed(db)
    .where('posts.id', 'in', [...ids])
    .execute();
}

export async function findVisiblePost(db: Kysely<Database>, wallId: number, postId: number): Promise<PostRow | null> {
  const row = await selectPostsWithFeed(db)
    .where('posts.id', '=', postId)
    .where('posts.wall_id', '=', wallId)
    .where(visiblePost)
    .executeTakeFirst();
  return row ?? null;
}

// ---------- the embed's keyset pages ----------

/** Where a page starts: the sort key of the last post of the page before. */
export interface PostKey {
  pin: number;
  createdAt: number;
  id: number;
}

/** What the embed shows of a wall beyond its visible posts. */
export interface EmbedFilter {
  /** the wall waits for pictures (walls.media_wait): a post whose media are still being fetched is left out */
  waitForMedia?: boolean;
}

/** Posts whose pictures are still being fetched (media_state pending); null (not looked at) is not. Use as `.where(…)`. */
export function mediaSettled(eb: ExpressionBuilder<Database, 'posts'>) {
  return eb.or([eb('posts.media_state', 'is', null), eb('posts.media_state', '<>', 'pending')]);
}

/** Up to `limit` visible posts of the wall after `after` (exclusive), in W2 order (pinned, newest, larger id first). */
export async function listVisiblePostsAfter(
  db: Kysely<Database>,
  wallId: number,
  limit: number,
  after: PostKey | null,
  filter: EmbedFilter = {},
): Promise<PostRow[]> {
  let q = selectPostsWithFeed(db).where('posts.wall_id', '=', wallId).where(visiblePost);
  if (filter.waitForMedia) q = q.where(mediaSettled);
  if (after) {
    const { pin, createdAt, id } = after;
    q = q.where((eb) =>
      eb.or([
        eb('posts.pin', '<', pin),
        eb.and([
          eb('posts.pin', '=', pin),
          eb.or([
            eb('posts.created_at', '<', createdAt),
            eb.and([eb('posts.created_at', '=', createdAt), eb('posts.id', '<', id)]),
          ]),
        ]),
      ]),
    );
  }
  return q
    .orderBy('posts.pin', 'desc')
    .orderBy('posts.created_at', 'desc')
    .orderBy('posts.id', 'desc')
    .limit(limit)
    .execute();
}

/** Of these post ids, those still visible on the wall (as `listVisiblePostsAfter` with the same filter shows them). */
export async function stillVisible(
  db: Kysely<Database>,
  wallId: number,
  ids: readonly number[],
  filter: EmbedFilter = {},
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  let q = db
    .selectFrom('posts')
    .select('id')
    .where('wall_id', '=', wallId)
    .where(visiblePost)
    .where('id', 'in', [...ids]);
  if (filter.waitForMedia) q = q.where(mediaSettled);
  const rows = await q.execute();
  return new Set(rows.map((r) => r.id));
}

// ---------- moderation: every post of a wall ----------

/** A wall's posts, hidden and undecided ones too, with their feed's name. */
export function postsOfWall(db: Kysely<Database>, wallId: number) {
  return selectPostsWithFeed(db).where('posts.wall_id', '=', wallId);
}

export interface ModerationFilter {
  /** `visible`: what the public sees; `hidden`: what an operator hid; `all` */
  status?: PostStatus;
  /** a moderation state, `hidden` (any state) or `all`; `pending` lists oldest first */
  state?: PostListState;
  feedId?: number;
  media?: MediaKind;
  /** network name, any case */
  network?: string;
  /** text in the content, author name or username, any case */
  q?: string;
  /** a rights state, `none` (never asked) or `held` (kept off its wall for want of rights) */
  rights?: RightsListState;
}

/** A LIKE pattern that finds `text` anywhere, its own % _ and \ taken literally (escape character \). */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the moderation view after the cursor's (created_at, id): newest first
 * (then larger id first), the queue (`state: 'pending'`) oldest first.
 */
export async function moderationPostRows(
  db: Kysely<Database>,
  wallId: number,
  filter: ModerationFilter,
  after: readonly [number, number] | null,
  take: number,
): Promise<PostRow[]> {
  let q = postsOfWall(db, wallId);
  if (filter.status === 'visible') q = q.where(visiblePost);
  if (filter.status === 'hidden') q = q.where(hiddenPost);
  if (filter.state === 'hidden') q = q.where(hiddenPost);
  else if (filter.state !== undefined && filter.state !== 'all') q = q.where('posts.state', '=', filter.state);
  if (filter.rights === 'held') q = q.where('posts.rights_hold', '<>', 0);
  else if (filter.rights === 'none') q = q.where('posts.rights_state', 'is', null);
  else if (filter.rights !== undefined) q = q.where('posts.rights_state', '=', filter.rights);
  if (filter.feedId !== undefined) q = q.where('posts.feed_id', '=', filter.feedId);
  if (filter.media !== undefined) q = q.where('posts.media', '=', filter.media);
  if (filter.network !== undefined)
    q = q.where(sql`lower(${sql.ref('posts.network_name')})`, '=', filter.network.toLowerCase());
  if (filter.q !== undefined) {
    const pattern = containing(filter.q);
    const like = (column: string) => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    q = q.where((eb) => eb.or([like('posts.content'), like('posts.author_name'), like('posts.username')]));
  }
  // the queue is worked oldest first
  const oldestFirst = filter.state === 'pending';
  const before = oldestFirst ? '>' : '<';
  if (after) {
    const [createdAt, id] = after;
    q = q.where((eb) =>
      eb.or([
        eb('posts.created_at', before, createdAt),
        eb.and([eb('posts.created_at', '=', createdAt), eb('posts.id', before, id)]),
      ]),
    );
  }
  const direction = oldestFirst ? 'asc' : 'desc';
  return q.orderBy('posts.created_at', direction).orderBy('posts.id', direction).limit(take).execute();
}

export async function findPostOfWall(
  db: Kysely<Database>,
  wallId: number,
  postId: number,
): Promise<PostRow | undefined> {
  return postsOfWall(db, wallId).where('posts.id', '=', postId).executeTakeFirst();
}

/** The wall's posts of these ids (ids not found are left out). */
export async function postsOfWallByIds(
  db: Kysely<Database>,
  wallId: number,
  ids: readonly number[],
): Promise<PostRow[]> {
  return postsOfWall(db, wallId)
    .where('posts.id', 'in', [...ids])
    .execute();
}

export async function updatePostRow(db: Kysely<Database>, postId: number, set: Updateable<PostsTable>): Promise<void> {
  await db.updateTable('posts').set(set).where('id', '=', postId).execute();
}

/** The columns a bulk action reads of the wall's posts of these ids. */
export async function bulkStateRows(db: Kysely<Database>, wallId: number, ids: readonly number[]) {
  return db
    .selectFrom('posts')
    .select([
      'id',
      'hidden',
      'pin',
      'highlight',
      'has_cta',
      'cta_color',
      'cta_background',
      'cta_status',
      'cta_url',
      'cta_text',
      'state',
    ])
    .where('wall_id', '=', wallId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Sets these columns on the wall's posts of these ids; how many were changed. */
export async function updatePostsOfWall(
  db: Kysely<Database>,
  wallId: number,
  ids: readonly number[],
  set: Updateable<PostsTable>,
): Promise<number> {
  const res = await db
    .updateTable('posts')
    .set(set)
    .where('wall_id', '=', wallId)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
