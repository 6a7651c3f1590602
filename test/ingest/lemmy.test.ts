// Lemmy connector against a local instance replaying the v3 API.
import { afterEach, describe, expect, it } from 'vitest';
import { lemmyPost, startLemmy, type LemmyFixture } from './fixtures/lemmy.js';
import { HTML_ERROR_PAGE } from './fixtures/server.js';
import {
  NOW,
  ingestState,
  moderate,
  moderation,
  startHarness,
  storedPosts,
  untilDue,
  wallPosts,
  type Harness,
} from './harness.js';

const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString().replace('Z', '000Z');

let fx: LemmyFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function communityWall() {
  fx = await startLemmy();
  h = await startHarness([
    { id: 701, name: 'c/trailrunning', connector: { kind: 'lemmy', instance: fx.origin, community: 'trailrunning' } },
  ]);
}

function seed() {
  fx.posts.push(
    lemmyPost({
      id: 9001,
      name: 'Rules of the community',
      published: at(60 * 24 * 90),
      body: 'Be kind.',
      featured: true,
    }),
    lemmyPost({
      id: 9002,
      name: 'Ridge at dawn',
      published: at(50),
      url: 'https://lemmy.example/pictrs/image/ridge.jpeg',
      urlContentType: 'image/jpeg',
      thumbnail: 'https://lemmy.example/pictrs/image/ridge-thumb.webp',
      score: 57,
    }),
    lemmyPost({
      id: 9003,
      name: 'Race recap video',
      published: at(40),
      url: 'https://video.example/watch/abc',
      embedVideo: 'https://video.example/embed/abc',
      thumbnail: 'https://lemmy.example/pictrs/image/race.jpeg',
      creator: { name: 'tom', host: 'remote.example' },
    }),
    lemmyPost({
      id: 9004,
      name: 'Shoe review & notes',
      published: at(30),
      url: 'https://blog.example/shoes',
      thumbnail: 'https://lemmy.example/pictrs/image/shoe.jpeg',
    }),
    lemmyPost({
      id: 9005,
      name: 'Ask: <b>first ultra</b>?',
      published: at(20),
      body: 'Any tips for a **first** ultra? <script>alert(1)</script>\n\nSee https://ultra.example/guide #ultra #trailrunning',
    }),
    lemmyPost({
      id: 9006,
      name: 'NSFW injury photo',
      published: at(15),
      url: 'https://lemmy.example/pictrs/image/injury.jpeg',
      urlContentType: 'image/jpeg',
      nsfw: true,
    }),
    lemmyPost({ id: 9007, name: 'Removed spam', published: at(10), removed: true }),
  );
}

