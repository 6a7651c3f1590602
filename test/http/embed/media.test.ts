// Wallery's copies of the posts' pictures in what presents posts: the embed
// API's lists and stream, the webhook payloads and the management API's post
// record — the copy's URLs absolute (PUBLIC_URL, else the origin asked, one
// cached answer per origin), its dimensions and placeholder; the originals
// unchanged; a wall that waits for media leaves out a post whose pictures are
// still being fetched, and its stream delivers the post once they are in.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderStorage } from '../../../src/media/folder-storage.js';
import type { MediaServices } from '../../../src/media/types.js';
import { fixedSelfUrl } from '../../../src/domain/self-url.js';
import type { EmbedPost } from '../../../src/schemas/embed.js';
import { payloadOfChange } from '../../../src/webhooks/payload.js';
import { eventually } from '../../helpers/poll.js';
import {
  CDN,
  fakeHash,
  inlineProcessor,
  insertBlob,
  insertPicture,
  MEDIA_KEY,
  MEDIA_WALLS,
  mediaDataFile,
  setMediaState,
} from '../../helpers/media.js';
import { NOW } from '../../helpers/sample.js';
import { startEmbedServer, type EmbedServer } from './helpers.js';
import { openSse } from './sse-client.js';

const WIDE = fakeHash('wide');
const AVATAR = fakeHash('avatar');
const POSTS = {
  ready: 60101,
  pending: 60102,
  failed: 60103,
  edited: 60104,
  later: 60105,
  showsPending: 60201,
} as const;
const IDS = {
  [MEDIA_WALLS.waits]: [POSTS.ready, POSTS.pending, POSTS.failed, POSTS.edited, POSTS.later],
  [MEDIA_WALLS.shows]: [POSTS.showsPending],
};

/** The rows the media worker writes for the data file's posts. */
async function seed(s: EmbedServer) {
  const db = s.srv.store.db;
  // the import queued every picture (pending): these tests state each picture's row themselves
  await db.deleteFrom('post_media').execute();
  await insertBlob(db, { hash: WIDE, width: 1600, height: 900, widths: [320, 640, 1080, 1600], placeholder: 'ph' });
  await insertBlob(db, { hash: AVATAR, width: 200, height: 200, widths: [200], type: 'png', master: 'master.png' });
  const item = (postId: number) => `${CDN}/p/${postId}.jpg`;
  const avatar = (postId: number) => `${CDN}/u/${postId}.png`;
  await insertPicture(db, {
    postId: POSTS.ready,
    slot: 'item:0',
    sourceUrl: item(POSTS.ready),
    state: 'ready',
    hash: WIDE,
  });
  await insertPicture(db, {
    postId: POSTS.ready,
    slot: 'avatar',
    sourceUrl: avatar(POSTS.ready),
    state: 'ready',
    hash: AVATAR,
  });
  await setMediaState(db, POSTS.ready, 'ready');
  await insertPicture(db, { postId: POSTS.pending, slot: 'item:0', sourceUrl: item(POSTS.pending), state: 'pending' });
  await setMediaState(db, POSTS.pending, 'pending');
  await insertPicture(db, {
    postId: POSTS.failed,
    slot: 'item:0',
    sourceUrl: item(POSTS.failed),
    state: 'failed',
    reason: 'HTTP 404',
    attempts: 5,
  });
  await setMediaState(db, POSTS.failed, 'failed');
  // fetched from a URL the post no longer shows (edited since): the copy is not the post's picture
  await insertPicture(db, {
    postId: POSTS.edited,
    slot: 'item:0',
    sourceUrl: `${CDN}/old.jpg`,
    state: 'ready',
    hash: WIDE,
  });
  await setMediaState(db, POSTS.edited, 'ready');
  await insertPicture(db, { postId: POSTS.later, slot: 'item:0', sourceUrl: item(POSTS.later), state: 'pending' });
  await setMediaState(db, POSTS.later, 'pending');
  await insertPicture(db, {
    postId: POSTS.showsPending,
    slot: 'item:0',
    sourceUrl: item(POSTS.showsPending),
    state: 'pending',
  });
  await setMediaState(db, POSTS.showsPending, 'pending');
}

const copyOf = (base: string) => ({
  src: `${base}/media/${WIDE}/1080`,
  srcset: [320, 640, 1080, 1600].map((w) => `${base}/media/${WIDE}/${w} ${w}w`).join(', '),
  width: 1600,
  height: 900,
  placeholder: 'ph',
  animated: false,
});

