// Bluesky connector against a local AppView/PDS replaying the real XRPC API.
import { afterEach, describe, expect, it } from 'vitest';
import { ACCESS_JWT, author, facet, postView, startBluesky, type BlueskyFixture } from './fixtures/bluesky.js';
import { htmlError } from './fixtures/server.js';
import {
  NOW,
  WALL,
  ingestState,
  moderate,
  moderation,
  startHarness,
  storedPosts,
  untilDue,
  wallPosts,
  type Harness,
} from './harness.js';

const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString();

let fx: BlueskyFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const RICH = 'Trail day 🏔️ with @bo.bsky.social — see https://trails.example/ridge #wallery';

function seedFeed() {
  const rich = postView({
    rkey: '3lbrich0000a',
    text: RICH,
    createdAt: at(50),
    embed: 'images',
    facets: [
      facet(RICH, '@bo.bsky.social', {
        $type: 'app.bsky.richtext.facet#mention',
        did: 'did:plc:bobobobobobobobobobobobo',
      }),
      facet(RICH, 'https://trails.example/ridge', {
        $type: 'app.bsky.richtext.facet#link',
        uri: 'https://trails.example/ridge',
      }),
      facet(RICH, '#wallery', { $type: 'app.bsky.richtext.facet#tag', tag: 'wallery' }),
    ],
    tags: ['hiking'],
  });
  const repostedOriginal = postView({
    rkey: '3lbrepost00a',
    text: 'Someone else’s post',
    createdAt: at(45),
    handle: 'cy.bsky.social',
    displayName: 'Cy',
    did: 'did:plc:cycycycycycycycycycycycy',
  });
  fx.feed.push(
    {
      post: postView({ rkey: '3lbpinned00a', text: 'Pinned intro', createdAt: at(60 * 24 * 30) }),
      reason: { $type: 'app.bsky.feed.defs#reasonPin' },
    },
    {
      post: postView({ rkey: '3lbtext0000a', text: 'Plain <b>text</b> & more\n\nSecond paragraph', createdAt: at(5) }),
    },
    { post: postView({ rkey: '3lbvideo000a', text: 'Clip', createdAt: at(10), embed: 'video' }) },
    { post: postView({ rkey: '3lbcarous00a', text: 'Two shots', createdAt: at(20), embed: 'images2' }) },
    { post: postView({ rkey: '3lbextern00a', text: 'Worth reading', createdAt: at(25), embed: 'external' }) },
    {
      post: postView({
        rkey: '3lblabel000a',
        text: 'Labelled by a moderation service',
        createdAt: at(30),
        labels: ['graphic-media'],
      }),
    },
    { post: postView({ rkey: '3lbself0000a', text: 'Self-labelled', createdAt: at(35), selfLabels: ['nudity'] }) },
    {
      post: repostedOriginal,
      reason: { $type: 'app.bsky.feed.defs#reasonRepost', by: author(), indexedAt: at(40) },
    },
    { post: rich },
  );
}

