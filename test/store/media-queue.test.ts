// The media worker's queue (src/store/media-queue.ts) on a real store, SQLite
// and PostgreSQL: how a post's pictures follow its media columns, the writers
// that queue them (ingestion, data-file import, custom posts), the due scan
// and lease, completing, failing with backoff, refusing, the quota's count,
// gc's unreferenced blobs, retry, and a post's media_state written only when
// it changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCustomPost } from '../../src/store/custom-posts.js';
import { importDataFile } from '../../src/store/datafile.js';
import { upsertPosts, type IngestedPost } from '../../src/store/ingest.js';
import {
  accountMediaBytes,
  claimSource,
  completePictures,
  deleteUnreferencedBlobs,
  dueSources,
  failPictures,
  mediaSummary,
  pictureFailures,
  postsWithoutMediaState,
  releasePictures,
  retryFailedPictures,
  settlePictures,
  syncPostMedia,
  unreferencedBlobs,
  type BlobRecord,
} from '../../src/store/media-queue.js';
import { picturesOfPosts } from '../../src/store/media.js';
import type { Store } from '../../src/store/store.js';
import { postDefaults } from '../../src/store/post-columns.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const T = '2026-01-01T00:00:00.000Z';
const A = 'https://cdn.example/a.jpg';
const B = 'https://cdn.example/b.jpg';
const C = 'https://cdn.example/c.jpg';
const FACE = 'https://cdn.example/face.png';

let dir: string;
let ts: TestStore;
let store: Store;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-media-queue-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(async () => {
  ts = await openTestStore(dir, `s${n++}`);
  store = ts.store;
  await importDataFile(
    store,
    {
      version: 1,
      accounts: [
        { id: 1, name: 'One', plan: 'enterprise' },
        { id: 2, name: 'Two', plan: 'enterprise' },
      ],
      walls: [
        { id: 10, accountId: 1, name: 'W10', url: 'w10', createdAt: T, feeds: [feed(100)] },
        { id: 11, accountId: 1, name: 'W11', url: 'w11', createdAt: T, feeds: [feed(110)] },
        { id: 20, accountId: 2, name: 'W20', url: 'w20', createdAt: T, feeds: [feed(200)] },
      ],
    },
    NOW,
  );
});
afterEach(async () => {
  await ts?.close();
});

function feed(id: number, posts: unknown[] = []) {
  return { id, name: `Feed ${id}`, source: 'RSS', sourceType: 'feed', posts };
}

