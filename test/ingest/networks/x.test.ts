// X connector against a local X API v2 (recent search + post lookup), on
// both stores: polls, paging, media, deletions, X's refusals and rate limits.
import { afterEach, describe, expect, it } from 'vitest';
import { X_TOKEN, startX, type XFixture, type XPost } from '../fixtures/x.js';
import { NOW, ingestState, startHarness, storedPosts, untilDue, wallPosts, type Harness } from '../harness.js';
import { connectFeed, connectionOf, expectSecretNowhere } from './connected-feed.js';

const FEED = 3501;
const RESET_AT = Math.floor(NOW / 1000) + 900;
const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString();

let fx: XFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function xWall(settings: Record<string, unknown> = {}) {
  fx = await startX(RESET_AT);
  fx.users.push(
    {
      id: '11',
      name: 'Harbour Fest',
      username: 'harbourfest',
      profile_image_url: 'https://pbs.twimg.com/profile_images/1/hf_normal.jpg',
    },
    {
      id: '12',
      name: 'Ana &amp; Co',
      username: 'ana',
      profile_image_url: 'https://pbs.twimg.com/profile_images/2/ana_normal.jpg',
    },
  );
  fx.media.push(
    { media_key: '3_1', type: 'photo', url: 'https://pbs.twimg.com/media/Gs1.jpg', alt_text: 'The stage at dusk' },
    { media_key: '3_2', type: 'photo', url: 'https://pbs.twimg.com/media/Gs2.jpg' },
    {
      media_key: '7_3',
      type: 'video',
      preview_image_url: 'https://pbs.twimg.com/ext_tw_video_thumb/3/pu/img/v.jpg',
      variants: [
        {
          bit_rate: 256000,
          content_type: 'video/mp4',
          url: 'https://video.twimg.com/ext_tw_video/3/pu/vid/480x270/low.mp4',
        },
        { content_type: 'application/x-mpegURL', url: 'https://video.twimg.com/ext_tw_video/3/pu/pl/v.m3u8' },
        {
          bit_rate: 2176000,
          content_type: 'video/mp4',
          url: 'https://video.twimg.com/ext_tw_video/3/pu/vid/1280x720/high.mp4',
        },
      ],
    },
    {
      media_key: '16_4',
      type: 'animated_gif',
      preview_image_url: 'https://pbs.twimg.com/tweet_video_thumb/g.jpg',
      variants: [{ bit_rate: 0, content_type: 'video/mp4', url: 'https://video.twimg.com/tweet_video/g.mp4' }],
    },
  );
  h = await startHarness([{ id: FEED, name: 'X search', connector: { kind: 'x', connectionId: 1, query: 'x' } }]);
  const connectionId = await connectFeed(
    h,
    FEED,
    'x',
    { accessToken: X_TOKEN },
    {
      kind: 'x',
      query: '#harbourfest has:media',
      apiBaseUrl: fx.origin,
      ...settings,
    },
  );
  return connectionId;
}

function post(id: string, minutesBefore: number, extra: Partial<XPost> = {}): XPost {
  return { id, text: `Post ${id} #harbourfest`, created_at: at(minutesBefore), author_id: '11', ...extra };
}