describe('bluesky author feed', () => {
  async function actorWall(reposts?: string, options: Parameters<typeof startHarness>[1] = {}) {
    fx = await startBluesky();
    h = await startHarness(
      [
        {
          id: 601,
          name: 'Ana on Bluesky',
          connector: {
            kind: 'bluesky',
            actor: 'ana.bsky.social',
            appViewUrl: fx.origin,
            ...(reposts ? { reposts } : {}),
          },
        },
      ],
      options,
    );
  }

  it('fills the wall with facets as links, embeds as media, labelled posts hidden', async () => {
    await actorWall();
    seedFeed();
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 8 });
    expect(fx.requests[0]!.url).toContain('filter=posts_no_replies');
    const stored = await storedPosts(h, 601);
    expect(stored.filter((p) => p.hidden === 1).map((p) => p.external_id!.split('/').pop())).toEqual([
      '3lblabel000a',
      '3lbself0000a',
    ]);
    // a label other than an opt-out is stored as the sensitive flag
    expect(stored.filter((p) => p.sensitive === 1).map((p) => p.external_id!.split('/').pop())).toEqual([
      '3lblabel000a',
      '3lbself0000a',
    ]);
    expect(stored.some((p) => p.external_id!.endsWith('3lbrepost00a'))).toBe(false);

    const posts = await wallPosts(h);
    expect(posts.size).toBe(6);
    const did = 'did:plc:ana4mgkzjqfg5xb2wbqvnb2p';
    const rich = posts.get('https://bsky.app/profile/ana.bsky.social/post/3lbrich0000a')!;
    expect(rich.widget).toMatchObject({
      networkName: 'Bluesky',
      PostType: 2,
      postPicture: `https://cdn.bsky.app/img/feed_fullsize/plain/${did}/bafkreiimg1@jpeg`,
      postFileThumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/${did}/bafkreiimg1@jpeg`,
      postAuthorName: 'Ana Lima',
      postUsername: 'ana.bsky.social',
      postUserPicture: `https://cdn.bsky.app/img/avatar/plain/${did}/bafkreiavatar@jpeg`,
      postTags: 'wallery,hiking',
      postCreatedAt: '15/01/2026',
    });
    expect(rich.widget.content).toBe(
      '<p>Trail day 🏔️ with <a href="https://bsky.app/profile/did:plc:bobobobobobobobobobobobo" rel="nofollow noopener noreferrer" target="_blank">@bo.bsky.social</a> — see ' +
        '<a href="https://trails.example/ridge" rel="nofollow noopener noreferrer" target="_blank">https://trails.example/ridge</a> ' +
        '<a href="https://bsky.app/hashtag/wallery" rel="nofollow noopener noreferrer" target="_blank">#wallery</a></p>',
    );
    expect(rich.commerce).toMatchObject({ postType: 2, postContent: rich.widget.content });
    expect(posts.get('https://bsky.app/profile/ana.bsky.social/post/3lbtext0000a')!.widget).toMatchObject({
      PostType: 1,
      content: '<p>Plain &lt;b&gt;text&lt;/b&gt; &amp; more</p><p>Second paragraph</p>',
    });
    expect(posts.get('https://bsky.app/profile/ana.bsky.social/post/3lbvideo000a')!.widget).toMatchObject({
      PostType: 3,
      postMediaFile: `https://video.bsky.app/watch/${encodeURIComponent(did)}/bafkreivideo/playlist.m3u8`,
      postPicture: `https://video.bsky.app/watch/${encodeURIComponent(did)}/bafkreivideo/thumbnail.jpg`,
    });
    expect(posts.get('https://bsky.app/profile/ana.bsky.social/post/3lbcarous00a')!.widget).toMatchObject({
      PostType: 4,
    });
    expect(posts.get('https://bsky.app/profile/ana.bsky.social/post/3lbextern00a')!.widget.content).toContain(
      '<a href="https://news.example/story" rel="nofollow noopener noreferrer" target="_blank">A story &amp; more</a>',
    );
    expect(h.changed).toEqual([WALL]);
  });

  it('unwraps reposts into the original post when set to', async () => {
    await actorWall('unwrap');
    seedFeed();
    expect((await h.poll())[0]).toMatchObject({ inserted: 9 });
    const stored = await storedPosts(h, 601);
    const repost = stored.find((p) => p.external_id!.endsWith('3lbrepost00a'))!;
    expect(repost).toMatchObject({
      author_name: 'Cy',
      username: 'cy.bsky.social',
      link_url: 'https://bsky.app/profile/cy.bsky.social/post/3lbrepost00a',
      // flagged for the `repost` moderation rule
      repost: 1,
      reply: 0,
    });
    expect(stored.filter((p) => p.repost === 1)).toEqual([repost]);
  });

  it('adds only new posts next time and follows the cursor while a whole page is new', async () => {
    await actorWall();
    seedFeed();
    await h.poll();
    expect(JSON.parse((await ingestState(h, 601)).cursor_json!)).toEqual({ newest: NOW - 5 * 60_000 });
    const fresh = Array.from({ length: 60 }, (_, i) => ({
      post: postView({ rkey: `3lbnew${String(i).padStart(6, '0')}`, text: `new ${i}`, createdAt: at(4 - i / 100) }),
    }));
    fx.feed.splice(1, 0, ...fresh.reverse());
    h.clock.now += 301_000;
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 60, updated: 0 });
    expect(fx.requests.at(-1)!.url).toContain('cursor=50');
    expect(await storedPosts(h, 601)).toHaveLength(68);
    h.clock.now += 3600_000;
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
  });

  it('INGEST_MAX_ITEMS: paging stops at the cap and the poll keeps the newest', async () => {
    await actorWall(undefined, { config: { maxItems: 55 } });
    seedFeed();
    await h.poll();
    const fresh = Array.from({ length: 120 }, (_, i) => ({
      post: postView({ rkey: `3lbnew${String(i).padStart(6, '0')}`, text: `new ${i}`, createdAt: at(4 - i / 100) }),
    }));
    fx.feed.splice(1, 0, ...fresh.reverse());
    const before = fx.requests.length;
    h.clock.now += 301_000;
    // 55 posts in the feed's order: the one before the new ones (stored already) and the 54 newest new ones
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 54, updated: 0 });
    expect(fx.requests.length - before).toBe(2);
    const kept = (await storedPosts(h, 601)).filter((p) => p.external_id!.includes('3lbnew'));
    expect(kept.map((p) => Number(p.external_id!.slice(-6))).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 54 }, (_, i) => 66 + i),
    );
    expect(JSON.parse((await ingestState(h, 601)).cursor_json!)).toEqual({ newest: NOW - (4 - 119 / 100) * 60_000 });
  });

  it('a profile change updates the posts and keeps their moderation state', async () => {
    await actorWall();
    seedFeed();
    await h.poll();
    const target = (await storedPosts(h, 601)).find((p) => p.external_id!.endsWith('3lbtext0000a'))!;
    await moderate(h, target.id);
    const before = await moderation(h, target.id);
    for (const item of fx.feed) (item.post.author as { displayName: string }).displayName = 'Ana L.';
    h.clock.now += 301_000;
    const [report] = await h.poll();
    expect(report).toMatchObject({ inserted: 0, updated: 8 });
    const after = (await storedPosts(h, 601)).find((p) => p.id === target.id)!;
    expect(after.author_name).toBe('Ana L.');
    expect(await moderation(h, target.id)).toEqual(before);
  });

  it('opt-out labels: !no-unauthenticated keeps a post off the wall, and removes it once its author opts out; !hide and !warn arrive hidden', async () => {
    await actorWall();
    fx.feed.push(
      {
        post: postView({
          rkey: '3lboptpost0a',
          text: 'Not for logged-out eyes',
          createdAt: at(10),
          labels: ['!no-unauthenticated'],
        }),
      },
      { post: postView({ rkey: '3lbhide0000a', text: 'Hidden by a moderator', createdAt: at(11), labels: ['!hide'] }) },
      { post: postView({ rkey: '3lbwarn0000a', text: 'Warned', createdAt: at(12), selfLabels: ['!warn'] }) },
      { post: postView({ rkey: '3lbplain000a', text: 'Plain', createdAt: at(13) }) },
    );
    const [first] = await h.poll();
    expect(first).toMatchObject({ status: 'ok', inserted: 3, withheldItems: 1 });
    const stored = await storedPosts(h, 601);
    expect(stored.map((p) => [p.external_id!.split('/').pop(), p.hidden])).toEqual([
      ['3lbhide0000a', 1],
      ['3lbplain000a', 0],
      ['3lbwarn0000a', 1],
    ]);
    await moderate(h, stored[1]!.id);

    // the author opts out on their profile: every post of theirs leaves the wall, moderation or not
    for (const item of fx.feed)
      (item.post.author as { labels: unknown[] }).labels = [
        { src: 'did:plc:ana4mgkzjqfg5xb2wbqvnb2p', val: '!no-unauthenticated', cts: at(1) },
      ];
    h.changed.length = 0;
    await untilDue(h, 601);
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 0, updated: 0, withheldItems: 4 });
    expect(await storedPosts(h, 601)).toEqual([]);
    expect(await h.server.store.db.selectFrom('post_products').selectAll().execute()).toEqual([]);
    expect(h.changed).toEqual([WALL]);
    expect(await wallPosts(h)).toEqual(new Map());
  });

  it('fails with the AppView’s message for an unknown actor, backs off on errors', async () => {
    fx = await startBluesky();
    h = await startHarness([
      { id: 601, name: 'x', connector: { kind: 'bluesky', actor: 'nobody.bsky.social', appViewUrl: fx.origin } },
    ]);
    const [r1] = await h.poll();
    expect(r1).toMatchObject({
      status: 'failed',
      message: `HTTP 400 from 127.0.0.1:${fx.port} (InvalidRequest: Profile not found)`,
    });
    const s1 = await ingestState(h, 601);
    fx.actor = 'nobody.bsky.social';
    h.clock.now = s1.next_poll_at;
    fx.queue.push(htmlError(502));
    const [r2] = await h.poll();
    expect(r2!.message).toBe(`HTTP 502 from 127.0.0.1:${fx.port} (an HTML error page)`);
    const s2 = await ingestState(h, 601);
    expect(s2.next_poll_at - h.clock.now).toBe(450_000); // 300·2 · 0.75
    h.clock.now = s2.next_poll_at;
    fx.queue.push({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"feed": "not a list"}' });
    expect((await h.poll())[0]!.message).toBe(`expected an author feed from 127.0.0.1:${fx.port}`);
    h.clock.now = (await ingestState(h, 601)).next_poll_at;
    fx.feed.push(
      { post: { uri: 'at://broken', record: null } },
      { post: postView({ rkey: '3lbok000000a', text: 'fine', createdAt: at(1), handle: 'nobody.bsky.social' }) },
    );
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 1, skippedItems: 1 });
  });
});