describe('lemmy community', () => {
  it('fills the wall with mapped posts; NSFW arrives hidden, removed ones are left out', async () => {
    await communityWall();
    seed();
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 6, skippedItems: 1 });
    const req = fx.requests[0]!;
    expect(req.url).toContain('community_name=trailrunning');
    expect(req.url).toContain('sort=New');
    const stored = await storedPosts(h, 701);
    expect(stored.find((p) => p.external_id === '9006')!.hidden).toBe(1);

    const posts = await wallPosts(h);
    expect(posts.size).toBe(5);
    const image = posts.get('https://lemmy.example/post/9002')!;
    expect(image.widget).toMatchObject({
      networkName: 'Lemmy',
      PostType: 2,
      postPicture: 'https://lemmy.example/pictrs/image/ridge.jpeg',
      postFileThumb: 'https://lemmy.example/pictrs/image/ridge-thumb.webp',
      postAuthorName: 'Rosa Ortiz',
      postUsername: 'rosa@lemmy.example',
      postUserPicture: 'https://lemmy.example/pictrs/image/rosa-avatar.png',
      content: '<p><strong>Ridge at dawn</strong></p>',
      postCreatedAt: '15/01/2026',
    });
    expect(image.commerce).toMatchObject({ postScore: 57, postType: 2 });
    expect(posts.get('https://lemmy.example/post/9003')!.widget).toMatchObject({
      PostType: 3,
      postMediaFile: 'https://video.example/embed/abc',
      postPicture: 'https://lemmy.example/pictrs/image/race.jpeg',
      postUsername: 'tom@remote.example',
      postAuthorName: 'tom',
    });
    // a link post: its thumbnail is the picture (issue 10, link cards)
    expect(posts.get('https://lemmy.example/post/9004')!.widget).toMatchObject({
      PostType: 2,
      postPicture: 'https://lemmy.example/pictrs/image/shoe.jpeg',
      content:
        '<p><strong>Shoe review &amp; notes</strong></p><p><a href="https://blog.example/shoes" rel="nofollow noopener noreferrer" target="_blank">https://blog.example/shoes</a></p>',
    });
    const ask = posts.get('https://lemmy.example/post/9005')!.widget;
    expect(ask).toMatchObject({ PostType: 1, postTags: 'ultra,trailrunning' });
    expect(ask.content).toBe(
      // Markdown rendered (issue 10); raw HTML in it stays text
      '<p><strong>Ask: first ultra?</strong></p><p>Any tips for a <strong>first</strong> ultra? &lt;script&gt;alert(1)&lt;/script&gt;</p>' +
        '<p>See <a href="https://ultra.example/guide" rel="nofollow noopener noreferrer" target="_blank">https://ultra.example/guide</a> #ultra #trailrunning</p>',
    );
    const feed = await h.server.store.db
      .selectFrom('feeds')
      .select(['source', 'source_type'])
      .where('id', '=', 701)
      .executeTakeFirstOrThrow();
    expect(feed).toEqual({ source: 'Lemmy', source_type: 'community' });
  });

  it('adds only new posts and follows next_page while every post on a page is new', async () => {
    await communityWall();
    seed();
    await h.poll();
    for (let i = 0; i < 30; i++)
      fx.posts.push(lemmyPost({ id: 9100 + i, name: `new ${i}`, published: at(5 - i / 10) }));
    await untilDue(h, 701);
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 30, updated: 0 });
    expect(fx.requests.at(-1)!.url).toContain('page_cursor=Pa20');
    expect(await storedPosts(h, 701)).toHaveLength(36);
    h.clock.now += 3600_000;
    expect((await h.poll())[0]).toMatchObject({ status: 'not_modified' });
  });

  it('an edit updates the post and keeps its moderation state', async () => {
    await communityWall();
    seed();
    await h.poll();
    const target = (await storedPosts(h, 701)).find((p) => p.external_id === '9005')!;
    await moderate(h, target.id);
    const before = await moderation(h, target.id);
    const edited = fx.posts.find((p) => (p.post as { id: number }).id === 9005)!.post as Record<string, unknown>;
    edited.body = 'Edited: thanks all!';
    edited.updated = at(1);
    await untilDue(h, 701);
    expect((await h.poll())[0]).toMatchObject({ inserted: 0, updated: 1 });
    const after = (await storedPosts(h, 701)).find((p) => p.id === target.id)!;
    expect(after.content).toContain('Edited: thanks all!');
    expect(after.updated_at).toBe(NOW - 60_000);
    expect(await moderation(h, target.id)).toEqual(before);
  });

  it('fails on an unknown community, an HTML page instead of JSON, and a 429; backs off', async () => {
    fx = await startLemmy();
    h = await startHarness([
      { id: 701, name: 'x', connector: { kind: 'lemmy', instance: fx.origin, community: 'nope' } },
    ]);
    const [r1] = await h.poll();
    expect(r1).toMatchObject({
      status: 'failed',
      message: `HTTP 404 from 127.0.0.1:${fx.port} (couldnt_find_community)`,
    });
    let state = await ingestState(h, 701);
    fx.community = 'nope';
    h.clock.now = state.next_poll_at;
    fx.queue.push({ status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: HTML_ERROR_PAGE });
    expect((await h.poll())[0]!.message).toBe(`expected JSON from 127.0.0.1:${fx.port}, got text/html (an HTML page)`);
    state = await ingestState(h, 701);
    h.clock.now = state.next_poll_at;
    fx.queue.push({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7200' },
      body: '{"error":"rate_limit_error"}',
    });
    expect((await h.poll())[0]!.message).toBe(`HTTP 429 from 127.0.0.1:${fx.port} (rate_limit_error)`);
    state = await ingestState(h, 701);
    expect(state).toMatchObject({ consecutive_failures: 3 });
    expect(state.next_poll_at - h.clock.now).toBe(7200_000);
  });
});
