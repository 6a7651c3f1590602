// Stored pictures for tests of what shows them: the rows the media worker
// writes (media_blobs, post_media, posts.media_state), written directly, and
// a small data file of one account with two walls whose posts have pictures
// on a remote host.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEMO_KEYS, demoDataFile } from '../../src/demo/demo-data.js';
import type { DataFile } from '../../src/store/datafile.js';
import { recordBlob } from '../../src/store/media-queue.js';
import type { Database, MediaItemState, PostMediaState } from '../../src/store/schema.js';
import { mediaKey } from '../../src/media/names.js';
import { processPicture, renderRendition } from '../../src/media/process.js';
import { DEFAULT_PROCESS_OPTIONS, type MediaProcessor, type MediaStorage } from '../../src/media/types.js';

/** A made-up sha256 (64 hex digits) for a name. */
export const fakeHash = (name: string) => createHash('sha256').update(name).digest('hex');

export interface BlobSpec {
  hash: string;
  width: number;
  height: number;
  widths: number[];
  placeholder?: string;
  animated?: boolean;
  hasAlpha?: boolean;
  master?: string;
  type?: string;
  bytes?: number;
}

export async function insertBlob(db: Kysely<Database>, b: BlobSpec): Promise<void> {
  await recordBlob(
    db,
    {
      type: 'jpeg',
      animated: false,
      hasAlpha: false,
      placeholder: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw',
      master: 'master.jpg',
      bytes: 1000,
      ...b,
    },
    Date.now(),
  );
}

export interface PictureSpec {
  postId: number;
  slot: string;
  sourceUrl: string;
  state: MediaItemState;
  hash?: string | null;
  reason?: string | null;
  attempts?: number;
}

export async function insertPicture(db: Kysely<Database>, p: PictureSpec): Promise<void> {
  const post = await db
    .selectFrom('posts')
    .innerJoin('walls', 'walls.id', 'posts.wall_id')
    .select('walls.account_id')
    .where('posts.id', '=', p.postId)
    .executeTakeFirstOrThrow();
  // the import made the post's rows already (pending): this one replaces its slot's
  await db.deleteFrom('post_media').where('post_id', '=', p.postId).where('slot', '=', p.slot).execute();
  await db
    .insertInto('post_media')
    .values({
      post_id: p.postId,
      account_id: post.account_id,
      slot: p.slot,
      source_url: p.sourceUrl,
      state: p.state,
      hash: p.hash ?? null,
      reason: p.reason ?? null,
      attempts: p.attempts ?? (p.state === 'pending' ? 0 : 1),
      updated_at: Date.now(),
    })
    .execute();
}

export async function setMediaState(db: Kysely<Database>, postId: number, state: PostMediaState | null): Promise<void> {
  await db.updateTable('posts').set({ media_state: state }).where('id', '=', postId).execute();
}

export const MEDIA_KEY = DEMO_KEYS[0].key;
export const CDN = 'https://cdn.example.net';
/** A wall that waits for pictures, and one that does not (the default). */
export const MEDIA_WALLS = { waits: 601, shows: 602 } as const;

/** The demo's accounts, and two walls whose posts' pictures are on CDN: `ids` of each wall's posts, newest first. */
export function mediaDataFile(now: number, ids: Record<number, number[]>): DataFile {
  const demo = demoDataFile(now);
  const iso = (ms: number) => new Date(ms).toISOString();
  const wall = (id: number) => ({
    id,
    accountId: 1,
    name: `Media wall ${id}`,
    url: `media-wall-${id}`,
    profanity: 0,
    ...(id === MEDIA_WALLS.waits ? { mediaWait: true } : {}),
    createdAt: iso(now - 86_400_000),
    feeds: [
      {
        id: id * 10,
        name: `feed ${id}`,
        source: 'RSS',
        sourceType: 'feed',
        createdAt: iso(now - 86_400_000),
        updatedAt: iso(now),
        posts: (ids[id] ?? []).map((postId, n) => ({
          id: postId,
          networkName: 'Mastodon',
          postType: 2,
          media: 'image' as const,
          content: `<p>post ${postId}</p>`,
          picture: `${CDN}/p/${postId}.jpg`,
          linkUrl: `https://social.example/p/${postId}`,
          authorName: 'Ana Ruiz',
          username: 'ana',
          userPicture: `${CDN}/u/${postId}.png`,
          createdAt: iso(now - (n + 1) * 60_000),
        })),
      },
    ],
  });
  return {
    version: 1,
    accounts: demo.accounts,
    products: [],
    walls: [wall(MEDIA_WALLS.waits), wall(MEDIA_WALLS.shows)],
  };
}

/**
 * Processes a picture as the media worker does (src/media/process.ts), writes
 * its files to `storage` and its row: what the worker leaves once a picture
 * is fetched. Returns the row's spec.
 */
export async function storePicture(db: Kysely<Database>, storage: MediaStorage, bytes: Uint8Array): Promise<BlobSpec> {
  const result = await processPicture(bytes, DEFAULT_PROCESS_OPTIONS);
  if (!result.ok) throw new Error(`the test picture was refused: ${result.reason}`);
  for (const file of result.files) await storage.put(mediaKey(result.hash, file.name), file.bytes, file.contentType);
  const spec: BlobSpec = {
    hash: result.hash,
    width: result.width,
    height: result.height,
    widths: result.widths,
    placeholder: result.placeholder,
    animated: result.animated,
    hasAlpha: result.hasAlpha,
    master: result.master,
    type: result.type,
    bytes: result.bytes,
  };
  await insertBlob(db, spec);
  return spec;
}

/** Processing in this thread (no worker pool), counting the renditions it makes. */
export function inlineProcessor(): MediaProcessor & { renders: number } {
  const processor = {
    renders: 0,
    process: processPicture,
    async render(...args: Parameters<typeof renderRendition>) {
      processor.renders++;
      return renderRendition(...args);
    },
    close: async () => undefined,
  };
  return processor;
}