/** A post written straight into the store (as a path that does not sync would), media_state null. */
async function insertPost(feedId: number, columns: Partial<ReturnType<typeof postDefaults>> = {}): Promise<number> {
  const wallId = Math.floor(feedId / 10);
  const row = await store.db
    .insertInto('posts')
    .values({ ...postDefaults(), wall_id: wallId, feed_id: feedId, created_at: NOW, updated_at: NOW, ...columns })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const image = (url: string, avatar = '') => ({ media: 'image' as const, picture: url, user_picture: avatar });

async function pictures(postId: number) {
  return store.db
    .selectFrom('post_media')
    .select(['slot', 'source_url', 'state', 'hash', 'attempts', 'reason', 'account_id'])
    .where('post_id', '=', postId)
    .orderBy('slot')
    .execute();
}

async function post(postId: number) {
  return store.db.selectFrom('posts').select(['media_state', 'rev']).where('id', '=', postId).executeTakeFirstOrThrow();
}

async function changeRows(postId: number) {
  return (
    await store.db.selectFrom('changes').select('kind').where('post_id', '=', postId).orderBy('seq').execute()
  ).map((r) => r.kind);
}

const blob = (hash: string, bytes = 1000): BlobRecord => ({
  hash,
  type: 'jpeg',
  width: 640,
  height: 480,
  animated: false,
  hasAlpha: false,
  placeholder: 'AAAA',
  widths: [320, 640],
  master: 'master.jpg',
  bytes,
});
const H1 = '1'.repeat(64);
const H2 = '2'.repeat(64);
const H3 = '3'.repeat(64);

/** Claims and completes every due picture of `url` as stored under `hash`. */
async function store_(url: string, hash: string, bytes = 1000) {
  const claimed = await claimSource(store.db, url, 'w1', NOW, NOW + 60_000);
  await completePictures(
    store.db,
    claimed.map((c) => c.id),
    'w1',
    blob(hash, bytes),
    NOW,
  );
  return claimed;
}

describe('syncPostMedia: a post’s pictures follow its media columns', () => {
  it('queues the picture and the avatar of a new post, pending from now, under the wall’s account', async () => {
    const id = await insertPost(100, image(A, FACE));
    const r = await syncPostMedia(store.db, [id], NOW);
    expect(r).toEqual({ added: 2, removed: 0, walls: [10] });
    expect(await pictures(id)).toEqual([
      { slot: 'avatar', source_url: FACE, state: 'pending', hash: null, attempts: 0, reason: null, account_id: 1 },
      { slot: 'item:0', source_url: A, state: 'pending', hash: null, attempts: 0, reason: null, account_id: 1 },
    ]);
    expect((await post(id)).media_state).toBe('pending');
    expect(await dueSources(store.db, NOW, 10)).toEqual([FACE, A].sort());
    expect(await dueSources(store.db, NOW - 1, 10)).toEqual([]);
  });

  it('a post without pictures is none; a sync that changes nothing writes nothing (no revision, no change row)', async () => {
    const text = await insertPost(100, { content: 'words' });
    const pic = await insertPost(100, image(A));
    await syncPostMedia(store.db, [text, pic], NOW);
    expect((await post(text)).media_state).toBe('none');
    const before = await Promise.all([post(text), post(pic)]);
    const changes = await Promise.all([changeRows(text), changeRows(pic)]);
    const again = await syncPostMedia(store.db, [text, pic], NOW + 1000);
    expect(again).toEqual({ added: 0, removed: 0, walls: [] });
    expect(await Promise.all([post(text), post(pic)])).toEqual(before);
    expect(await Promise.all([changeRows(text), changeRows(pic)])).toEqual(changes);
  });

  it('a URL that changed starts over; a slot that is gone is deleted; the same URL keeps its state', async () => {
    const id = await insertPost(100, image(A, FACE));
    await syncPostMedia(store.db, [id], NOW);
    await store_(A, H1);
    await store_(FACE, H2);
    expect((await post(id)).media_state).toBe('ready');

    // a failed attempt on the avatar first: its count must not survive the change of URL
    await store.db.updateTable('posts').set({ picture: B, user_picture: '' }).where('id', '=', id).execute();
    const r = await syncPostMedia(store.db, [id], NOW + 5);
    expect(r).toEqual({ added: 1, removed: 1, walls: [10] });
    expect(await pictures(id)).toEqual([
      { slot: 'item:0', source_url: B, state: 'pending', hash: null, attempts: 0, reason: null, account_id: 1 },
    ]);
    expect((await post(id)).media_state).toBe('pending');
    const [row] = await store.db
      .selectFrom('post_media')
      .select(['next_attempt_at'])
      .where('post_id', '=', id)
      .execute();
    expect(row!.next_attempt_at).toBe(NOW + 5);
  });

  it('a URL changed while a worker fetched the old one: the worker’s result is discarded', async () => {
    const id = await insertPost(100, image(A));
    await syncPostMedia(store.db, [id], NOW);
    const claimed = await claimSource(store.db, A, 'w1', NOW, NOW + 60_000);
    await store.db.updateTable('posts').set({ picture: B }).where('id', '=', id).execute();
    await syncPostMedia(store.db, [id], NOW + 1);
    const done = await completePictures(
      store.db,
      claimed.map((c) => c.id),
      'w1',
      blob(H1),
      NOW + 2,
    );
    expect(done.pictures).toBe(0);
    expect(await pictures(id)).toMatchObject([{ source_url: B, state: 'pending', hash: null }]);
  });

  it('the same URL on two posts is fetched once; a later post of it takes the stored copy at once', async () => {
    const p1 = await insertPost(100, image(A));
    const p2 = await insertPost(200, image(A));
    await syncPostMedia(store.db, [p1, p2], NOW);
    expect(await dueSources(store.db, NOW, 10)).toEqual([A]);
    const claimed = await store_(A, H1);
    expect(claimed.map((c) => c.postId)).toEqual([p1, p2]);
    expect(claimed.map((c) => c.accountId)).toEqual([1, 2]);
    expect(await dueSources(store.db, NOW, 10)).toEqual([]);
    expect((await post(p1)).media_state).toBe('ready');
    expect((await post(p2)).media_state).toBe('ready');

    const p3 = await insertPost(110, image(A));
    await syncPostMedia(store.db, [p3], NOW + 10);
    expect(await pictures(p3)).toMatchObject([{ source_url: A, state: 'ready', hash: H1 }]);
    expect((await post(p3)).media_state).toBe('ready');
    expect(await dueSources(store.db, NOW + 10, 10)).toEqual([]);
    const seen = await picturesOfPosts(store.db, [p3]);
    expect(seen.get(p3)!.get('item:0')!.stored).toMatchObject({ hash: H1, width: 640, height: 480 });
  });

  it('a deleted wall’s pictures are not fetched; restored, they are due again', async () => {
    const p1 = await insertPost(100, image(A));
    const p2 = await insertPost(200, image(B));
    await syncPostMedia(store.db, [p1, p2], NOW);
    await store.db.updateTable('walls').set({ deleted_at: NOW }).where('id', '=', 10).execute();
    expect(await dueSources(store.db, NOW, 10)).toEqual([B]);
    await store.db.updateTable('walls').set({ deleted_at: null }).where('id', '=', 10).execute();
    expect(await dueSources(store.db, NOW, 10)).toEqual([A, B]);
  });

  it('skip: new pictures are skipped, never due; the post shows its originals (none)', async () => {
    const id = await insertPost(100, image(A, FACE));
    await syncPostMedia(store.db, [id], NOW, { skip: true });
    expect((await pictures(id)).map((p) => p.state)).toEqual(['skipped', 'skipped']);
    expect((await post(id)).media_state).toBe('none');
    expect(await dueSources(store.db, NOW + 1e9, 10)).toEqual([]);
  });

  it('backfill: posts never looked at are found until synced', async () => {
    const a = await insertPost(100, image(A));
    const b = await insertPost(100);
    expect(await postsWithoutMediaState(store.db, 10)).toEqual([a, b]);
    expect(await postsWithoutMediaState(store.db, 1)).toEqual([a]);
    await syncPostMedia(store.db, [a, b], NOW);
    expect(await postsWithoutMediaState(store.db, 10)).toEqual([]);
  });
});

describe('the writers queue the pictures of the posts they write', () => {
  const upstream = (externalId: string, picture: string, avatar = ''): IngestedPost =>
    ({
      ...postDefaults(),
      external_id: externalId,
      hidden: 0,
      media: 'image',
      picture,
      user_picture: avatar,
      created_at: NOW,
      updated_at: NOW,
    }) as unknown as IngestedPost;
  const decisions = {
    fingerprint: (p: IngestedPost) => `${p.picture}|${p.user_picture}`,
    arrival: () => ({ state: 'approved' as const, by: null, reason: null }),
  };

  it('ingestion: a new post carries its media state from its insert (one change row); an upstream edit re-syncs', async () => {
    await upsertPosts(store.db, 10, 100, [upstream('x1', A, FACE), upstream('x2', '')], decisions, NOW);
    const [x1, x2] = await store.db.selectFrom('posts').select('id').where('feed_id', '=', 100).orderBy('id').execute();
    expect((await post(x1!.id)).media_state).toBe('pending');
    expect((await post(x2!.id)).media_state).toBe('none');
    expect(await changeRows(x1!.id)).toEqual(['created']);
    expect((await pictures(x1!.id)).map((p) => [p.slot, p.source_url])).toEqual([
      ['avatar', FACE],
      ['item:0', A],
    ]);

    await upsertPosts(store.db, 10, 100, [upstream('x1', B, FACE)], decisions, NOW + 1);
    expect((await pictures(x1!.id)).map((p) => [p.slot, p.source_url])).toEqual([
      ['avatar', FACE],
      ['item:0', B],
    ]);
  });

  it('ingestion: a new post whose pictures are stored already is ready from its insert', async () => {
    const p = await insertPost(100, image(A));
    await syncPostMedia(store.db, [p], NOW);
    await store_(A, H1);
    await upsertPosts(store.db, 20, 200, [upstream('y1', A)], decisions, NOW);
    const y1 = await store.db.selectFrom('posts').select('id').where('feed_id', '=', 200).executeTakeFirstOrThrow();
    expect((await post(y1.id)).media_state).toBe('ready');
    expect(await changeRows(y1.id)).toEqual(['created']);
    expect(await pictures(y1.id)).toMatchObject([{ state: 'ready', hash: H1, account_id: 2 }]);
  });

  it('data-file import queues them (or skips them with skipMedia), media state set on insert', async () => {
    const file = (skipMediaWallId: number) => ({
      version: 1,
      accounts: [{ id: skipMediaWallId, name: 'Three', plan: 'enterprise' }],
      walls: [
        {
          id: skipMediaWallId,
          accountId: skipMediaWallId,
          name: 'W',
          url: `w${skipMediaWallId}`,
          createdAt: T,
          feeds: [
            feed(skipMediaWallId * 10, [
              { id: skipMediaWallId * 100 + 1, createdAt: T, picture: C, userPicture: FACE, postType: 2 },
              { id: skipMediaWallId * 100 + 2, createdAt: T, content: 'text only' },
            ]),
          ],
        },
      ],
    });
    await importDataFile(store, file(3), NOW);
    expect(await pictures(301)).toMatchObject([
      { slot: 'avatar', source_url: FACE, state: 'pending', account_id: 3 },
      { slot: 'item:0', source_url: C, state: 'pending', account_id: 3 },
    ]);
    expect((await post(301)).media_state).toBe('pending');
    expect((await post(302)).media_state).toBe('none');
    expect(await changeRows(301)).toEqual(['created']);

    await importDataFile(store, file(4), NOW, undefined, { skipMedia: true });
    expect((await pictures(401)).map((p) => p.state)).toEqual(['skipped', 'skipped']);
    expect((await post(401)).media_state).toBe('none');
  });

  it('custom posts (W3, the management API) queue their picture and avatar', async () => {
    const { postId } = await createCustomPost(store.db, {
      wallId: 10,
      accountId: 1,
      content: 'hello',
      postFile: C,
      authorName: 'Me',
      authorPicture: FACE,
      link: '',
      media: 'image',
      now: NOW,
      idempotencyKey: null,
    });
    expect((await pictures(postId)).map((p) => [p.slot, p.source_url, p.state])).toEqual([
      ['avatar', FACE, 'pending'],
      ['item:0', C, 'pending'],
    ]);
    expect((await post(postId)).media_state).toBe('pending');
    expect(await changeRows(postId)).toEqual(['created']);
  });
});

describe('the queue: lease, complete, fail with backoff, refuse', () => {
  it('a claimed URL is not due for anyone else until its lease lapses', async () => {
    const id = await insertPost(100, image(A));
    await syncPostMedia(store.db, [id], NOW);
    expect(await claimSource(store.db, A, 'w1', NOW, NOW + 60_000)).toHaveLength(1);
    expect(await dueSources(store.db, NOW + 1000, 10)).toEqual([]);
    expect(await claimSource(store.db, A, 'w2', NOW + 1000, NOW + 61_000)).toEqual([]);
    // lapsed: another worker takes it
    expect(await dueSources(store.db, NOW + 60_001, 10)).toEqual([A]);
    const taken = await claimSource(store.db, A, 'w2', NOW + 60_001, NOW + 120_000);
    expect(taken).toHaveLength(1);
    // the first worker's late result is not written
    expect(
      (
        await completePictures(
          store.db,
          taken.map((t) => t.id),
          'w1',
          blob(H1),
          NOW,
        )
      ).pictures,
    ).toBe(0);
    // released: due again at once, or when told
    await releasePictures(
      store.db,
      taken.map((t) => t.id),
      'w2',
      NOW + 90_000,
    );
    expect(await dueSources(store.db, NOW + 89_999, 10)).toEqual([]);
    expect(await dueSources(store.db, NOW + 90_000, 10)).toEqual([A]);
  });

  it('complete: ready with the hash, the blob recorded once, the post ready; a refusal is never retried', async () => {
    const p1 = await insertPost(100, image(A, FACE));
    await syncPostMedia(store.db, [p1], NOW);
    const done = await store_(A, H1);
    expect(done).toHaveLength(1);
    expect((await post(p1)).media_state).toBe('pending');
    const claimed = await claimSource(store.db, FACE, 'w1', NOW, NOW + 60_000);
    const settled = await settlePictures(
      store.db,
      claimed.map((c) => c.id),
      'w1',
      { state: 'refused', reason: 'not a picture: text/html' },
      NOW,
    );
    expect(settled).toEqual({ pictures: 1, walls: [10], touchedWalls: [10] });
    expect((await post(p1)).media_state).toBe('partial');
    expect(await pictures(p1)).toMatchObject([
      { slot: 'avatar', state: 'refused', reason: 'not a picture: text/html', hash: null },
      { slot: 'item:0', state: 'ready', hash: H1, reason: null },
    ]);
    expect(await dueSources(store.db, NOW + 1e12, 10)).toEqual([]);
    expect(await store.db.selectFrom('media_blobs').select('hash').execute()).toEqual([{ hash: H1 }]);

    // a second URL with the same bytes: one blob row still
    const p2 = await insertPost(100, image(B));
    await syncPostMedia(store.db, [p2], NOW);
    await store_(B, H1, 5);
    const blobs = await store.db.selectFrom('media_blobs').select(['hash', 'bytes']).execute();
    expect(blobs.map((b) => [b.hash, Number(b.bytes)])).toEqual([[H1, 1000]]);
  });

  it('fail: attempts counted, the next attempt by the policy; at the last, failed with the reason', async () => {
    const id = await insertPost(100, image(A));
    await syncPostMedia(store.db, [id], NOW);
    const policy = (attempts: number) => (attempts >= 3 ? null : NOW + attempts * 1000);
    let at = NOW;
    for (const expected of [1, 2]) {
      const claimed = await claimSource(store.db, A, 'w1', at, at + 60_000);
      expect(claimed).toMatchObject([{ attempts: expected - 1 }]);
      await failPictures(store.db, claimed, 'w1', 'HTTP 500', at, policy);
      const [row] = await store.db
        .selectFrom('post_media')
        .select(['attempts', 'next_attempt_at', 'state', 'reason', 'lease_owner'])
        .execute();
      expect(row).toEqual({
        attempts: expected,
        next_attempt_at: NOW + expected * 1000,
        state: 'pending',
        reason: null,
        lease_owner: null,
      });
      expect(await dueSources(store.db, NOW + expected * 1000 - 1, 10)).toEqual([]);
      at = NOW + expected * 1000;
    }
    const claimed = await claimSource(store.db, A, 'w1', at, at + 60_000);
    const settled = await failPictures(store.db, claimed, 'w1', 'HTTP 500', at, policy);
    expect(settled.walls).toEqual([10]);
    expect(await pictures(id)).toMatchObject([{ state: 'failed', attempts: 3, reason: 'HTTP 500' }]);
    expect((await post(id)).media_state).toBe('failed');
    expect(await pictureFailures(store.db, 10)).toMatchObject([
      { postId: id, wallId: 10, slot: 'item:0', sourceUrl: A, state: 'failed', reason: 'HTTP 500', attempts: 3 },
    ]);

    // retry: pending again, from zero
    expect(await retryFailedPictures(store.db, NOW + 5, 11)).toEqual({ pictures: 0, walls: [] });
    expect(await retryFailedPictures(store.db, NOW + 5, 10)).toEqual({ pictures: 1, walls: [10] });
    expect(await pictures(id)).toMatchObject([{ state: 'pending', attempts: 0, reason: null }]);
    expect((await post(id)).media_state).toBe('pending');
    expect(await dueSources(store.db, NOW + 5, 10)).toEqual([A]);
  });
});

describe('quota, gc and status', () => {
  it('an account’s stored bytes: each distinct stored picture its posts show, once', async () => {
    const a1 = await insertPost(100, image(A, FACE));
    const a2 = await insertPost(110, image(A));
    const b1 = await insertPost(200, image(A, B));
    await syncPostMedia(store.db, [a1, a2, b1], NOW);
    await store_(A, H1, 1000);
    await store_(FACE, H2, 300);
    await store_(B, H3, 70);
    expect(await accountMediaBytes(store.db, 1)).toBe(1300);
    expect(await accountMediaBytes(store.db, 2)).toBe(1070);
    expect(await accountMediaBytes(store.db, 3)).toBe(0);
  });

  it('gc: only blobs no picture references; a quota refusal is failed without an attempt counted', async () => {
    const p1 = await insertPost(100, image(A));
    const p2 = await insertPost(100, image(B));
    const p3 = await insertPost(200, image(C));
    await syncPostMedia(store.db, [p1, p2, p3], NOW);
    await store_(A, H1, 10);
    await store_(B, H2, 20);
    const claimed = await claimSource(store.db, C, 'w1', NOW, NOW + 60_000);
    await settlePictures(
      store.db,
      claimed.map((c) => c.id),
      'w1',
      { state: 'failed', reason: 'the account’s media quota (1 MB) is used up' },
      NOW,
    );
    expect(await pictures(p3)).toMatchObject([
      { state: 'failed', attempts: 0, reason: 'the account’s media quota (1 MB) is used up' },
    ]);
    expect(await unreferencedBlobs(store.db)).toEqual([]);

    // the post of B purged: its blob is unreferenced
    await store.db.deleteFrom('posts').where('id', '=', p2).execute();
    expect(await unreferencedBlobs(store.db)).toEqual([{ hash: H2, bytes: 20, master: 'master.jpg' }]);
    // a picture that references it again before the delete keeps it
    const p4 = await insertPost(100, image(B));
    await syncPostMedia(store.db, [p4], NOW);
    await store_(B, H2, 20);
    expect(await deleteUnreferencedBlobs(store.db, [H2])).toEqual([]);
    await store.db.deleteFrom('posts').where('id', '=', p4).execute();
    expect(await deleteUnreferencedBlobs(store.db, [H2])).toEqual([H2]);
    expect((await store.db.selectFrom('media_blobs').select('hash').execute()).map((r) => r.hash)).toEqual([H1]);
  });

  it('status: pictures per state (all, or a wall’s), the due ones, the stored bytes', async () => {
    const p1 = await insertPost(100, image(A, FACE));
    const p2 = await insertPost(200, image(B));
    await syncPostMedia(store.db, [p1, p2], NOW);
    await store_(A, H1, 1000);
    await store_(B, H2, 500);
    expect(await mediaSummary(store.db, NOW)).toEqual({
      pictures: { pending: 1, ready: 2, failed: 0, refused: 0, skipped: 0 },
      due: 1,
      blobs: 2,
      bytes: 1500,
    });
    expect(await mediaSummary(store.db, NOW, 10)).toEqual({
      pictures: { pending: 1, ready: 1, failed: 0, refused: 0, skipped: 0 },
      due: 1,
      blobs: 1,
      bytes: 1000,
    });
    expect((await mediaSummary(store.db, NOW - 1, 20)).due).toBe(0);
  });
});