describe('bluesky hashtag search', () => {
  function seedSearch() {
    const text = 'Race day #wallery';
    fx.search.push(
      postView({
        rkey: '3lbsearch01a',
        text,
        createdAt: at(3),
        facets: [facet(text, '#wallery', { $type: 'app.bsky.richtext.facet#tag', tag: 'wallery' })],
        embed: 'images',
      }),
      postView({
        rkey: '3lbsearch02a',
        text: 'Finish line #wallery',
        createdAt: at(8),
        handle: 'cy.bsky.social',
        displayName: 'Cy',
      }),
    );
  }

  it('logs in with the app password once and searches with the session', async () => {
    fx = await startBluesky();
    h = await startHarness([
      { id: 602, name: '#wallery', connector: { kind: 'bluesky', hashtag: 'wallery', serviceUrl: fx.origin } },
    ]);
    seedSearch();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 2 });
    const search = fx.requests.find((r) => r.url.startsWith('/xrpc/app.bsky.feed.searchPosts'))!;
    expect(search.url).toContain('q=%23wallery');
    expect(search.url).toContain('sort=latest');
    expect(search.headers.authorization).toBe(`Bearer ${ACCESS_JWT}`);
    const posts = await wallPosts(h);
    expect(posts.get('https://bsky.app/profile/ana.bsky.social/post/3lbsearch01a')!.widget).toMatchObject({
      PostType: 2,
      postTags: 'wallery',
    });
    const feed = await h.server.store.db
      .selectFrom('feeds')
      .select(['source', 'source_type'])
      .where('id', '=', 602)
      .executeTakeFirstOrThrow();
    expect(feed).toEqual({ source: 'Bluesky', source_type: 'hashtag' });

    // the session is reused; an expired token gets a new session once
    h.clock.now += 301_000;
    await h.poll();
    expect(fx.sessionsCreated).toBe(1);
    fx.validToken = 'a-new-token';
    h.clock.now += 3600_000;
    expect((await h.poll())[0]!.status).toBe('ok');
    expect(fx.sessionsCreated).toBe(2);
  });

  it('without credentials the feed fails with a message naming the settings; a wrong password fails too', async () => {
    fx = await startBluesky();
    h = await startHarness(
      [{ id: 602, name: '#wallery', connector: { kind: 'bluesky', hashtag: 'wallery', serviceUrl: fx.origin } }],
      { config: { bluesky: null } },
    );
    const [r] = await h.poll();
    expect(r).toMatchObject({
      status: 'failed',
      message: 'a Bluesky hashtag feed needs BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD',
    });
    expect(fx.requests).toHaveLength(0);
    await h.close();
    h = await startHarness(
      [{ id: 602, name: '#wallery', connector: { kind: 'bluesky', hashtag: 'wallery', serviceUrl: fx.origin } }],
      {
        config: { bluesky: { identifier: 'wall.bsky.social', appPassword: 'wrong' } },
      },
    );
    const [r2] = await h.poll();
    expect(r2).toMatchObject({
      status: 'failed',
      message: `HTTP 401 from 127.0.0.1:${fx.port} (AuthenticationRequired: Invalid identifier or password)`,
    });
  });
});
