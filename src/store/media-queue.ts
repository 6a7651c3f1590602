// The media worker's queue, and every write to a post's pictures: which
// pictures a post shows is reconciled with its `post_media` rows whenever a
// path writes its media columns (syncPostMedia); the worker scans the due
// rows, claims every row of one source URL under a lease (a picture is
// fetched once however many posts show it), and completes, fails or refuses
// them; each post's `media_state` follows its pictures'. Also the stored
// bytes of an account (its quota), the blobs no post references any more
// (gc), and the counts `wallery media status` and the metrics show.
//
// A post's `media_state` is written only when it changes: every update of a
// post bumps its revision and writes a change-log row (webhooks deliver it),
// so a picture becoming ready changes the post once its pictures are all
// settled, not on every step.
import { sql, type Kysely } from 'kysely';
import { pictureSourcesOf, postMediaState, type MediaColumns } from '../domain/media-sources.js';
import type { Database, MediaItemState, PostMediaState } from './schema.js';

/** Rows read or written per statement (well under SQLite's 32,766 bound variables). */
const CHUNK = 500;

const MEDIA_COLUMNS = [
  'posts.media',
  'posts.picture',
  'posts.file',
  'posts.file_thumb',
  'posts.media_file',
  'posts.children',
  'posts.alt',
  'posts.user_picture',
] as const;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const unique = <T>(items: Iterable<T>): T[] => [...new Set(items)];

// ---------- a post's pictures, reconciled with its columns ----------

export interface SyncOptions {
  /** new pictures are `skipped` (not fetched: the post shows the original URLs), e.g. `wallery import --skip-media` */
  skip?: boolean;
}

export interface SyncResult {
  /** pictures added or whose URL changed: to fetch (pending), taken from a stored copy (ready) or skipped */
  added: number;
  /** pictures whose slot is gone from the post */
  removed: number;
  /** walls of the posts whose media_state changed */
  walls: number[];
}

interface ExistingRow {
  id: number;
  post_id: number;
  slot: string;
  source_url: string;
  state: MediaItemState;
}

/**
 * Reconciles the pictures of these posts with their media columns, in the
 * caller's transaction (or on its own): a slot with the same URL is kept as
 * it stands; a slot whose URL changed starts over (pending, no attempts, no
 * stored copy, its lease dropped: a fetch of the old URL in flight is
 * discarded); a slot the post no longer has is deleted; a new slot is
 * pending from `now` — unless another post's picture of the same URL is
 * stored already, whose copy it takes at once (ready). With `skip`, added
 * and changed pictures are `skipped` instead. Then each post's media_state,
 * where it changed. Posts not found are left out.
 */
export async function syncPostMedia(
  db: Kysely<Database>,
  postIds: readonly number[],
  now: number,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const result: SyncResult = { added: 0, removed: 0, walls: [] };
  const walls = new Set<number>();
  for (const ids of chunks(unique(postIds))) {
    const r = await syncChunk(db, ids, now, options);
    result.added += r.added;
    result.removed += r.removed;
    for (const w of r.walls) walls.add(w);
  }
  result.walls = [...walls];
  return result;
}

