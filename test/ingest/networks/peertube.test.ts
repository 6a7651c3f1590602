// PeerTube connector against a local instance replaying its REST API.
import { afterEach, describe, expect, it } from 'vitest';
import { problem, startPeertube, uuidOf, type PeertubeFixture, type VideoSpec } from '../fixtures/peertube.js';
import { connectorProblem } from '../../../src/schemas/connectors.js';
import { NOW, ingestState, startHarness, storedPosts, wallPosts, type Harness } from '../harness.js';

const FEED = 803;
const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString();

let fx: PeertubeFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function wall(connector: Record<string, unknown>) {
  fx = await startPeertube();
  h = await startHarness([
    { id: FEED, name: 'PeerTube feed', connector: { kind: 'peertube', instance: `${fx.origin}/`, ...connector } },
  ]);
}

const video = (n: number, minutesBefore: number, extra: Partial<VideoSpec> = {}): VideoSpec => ({
  n,
  name: `Trail film ${n}`,
  publishedAt: at(minutesBefore),
  tags: ['wallery'],
  ...extra,
});

describe('peertube channel feed', () => {
  it('maps videos with the embed player, pages to the last new page and drops deleted videos', async () => {
    await wall({ channel: 'trail_films@peertube.example' });
    fx.videos.push(
      video(1, 60, {
        duration: 725,
        description: 'Up the **ridge**, <script>alert(1)</script> [route](https://maps.example/r)',
      }),
      video(2, 50, { live: true, name: 'Summit live' }),
      video(3, 40, { nsfw: true, name: 'Fall compilation' }),
      video(4, 30, { duration: 3725 }),
    );
    const [first] = await h.poll();
    expect(first).toMatchObject({ feedId: FEED, kind: 'peertube', status: 'ok', inserted: 4 });
    expect(fx.requests[0]!.url).toBe(
      '/api/v1/video-channels/trail_films%40peertube.example/videos?sort=-publishedAt&nsfw=both&start=0&count=50',
    );

    const posts = await wallPosts(h);
    expect(posts.size).toBe(3); // the nsfw one arrives hidden
    const uuid = uuidOf(1);
    const one = posts.get('https://peertube.example/w/2y84q2MQUMWPbiEcx00001')!.widget;
    expect(one).toMatchObject({
      networkName: 'PeerTube',
      PostType: 3,
      postPicture: `${fx.origin}/lazy-static/previews/${uuid}.jpg`,
      postFile: `${fx.origin}/videos/embed/${uuid}`,
      postMediaFile: `${fx.origin}/videos/embed/${uuid}`,
      postAuthorName: 'Trail Films',
      postUsername: 'trail_films@peertube.example',
      postUserPicture: `${fx.origin}/lazy-static/avatars/trail_films-120.png`,
      postTags: 'wallery',
      childNode: [
        { image: `${fx.origin}/lazy-static/previews/${uuid}.jpg`, video: `${fx.origin}/videos/embed/${uuid}` },
      ],
    });
    const content = String(one.content);
    expect(content).toContain('<p><strong>Trail film 1</strong></p><p>Video · 12:05</p>');
    expect(content).toContain('<strong>ridge</strong>');
    expect(content).toContain('<a href="https://maps.example/r"');
    // raw HTML in the Markdown stays text
    expect(content).not.toContain('<script');
    expect(content).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(String(posts.get('https://peertube.example/w/2y84q2MQUMWPbiEcx00002')!.widget.content)).toContain(
      '<p>Live</p>',
    );
    expect(String(posts.get('https://peertube.example/w/2y84q2MQUMWPbiEcx00004')!.widget.content)).toContain(
      '<p>Video · 1:02:05</p>',
    );
    const stored = await storedPosts(h, FEED);
    expect(stored.find((p) => p.external_id === uuidOf(3))).toMatchObject({ hidden: 1, sensitive: 1 });

    // 120 new videos (more than two pages) and one deleted: pages until one reaches the read ones
    for (let n = 100; n < 220; n++) fx.videos.push(video(n, 29 - (n - 100) / 10));
    fx.videos = fx.videos.filter((v) => v.n !== 2);
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    fx.requests.length = 0;
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 120, updated: 0 });
    const urls = fx.requests.map((r) => r.url);
    expect(
      urls.filter((u) => u.includes('/videos?')).map((u) => new URL(u, fx.origin).searchParams.get('start')),
    ).toEqual(['0', '50', '100']);
    expect(urls).toContain(`/api/v1/videos/${uuidOf(2)}`);
    const ids = (await storedPosts(h, FEED)).map((p) => p.external_id);
    expect(ids).toHaveLength(123);
    expect(ids).not.toContain(uuidOf(2));

    // nothing new: one page, nothing written twice
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const [third] = await h.poll();
    expect(third).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(await storedPosts(h, FEED)).toHaveLength(123);
  });
});

