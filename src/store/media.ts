// The media of posts as the readers see it (embed API, webhooks, management
// API): each picture's slot, where fetching it stands and, once stored, the
// stored picture's dimensions, placeholder and renditions. The media worker's
// queue and writes are in src/store/media-queue.ts.
import type { Kysely } from 'kysely';
import type { Database, MediaItemState } from './schema.js';

/** A stored picture as readers need it. */
export interface StoredPicture {
  hash: string;
  width: number;
  height: number;
  animated: boolean;
  hasAlpha: boolean;
  /** ThumbHash, base64 */
  placeholder: string;
  /** rendition widths, ascending */
  widths: number[];
}

/** One picture of a post. */
export interface PostPicture {
  slot: string;
  sourceUrl: string;
  state: MediaItemState;
  /** why it failed or was refused; null when ready or pending */
  reason: string | null;
  attempts: number;
  /** the stored copy (null until ready) */
  stored: StoredPicture | null;
}

/** The pictures of each post, by slot. */
export async function picturesOfPosts(
  db: Kysely<Database>,
  postIds: readonly number[],
): Promise<Map<number, Map<string, PostPicture>>> {
  const byPost = new Map<number, Map<string, PostPicture>>();
  if (postIds.length === 0) return byPost;
  const rows = await db
    .selectFrom('post_media')
    .leftJoin('media_blobs', 'media_blobs.hash', 'post_media.hash')
    .select([
      'post_media.post_id',
      'post_media.slot',
      'post_media.source_url',
      'post_media.state',
      'post_media.reason',
      'post_media.attempts',
      'media_blobs.hash',
      'media_blobs.width',
      'media_blobs.height',
      'media_blobs.animated',
      'media_blobs.has_alpha',
      'media_blobs.placeholder',
      'media_blobs.widths',
    ])
    .where('post_media.post_id', 'in', [...postIds])
    .execute();
  for (const r of rows) {
    let slots = byPost.get(r.post_id);
    if (!slots) byPost.set(r.post_id, (slots = new Map()));
    const stored: StoredPicture | null =
      r.state === 'ready' && r.hash !== null && r.width !== null && r.height !== null
        ? {
            hash: r.hash,
            width: r.width,
            height: r.height,
            animated: r.animated === 1,
            hasAlpha: r.has_alpha === 1,
            placeholder: r.placeholder ?? '',
            widths: JSON.parse(r.widths ?? '[]') as number[],
          }
        : null;
    slots.set(r.slot, {
      slot: r.slot,
      sourceUrl: r.source_url,
      state: r.state,
      reason: r.reason,
      attempts: r.attempts,
      stored,
    });
  }
  return byPost;
}

/** A stored picture by its hash (serving: which renditions exist, whether it is animated). */
export async function findStoredPicture(db: Kysely<Database>, hash: string) {
  return (
    (await db
      .selectFrom('media_blobs')
      .select(['hash', 'type', 'width', 'height', 'animated', 'has_alpha', 'widths', 'master', 'bytes'])
      .where('hash', '=', hash)
      .executeTakeFirst()) ?? null
  );
}

/**
 * A rendition made on first request (src/http/media/) was stored: its size
 * counts in what the picture takes. False when the picture is no longer
 * recorded (deleted while the rendition was made).
 */
export async function addStoredBytes(db: Kysely<Database>, hash: string, bytes: number): Promise<boolean> {
  const result = await db
    .updateTable('media_blobs')
    .set((eb) => ({ bytes: eb('bytes', '+', bytes) }))
    .where('hash', '=', hash)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