async function syncChunk(db: Kysely<Database>, postIds: number[], now: number, options: SyncOptions) {
  const posts = await db
    .selectFrom('posts')
    .innerJoin('walls', 'walls.id', 'posts.wall_id')
    .select(['posts.id', 'posts.wall_id', 'posts.media_state', 'walls.account_id', ...MEDIA_COLUMNS])
    .where('posts.id', 'in', postIds)
    .execute();
  if (posts.length === 0) return { added: 0, removed: 0, walls: [] };
  const existing = await db
    .selectFrom('post_media')
    .select(['id', 'post_id', 'slot', 'source_url', 'state'])
    .where(
      'post_id',
      'in',
      posts.map((p) => p.id),
    )
    .execute();
  const rowsOf = new Map<number, Map<string, ExistingRow>>();
  for (const r of existing) {
    let slots = rowsOf.get(r.post_id);
    if (!slots) rowsOf.set(r.post_id, (slots = new Map()));
    slots.set(r.slot, r);
  }

  const inserts: { post_id: number; account_id: number; slot: string; source_url: string }[] = [];
  const changes: { id: number; source_url: string }[] = [];
  const deletes: number[] = [];
  /** each post's pictures' states once reconciled; a new or changed picture's is filled in below */
  const states = new Map<number, { wallId: number; before: string | null; slots: Map<string, string | null> }>();
  for (const p of posts) {
    const rows = rowsOf.get(p.id) ?? new Map<string, ExistingRow>();
    const slots = new Map<string, string | null>();
    for (const source of pictureSourcesOf(p as MediaColumns)) {
      const row = rows.get(source.slot);
      rows.delete(source.slot);
      if (row && row.source_url === source.url) {
        slots.set(source.slot, row.state);
        continue;
      }
      if (row) changes.push({ id: row.id, source_url: source.url });
      else inserts.push({ post_id: p.id, account_id: p.account_id, slot: source.slot, source_url: source.url });
      slots.set(source.slot, null);
    }
    for (const gone of rows.values()) deletes.push(gone.id);
    states.set(p.id, { wallId: p.wall_id, before: p.media_state, slots });
  }

  // a picture stored already for another post is not fetched again
  const stored = options.skip
    ? new Map<string, string>()
    : await storedCopies(db, unique([...inserts, ...changes].map((r) => r.source_url)));
  const fresh = (url: string) => {
    const hash = stored.get(url);
    if (options.skip) return { state: 'skipped' as const, hash: null };
    return hash ? { state: 'ready' as const, hash } : { state: 'pending' as const, hash: null };
  };

  for (const ids of chunks(deletes)) await db.deleteFrom('post_media').where('id', 'in', ids).execute();
  for (const c of changes) {
    const f = fresh(c.source_url);
    await db
      .updateTable('post_media')
      .set({
        source_url: c.source_url,
        state: f.state,
        hash: f.hash,
        reason: null,
        attempts: 0,
        next_attempt_at: now,
        lease_owner: null,
        lease_until: null,
        updated_at: now,
      })
      .where('id', '=', c.id)
      .execute();
  }
  for (const rows of chunks(inserts, 200)) {
    await db
      .insertInto('post_media')
      .values(
        rows.map((r) => {
          const f = fresh(r.source_url);
          return { ...r, state: f.state, hash: f.hash, attempts: 0, next_attempt_at: now, updated_at: now };
        }),
      )
      // a concurrent sync of the same post (PostgreSQL) made the slot first: its row stands
      .onConflict((oc) => oc.columns(['post_id', 'slot']).doNothing())
      .execute();
  }
  for (const r of inserts) states.get(r.post_id)!.slots.set(r.slot, fresh(r.source_url).state);
  const changedPost = new Map(existing.map((r) => [r.id, r.post_id]));
  const changedSlot = new Map(existing.map((r) => [r.id, r.slot]));
  for (const c of changes)
    states.get(changedPost.get(c.id)!)!.slots.set(changedSlot.get(c.id)!, fresh(c.source_url).state);

  const target = new Map<number, PostMediaState>();
  const walls = new Set<number>();
  for (const [postId, s] of states) {
    const state = postMediaState([...s.slots.values()].map((v) => v ?? 'pending'));
    if (state !== s.before) {
      target.set(postId, state);
      walls.add(s.wallId);
    }
  }
  await setMediaStates(db, target);
  return { added: inserts.length + changes.length, removed: deletes.length, walls: [...walls] };
}

/**
 * The media_state each of these posts, not stored yet, starts with: what
 * syncPostMedia will find once they are, so that their insert carries it
 * and no second write of the post (a second change-log row) follows.
 */
export async function initialMediaStates(
  db: Kysely<Database>,
  posts: readonly MediaColumns[],
  options: SyncOptions = {},
  /** storedCopiesFor(posts) when the caller has it already */
  known?: StoredCopies,
): Promise<PostMediaState[]> {
  const sources = posts.map((p) => pictureSourcesOf(p));
  const stored = known ?? (await storedCopiesFor(db, posts, options));
  return sources.map((list) =>
    postMediaState(list.map((s) => (options.skip ? 'skipped' : stored.has(s.url) ? 'ready' : 'pending'))),
  );
}

