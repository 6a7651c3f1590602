// The image check's store (issue 32): each stored picture's scores and
// perceptual hash (picture_checks, keyed by the hash of its bytes), the
// pictures still to check — new ones, and those checked by another model
// (the table is the queue: resumable, nothing leased; two workers checking
// the same picture write the same row) — and what the picture rules see of
// a post (PictureFacts). The posts waiting for the check are read and
// decided by src/store/waiting-posts.ts.
import type { Kysely } from 'kysely';
import {
  AVATAR_SLOT_NAME,
  hammingHex,
  IMAGE_CHECK_BY,
  PHASH_MODEL,
  type CheckedPicture,
  type ClassScores,
  type PictureFacts,
  type SimilarPicture,
} from '../domain/image-rules.js';
import type { Database } from './schema.js';

const CHUNK = 500;
/** Earlier pictures of a wall a post's pictures are compared with, at most (the most recent). */
const NEIGHBORS_MAX = 5000;
const HOUR_MS = 3_600_000;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A stored picture to check: its hash and its master's file name. */
export interface PictureToCheck {
  hash: string;
  master: string;
}

/** Walls whose rules (stored compact, JSON.stringify) have a picture rule: their pictures are checked. */
const PICTURE_RULE_PATTERNS = ['%"kind":"image"%', '%"kind":"similar_image"%'];

/**
 * Stored pictures (posts' items, not avatars) with no check by `model` —
 * those of posts waiting for the check first, then those of walls with a
 * picture rule (new pictures, pictures checked by an earlier model, a wall's
 * pictures from before its first picture rule); at most `limit`. Pictures of
 * walls without picture rules are not checked: they would cost the CPU for
 * nothing, and are once the wall has one.
 */
export async function picturesToCheck(db: Kysely<Database>, model: string, limit: number): Promise<PictureToCheck[]> {
  const base = () =>
    db
      .selectFrom('post_media')
      .innerJoin('media_blobs', 'media_blobs.hash', 'post_media.hash')
      .innerJoin('posts', 'posts.id', 'post_media.post_id')
      .leftJoin('picture_checks', 'picture_checks.hash', 'post_media.hash')
      .select(['media_blobs.hash', 'media_blobs.master'])
      .distinct()
      .where('post_media.state', '=', 'ready')
      .where('post_media.slot', '!=', AVATAR_SLOT_NAME)
      .where((eb) => eb.or([eb('picture_checks.hash', 'is', null), eb('picture_checks.model', '!=', model)]));
  const waiting = await base()
    .where('posts.decided_by', '=', IMAGE_CHECK_BY)
    .where('posts.state', '=', 'pending')
    .orderBy('media_blobs.hash')
    .limit(limit)
    .execute();
  if (waiting.length >= limit) return waiting;
  const seen = new Set(waiting.map((r) => r.hash));
  const more = await base()
    .innerJoin('walls', 'walls.id', 'posts.wall_id')
    .where('walls.deleted_at', 'is', null)
    .where((eb) => eb.or(PICTURE_RULE_PATTERNS.map((p) => eb('walls.rules', 'like', p))))
    .orderBy('media_blobs.hash')
    .limit(limit + seen.size)
    .execute();
  return [...waiting, ...more.filter((r) => !seen.has(r.hash))].slice(0, limit);
}

