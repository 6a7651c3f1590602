// Tumblr connector against a local Tumblr API (`/v2/tagged`), on both
// stores: legacy and NPF posts, `before` paging, deletions, the consumer
// key's refusal and the per-hour limit.
import { afterEach, describe, expect, it } from 'vitest';
import { TUMBLR_KEY, startTumblr, tumblrPost, type TumblrFixture } from '../fixtures/tumblr.js';
import { NOW, ingestState, startHarness, storedPosts, untilDue, wallPosts, type Harness } from '../harness.js';
import { connectFeed, connectionOf, expectSecretNowhere } from './connected-feed.js';

const FEED = 3701;
const t = (minutesBefore: number) => Math.floor(NOW / 1000) - minutesBefore * 60;

let fx: TumblrFixture;
let h: Harness;
let connectionId: number;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function tumblrWall() {
  fx = await startTumblr();
  h = await startHarness([
    { id: FEED, name: '#harbourfest on Tumblr', connector: { kind: 'tumblr', connectionId: 1, tag: 'x' } },
  ]);
  connectionId = await connectFeed(
    h,
    FEED,
    'tumblr',
    { apiKey: TUMBLR_KEY },
    {
      kind: 'tumblr',
      tag: 'harbourfest',
      apiBaseUrl: fx.origin,
    },
  );
}

function seed() {
  fx.posts.push(
    tumblrPost({
      id: '760000000000000005',
      timestamp: t(10),
      content: [
        { type: 'text', text: 'Night market', subtype: 'heading1' },
        { type: 'text', text: 'Lanterns everywhere https://harbourfest.example' },
        {
          type: 'image',
          media: [
            { url: 'https://64.media.tumblr.com/n1/s1280x1920/a.jpg', type: 'image/jpeg', width: 1280, height: 1920 },
            { url: 'https://64.media.tumblr.com/n1/s400x600/a.jpg', type: 'image/jpeg', width: 400, height: 600 },
          ],
          alt_text: 'Paper lanterns',
        },
      ],
      layout: [],
    }),
    tumblrPost({
      id: '760000000000000004',
      type: 'video',
      timestamp: t(20),
      caption: '<p>Fireworks from the pier</p>',
      video_url: 'https://va.media.tumblr.com/tumblr_fw1.mp4',
      thumbnail_url: 'https://64.media.tumblr.com/tumblr_fw1_frame1.jpg',
      video_type: 'tumblr',
      player: [{ width: 250, embed_code: '<video></video>' }],
    }),
    tumblrPost({
      id: '760000000000000003',
      type: 'photo',
      blog: 'quay-photos',
      timestamp: t(30),
      caption: '<p>Three from the <b>quay</b> <script>alert(1)</script></p>',
      photos: [1, 2, 3].map((n) => ({
        caption: n === 1 ? 'The boats' : '',
        original_size: { url: `https://64.media.tumblr.com/q${n}/s2048x3072/p.jpg`, width: 2048, height: 3072 },
        alt_sizes: [
          { url: `https://64.media.tumblr.com/q${n}/s2048x3072/p.jpg`, width: 2048, height: 3072 },
          { url: `https://64.media.tumblr.com/q${n}/s500x750/p.jpg`, width: 500, height: 750 },
          { url: `https://64.media.tumblr.com/q${n}/s75x75_c1/p.jpg`, width: 75, height: 75 },
        ],
      })),
    }),
    tumblrPost({
      id: '760000000000000002',
      timestamp: t(40),
      title: 'Notes',
      body: '<p>Sketching at the fest.</p><figure class="tmblr-full"><img src="https://64.media.tumblr.com/s1/sketch.png" alt="A sketch"></figure>',
    }),
    tumblrPost({ id: '760000000000000001', timestamp: t(50), body: '<p>Other tag</p>', tags: ['other'] }),
  );
}