/** A post just inserted, with its media columns and its wall's account. */
export interface InsertedPost extends MediaColumns {
  id: number;
  account_id: number;
}

/**
 * The pictures of posts this transaction inserted (none of them has any
 * yet), inserted as syncPostMedia would — without reading the posts back:
 * a data-file import writes them by the hundred thousand. Their media_state
 * is the caller's to have set (initialMediaStates).
 */
export async function insertNewPostMedia(
  db: Kysely<Database>,
  posts: readonly InsertedPost[],
  now: number,
  options: SyncOptions = {},
  /** storedCopiesFor(posts) when the caller has it already */
  known?: StoredCopies,
): Promise<number> {
  const rows = posts.flatMap((p) =>
    pictureSourcesOf(p).map((s) => ({ post_id: p.id, account_id: p.account_id, slot: s.slot, source_url: s.url })),
  );
  const stored = known ?? (await storedCopiesFor(db, posts, options));
  for (const part of chunks(rows, 200)) {
    await db
      .insertInto('post_media')
      .values(
        part.map((r) => {
          const hash = stored.get(r.source_url) ?? null;
          const state: MediaItemState = options.skip ? 'skipped' : hash ? 'ready' : 'pending';
          return { ...r, state, hash, attempts: 0, next_attempt_at: now, updated_at: now };
        }),
      )
      .execute();
  }
  return rows.length;
}

/** Source URL → the hash of a stored copy another picture holds already. */
export type StoredCopies = ReadonlyMap<string, string>;

/** The stored copies of the pictures of these posts (none looked up with `skip`: they are not copied). */
export async function storedCopiesFor(
  db: Kysely<Database>,
  posts: readonly MediaColumns[],
  options: SyncOptions = {},
): Promise<StoredCopies> {
  if (options.skip) return new Map();
  return storedCopies(db, unique(posts.flatMap((p) => pictureSourcesOf(p).map((s) => s.url))));
}

/** A stored copy (its hash) of each of these URLs that another picture holds already. */
async function storedCopies(db: Kysely<Database>, urls: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const part of chunks(urls)) {
    const rows = await db
      .selectFrom('post_media')
      .select(['source_url', 'hash'])
      .where('source_url', 'in', part)
      .where('state', '=', 'ready')
      .where('hash', 'is not', null)
      .execute();
    for (const r of rows) if (r.hash) out.set(r.source_url, r.hash);
  }
  return out;
}

/** Writes each post's new media_state, one statement per state, only where it differs. */
async function setMediaStates(db: Kysely<Database>, target: Map<number, PostMediaState>): Promise<void> {
  const byState = new Map<PostMediaState, number[]>();
  for (const [postId, state] of target) {
    const list = byState.get(state) ?? [];
    list.push(postId);
    byState.set(state, list);
  }
  for (const [state, ids] of byState)
    for (const part of chunks(ids))
      await db
        .updateTable('posts')
        .set({ media_state: state })
        .where('id', 'in', part)
        .where('media_state', 'is distinct from', state)
        .execute();
}

/**
 * Sets the media_state of these posts from their pictures, where it changed;
 * returns the walls of the posts that changed.
 */
export async function refreshPostMediaStates(db: Kysely<Database>, postIds: readonly number[]): Promise<number[]> {
  const walls = new Set<number>();
  for (const ids of chunks(unique(postIds))) {
    const [posts, pictures] = await Promise.all([
      db.selectFrom('posts').select(['id', 'wall_id', 'media_state']).where('id', 'in', ids).execute(),
      db.selectFrom('post_media').select(['post_id', 'state']).where('post_id', 'in', ids).execute(),
    ]);
    const statesOf = new Map<number, string[]>();
    for (const p of pictures) {
      const list = statesOf.get(p.post_id) ?? [];
      list.push(p.state);
      statesOf.set(p.post_id, list);
    }
    const target = new Map<number, PostMediaState>();
    for (const p of posts) {
      const state = postMediaState(statesOf.get(p.id) ?? []);
      if (state !== p.media_state) {
        target.set(p.id, state);
        walls.add(p.wall_id);
      }
    }
    await setMediaStates(db, target);
  }
  return [...walls];
}

