// Reddit connector against a local Reddit (listings, /api/info, rate-limit
// headers), on both stores: the public JSON and an OAuth connection.
import { afterEach, describe, expect, it } from 'vitest';
import { REDDIT_TOKEN, redditPost, startReddit, type RedditFixture } from '../fixtures/reddit.js';
import { NOW, ingestState, startHarness, storedPosts, untilDue, wallPosts, type Harness } from '../harness.js';
import { connectFeed, connectionOf, expectSecretNowhere } from './connected-feed.js';

const FEED = 3601;
const t = (minutesBefore: number) => Math.floor(NOW / 1000) - minutesBefore * 60;

let fx: RedditFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

/** what the runtime told of refused connections (the connection.failed webhook's source) */
let refusals: { connectionId: number; feedId: number; status: string }[] = [];

async function redditWall(connector: Record<string, unknown>) {
  fx = await startReddit();
  refusals = [];
  h = await startHarness(
    [{ id: FEED, name: 'r/trailrunning', connector: { kind: 'reddit', apiBaseUrl: fx.origin, ...connector } }],
    { runtime: { onConnectionFailed: (e) => refusals.push(e) } },
  );
}

function seed() {
  fx.posts.push(
    redditPost({
      id: 'k7',
      title: 'Removed spam',
      created: t(5),
      removed_by_category: 'moderator',
      selftext: '[removed]',
    }),
    redditPost({
      id: 'k6',
      title: 'Injury photo (NSFW)',
      created: t(10),
      over_18: true,
      url: 'https://i.redd.it/injury.jpeg',
      post_hint: 'image',
    }),
    redditPost({
      id: 'k5',
      title: 'Ridge run, three shots',
      created: t(20),
      url: 'https://www.reddit.com/gallery/k5',
      is_gallery: true,
      gallery_data: {
        items: [
          { media_id: 'g1', id: 1, caption: 'Summit' },
          { media_id: 'g2', id: 2 },
          { media_id: 'g3', id: 3 },
        ],
      },
      media_metadata: {
        g1: {
          status: 'valid',
          e: 'Image',
          m: 'image/jpg',
          p: [
            { y: 108, x: 108, u: 'https://preview.redd.it/g1.jpg?width=108&format=pjpg&s=a' },
            { y: 640, x: 640, u: 'https://preview.redd.it/g1.jpg?width=640&format=pjpg&s=b' },
            { y: 960, x: 960, u: 'https://preview.redd.it/g1.jpg?width=960&format=pjpg&s=c' },
          ],
          s: { y: 3024, x: 3024, u: 'https://preview.redd.it/g1.jpg?width=3024&format=pjpg&s=d' },
          id: 'g1',
        },
        g2: {
          status: 'valid',
          e: 'AnimatedImage',
          m: 'image/gif',
          p: [{ y: 320, x: 320, u: 'https://preview.redd.it/g2.gif?width=320&format=png8&s=e' }],
          s: { y: 480, x: 480, gif: 'https://i.redd.it/g2.gif', mp4: 'https://preview.redd.it/g2.gif?format=mp4&s=f' },
          id: 'g2',
        },
        g3: { status: 'failed' },
      },
    }),
    redditPost({
      id: 'k4',
      title: 'Race start',
      created: t(30),
      url: 'https://v.redd.it/race1',
      is_video: true,
      secure_media: {
        reddit_video: {
          bitrate_kbps: 2400,
          fallback_url: 'https://v.redd.it/race1/DASH_720.mp4?source=fallback',
          height: 720,
          width: 1280,
          dash_url: 'https://v.redd.it/race1/DASHPlaylist.mpd',
          duration: 31,
          hls_url: 'https://v.redd.it/race1/HLSPlaylist.m3u8',
          is_gif: false,
          transcoding_status: 'completed',
        },
      },
      preview: {
        images: [
          {
            source: { url: 'https://external-preview.redd.it/race1.png?format=pjpg&s=g', width: 1280, height: 720 },
            resolutions: [{ url: 'https://external-preview.redd.it/race1.png?width=320&s=h', width: 320, height: 180 }],
            id: 'race1',
          },
        ],
        enabled: false,
      },
    }),
    redditPost({
      id: 'k3',
      title: 'First ultra: tips?',
      created: t(40),
      selftext: 'Any tips for a <strong>first</strong> ultra? #ultra',
      author: 'tom_on_trails',
    }),
    redditPost({
      id: 'k2',
      title: 'Trail shoe review',
      created: t(50),
      url: 'https://blog.example/shoes',
      preview: {
        images: [
          {
            source: { url: 'https://external-preview.redd.it/shoe.jpg?s=i', width: 1200, height: 630 },
            resolutions: [],
            id: 'shoe',
          },
        ],
      },
    }),
    redditPost({
      id: 'k1',
      title: 'Deleted by its author',
      created: t(60),
      author: '[deleted]',
      selftext: '[deleted]',
    }),
  );
}

