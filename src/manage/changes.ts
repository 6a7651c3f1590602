// A wall's change feed: the changes of its posts (and its own deletion or
// restoration) after a cursor, in commit order, each with the post as it is
// now. A reader that keeps the returned cursor and asks again never misses
// or repeats a change (the log is numbered in commit order: see
// src/store/migrations/0015_changes.ts). To mirror a wall: take `since=latest`,
// read the posts, then follow the feed from that cursor — a change that
// happened during the read shows up once more, and applying the post as it
// is now is idempotent.
import type { Kysely } from 'kysely';
import {
  decodeChangeCursor,
  encodeChangeCursor,
  LATEST_CURSOR,
  WALL_FEED_KINDS,
  type ChangeKind,
} from '../domain/changes.js';
import { iso } from '../domain/dates.js';
import { gone, invalidField } from '../domain/errors.js';
import type { ChangesPage } from '../schemas/changes.js';
import { PAGE_DEFAULT } from '../schemas/fields.js';
import { changesAfter, latestChangeSeq, prunedThrough } from '../store/change-log.js';
import type { Database } from '../store/schema.js';
import { moderationPostsByIds } from './posts.js';
import { requireWall } from './walls.js';

export interface ChangesRequest {
  since?: string;
  limit?: number;
}

/** `mediaBase`: of the URLs of Wallery's copies in the posts' records (src/domain/self-url.ts). */
export async function wallChanges(
  db: Kysely<Database>,
  wallId: number,
  request: ChangesRequest,
  mediaBase?: string,
): Promise<ChangesPage> {
  await requireWall(db, wallId);
  if (request.since === LATEST_CURSOR)
    return { changes: [], cursor: encodeChangeCursor(await latestChangeSeq(db)), hasMore: false };
  const after = request.since === undefined ? 0 : decodeChangeCursor(request.since);
  if (after === null) throw invalidField('since', `since must be a cursor this API returned, or ${LATEST_CURSOR}`);
  // Read before the changes: every change up to it is committed, so when the
  // page ends the wall's changes the cursor may move up to it (a quiet wall's
  // cursor keeps up with the log and does not fall behind the prune mark).
  const newest = await latestChangeSeq(db);
  const limit = request.limit ?? PAGE_DEFAULT;
  const rows = await changesAfter(db, { after, wallId, kinds: WALL_FEED_KINDS, limit: limit + 1 });
  // Read after the changes: a prune that deleted some of them before they were
  // read has moved the mark past `after` by now, so the gap is refused, never
  // skipped; a prune after the read took nothing this page needed.
  const pruned = await prunedThrough(db);
  if (after < pruned)
    throw gone(
      `changes up to cursor ${pruned} have been pruned: read the wall's posts again and follow from since=${LATEST_CURSOR}`,
    );
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const postIds = [...new Set(page.flatMap((r) => (r.post_id === null ? [] : [r.post_id])))];
  const posts = await moderationPostsByIds(db, wallId, postIds, mediaBase);
  const last = page[page.length - 1];
  return {
    changes: page.map((r) => ({
      cursor: encodeChangeCursor(r.seq),
      kind: r.kind as ChangeKind,
      postId: r.post_id,
      visible: r.visible,
      at: iso(r.at),
      post: r.post_id === null ? null : (posts.get(r.post_id) ?? null),
    })),
    cursor: encodeChangeCursor(hasMore ? last!.seq : Math.max(after, newest, last?.seq ?? 0)),
    hasMore,
  };
}