/** How many stored pictures of walls with picture rules have no check by `model` (new, or to check again). */
export async function picturesToCheckCount(db: Kysely<Database>, model: string): Promise<number> {
  const row = await db
    .selectFrom('post_media')
    .innerJoin('posts', 'posts.id', 'post_media.post_id')
    .innerJoin('walls', 'walls.id', 'posts.wall_id')
    .leftJoin('picture_checks', 'picture_checks.hash', 'post_media.hash')
    .select((eb) => eb.fn.count<number>('post_media.hash').distinct().as('n'))
    .where('post_media.state', '=', 'ready')
    .where('post_media.slot', '!=', AVATAR_SLOT_NAME)
    .where((eb) => eb.or(PICTURE_RULE_PATTERNS.map((p) => eb('walls.rules', 'like', p))))
    .where((eb) => eb.or([eb('picture_checks.hash', 'is', null), eb('picture_checks.model', '!=', model)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A check's outcome: scores and hash, or why it failed. */
export type CheckOutcome = { scores: ClassScores; phash: string } | { error: string };

/** Writes a picture's check (replacing an earlier one). */
export async function saveCheck(
  db: Kysely<Database>,
  hash: string,
  model: string,
  outcome: CheckOutcome,
  now: number,
): Promise<void> {
  const row =
    'error' in outcome
      ? { model, scores: null, phash: null, error: outcome.error.slice(0, 500), checked_at: now }
      : { model, scores: JSON.stringify(outcome.scores), phash: outcome.phash, error: null, checked_at: now };
  await db
    .insertInto('picture_checks')
    .values({ hash, ...row })
    .onConflict((oc) => oc.column('hash').doUpdateSet(row))
    .execute();
}

/** A post as the picture rules judge it. */
export interface PostToCheck {
  id: number;
  wall_id: number;
  created_at: number;
}

/** Of each post: what the image check found of its pictures, or `unready` while a picture is being fetched or has no check by `model` yet. */
export async function pictureFactsOf(
  db: Kysely<Database>,
  posts: readonly PostToCheck[],
  model: string,
  /** the longest window of the wall's similar_image rules (hours); 0: none */
  similarHours: number,
): Promise<Map<number, PictureFacts | 'unready'>> {
  const out = new Map<number, PictureFacts | 'unready'>();
  if (posts.length === 0) return out;
  const rows: {
    post_id: number;
    state: string;
    reason: string | null;
    hash: string | null;
    model: string | null;
    scores: string | null;
    phash: string | null;
    error: string | null;
  }[] = [];
  for (const ids of chunks(posts.map((p) => p.id)))
    rows.push(
      ...(await db
        .selectFrom('post_media')
        .leftJoin('picture_checks', 'picture_checks.hash', 'post_media.hash')
        .select([
          'post_media.post_id',
          'post_media.state',
          'post_media.reason',
          'post_media.hash',
          'picture_checks.model',
          'picture_checks.scores',
          'picture_checks.phash',
          'picture_checks.error',
        ])
        .where('post_media.post_id', 'in', ids)
        .where('post_media.slot', '!=', AVATAR_SLOT_NAME)
        .orderBy('post_media.id')
        .execute()),
    );
  const byPost = new Map<number, typeof rows>();
  for (const r of rows) byPost.set(r.post_id, [...(byPost.get(r.post_id) ?? []), r]);

  const neighbors = similarHours > 0 ? await recentHashes(db, posts, similarHours) : new Map();
  for (const p of posts) {
    const list = byPost.get(p.id) ?? [];
    const pictures: CheckedPicture[] = [];
    const hashes: string[] = [];
    let unready = false;
    for (const r of list) {
      if (r.state === 'pending') unready = true;
      else if (r.state !== 'ready')
        pictures.push({
          scores: null,
          problem:
            r.state === 'skipped'
              ? 'the picture was not stored (media skipped)'
              : `the picture could not be fetched: ${r.reason ?? r.state}`,
        });
      else if (r.model !== model) unready = true;
      else if (r.scores === null)
        pictures.push({ scores: null, problem: `the picture could not be classified: ${r.error ?? 'unknown'}` });
      else {
        pictures.push({ scores: JSON.parse(r.scores) as ClassScores, problem: null });
        if (r.phash !== null) hashes.push(r.phash);
      }
    }
    if (unready) {
      out.set(p.id, 'unready');
      continue;
    }
    const similar: SimilarPicture[] = [];
    for (const n of neighbors.get(p.wall_id) ?? []) {
      if (n.postId === p.id || n.createdAt > p.created_at) continue;
      const hoursBefore = (p.created_at - n.createdAt) / HOUR_MS;
      if (hoursBefore > similarHours) continue;
      for (const h of hashes) similar.push({ postId: n.postId, distance: hammingHex(h, n.phash), hoursBefore });
    }
    out.set(p.id, { pictures, model, hasher: PHASH_MODEL, similar });
  }
  return out;
}

/** The perceptual hashes of the pictures of each wall's posts created within `hours` before the given posts. */
async function recentHashes(
  db: Kysely<Database>,
  posts: readonly PostToCheck[],
  hours: number,
): Promise<Map<number, { postId: number; createdAt: number; phash: string }[]>> {
  const out = new Map<number, { postId: number; createdAt: number; phash: string }[]>();
  for (const wallId of new Set(posts.map((p) => p.wall_id))) {
    const times = posts.filter((p) => p.wall_id === wallId).map((p) => p.created_at);
    const rows = await db
      .selectFrom('post_media')
      .innerJoin('posts', 'posts.id', 'post_media.post_id')
      .innerJoin('picture_checks', 'picture_checks.hash', 'post_media.hash')
      .select(['posts.id', 'posts.created_at', 'picture_checks.phash'])
      .where('posts.wall_id', '=', wallId)
      .where('post_media.slot', '!=', AVATAR_SLOT_NAME)
      .where('post_media.state', '=', 'ready')
      .where('picture_checks.phash', 'is not', null)
      .where('posts.created_at', '>=', Math.min(...times) - hours * HOUR_MS)
      .where('posts.created_at', '<=', Math.max(...times))
      .orderBy('posts.created_at', 'desc')
      .limit(NEIGHBORS_MAX)
      .execute();
    out.set(
      wallId,
      rows.map((r) => ({ postId: r.id, createdAt: Number(r.created_at), phash: r.phash! })),
    );
  }
  return out;
}