/** Posts whose media were never looked at (media_state null: stored before migration 0020), oldest ids first. */
export async function postsWithoutMediaState(db: Kysely<Database>, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('media_state', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

// ---------- the worker's queue ----------

/**
 * Source URLs with pictures due now (pending, next attempt passed, no live
 * lease), the longest waiting first.
 */
export async function dueSources(db: Kysely<Database>, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('post_media')
    .select(['source_url', (eb) => eb.fn.min('next_attempt_at').as('due')])
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    // a deleted wall's pictures wait (no one sees them; restored, it catches up)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('posts')
          .innerJoin('walls', 'walls.id', 'posts.wall_id')
          .select('posts.id')
          .whereRef('posts.id', '=', 'post_media.post_id')
          .where('walls.deleted_at', 'is', null),
      ),
    )
    .groupBy('source_url')
    .orderBy('due')
    .orderBy('source_url')
    .limit(limit)
    .execute();
  return rows.map((r) => r.source_url);
}

/** One picture a worker holds the lease of. */
export interface ClaimedPicture {
  id: number;
  postId: number;
  accountId: number;
  /** failed attempts so far */
  attempts: number;
}

/**
 * Takes the lease, until `until`, of every picture of `url` that is due and
 * not leased by another worker; returns them (none: another worker was first,
 * or nothing of the URL is due any more).
 */
export async function claimSource(
  db: Kysely<Database>,
  url: string,
  owner: string,
  now: number,
  until: number,
): Promise<ClaimedPicture[]> {
  const rows = await db
    .updateTable('post_media')
    .set({ lease_owner: owner, lease_until: until })
    .where('source_url', '=', url)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_owner', '=', owner)]))
    .returning(['id', 'post_id', 'account_id', 'attempts'])
    .execute();
  return rows
    .map((r) => ({ id: r.id, postId: r.post_id, accountId: r.account_id, attempts: r.attempts }))
    .sort((a, b) => a.id - b.id);
}

/** A stored picture, as processing described it (the row of media_blobs). */
export interface BlobRecord {
  hash: string;
  type: string;
  width: number;
  height: number;
  animated: boolean;
  hasAlpha: boolean;
  placeholder: string;
  widths: number[];
  /** the master's file name */
  master: string;
  /** what its files take in the storage */
  bytes: number;
}

/**
 * Records a stored picture in media_blobs, once: a hash recorded before
 * keeps its row (the same bytes make the same files). A processing result
 * is a BlobRecord as it is.
 */
export async function recordBlob(db: Kysely<Database>, blob: BlobRecord, now: number): Promise<void> {
  await db
    .insertInto('media_blobs')
    .values({
      hash: blob.hash,
      type: blob.type,
      width: blob.width,
      height: blob.height,
      animated: blob.animated ? 1 : 0,
      has_alpha: blob.hasAlpha ? 1 : 0,
      placeholder: blob.placeholder,
      widths: JSON.stringify(blob.widths),
      master: blob.master,
      bytes: blob.bytes,
      created_at: now,
    })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
}

/** What settling claimed pictures did: the pictures written, and the walls whose posts' media_state changed. */
export interface Settled {
  /** pictures this worker still held (a picture whose URL changed meanwhile, or whose lease lapsed, is left alone) */
  pictures: number;
  walls: number[];
  /** walls of every post whose pictures were written (readers' caches) */
  touchedWalls: number[];
}

const released = { lease_owner: null, lease_until: null } as const;

/**
 * The claimed pictures are stored: the blob recorded (once: a hash stored
 * before keeps its row), each picture `ready` with its hash, the posts'
 * media_state updated. One transaction.
 */
export async function completePictures(
  db: Kysely<Database>,
  ids: readonly number[],
  owner: string,
  blob: BlobRecord,
  now: number,
): Promise<Settled> {
  return db.transaction().execute(async (trx) => {
    await recordBlob(trx, blob, now);
    return settle(trx, ids, owner, { state: 'ready', hash: blob.hash, reason: null, updated_at: now, ...released });
  });
}