describe('peertube searches, errors and limits', () => {
  it('searches by tag, says what an unknown channel is, and waits out a 429 until the window resets', async () => {
    await wall({ tag: '#wallery' });
    fx.videos.push(video(1, 30), video(2, 20, { tags: ['other'] }), video(3, 10));
    const [first] = await h.poll();
    expect(first).toMatchObject({ status: 'ok', inserted: 2 });
    expect(fx.requests[0]!.url).toBe(
      '/api/v1/search/videos?tagsOneOf=wallery&sort=-publishedAt&nsfw=both&start=0&count=50',
    );
    expect((await storedPosts(h, FEED)).map((p) => p.external_id)).toEqual([uuidOf(1), uuidOf(3)]);

    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const reset = Math.floor(h.clock.now / 1000) + 5000;
    fx.queue.push(
      problem(429, 'Too Many Requests', 'You have reached the maximum number of requests, please try again later', {
        'retry-after': '10',
        'x-ratelimit-limit': '50',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      }),
    );
    const [limited] = await h.poll();
    expect(limited!.message).toBe(
      `HTTP 429 from 127.0.0.1:${fx.port} (You have reached the maximum number of requests, please try again later)`,
    );
    // the window's end, later than Retry-After and the backoff, decides
    expect((await ingestState(h, FEED)).next_poll_at).toBe(reset * 1000);
    fx.requests.length = 0;
    expect(await h.poll()).toEqual([]);
    expect(fx.requests).toHaveLength(0);

    // a channel that does not exist: the problem's detail says so
    await h.server.store.db
      .updateTable('feeds')
      .set({ connector: JSON.stringify({ kind: 'peertube', instance: fx.origin, channel: 'nobody' }) })
      .where('id', '=', FEED)
      .execute();
    h.clock.now = reset * 1000;
    const [missing] = await h.poll();
    expect(missing!.message).toBe(`HTTP 404 from 127.0.0.1:${fx.port} (Video channel not found)`);
  });
});

describe('open network connector settings', () => {
  it('asks for exactly one thing to follow and a usable instance', () => {
    const instance = 'https://video.example';
    expect(connectorProblem({ kind: 'peertube', instance, channel: 'films' })).toBeNull();
    expect(connectorProblem({ kind: 'peertube', instance, tag: 'wallery', search: 'trail' })).toBeNull();
    expect(connectorProblem({ kind: 'peertube', instance, channel: 'films', tag: 'wallery' })).toBe(
      'exactly one of channel, account, tag/search is required',
    );
    expect(connectorProblem({ kind: 'peertube', instance })).toBe(
      'exactly one of channel, account, tag/search is required',
    );
    expect(connectorProblem({ kind: 'pixelfed', instance, hashtag: 'a', account: 'b' })).toBe(
      'exactly one of hashtag, account is required',
    );
    expect(connectorProblem({ kind: 'misskey', instance, user: 'aki', connectionId: 3 })).toBeNull();
    expect(connectorProblem({ kind: 'misskey', instance })).toBe('exactly one of hashtag, user is required');
    expect(connectorProblem({ kind: 'misskey', instance: 'ftp://x', hashtag: 'a' })).toMatch(/^instance /);
    expect(connectorProblem({ kind: 'pixelfed', instance, hashtag: 'a', connectionId: 0 })).toMatch(/^connectionId /);
  });
});