/** newest first, as X answers */
function seed() {
  fx.posts.push(
    post('1880000000000000006', 5, {
      text: 'RT @ana: Gates open! #harbourfest',
      referenced_tweets: [{ type: 'retweeted', id: '1880000000000000001' }],
    }),
    post('1880000000000000005', 10, {
      text: 'Dancing &amp; singing',
      attachments: { media_keys: ['16_4'] },
      possibly_sensitive: true,
    }),
    post('1880000000000000004', 20, {
      text: 'Opening night recap https://t.co/vid1',
      attachments: { media_keys: ['7_3'] },
      entities: {
        urls: [
          {
            start: 20,
            end: 37,
            url: 'https://t.co/vid1',
            expanded_url: 'https://x.com/harbourfest/status/1880000000000000004/video/1',
            display_url: 'pic.x.com/vid1',
            media_key: '7_3',
          },
        ],
      },
    }),
    post('1880000000000000003', 30, {
      author_id: '12',
      text: 'Two views of the stage @harbourfest #harbourfest https://t.co/abc https://t.co/pic',
      attachments: { media_keys: ['3_1', '3_2'] },
      entities: {
        hashtags: [{ start: 36, end: 48, tag: 'harbourfest' }],
        mentions: [{ start: 23, end: 35, username: 'harbourfest' }],
        urls: [
          {
            start: 49,
            end: 66,
            url: 'https://t.co/abc',
            expanded_url: 'https://harbourfest.example/program',
            display_url: 'harbourfest.example/program',
          },
          {
            start: 67,
            end: 84,
            url: 'https://t.co/pic',
            expanded_url: 'https://x.com/ana/status/1880000000000000003/photo/1',
            display_url: 'pic.x.com/pic',
            media_key: '3_1',
          },
        ],
      },
    }),
    post('1880000000000000002', 40, {
      text: '@ana see you there',
      referenced_tweets: [{ type: 'replied_to', id: '1870000000000000000' }],
    }),
    post('1880000000000000001', 50, { author_id: '12', text: 'Gates open! #harbourfest' }),
  );
}

