// Pixelfed connector against a local instance speaking Pixelfed's
// Mastodon-compatible API, with a connection's personal access token.
import { afterEach, describe, expect, it } from 'vitest';
import { pixelfedAccount, pixelfedStatus, startPixelfed, type PixelfedFixture } from '../fixtures/pixelfed.js';
import { connectedWall, pollRefusingConnection, storedText } from './connected-feed.js';
import { findConnection } from '../../../src/store/connections.js';
import type { ConnectionFailure } from '../../../src/ingest/runtime.js';
import { ACCOUNT, NOW, ingestState, storedPosts, wallPosts, type Harness } from '../harness.js';

const TOKEN = 'pf-pat-Zq8vN3kL0wT5yR2uJ7hC';
const FEED = 801;
const id = (n: number) => `7100000000000${String(n).padStart(5, '0')}`;
const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString();

let fx: PixelfedFixture;
let h: Harness;
let failures: ConnectionFailure[];
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function wall(connector: Record<string, unknown>, withConnection = true) {
  fx = await startPixelfed();
  fx.token = TOKEN;
  const w = await connectedWall(
    FEED,
    { kind: 'pixelfed', instance: fx.origin, ...connector },
    withConnection ? { network: 'pixelfed', token: TOKEN, instance: fx.origin } : null,
  );
  h = w.h;
  failures = w.failures;
  return w.connectionId;
}

function seed() {
  fx.statuses.push(
    pixelfedStatus({
      id: id(1),
      createdAt: at(50),
      caption: 'Ridge line, four frames <script>alert(1)</script>',
      tags: ['wallery'],
      media: [
        { type: 'image', name: 'frame1' },
        { type: 'image', name: 'frame2' },
        { type: 'image', name: 'frame3' },
        { type: 'video', name: 'frame4' },
      ],
      pfType: 'photo:video:album',
      place: { name: 'Chamonix', country: 'France' },
    }),
    pixelfedStatus({
      id: id(2),
      createdAt: at(40),
      caption: 'Descent',
      tags: ['wallery'],
      media: [{ type: 'video', name: 'descent', noPreview: true }],
    }),
    pixelfedStatus({
      id: id(3),
      createdAt: at(30),
      caption: 'Story frame',
      tags: ['wallery'],
      pfType: 'story',
      media: [{ type: 'image', name: 'story' }],
    }),
    pixelfedStatus({
      id: id(4),
      createdAt: at(20),
      caption: 'Blisters',
      tags: ['wallery'],
      sensitive: true,
      spoiler: 'feet',
      media: [{ type: 'image', name: 'feet' }],
    }),
    pixelfedStatus({
      id: id(5),
      createdAt: at(10),
      caption: 'One photo',
      tags: ['wallery'],
      media: [{ type: 'image', name: 'one' }],
    }),
  );
}

/** Nothing a feed shows or records holds the token. */
async function expectTokenNowhere() {
  const text = await storedText(h);
  expect(text).toContain('pixelfed.example'); // the dump holds what was stored
  expect(text).not.toContain(TOKEN);
}