/**
 * How claimed pictures end without a copy: `refused` — never to be taken
 * (not a picture, too large, an address refused), not retried; `failed` —
 * failed for good without an attempt counted (the account's quota is used
 * up), until `wallery media retry` puts them back; `skipped` — not Wallery's
 * to copy after all (their posts show the original URLs).
 */
export type PicturesOutcome = { state: 'refused' | 'failed'; reason: string } | { state: 'skipped' };

/** The claimed pictures end as `outcome` says, leases released, the posts' media_state updated. One transaction. */
export async function settlePictures(
  db: Kysely<Database>,
  ids: readonly number[],
  owner: string,
  outcome: PicturesOutcome,
  now: number,
): Promise<Settled> {
  const reason = outcome.state === 'skipped' ? null : clip(outcome.reason);
  return db
    .transaction()
    .execute((trx) =>
      settle(trx, ids, owner, { state: outcome.state, hash: null, reason, updated_at: now, ...released }),
    );
}

/** Due pictures' source URLs that start with `prefix` (the demo's own pictures), distinct. */
export async function pendingSourcesUnder(db: Kysely<Database>, prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom('post_media')
    .select('source_url')
    .distinct()
    .where('state', '=', 'pending')
    // a `_` or `%` of the prefix only widens the match: the filter below is exact
    .where('source_url', 'like', `${prefix}%`)
    .orderBy('source_url')
    .execute();
  return rows.map((r) => r.source_url).filter((u) => u.startsWith(prefix));
}

/**
 * An attempt at the claimed pictures failed: one more attempt each; the
 * next at `nextAttemptAt(attempts)` (the count including this one), or —
 * when that is null (MEDIA_MAX_ATTEMPTS reached) — `failed` with the reason.
 */
export async function failPictures(
  db: Kysely<Database>,
  pictures: readonly ClaimedPicture[],
  owner: string,
  reason: string,
  now: number,
  nextAttemptAt: (attempts: number) => number | null,
): Promise<Settled> {
  return db.transaction().execute(async (trx) => {
    const settled: Settled = { pictures: 0, walls: [], touchedWalls: [] };
    const postIds: number[] = [];
    for (const p of pictures) {
      const attempts = p.attempts + 1;
      const next = nextAttemptAt(attempts);
      const res = await trx
        .updateTable('post_media')
        .set(
          next === null
            ? { state: 'failed', attempts, reason: clip(reason), updated_at: now, ...released }
            : { attempts, next_attempt_at: next, updated_at: now, ...released },
        )
        .where('id', '=', p.id)
        .where('lease_owner', '=', owner)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) {
        settled.pictures++;
        postIds.push(p.postId);
      }
    }
    settled.walls = await refreshPostMediaStates(trx, postIds);
    settled.touchedWalls = await wallsOfPosts(trx, postIds);
    return settled;
  });
}

/**
 * Gives the leases back without counting an attempt (the worker stops, or
 * the host asked to wait); `nextAttemptAt` moves the next attempt.
 */
export async function releasePictures(
  db: Kysely<Database>,
  ids: readonly number[],
  owner: string,
  nextAttemptAt?: number,
): Promise<void> {
  for (const part of chunks(ids))
    await db
      .updateTable('post_media')
      .set({ ...released, ...(nextAttemptAt !== undefined ? { next_attempt_at: nextAttemptAt } : {}) })
      .where('id', 'in', part)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'pending')
      .execute();
}

type SettleSet = {
  state: MediaItemState;
  hash: string | null;
  reason: string | null;
  updated_at: number;
  lease_owner: null;
  lease_until: null;
};

/** Writes `set` on the pictures this worker still holds (pending, its lease), then their posts' media_state. */
async function settle(trx: Kysely<Database>, ids: readonly number[], owner: string, set: SettleSet): Promise<Settled> {
  const postIds: number[] = [];
  for (const part of chunks(ids)) {
    const rows = await trx
      .updateTable('post_media')
      .set(set)
      .where('id', 'in', part)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'pending')
      .returning('post_id')
      .execute();
    for (const r of rows) postIds.push(r.post_id);
  }
  return {
    pictures: postIds.length,
    walls: await refreshPostMediaStates(trx, postIds),
    touchedWalls: await wallsOfPosts(trx, postIds),
  };
}