describe('x recent search', () => {
  it('maps posts, pages to the end, reads only what is new, and removes deleted posts', async () => {
    const connectionId = await xWall({ maxPostsPerPoll: 40 });
    seed();
    const [first] = await h.poll();
    expect(first).toMatchObject({ status: 'ok', inserted: 5 });
    const search = fx.searches[0]!;
    expect(search.get('query')).toBe('#harbourfest has:media');
    expect(search.get('tweet.fields')).toBe(
      'created_at,attachments,entities,author_id,possibly_sensitive,referenced_tweets',
    );
    expect(search.get('expansions')).toBe('attachments.media_keys,author_id');
    expect(search.get('media.fields')).toBe('type,url,preview_image_url,variants,alt_text');
    expect(search.get('user.fields')).toBe('name,username,profile_image_url');
    expect(search.get('since_id')).toBeNull();
    expect(fx.requests[0]!.headers.authorization).toBe(`Bearer ${X_TOKEN}`);

    const stored = await storedPosts(h, FEED);
    // the repost is left out; the sensitive one arrives hidden
    expect(stored.map((p) => p.external_id)).not.toContain('1880000000000000006');
    expect(stored.find((p) => p.external_id === '1880000000000000005')!.hidden).toBe(1);
    expect(stored.find((p) => p.external_id === '1880000000000000002')!.reply).toBe(1);

    const wall = await wallPosts(h);
    const album = wall.get('https://x.com/ana/status/1880000000000000003')!.widget;
    expect(album).toMatchObject({
      networkName: 'X',
      PostType: 4,
      postPicture: 'https://pbs.twimg.com/media/Gs1.jpg',
      postAuthorName: 'Ana & Co',
      postUsername: 'ana',
      postUserPicture: 'https://pbs.twimg.com/profile_images/2/ana_normal.jpg',
      postTags: 'harbourfest',
      childNode: [
        { image: 'https://pbs.twimg.com/media/Gs1.jpg', video: '' },
        { image: 'https://pbs.twimg.com/media/Gs2.jpg', video: '' },
      ],
    });
    expect(album.content).toBe(
      '<p>Two views of the stage <a href="https://x.com/harbourfest" rel="nofollow noopener noreferrer" target="_blank">@harbourfest</a> ' +
        '<a href="https://x.com/hashtag/harbourfest" rel="nofollow noopener noreferrer" target="_blank">#harbourfest</a> ' +
        '<a href="https://harbourfest.example/program" rel="nofollow noopener noreferrer" target="_blank">harbourfest.example/program</a></p>',
    );
    expect(stored.find((p) => p.external_id === '1880000000000000003')!.alt).toBe('The stage at dusk');
    expect(wall.get('https://x.com/harbourfest/status/1880000000000000004')!.widget).toMatchObject({
      PostType: 3,
      postMediaFile: 'https://video.twimg.com/ext_tw_video/3/pu/vid/1280x720/high.mp4',
      postPicture: 'https://pbs.twimg.com/ext_tw_video_thumb/3/pu/img/v.jpg',
      content: '<p>Opening night recap</p>',
    });

    // 25 new posts: pages of at most 40 - read so far, to the end, since the newest read
    for (let i = 0; i < 25; i++) fx.posts.unshift(post(`18800000000000001${String(i).padStart(2, '0')}`, 4 - i / 10));
    fx.posts.splice(
      fx.posts.findIndex((p) => p.id === '1880000000000000002'),
      1,
    );
    await untilDue(h, FEED);
    fx.searches.length = 0;
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 25, updated: 0 });
    expect(fx.searches[0]!.get('since_id')).toBe('1880000000000000006');
    expect(fx.searches.map((s) => s.get('max_results'))).toEqual(['40']);
    // the deleted reply is gone
    const after = await storedPosts(h, FEED);
    expect(after).toHaveLength(29);
    expect(after.map((p) => p.external_id)).not.toContain('1880000000000000002');
    const lookup = fx.requests.find((r) => r.url.startsWith('/2/tweets?'))!;
    expect(new URL(lookup.url, fx.origin).searchParams.get('ids')!.split(',')).toHaveLength(5);

    // nothing new: no duplicates
    await untilDue(h, FEED);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0 });
    expect(await storedPosts(h, FEED)).toHaveLength(29);
    await expectSecretNowhere(h, FEED, connectionId, X_TOKEN);
  });

  it('reads at most maxPostsPerPoll posts a poll', async () => {
    await xWall({ maxPostsPerPoll: 25 });
    for (let i = 0; i < 30; i++) fx.posts.push(post(`18900000000000000${String(99 - i)}`, i + 1));
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 25 });
    expect(fx.searches.map((s) => [s.get('max_results'), s.get('next_token')])).toEqual([['25', null]]);
  });

  it('pages with next_token to the end', async () => {
    await xWall({ maxPostsPerPoll: 250 });
    for (let i = 0; i < 230; i++) fx.posts.push(post(`1890000000000000${String(999 - i)}`, i + 1));
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 230 });
    expect(fx.searches.map((s) => s.get('next_token'))).toEqual([null, 'b26z100', 'b26z200']);
  });

  it('a refused bearer token fails the feed at once and marks the connection; the token is never shown', async () => {
    const connectionId = await xWall();
    seed();
    fx.mode = 'unauthorized';
    const [report] = await h.poll();
    expect(report!.status).toBe('failed');
    expect(report!.message).toContain('X refused the bearer token (401 Unauthorized)');
    const state = await ingestState(h, FEED);
    expect(state).toMatchObject({ failing: 1, consecutive_failures: 1 });
    expect(await connectionOf(h, connectionId)).toMatchObject({ status: 'failing' });
    expect((await connectionOf(h, connectionId)).status_detail).toContain('bearer token');
    await expectSecretNowhere(h, FEED, connectionId, X_TOKEN);

    fx.mode = 'not-enrolled';
    h.clock.now = state.next_poll_at;
    expect((await h.poll())[0]!.message).toContain('client-not-enrolled');
    fx.mode = 'usage-capped';
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    expect((await h.poll())[0]!.message).toContain('credits or monthly post cap ran out');
    await expectSecretNowhere(h, FEED, connectionId, X_TOKEN);
  });

  it('a 429 with x-rate-limit-reset schedules the next poll after the reset', async () => {
    await xWall();
    seed();
    fx.mode = 'rate-limited';
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'failed' });
    expect(report!.message).toContain("X's rate limit for recent search is used up");
    expect((await ingestState(h, FEED)).next_poll_at).toBeGreaterThanOrEqual(RESET_AT * 1000);
    fx.mode = 'ok';
    await untilDue(h, FEED);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 5 });
  });
});
