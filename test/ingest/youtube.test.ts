// YouTube connector against a local copy of the public channel/playlist feeds.
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHANNEL_ID,
  PLAYLIST_ID,
  startFeeds,
  youtubeXml,
  type FeedFixture,
  type YoutubeVideo,
} from './fixtures/feeds.js';
import { NOW, moderate, moderation, startHarness, storedPosts, untilDue, wallPosts, type Harness } from './harness.js';

let fx: FeedFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const iso = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString().replace('.000Z', '+00:00');

const VIDEOS: YoutubeVideo[] = [
  {
    id: 'dQw4w9WgXcQ',
    title: 'Ridge run – 4K',
    description: 'Morning run on the ridge.\nGear: https://gear.example/list\n#trailrunning #4K',
    published: iso(30),
    updated: iso(25),
    stars: { count: 120, average: 4.9 },
    views: 5012,
  },
  { id: 'a1B2c3D4e5F', title: 'Short: <b>jump</b>', description: '', published: iso(10), updated: iso(10) },
];

async function channelWall(videos = VIDEOS) {
  fx = await startFeeds();
  fx.documents.set(`/feeds/videos.xml?channel_id=${CHANNEL_ID}`, {
    body: youtubeXml(videos),
    type: 'text/xml; charset=UTF-8',
  });
  h = await startHarness([
    { id: 901, name: 'Trail Cam', connector: { kind: 'youtube', channelId: CHANNEL_ID, baseUrl: fx.origin } },
  ]);
}

describe('youtube channel and playlist feeds', () => {
  it('fills the wall with video posts: player, watch page, thumbnail, rating, hashtags', async () => {
    await channelWall();
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', kind: 'youtube', inserted: 2 });
    expect(fx.requests[0]!.url).toBe(`/feeds/videos.xml?channel_id=${CHANNEL_ID}`);
    const posts = await wallPosts(h);
    const run = posts.get('https://www.youtube.com/watch?v=dQw4w9WgXcQ')!;
    expect(run.widget).toMatchObject({
      networkName: 'YouTube',
      PostType: 3,
      postPicture: 'https://i2.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
      postFile: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
      postFileOriginal: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      postFileThumb: 'https://i2.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
      postMediaFile: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
      postAuthorName: 'Trail Cam',
      // the feed links the channel by its id only: the name stands for it (issue 10)
      postUsername: 'Trail Cam',
      rating: 4.9,
      postTags: 'trailrunning,4K',
      postCreatedAt: '15/01/2026',
      childNode: [
        {
          image: 'https://i2.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg',
          video: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
        },
      ],
      content:
        '<p><strong>Ridge run – 4K</strong></p><p>Morning run on the ridge.<br />Gear: <a href="https://gear.example/list" rel="nofollow noopener noreferrer" target="_blank">https://gear.example/list</a><br />#trailrunning #4K</p>',
    });
    expect(run.commerce).toMatchObject({
      postType: 3,
      postRating: 4.9,
      postMediaFile: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
    });
    const short = posts.get('https://www.youtube.com/watch?v=a1B2c3D4e5F')!.widget;
    expect(short).toMatchObject({ rating: null, content: '<p><strong>Short: jump</strong></p>' });
    const stored = (await storedPosts(h, 901)).find((p) => p.external_id === 'dQw4w9WgXcQ')!;
    expect(stored).toMatchObject({ created_at: NOW - 30 * 60_000, updated_at: NOW - 25 * 60_000 });
    const feed = await h.server.store.db
      .selectFrom('feeds')
      .select(['source', 'source_type'])
      .where('id', '=', 901)
      .executeTakeFirstOrThrow();
    expect(feed).toEqual({ source: 'YouTube', source_type: 'channel' });
  });

  it('304 when unchanged, only new videos added, a retitled video updated with its moderation kept', async () => {
    await channelWall();
    await h.poll();
    await untilDue(h, 901);
    expect((await h.poll())[0]).toMatchObject({ status: 'not_modified' });
    const target = (await storedPosts(h, 901)).find((p) => p.external_id === 'a1B2c3D4e5F')!;
    await moderate(h, target.id);
    const before = await moderation(h, target.id);
    const next = [
      { id: 'Zz9Yy8Xx7Ww', title: 'New upload', description: 'fresh', published: iso(1), updated: iso(1) },
      ...VIDEOS.map((v) => (v.id === 'a1B2c3D4e5F' ? { ...v, title: 'Short: the jump', updated: iso(0) } : v)),
    ];
    fx.documents.set(`/feeds/videos.xml?channel_id=${CHANNEL_ID}`, {
      body: youtubeXml(next),
      type: 'text/xml; charset=UTF-8',
    });
    await untilDue(h, 901);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 1, updated: 1 });
    const after = (await storedPosts(h, 901)).find((p) => p.id === target.id)!;
    expect(after.content).toBe('<p><strong>Short: the jump</strong></p>');
    expect(await moderation(h, target.id)).toEqual(before);
    expect(await storedPosts(h, 901)).toHaveLength(3);
  });

  it('reads a playlist feed', async () => {
    fx = await startFeeds();
    fx.documents.set(`/feeds/videos.xml?playlist_id=${PLAYLIST_ID}`, {
      body: youtubeXml(VIDEOS, 'playlist'),
      type: 'text/xml; charset=UTF-8',
    });
    h = await startHarness([
      { id: 902, name: 'Races', connector: { kind: 'youtube', playlistId: PLAYLIST_ID, baseUrl: fx.origin } },
    ]);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 2 });
    const feed = await h.server.store.db
      .selectFrom('feeds')
      .select('source_type')
      .where('id', '=', 902)
      .executeTakeFirstOrThrow();
    expect(feed.source_type).toBe('playlist');
  });

  it('an unknown channel fails with a short message', async () => {
    fx = await startFeeds();
    h = await startHarness([
      { id: 901, name: 'x', connector: { kind: 'youtube', channelId: 'UCnope', baseUrl: fx.origin } },
    ]);
    expect((await h.poll())[0]).toMatchObject({
      status: 'failed',
      message: `HTTP 404 from 127.0.0.1:${fx.port} (an HTML error page)`,
    });
  });
});