async function wallsOfPosts(db: Kysely<Database>, postIds: readonly number[]): Promise<number[]> {
  const walls = new Set<number>();
  for (const part of chunks(unique(postIds))) {
    const rows = await db.selectFrom('posts').select('wall_id').distinct().where('id', 'in', part).execute();
    for (const r of rows) walls.add(r.wall_id);
  }
  return [...walls];
}

const clip = (reason: string) => reason.slice(0, 1000);

// ---------- quota ----------

/**
 * What an account's pictures take in the storage: the bytes of each distinct
 * stored picture its posts show (a picture two of its posts show counts once;
 * one another account shows too counts for both).
 */
export async function accountMediaBytes(db: Kysely<Database>, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('media_blobs')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('bytes'), sql<number>`0`).as('bytes'))
    .where(
      'hash',
      'in',
      db
        .selectFrom('post_media')
        .select('hash')
        .distinct()
        .where('account_id', '=', accountId)
        .where('hash', 'is not', null),
    )
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** Whether one of the account's posts already shows the stored picture of this hash (it costs its quota nothing more). */
export async function accountHasBlob(db: Kysely<Database>, accountId: number, hash: string): Promise<boolean> {
  const row = await db
    .selectFrom('post_media')
    .select('id')
    .where('account_id', '=', accountId)
    .where('hash', '=', hash)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// ---------- retry, gc, status ----------

/**
 * Puts failed pictures back in the queue (attempts from zero, due now): all,
 * or the ones of one wall's posts. Returns how many, and the posts' walls
 * whose media_state changed.
 */
export async function retryFailedPictures(
  db: Kysely<Database>,
  now: number,
  wallId?: number,
): Promise<{ pictures: number; walls: number[] }> {
  return db.transaction().execute(async (trx) => {
    let q = trx
      .updateTable('post_media')
      .set({ state: 'pending', attempts: 0, reason: null, next_attempt_at: now, updated_at: now, ...released })
      .where('state', '=', 'failed');
    if (wallId !== undefined)
      q = q.where('post_id', 'in', trx.selectFrom('posts').select('id').where('wall_id', '=', wallId));
    const rows = await q.returning('post_id').execute();
    const walls = await refreshPostMediaStates(
      trx,
      rows.map((r) => r.post_id),
    );
    return { pictures: rows.length, walls };
  });
}

/** A stored picture no post shows any more. */
export interface UnreferencedBlob {
  hash: string;
  bytes: number;
  master: string;
}

/** Stored pictures no post_media row references (their posts purged or their URLs changed). */
export async function unreferencedBlobs(db: Kysely<Database>): Promise<UnreferencedBlob[]> {
  const rows = await db
    .selectFrom('media_blobs as b')
    .select(['b.hash', 'b.bytes', 'b.master'])
    .where((eb) => eb.not(eb.exists(eb.selectFrom('post_media as m').select('m.id').whereRef('m.hash', '=', 'b.hash'))))
    .orderBy('b.hash')
    .execute();
  return rows.map((r) => ({ hash: r.hash, bytes: Number(r.bytes), master: r.master }));
}

/** Deletes these blobs' rows, each only if still unreferenced; returns the hashes deleted. */
export async function deleteUnreferencedBlobs(db: Kysely<Database>, hashes: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const part of chunks(hashes)) {
    const rows = await db
      .deleteFrom('media_blobs')
      .where('media_blobs.hash', 'in', part)
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('post_media as m').select('m.id').whereRef('m.hash', '=', 'media_blobs.hash'))),
      )
      .returning('media_blobs.hash')
      .execute();
    for (const r of rows) deleted.push(r.hash);
  }
  return deleted;
}

/** Whether a stored picture of this hash is recorded. */
export async function knownBlobHashes(db: Kysely<Database>, hashes: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const part of chunks(hashes)) {
    const rows = await db.selectFrom('media_blobs').select('hash').where('hash', 'in', part).execute();
    for (const r of rows) out.add(r.hash);
  }
  return out;
}