describe('reddit', () => {
  it('reads a subreddit’s public JSON: galleries, videos, images, NSFW hidden, removed and deleted left out', async () => {
    await redditWall({ subreddit: 'trailrunning' });
    seed();
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 5 });
    const req = fx.requests[0]!;
    expect(req.url).toBe('/r/trailrunning/new.json?limit=100&raw_json=1');
    expect(req.headers['user-agent']).toMatch(/^server:org\.wallery\.ingest:0\.1 /);
    expect(req.headers.authorization).toBeUndefined();
    const stored = await storedPosts(h, FEED);
    expect(stored.map((p) => p.external_id)).toEqual(['k2', 'k3', 'k4', 'k5', 'k6']);
    expect(stored.find((p) => p.external_id === 'k6')!.hidden).toBe(1);

    const wall = await wallPosts(h);
    const gallery = wall.get('https://www.reddit.com/r/trailrunning/comments/k5/ridge_run_three_shots/')!.widget;
    expect(gallery).toMatchObject({
      networkName: 'Reddit',
      PostType: 4,
      postPicture: 'https://preview.redd.it/g1.jpg?width=3024&format=pjpg&s=d',
      postFileThumb: 'https://preview.redd.it/g1.jpg?width=640&format=pjpg&s=b',
      postAuthorName: 'rosa_runs',
      postUsername: 'u/rosa_runs',
      content: '<p><strong>Ridge run, three shots</strong></p>',
      childNode: [
        { image: 'https://preview.redd.it/g1.jpg?width=3024&format=pjpg&s=d', video: '' },
        {
          image: 'https://preview.redd.it/g2.gif?width=320&format=png8&s=e',
          video: 'https://preview.redd.it/g2.gif?format=mp4&s=f',
        },
      ],
    });
    expect(stored.find((p) => p.external_id === 'k5')!.alt).toBe('Summit');
    expect(wall.get('https://www.reddit.com/r/trailrunning/comments/k4/race_start/')!.widget).toMatchObject({
      PostType: 3,
      postMediaFile: 'https://v.redd.it/race1/DASH_720.mp4?source=fallback',
      postPicture: 'https://external-preview.redd.it/race1.png?format=pjpg&s=g',
      content: '<p><strong>Race start</strong></p>',
    });
    const text = wall.get('https://www.reddit.com/r/trailrunning/comments/k3/first_ultra_tips_/')!;
    expect(text.widget).toMatchObject({ PostType: 1, postTags: 'ultra', postAuthorName: 'tom_on_trails' });
    expect(text.widget.content).toBe(
      '<p><strong>First ultra: tips?</strong></p><p>Any tips for a <strong>first</strong> ultra? #ultra</p>',
    );
    expect(text.commerce).toMatchObject({ postScore: 42 });
    // a link post: its page linked, its preview the picture
    expect(wall.get('https://www.reddit.com/r/trailrunning/comments/k2/trail_shoe_review/')!.widget).toMatchObject({
      PostType: 2,
      postPicture: 'https://external-preview.redd.it/shoe.jpg?s=i',
      content:
        '<p><strong>Trail shoe review</strong></p><p><a href="https://blog.example/shoes" rel="nofollow noopener noreferrer" target="_blank">https://blog.example/shoes</a></p>',
    });
    const feed = await h.server.store.db
      .selectFrom('feeds')
      .select(['source', 'source_type'])
      .where('id', '=', FEED)
      .executeTakeFirstOrThrow();
    expect(feed).toEqual({ source: 'Reddit', source_type: 'subreddit' });
  });

  it('pages with after until it reaches what it read; removed and vanished posts leave on the next poll', async () => {
    await redditWall({ subreddit: 'trailrunning' });
    seed();
    await h.poll();
    for (let i = 0; i < 150; i++)
      fx.posts.unshift(redditPost({ id: `n${String(i).padStart(3, '0')}`, title: `New ${i}`, created: t(4) + i }));
    const k3 = fx.posts.find((p) => p.id === 'k3')!;
    k3.removed_by_category = 'moderator';
    fx.purged.add('k2');
    fx.requests.length = 0;
    await untilDue(h, FEED);
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 150, updated: 0 });
    expect(fx.requests.map((r) => new URL(r.url, fx.origin).searchParams.get('after'))).toEqual([
      null,
      't3_n050',
      null,
    ]);
    const info = new URL(fx.requests[2]!.url, fx.origin);
    expect(info.pathname).toBe('/api/info.json');
    // k4–k6 were read again on the second page: only the others are looked up
    expect(info.searchParams.get('id')!.split(',').sort()).toEqual(['t3_k2', 't3_k3']);
    const stored = await storedPosts(h, FEED);
    expect(stored).toHaveLength(153);
    expect(stored.map((p) => p.external_id)).not.toContain('k3');
    expect(stored.map((p) => p.external_id)).not.toContain('k2');
    await untilDue(h, FEED);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(await storedPosts(h, FEED)).toHaveLength(153);
  });

  it('searches within a subreddit with a connection’s token; an expired token expires the connection', async () => {
    await redditWall({ subreddit: 'trailrunning', search: 'ultra' });
    seed();
    fx.token = REDDIT_TOKEN;
    const connectionId = await connectFeed(
      h,
      FEED,
      'reddit',
      { accessToken: REDDIT_TOKEN },
      {
        kind: 'reddit',
        subreddit: 'trailrunning',
        search: 'ultra',
        apiBaseUrl: fx.origin,
      },
    );
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 1 });
    const q = new URL(fx.requests[0]!.url, fx.origin);
    expect(q.pathname).toBe('/r/trailrunning/search.json');
    expect(Object.fromEntries(q.searchParams)).toMatchObject({ q: 'ultra', sort: 'new', restrict_sr: '1' });
    expect(fx.requests[0]!.headers.authorization).toBe(`bearer ${REDDIT_TOKEN}`);

    fx.mode = 'expired';
    await untilDue(h, FEED);
    const [failed] = await h.poll();
    expect(failed!.status).toBe('failed');
    expect(failed!.message).toContain('Reddit refused the connection’s token (401 Unauthorized)');
    expect(await ingestState(h, FEED)).toMatchObject({ failing: 1 });
    expect(await connectionOf(h, connectionId)).toMatchObject({ status: 'expired' });
    expect(refusals).toEqual([expect.objectContaining({ connectionId, feedId: FEED, status: 'expired' })]);
    // an expired connection is not used again: the feed says to reconnect
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const before = fx.requests.length;
    expect((await h.poll())[0]!.message).toContain('reconnect it');
    expect(fx.requests).toHaveLength(before);
    await expectSecretNowhere(h, FEED, connectionId, REDDIT_TOKEN);
  });

  it('honours X-Ratelimit-Remaining/Reset: a spent window and a 429 put the next poll after the reset', async () => {
    await redditWall({ search: 'ultra' });
    seed();
    fx.resetIn = 3000;
    fx.mode = 'spent';
    const [ok] = await h.poll();
    expect(ok).toMatchObject({ status: 'ok', inserted: 1 });
    expect(fx.requests[0]!.url).toBe('/search.json?limit=100&raw_json=1&q=ultra&sort=new');
    expect((await ingestState(h, FEED)).next_poll_at).toBe(h.clock.now + 3000_000);

    fx.mode = 'rate-limited';
    await untilDue(h, FEED);
    const [limited] = await h.poll();
    expect(limited!.status).toBe('failed');
    expect(limited!.message).toContain("Reddit's rate limit is used up");
    expect((await ingestState(h, FEED)).next_poll_at).toBeGreaterThanOrEqual(h.clock.now + 3000_000);
  });

  it('a private subreddit fails with what Reddit says', async () => {
    await redditWall({ subreddit: 'secret' });
    const [report] = await h.poll();
    expect(report!.message).toBe(`HTTP 403 from 127.0.0.1:${fx.port} (r/secret is private)`);
  });
});