describe('pixelfed hashtag feed', () => {
  it('maps albums and videos, reads only new posts, pages to the end and drops deleted posts', async () => {
    await wall({ hashtag: 'wallery' });
    seed();
    const [first] = await h.poll();
    // the story is left out
    expect(first).toMatchObject({ feedId: FEED, kind: 'pixelfed', status: 'ok', inserted: 4 });
    // the token went with every request, in the Authorization header only
    expect(fx.requests.length).toBeGreaterThan(0);
    for (const r of fx.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(r.url).not.toContain(TOKEN);
    }
    expect(fx.requests[0]!.url).toBe('/api/v1/timelines/tag/wallery?limit=40');

    const posts = await wallPosts(h);
    expect(posts.size).toBe(3); // the sensitive one arrives hidden
    const cdn = 'https://cdn.pixelfed.example/public/m/_v2/1';
    const album = posts.get(`https://pixelfed.example/p/lena/${id(1)}`)!.widget;
    expect(album).toMatchObject({
      networkName: 'Pixelfed',
      PostType: 4,
      postFile: `${cdn}/${id(1)}/frame1.jpg`,
      postFileThumb: `${cdn}/${id(1)}/frame1_thumb.jpg`,
      postAuthorName: 'Lena Foto',
      postUsername: 'lena@pixelfed.example',
      location: 'Chamonix, France',
      postTags: 'wallery',
      childNode: [
        { image: `${cdn}/${id(1)}/frame1.jpg`, video: '' },
        { image: `${cdn}/${id(1)}/frame2.jpg`, video: '' },
        { image: `${cdn}/${id(1)}/frame3.jpg`, video: '' },
        { image: `${cdn}/${id(1)}/frame4_thumb.jpg`, video: `${cdn}/${id(1)}/frame4.mp4` },
      ],
    });
    expect(String(album.content)).toContain('Ridge line, four frames');
    expect(String(album.content)).not.toMatch(/script|alert/);
    // a video without a poster yet: no picture rather than Pixelfed's placeholder
    const video = posts.get(`https://pixelfed.example/p/lena/${id(2)}`)!.widget;
    expect(video).toMatchObject({
      PostType: 3,
      postPicture: '',
      postFile: `${cdn}/${id(2)}/descent.mp4`,
      postMediaFile: `${cdn}/${id(2)}/descent.mp4`,
    });
    const stored = await storedPosts(h, FEED);
    expect(stored.map((p) => p.external_id)).toEqual([id(1), id(2), id(4), id(5)]);
    expect(stored.find((p) => p.external_id === id(4))).toMatchObject({ hidden: 1, sensitive: 1 });

    // the author deletes a post: the next poll re-checks it (404) and removes it; nothing is read twice
    fx.statuses = fx.statuses.filter((s) => s.id !== id(5));
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    fx.requests.length = 0;
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(fx.requests.map((r) => r.url)).toContain(`/api/v1/statuses/${id(5)}`);
    expect((await storedPosts(h, FEED)).map((p) => p.external_id)).toEqual([id(1), id(2), id(4)]);

    // 45 new posts, more than a page: the gap is filled forward from the cursor
    for (let n = 10; n < 55; n++) {
      fx.statuses.push(
        pixelfedStatus({
          id: id(n),
          createdAt: at(9 - n / 10),
          caption: `Frame ${n}`,
          tags: ['wallery'],
          media: [{ type: 'image', name: `f${n}` }],
        }),
      );
    }
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    fx.requests.length = 0;
    const [third] = await h.poll();
    expect(third).toMatchObject({ status: 'ok', inserted: 45 });
    expect(fx.requests.some((r) => r.url.includes(`min_id=${id(2)}`) || r.url.includes('min_id='))).toBe(true);
    expect(await storedPosts(h, FEED)).toHaveLength(48);

    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const [fourth] = await h.poll();
    expect(fourth).toMatchObject({ inserted: 0, updated: 0 });
    expect(await storedPosts(h, FEED)).toHaveLength(48);
    await expectTokenNowhere();
  });

  it('reads an account through Pixelfed’s own lookup and unwraps shares when asked', async () => {
    await wall({ account: 'lena', reposts: 'unwrap' });
    fx.noLookup = true;
    const other = pixelfedAccount('maxi', 'Maxi', '700000000000000002');
    const original = pixelfedStatus({
      id: id(20),
      createdAt: at(30),
      caption: 'Lake',
      account: other,
      media: [{ type: 'image', name: 'lake' }],
    });
    fx.statuses.push(
      pixelfedStatus({ id: id(21), createdAt: at(20), caption: 'Own', media: [{ type: 'image', name: 'own' }] }),
      pixelfedStatus({ id: id(22), createdAt: at(10), caption: '', reblogOf: original }),
    );
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 2 });
    expect(fx.requests.map((r) => r.url.split('?')[0])).toEqual([
      '/api/v1/accounts/lookup',
      '/api/v1.1/accounts/username/lena',
      '/api/v1/accounts/700000000000000001/statuses',
    ]);
    const stored = await storedPosts(h, FEED);
    expect(stored.map((p) => [p.external_id, p.repost, p.author_name])).toEqual([
      [id(20), 1, 'Maxi'],
      [id(21), 0, 'Lena Foto'],
    ]);
    expect(JSON.parse((await ingestState(h, FEED)).cursor_json!)).toMatchObject({
      acct: 'lena',
      accountId: '700000000000000001',
      sinceId: id(22),
    });
  });
});