export const PICTURE_STATES: readonly MediaItemState[] = ['pending', 'ready', 'failed', 'refused', 'skipped'];

export interface MediaSummary {
  /** pictures per state */
  pictures: Record<MediaItemState, number>;
  /** of the pending ones, due now */
  due: number;
  /** distinct stored pictures the pictures counted reference, and what their files take */
  blobs: number;
  bytes: number;
}

/** Pictures per state (all, or one wall's posts'), and the stored pictures they show. */
export async function mediaSummary(db: Kysely<Database>, now: number, wallId?: number): Promise<MediaSummary> {
  let counts = db
    .selectFrom('post_media')
    .select([
      'post_media.state',
      (eb) => eb.fn.countAll<number | string>().as('n'),
      sql<number | string>`sum(case when post_media.next_attempt_at <= ${now} then 1 else 0 end)`.as('due'),
    ])
    .groupBy('post_media.state');
  if (wallId !== undefined)
    counts = counts.innerJoin('posts', 'posts.id', 'post_media.post_id').where('posts.wall_id', '=', wallId);
  let hashes = db
    .selectFrom('post_media')
    .select('post_media.hash')
    .distinct()
    .where('post_media.hash', 'is not', null);
  if (wallId !== undefined)
    hashes = hashes.innerJoin('posts', 'posts.id', 'post_media.post_id').where('posts.wall_id', '=', wallId);
  const [rows, blobs] = await Promise.all([
    counts.execute(),
    db
      .selectFrom('media_blobs')
      .select([
        (eb) => eb.fn.countAll<number | string>().as('n'),
        (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('bytes'), sql<number>`0`).as('bytes'),
      ])
      .where('hash', 'in', hashes)
      .executeTakeFirst(),
  ]);
  const pictures = Object.fromEntries(PICTURE_STATES.map((s) => [s, 0])) as Record<MediaItemState, number>;
  let due = 0;
  for (const r of rows) {
    pictures[r.state] = Number(r.n);
    if (r.state === 'pending') due = Number(r.due ?? 0);
  }
  return { pictures, due, blobs: Number(blobs?.n ?? 0), bytes: Number(blobs?.bytes ?? 0) };
}

/** The bytes every stored picture takes, and how many there are (the metrics' gauge). */
export async function storedBlobTotals(db: Kysely<Database>): Promise<{ blobs: number; bytes: number }> {
  const row = await db
    .selectFrom('media_blobs')
    .select([
      (eb) => eb.fn.countAll<number | string>().as('n'),
      (eb) => eb.fn.coalesce(eb.fn.sum<number | string>('bytes'), sql<number>`0`).as('bytes'),
    ])
    .executeTakeFirst();
  return { blobs: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

export interface PictureFailure {
  postId: number;
  wallId: number;
  slot: string;
  sourceUrl: string;
  state: 'failed' | 'refused';
  reason: string | null;
  attempts: number;
  updatedAt: number;
}

/** The latest failed and refused pictures (all, or one wall's), newest first. */
export async function pictureFailures(db: Kysely<Database>, limit: number, wallId?: number): Promise<PictureFailure[]> {
  let q = db
    .selectFrom('post_media')
    .innerJoin('posts', 'posts.id', 'post_media.post_id')
    .select([
      'post_media.post_id',
      'posts.wall_id',
      'post_media.slot',
      'post_media.source_url',
      'post_media.state',
      'post_media.reason',
      'post_media.attempts',
      'post_media.updated_at',
    ])
    .where('post_media.state', 'in', ['failed', 'refused'])
    .orderBy('post_media.updated_at', 'desc')
    .orderBy('post_media.id', 'desc')
    .limit(limit);
  if (wallId !== undefined) q = q.where('posts.wall_id', '=', wallId);
  const rows = await q.execute();
  return rows.map((r) => ({
    postId: r.post_id,
    wallId: r.wall_id,
    slot: r.slot,
    sourceUrl: r.source_url,
    state: r.state as 'failed' | 'refused',
    reason: r.reason,
    attempts: r.attempts,
    updatedAt: r.updated_at,
  }));
}