/** GET with any Host header (fetch will not send one of its own choosing). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A media pipeline for a server (its files are not read by these tests: the rows are). */
const mediaDirs: string[] = [];
afterAll(() => mediaDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function pipeline(): MediaServices {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-embed-media-'));
  mediaDirs.push(dir);
  return { storage: new FolderStorage(dir), processor: inlineProcessor() };
}

describe('copies of pictures in the embed API, webhooks and the management API', () => {
  let s: EmbedServer;
  let keys: Record<number, string>;
  beforeAll(async () => {
    s = await startEmbedServer({
      data: mediaDataFile(NOW, IDS),
      embed: { rateLimitPerIp: 0, rateLimitPerKey: 0 },
      media: pipeline(),
    });
    await seed(s);
    keys = {
      [MEDIA_WALLS.waits]: (await s.makeKey(MEDIA_WALLS.waits)).key,
      [MEDIA_WALLS.shows]: (await s.makeKey(MEDIA_WALLS.shows)).key,
    };
  });
  afterAll(async () => s?.close());

  const posts = async (wall: number): Promise<EmbedPost[]> => {
    const res = await s.embed(`/walls/${wall}/posts`, { key: keys[wall]! });
    expect(res.status, res.text).toBe(200);
    return (res.json() as { posts: EmbedPost[] }).posts;
  };

  it('gives a ready picture’s copy (absolute URLs of this origin) and the avatar’s; the originals stay as they are', async () => {
    const list = await posts(MEDIA_WALLS.waits);
    const ready = list.find((p) => p.id === String(POSTS.ready))!;
    expect(ready.media).toEqual([
      {
        kind: 'image',
        url: `${CDN}/p/${POSTS.ready}.jpg`,
        poster: null,
        alt: null,
        width: 1600,
        height: 900,
        copy: copyOf(s.srv.baseUrl),
      },
    ]);
    expect(ready.author).toMatchObject({
      avatar: `${CDN}/u/${POSTS.ready}.png`,
      avatarCopy: `${s.srv.baseUrl}/media/${AVATAR}/200`,
    });
    // failed, or the copy of a URL the post no longer shows: the original alone
    for (const id of [POSTS.failed, POSTS.edited]) {
      const post = list.find((p) => p.id === String(id))!;
      expect(post.media[0]).toMatchObject({ url: `${CDN}/p/${id}.jpg`, width: null, height: null, copy: null });
      expect(post.author.avatarCopy).toBeNull();
    }
  });

  it('leaves out posts whose pictures are being fetched when the wall waits for them; shows them when it does not', async () => {
    const waiting = (await posts(MEDIA_WALLS.waits)).map((p) => p.id);
    expect(waiting).not.toContain(String(POSTS.pending));
    expect(waiting).toEqual([POSTS.ready, POSTS.failed, POSTS.edited].map(String));
    const shown = await posts(MEDIA_WALLS.shows);
    expect(shown.map((p) => p.id)).toEqual([String(POSTS.showsPending)]);
    expect(shown[0]!.media[0]).toMatchObject({ url: `${CDN}/p/${POSTS.showsPending}.jpg`, copy: null });
  });

  it('names the origin asked (one cached answer per origin), never one another request brought', async () => {
    const url = `${s.srv.baseUrl}/api/embed/v1/walls/${MEDIA_WALLS.waits}/posts?key=${keys[MEDIA_WALLS.waits]}`;
    const other = await getWithHost(url, 'walls.other.example:8443');
    expect(other.status, other.body).toBe(200);
    const ready = (JSON.parse(other.body) as { posts: EmbedPost[] }).posts.find((p) => p.id === String(POSTS.ready))!;
    expect(ready.media[0]!.copy).toEqual(copyOf('http://walls.other.example:8443'));
    const own = (await posts(MEDIA_WALLS.waits)).find((p) => p.id === String(POSTS.ready))!;
    expect(own.media[0]!.copy).toEqual(copyOf(s.srv.baseUrl));
    // a Host that is no origin: the listen address
    const odd = await getWithHost(url, 'a b');
    expect([200, 400]).toContain(odd.status);
    if (odd.status === 200) expect(odd.body).not.toContain('a b/media');
  });

  it('delivers a post on the stream once its pictures are in (the worker’s update), to a client that never saw it', async () => {
    const wall = MEDIA_WALLS.waits;
    const st = await openSse(`${s.srv.baseUrl}/api/embed/v1/walls/${wall}/stream?key=${keys[wall]}`);
    try {
      expect(st.status).toBe(200);
      await s.srv.app.embedStreams.settled();
      // another change of the wall while the post still waits: nothing of it
      s.srv.app.ctx.changes.wallChanged(wall);
      await s.srv.app.embedStreams.settled();
      // what the media worker does when the last picture is in
      const db = s.srv.store.db;
      await db
        .updateTable('post_media')
        .set({ state: 'ready', hash: WIDE, attempts: 1 })
        .where('post_id', '=', POSTS.later)
        .execute();
      await setMediaState(db, POSTS.later, 'ready');
      s.srv.app.ctx.changes.wallChanged(wall);
      const upsert = await st.next((e) => e.event === 'upsert' && JSON.parse(e.data).id === String(POSTS.later));
      const post = JSON.parse(upsert.data) as EmbedPost;
      expect(post.media[0]!.copy).toEqual(copyOf(s.srv.baseUrl));
      // it was never sent before
      expect(st.events.filter((e) => e.data.includes(`"id":"${POSTS.later}"`))).toHaveLength(1);
      // and the list has it now
      await eventually(
        'the list shows the post',
        async () => (await posts(wall)).map((p) => p.id),
        (ids) => ids.includes(String(POSTS.later)),
        5000,
      );
    } finally {
      st.close();
    }
  });

  it('webhook payloads carry the copies under the base they are given (PUBLIC_URL, else the listen address)', async () => {
    const change = {
      seq: 1,
      account_id: 1,
      wall_id: MEDIA_WALLS.waits,
      post_id: POSTS.ready,
      feed_id: null,
      kind: 'approved' as const,
      visible: true,
      at: NOW,
    };
    const payload = await payloadOfChange(s.srv.store.db, change, 'https://walls.example/w');
    expect(payload!.data.post!.media[0]!.copy).toEqual(copyOf('https://walls.example/w'));
    expect(payload!.data.post!.author.avatarCopy).toBe(`https://walls.example/w/media/${AVATAR}/200`);
  });

  it('the management API’s post record shows its pictures, their state and the copy’s URL', async () => {
    const res = await s.manage('GET', `/walls/${MEDIA_WALLS.waits}/posts/${POSTS.ready}`);
    expect(res.status, res.text).toBe(200);
    expect((res.json().responseData as { copies: unknown }).copies).toEqual({
      state: 'ready',
      pictures: [
        {
          slot: 'item:0',
          sourceUrl: `${CDN}/p/${POSTS.ready}.jpg`,
          state: 'ready',
          reason: null,
          attempts: 1,
          width: 1600,
          height: 900,
          url: `${s.srv.baseUrl}/media/${WIDE}/1080`,
        },
        {
          slot: 'avatar',
          sourceUrl: `${CDN}/u/${POSTS.ready}.png`,
          state: 'ready',
          reason: null,
          attempts: 1,
          width: 200,
          height: 200,
          url: `${s.srv.baseUrl}/media/${AVATAR}/200`,
        },
      ],
    });
    const failed = await s.manage('GET', `/walls/${MEDIA_WALLS.waits}/posts?limit=50`);
    const record = (failed.json().responseData as { data: { id: number; copies: unknown }[] }).data.find(
      (p) => p.id === POSTS.failed,
    );
    expect(record!.copies).toEqual({
      state: 'failed',
      pictures: [
        {
          slot: 'item:0',
          sourceUrl: `${CDN}/p/${POSTS.failed}.jpg`,
          state: 'failed',
          reason: 'HTTP 404',
          attempts: 5,
          width: null,
          height: null,
          url: null,
        },
      ],
    });
  });

  it('v2 keeps the stored originals', async () => {
    const res = await fetch(`${s.srv.baseUrl}/api/v2/widget/posts/${MEDIA_WALLS.waits}?user_key=${MEDIA_KEY}&limit=50`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).not.toContain('/media/');
    expect(text).toContain(`${CDN}/p/${POSTS.ready}.jpg`);
  });
});

describe('copies under PUBLIC_URL', () => {
  let s: EmbedServer;
  let key: string;
  beforeAll(async () => {
    s = await startEmbedServer({
      data: mediaDataFile(NOW, IDS),
      self: fixedSelfUrl('https://walls.example/wallery', 3000),
      media: pipeline(),
    });
    await seed(s);
    key = (await s.makeKey(MEDIA_WALLS.waits)).key;
  });
  afterAll(async () => s?.close());

  it('names PUBLIC_URL whatever origin was asked', async () => {
    const url = `${s.srv.baseUrl}/api/embed/v1/walls/${MEDIA_WALLS.waits}/posts?key=${key}`;
    for (const host of ['walls.other.example', new URL(s.srv.baseUrl).host]) {
      const res = await getWithHost(url, host);
      expect(res.status).toBe(200);
      const post = (JSON.parse(res.body) as { posts: EmbedPost[] }).posts.find((p) => p.id === String(POSTS.ready))!;
      expect(post.media[0]!.copy).toEqual(copyOf('https://walls.example/wallery'));
    }
    const record = await s.manage('GET', `/walls/${MEDIA_WALLS.waits}/posts/${POSTS.ready}`);
    expect(JSON.stringify(record.json())).toContain(`https://walls.example/wallery/media/${WIDE}/1080`);
  });
});

describe('without a media pipeline (MEDIA=off)', () => {
  let s: EmbedServer;
  let key: string;
  beforeAll(async () => {
    s = await startEmbedServer({ data: mediaDataFile(NOW, IDS) });
    await seed(s);
    key = (await s.makeKey(MEDIA_WALLS.waits)).key;
  });
  afterAll(async () => s?.close());

  it('shows the posts whose pictures nothing will fetch, with their original pictures, even on a wall that waits', async () => {
    const res = await s.embed(`/walls/${MEDIA_WALLS.waits}/posts`, { key });
    expect(res.status, res.text).toBe(200);
    const list = (res.json() as { posts: EmbedPost[] }).posts;
    expect(list.map((p) => p.id)).toContain(String(POSTS.pending));
    const pending = list.find((p) => p.id === String(POSTS.pending))!;
    expect(pending.media[0]).toMatchObject({ url: `${CDN}/p/${POSTS.pending}.jpg`, copy: null });
  });
});