describe('pixelfed refusals and limits', () => {
  it('fails the feed at once and marks the connection expired when the token is refused', async () => {
    const connectionId = await wall({ hashtag: 'wallery' });
    seed();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 4 });
    // the personal access token expired upstream
    fx.token = 'another-token';
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const [report] = await h.poll();
    expect(report!.status).toBe('failed');
    expect(report!.message).toMatch(/no longer accepts the connection's personal access token/);
    expect(await ingestState(h, FEED)).toMatchObject({ failing: 1, consecutive_failures: 1 });
    const connection = await findConnection(h.server.store.db, connectionId!);
    expect(connection).toMatchObject({ status: 'expired' });
    expect(connection!.status_detail).toMatch(/Settings → Applications/);
    expect(failures).toEqual([
      expect.objectContaining({ connectionId, feedId: FEED, status: 'expired', accountId: ACCOUNT }),
    ]);
    // the posts stay; the token is nowhere
    expect(await storedPosts(h, FEED)).toHaveLength(4);
    await expectTokenNowhere();

    // the next poll does not call the instance: the connection waits for a reconnect
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    fx.requests.length = 0;
    const [again] = await h.poll();
    expect(again!.message).toMatch(/is expired .*reconnect it/);
    expect(fx.requests).toHaveLength(0);
  });

  it('says an instance requires sign-in, never sends a token elsewhere, and waits out a 429 until the rate limit resets', async () => {
    await wall({ hashtag: 'wallery' }, false);
    const [anonymous] = await h.poll();
    expect(anonymous!.message).toMatch(/requires sign-in for its API: give the feed a Pixelfed connection/);

    // a token of another instance, or of another network, is never sent here
    const useConnection = (network: string, instance: string) =>
      pollRefusingConnection(
        h,
        fx,
        FEED,
        { kind: 'pixelfed', instance: fx.origin, hashtag: 'wallery' },
        { network, instance },
      );
    expect(await useConnection('pixelfed', 'https://other.example')).toBe(
      `the feed's Pixelfed connection belongs to other.example, not 127.0.0.1:${fx.port}: its token is only sent to its own instance`,
    );
    expect(await useConnection('misskey', fx.origin)).toBe(
      "the feed's connection is a misskey connection; a Pixelfed feed needs a pixelfed connection",
    );
    await h.server.store.db
      .updateTable('feeds')
      .set({ connector: JSON.stringify({ kind: 'pixelfed', instance: fx.origin, hashtag: 'wallery' }) })
      .where('id', '=', FEED)
      .execute();

    fx.token = null;
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const reset = Math.floor(h.clock.now / 1000) + 7200;
    fx.queue.push({
      status: 429,
      headers: {
        'content-type': 'application/json',
        'retry-after': '7200',
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      },
      body: JSON.stringify({ message: 'Too Many Attempts.' }),
    });
    const [limited] = await h.poll();
    expect(limited!.message).toBe(`HTTP 429 from 127.0.0.1:${fx.port} (Too Many Attempts.)`);
    const state = await ingestState(h, FEED);
    expect(state.next_poll_at).toBeGreaterThanOrEqual(reset * 1000);
    // nothing is asked before then
    fx.requests.length = 0;
    expect(await h.poll()).toEqual([]);
    expect(fx.requests).toHaveLength(0);
  });
});
