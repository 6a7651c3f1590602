// Post reads and the custom-post write.
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database, PostsTable, ProductsTable } from './schema.js';
import type { MediaKind } from '../domain/lists.js';
import { isUniqueViolation } from './dialect.js';
import { postDefaults } from './post-columns.js';

export type PostRow = Selectable<PostsTable> & { feed_name: string };

/**
 * The visible-post predicate, defined once: what the public API, the embed and
 * the wall counts show — approved and not hidden. Use as `.where(visiblePost)`.
 */
export function visiblePost(eb: ExpressionBuilder<Database, 'posts'>) {
  return eb.and([eb('posts.state', '=', 'approved'), eb('posts.hidden', '=', 0)]);
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
  let q = db
    .selectFrom('posts')
    .where('wall_id', '=', f.wallId)
    .where('hidden', '=', 0)
    .where('state', '=', 'approved');
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
    .where('posts.hidden', '=', 0)
    .where('posts.state', '=', 'approved');
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

export type TaggedProduct = Selectable<ProductsTable> & { left_pct: number; top_pct: number; position: number };

export async function productsOfPost(db: Kysely<Database>, postId: number): Promise<TaggedProduct[]> {
  return db
    .selectFrom('post_products')
    .innerJoin('products', 'products.id', 'post_products.product_id')
    .selectAll('products')
    .select(['post_products.left_pct', 'post_products.top_pct', 'post_products.position'])
    .where('post_products.post_id', '=', postId)
    .orderBy('post_products.position')
    .execute();
}

export interface CustomPostInput {
  wallId: number;
  accountId: number;
  content: string;
  postFile: string;
  authorName: string;
  authorPicture: string;
  link: string;
  media: MediaKind;
  now: number;
  idempotencyKey: string | null;
}

export const CUSTOM_FEED = { name: 'Custom', source: 'Custom', sourceType: 'post' } as const;
export const CUSTOM_POST_TYPE = 5;
/** How long an Idempotency-Key is remembered (contract §7). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * Creates a custom post on the wall's custom feed (made on first use). With an
 * idempotency key, a retry within 24 h returns the first post instead of a new one.
 * Returns the post id and whether it was created by this call.
 */
export async function createCustomPost(
  db: Kysely<Database>,
  input: CustomPostInput,
): Promise<{ postId: number; created: boolean }> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (input.idempotencyKey !== null) {
        const prior = await trx
          .selectFrom('idempotency_keys')
          .select(['post_id', 'created_at'])
          .where('account_id', '=', input.accountId)
          .where('idem_key', '=', input.idempotencyKey)
          .executeTakeFirst();
        if (prior && prior.created_at > input.now - IDEMPOTENCY_TTL_MS) {
          return { postId: prior.post_id, created: false };
        }
        if (prior) {
          await trx
            .deleteFrom('idempotency_keys')
            .where('account_id', '=', input.accountId)
            .where('idem_key', '=', input.idempotencyKey)
            .execute();
        }
      }
      const feedId = await customFeedId(trx, input.wallId, input.now);
      const isVideo = input.media === 'video';
      const isImage = input.media === 'image';
      const inserted = await trx
        .insertInto('posts')
        .values({
          ...postDefaults(),
          wall_id: input.wallId,
          feed_id: feedId,
          network_name: 'Custom',
          post_type: CUSTOM_POST_TYPE,
          content: input.content,
          picture: isImage ? input.postFile : '',
          file: input.postFile,
          media_file: isVideo ? input.postFile : '',
          link_url: input.link,
          author_name: input.authorName,
          user_picture: input.authorPicture,
          created_at: input.now,
          updated_at: input.now,
          media: input.media,
          children:
            isImage || isVideo
              ? JSON.stringify([{ image: isImage ? input.postFile : '', video: isVideo ? input.postFile : '' }])
              : '[]',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (input.idempotencyKey !== null) {
        await trx
          .insertInto('idempotency_keys')
          .values({
            account_id: input.accountId,
            idem_key: input.idempotencyKey,
            post_id: inserted.id,
            created_at: input.now,
          })
          .execute();
      }
      return { postId: inserted.id, created: true };
    });
  } catch (err) {
    // A concurrent retry with the same key won the race (PostgreSQL); answer with its post.
    if (input.idempotencyKey !== null && isUniqueViolation(err)) {
      const prior = await db
        .selectFrom('idempotency_keys')
        .select('post_id')
        .where('account_id', '=', input.accountId)
        .where('idem_key', '=', input.idempotencyKey)
        .executeTakeFirst();
      if (prior) return { postId: prior.post_id, created: false };
    }
    throw err;
  }
}

async function customFeedId(trx: Kysely<Database>, wallId: number, now: number): Promise<number> {
  const existing = await trx
    .selectFrom('feeds')
    .select('id')
    .where('wall_id', '=', wallId)
    .where('source', '=', CUSTOM_FEED.source)
    .where('source_type', '=', CUSTOM_FEED.sourceType)
    .orderBy('id')
    .executeTakeFirst();
  if (existing) return existing.id;
  const created = await trx
    .insertInto('feeds')
    .values({
      wall_id: wallId,
      name: CUSTOM_FEED.name,
      source: CUSTOM_FEED.source,
      source_type: CUSTOM_FEED.sourceType,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}