describe('tumblr tagged', () => {
  it('maps photo sets, videos, NPF and text posts; pages back with before; removes deleted posts', async () => {
    await tumblrWall();
    seed();
    const [first] = await h.poll();
    expect(first).toMatchObject({ status: 'ok', inserted: 4 });
    const q = new URL(fx.requests[0]!.url, fx.origin).searchParams;
    expect(Object.fromEntries(q)).toEqual({ tag: 'harbourfest', api_key: TUMBLR_KEY, limit: '20' });

    const wall = await wallPosts(h);
    const photos = wall.get('https://quay-photos.tumblr.com/post/760000000000000003/fixture')!.widget;
    expect(photos).toMatchObject({
      networkName: 'Tumblr',
      PostType: 4,
      postPicture: 'https://64.media.tumblr.com/q1/s2048x3072/p.jpg',
      postFileThumb: 'https://64.media.tumblr.com/q1/s500x750/p.jpg',
      postAuthorName: 'quay-photos (a blog)',
      postUsername: 'quay-photos',
      postTags: 'harbourfest',
      content: '<p>Three from the <b>quay</b> </p>',
    });
    expect(photos.childNode).toHaveLength(3);
    expect((await storedPosts(h, FEED)).find((p) => p.external_id === '760000000000000003')!.alt).toBe('The boats');
    expect(wall.get('https://harbour-sketches.tumblr.com/post/760000000000000004/fixture')!.widget).toMatchObject({
      PostType: 3,
      postMediaFile: 'https://va.media.tumblr.com/tumblr_fw1.mp4',
      postPicture: 'https://64.media.tumblr.com/tumblr_fw1_frame1.jpg',
      content: '<p>Fireworks from the pier</p>',
    });
    const npf = wall.get('https://harbour-sketches.tumblr.com/post/760000000000000005/fixture')!.widget;
    expect(npf).toMatchObject({
      PostType: 2,
      postPicture: 'https://64.media.tumblr.com/n1/s1280x1920/a.jpg',
      postFileThumb: 'https://64.media.tumblr.com/n1/s400x600/a.jpg',
    });
    expect(npf.content).toBe(
      '<p><strong>Night market</strong></p><p>Lanterns everywhere <a href="https://harbourfest.example/" rel="nofollow noopener noreferrer" target="_blank">https://harbourfest.example</a></p>',
    );
    expect(wall.get('https://harbour-sketches.tumblr.com/post/760000000000000002/fixture')!.widget).toMatchObject({
      PostType: 2,
      postPicture: 'https://64.media.tumblr.com/s1/sketch.png',
    });

    // 45 new posts: three pages back to the newest read; one stored post deleted
    for (let i = 0; i < 45; i++)
      fx.posts.unshift(tumblrPost({ id: `76000000000000${1000 + i}`, timestamp: t(9) + i * 5 }));
    fx.posts.splice(
      fx.posts.findIndex((p) => p.id_string === '760000000000000004'),
      1,
    );
    fx.requests.length = 0;
    await untilDue(h, FEED);
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 45, updated: 0 });
    const befores = fx.requests.map((r) => new URL(r.url, fx.origin).searchParams.get('before'));
    expect(befores).toEqual([null, String(t(9) + 25 * 5), String(t(9) + 5 * 5)]);
    const stored = await storedPosts(h, FEED);
    expect(stored).toHaveLength(48);
    expect(stored.map((p) => p.external_id)).not.toContain('760000000000000004');

    await untilDue(h, FEED);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(await storedPosts(h, FEED)).toHaveLength(48);
    await expectSecretNowhere(h, FEED, connectionId, TUMBLR_KEY);
  });

  it('a refused consumer key fails the feed and the connection; the key is never shown', async () => {
    await tumblrWall();
    seed();
    fx.mode = 'unauthorized';
    const [report] = await h.poll();
    expect(report!.status).toBe('failed');
    expect(report!.message).toContain('Tumblr refused the consumer key (401 Unauthorized)');
    expect(await ingestState(h, FEED)).toMatchObject({ failing: 1 });
    expect(await connectionOf(h, connectionId)).toMatchObject({ status: 'failing' });
    await expectSecretNowhere(h, FEED, connectionId, TUMBLR_KEY);
  });

  it('a 429 with X-Ratelimit-Perhour-Reset puts the next poll after the reset', async () => {
    await tumblrWall();
    seed();
    fx.mode = 'rate-limited';
    fx.hourResetIn = 2400;
    const [report] = await h.poll();
    expect(report!.message).toContain("Tumblr's rate limit for the consumer key is used up (Limit Exceeded)");
    expect((await ingestState(h, FEED)).next_poll_at).toBeGreaterThanOrEqual(h.clock.now + 2400_000);
    fx.mode = 'ok';
    await untilDue(h, FEED);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 4 });
  });
});
