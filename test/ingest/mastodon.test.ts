// Mastodon connector against a local instance replaying the real API.
import { afterEach, describe, expect, it } from 'vitest';
import { account, mastodonHtml, startMastodon, status, type MastodonFixture } from './fixtures/mastodon.js';
import { htmlError } from './fixtures/server.js';
import { connectedWall, pollRefusingConnection } from './networks/connected-feed.js';
import { upstreamHash } from '../../src/ingest/upstream-hash.js';
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
  widgetPosts,
  type Harness,
} from './harness.js';

const id = (n: number) => `1138000000000${String(n).padStart(5, '0')}`;
const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString();

let fx: MastodonFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function hashtagWall(extra: Partial<{ reposts: string }> = {}, options: Parameters<typeof startHarness>[1] = {}) {
  fx = await startMastodon();
  h = await startHarness(
    [
      {
        id: 501,
        name: 'Mastodon #wallery',
        connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'wallery', ...extra },
      },
    ],
    options,
  );
}

function seed() {
  fx.statuses.push(
    status({
      id: id(1),
      createdAt: at(50),
      html: mastodonHtml('Sunrise on the ridge <script>alert(1)</script><img src=x onerror=alert(2)>', ['wallery']),
      tags: ['wallery', 'Trail'],
      media: [{ type: 'image', name: 'ridge' }],
    }),
    status({
      id: id(2),
      createdAt: at(40),
      html: mastodonHtml('Descent, in motion', ['wallery']),
      tags: ['wallery'],
      media: [{ type: 'video', name: 'descent' }],
    }),
    status({
      id: id(3),
      createdAt: at(30),
      html: mastodonHtml('Two views', ['wallery']),
      tags: ['wallery'],
      media: [
        { type: 'image', name: 'view1' },
        { type: 'image', name: 'view2' },
      ],
      account: account('bo', 'Bo <b>Bold</b>', '109000000000000002', 'other.example'),
    }),
    status({
      id: id(4),
      createdAt: at(20),
      html: mastodonHtml('Blister photos', ['wallery']),
      tags: ['wallery'],
      sensitive: true,
      spoiler: 'feet',
    }),
    status({
      id: id(5),
      createdAt: at(10),
      html: mastodonHtml('Just words &amp; a <a href="https://maps.example/x">map</a>', ['wallery']),
      tags: ['wallery'],
      media: [{ type: 'audio', name: 'wind' }],
    }),
  );
}

describe('mastodon hashtag timeline', () => {
  it('fills the wall on the first poll with posts mapped for both families and formats', async () => {
    await hashtagWall();
    seed();
    const [report] = await h.poll();
    expect(report).toMatchObject({ feedId: 501, kind: 'mastodon', status: 'ok', inserted: 5, updated: 0 });
    expect(h.changed).toEqual([WALL]);

    const posts = await wallPosts(h);
    // the sensitive one arrived hidden
    expect(posts.size).toBe(4);
    const stored = await storedPosts(h, 501);
    expect(stored.find((p) => p.external_id === id(4))).toMatchObject({
      hidden: 1,
      sensitive: 1,
      network_name: 'Mastodon',
    });
    expect(stored.filter((p) => p.sensitive === 1).map((p) => p.external_id)).toEqual([id(4)]);

    const files = `https://files.social.example/media_attachments/files/113`;
    const image = posts.get(`https://social.example/@ana/${id(1)}`)!;
    expect(image.widget).toMatchObject({
      feedId: 501,
      feedName: 'Mastodon #wallery',
      networkName: 'Mastodon',
      PostType: 2,
      postPicture: `${files}/000001/0/original/ridge.jpg`,
      postFile: `${files}/000001/0/original/ridge.jpg`,
      postFileThumb: `${files}/000001/0/small/ridge.jpg`,
      postMediaFile: '',
      postAuthorName: 'Ana Lima',
      postUsername: 'ana@social.example',
      postUserPicture: 'https://files.social.example/accounts/avatars/109/000/000/original/ana.png',
      postCreatedAt: '15/01/2026',
      postTags: 'wallery,Trail',
      location: '',
      wallProfanity: 0,
      childNode: [{ image: `${files}/000001/0/original/ridge.jpg`, video: '' }],
    });
    const content = String(image.widget.content);
    expect(content).toContain('Sunrise on the ridge');
    expect(content).toContain(
      // span is on the allowlist (contract §7); its class is not
      '<a href="https://social.example/tags/wallery" rel="nofollow noopener noreferrer" target="_blank">#<span>wallery</span></a>',
    );
    expect(content).not.toMatch(/script|onerror|<img|alert/);
    expect(image.commerce).toMatchObject({
      networkName: 'Mastodon',
      postType: 2,
      postContent: content,
      postPin: 0,
      CTAcolor: '',
      CTAStatus: 0,
    });

    const video = posts.get(`https://social.example/@ana/${id(2)}`)!.widget;
    expect(video).toMatchObject({
      PostType: 3,
      postPicture: `${files}/000002/0/small/descent.jpg`,
      postFile: `${files}/000002/0/original/descent.mp4`,
      postMediaFile: `${files}/000002/0/original/descent.mp4`,
      childNode: [{ image: `${files}/000002/0/small/descent.jpg`, video: `${files}/000002/0/original/descent.mp4` }],
    });
    const carousel = posts.get(`https://social.example/@bo/${id(3)}`)!.widget;
    expect(carousel).toMatchObject({ PostType: 4, postAuthorName: 'Bo Bold', postUsername: 'bo@other.example' });
    expect(carousel.childNode).toHaveLength(2);
    const text = posts.get(`https://social.example/@ana/${id(5)}`)!.widget;
    expect(text).toMatchObject({ PostType: 1, postPicture: '', postFile: '', childNode: [] });
    expect(text.content).toContain('Just words &amp; a <a href="https://maps.example/x"');

    // the feed now names its network
    const feed = await h.server.store.db
      .selectFrom('feeds')
      .select(['source', 'source_type'])
      .where('id', '=', 501)
      .executeTakeFirstOrThrow();
    expect(feed).toEqual({ source: 'Mastodon', source_type: 'hashtag' });
    // W2 media filters see the kinds
    expect((await widgetPosts(h, { include_only_video_posts: 'true' })).map((p) => p.PostType)).toEqual([3]);
  });

  it('adds only new statuses on the next poll, sends its validators, and answers 304 with nothing', async () => {
    await hashtagWall();
    seed();
    await h.poll();
    fx.statuses.push(
      status({ id: id(6), createdAt: at(1), html: mastodonHtml('New one', ['wallery']), tags: ['wallery'] }),
    );
    h.clock.now += 301_000;
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 1, updated: 0 });
    const last = fx.timelineRequests().at(-1)!;
    expect(last.headers['if-none-match']).toMatch(/^W\//);
    expect(last.headers['user-agent']).toMatch(/^Wallery\//);
    expect(await storedPosts(h, 501)).toHaveLength(6);

    h.changed.length = 0;
    h.clock.now += 3600_000;
    const [third] = await h.poll();
    expect(third).toMatchObject({ status: 'not_modified', inserted: 0, updated: 0 });
    expect(h.changed).toEqual([]);
    expect(await storedPosts(h, 501)).toHaveLength(6);
  });

  it('posts stored before the sensitive flag keep their fingerprint: only a flagged one is rewritten, once', async () => {
    await hashtagWall();
    seed();
    await h.poll();
    // as a store migrated by 0019 holds them: no flag, each fingerprint as computed without it
    const db = h.server.store.db;
    for (const p of await storedPosts(h, 501))
      await db
        .updateTable('posts')
        .set({ sensitive: 0, upstream_hash: upstreamHash({ ...p, external_id: p.external_id!, sensitive: 0 }) })
        .where('id', '=', p.id)
        .execute();
    const before = await storedPosts(h, 501);

    fx.statuses.push(
      status({ id: id(6), createdAt: at(1), html: mastodonHtml('New one', ['wallery']), tags: ['wallery'] }),
    );
    h.clock.now += 301_000;
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 1, updated: 1 });
    const after = await storedPosts(h, 501);
    for (const p of before) {
      const now = after.find((a) => a.id === p.id)!;
      if (p.external_id === id(4)) expect(now).toMatchObject({ sensitive: 1, rev: p.rev + 1 });
      else expect(now).toEqual(p);
    }
  });

  it('an edit updates the post and keeps hidden, pin, highlight, CTA and product tags', async () => {
    await hashtagWall();
    seed();
    await h.poll();
    const [p1, p2] = await storedPosts(h, 501);
    await moderate(h, p1!.id);
    await h.server.store.db.updateTable('posts').set({ hidden: 1 }).where('id', '=', p2!.id).execute();
    const before1 = await moderation(h, p1!.id);
    const before2 = await moderation(h, p2!.id);

    const s1 = fx.statuses[0]!;
    s1.content = mastodonHtml('Sunrise on the ridge (edited: it was cold)', ['wallery']);
    s1.edited_at = at(5);
    const s2 = fx.statuses[1]!;
    s2.content = mastodonHtml('Descent, edited', ['wallery']);
    h.clock.now += 301_000;
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 0, updated: 2 });

    const after = await storedPosts(h, 501);
    expect(after).toHaveLength(5);
    expect(after[0]!.content).toContain('edited: it was cold');
    expect(after[0]!.updated_at).toBe(NOW - 5 * 60_000);
    expect(after[0]!.created_at).toBe(NOW - 50 * 60_000);
    expect(await moderation(h, p1!.id)).toEqual(before1);
    expect(await moderation(h, p2!.id)).toEqual(before2);
    const shown = (await widgetPosts(h))[0]!;
    expect(shown).toMatchObject({ postPin: 1, postHighlight: 1, CTAtext: 'Buy' });
    expect(shown.content).toContain('edited');
  });

  it('fills a gap of more statuses than a page forward with min_id and Link paging', async () => {
    await hashtagWall();
    seed();
    await h.poll();
    for (let n = 10; n < 110; n++)
      fx.statuses.push(
        status({ id: id(n), createdAt: at(5), html: mastodonHtml(`burst ${n}`, ['wallery']), tags: ['wallery'] }),
      );
    h.clock.now += 301_000;
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 100, updated: 0 });
    const urls = fx
      .timelineRequests()
      .slice(-3)
      .map((r) => r.url);
    expect(urls[0]).not.toContain('min_id');
    expect(urls[1]).toContain(`min_id=${id(5)}`);
    expect(urls[2]).toContain(`min_id=${id(49)}`); // the Link rel="prev" of the page before
    expect(await storedPosts(h, 501)).toHaveLength(105);
    expect(JSON.parse((await ingestState(h, 501)).cursor_json!)).toEqual({ sinceId: id(109) });
  });

  it('stops at maxPages and goes on from there next time, without holes or duplicates', async () => {
    fx = await startMastodon();
    h = await startHarness(
      [{ id: 501, name: 'm', connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'wallery' } }],
      { runtime: { maxPages: 2 } },
    );
    seed();
    await h.poll();
    for (let n = 10; n < 110; n++)
      fx.statuses.push(
        status({ id: id(n), createdAt: at(5), html: mastodonHtml(`burst ${n}`, ['wallery']), tags: ['wallery'] }),
      );
    h.clock.now += 301_000;
    expect((await h.poll())[0]).toMatchObject({ inserted: 80 });
    expect(JSON.parse((await ingestState(h, 501)).cursor_json!)).toEqual({ sinceId: id(49), gapOpen: true });
    h.clock.now += 3600_000;
    expect((await h.poll())[0]).toMatchObject({ inserted: 20 });
    const stored = await storedPosts(h, 501);
    expect(stored).toHaveLength(105);
    expect(new Set(stored.map((p) => p.external_id)).size).toBe(105);
    expect(JSON.parse((await ingestState(h, 501)).cursor_json!)).toEqual({ sinceId: id(109) });
  });

  it('INGEST_MAX_ITEMS: pages ask for no more than a poll keeps; a gap is filled over the next polls', async () => {
    await hashtagWall({}, { config: { maxItems: 50 } });
    seed();
    await h.poll();
    for (let n = 10; n < 110; n++)
      fx.statuses.push(
        status({ id: id(n), createdAt: at(5), html: mastodonHtml(`burst ${n}`, ['wallery']), tags: ['wallery'] }),
      );
    h.clock.now += 301_000;
    const before = fx.timelineRequests().length;
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 50 });
    const limits = fx
      .timelineRequests()
      .slice(before)
      .map((r) => new URL(r.url, fx.origin).searchParams.get('limit'));
    expect(limits).toEqual(['40', '10']);
    expect(JSON.parse((await ingestState(h, 501)).cursor_json!)).toEqual({ sinceId: id(19), gapOpen: true });
    for (let poll = 0; poll < 10 && JSON.parse((await ingestState(h, 501)).cursor_json!).gapOpen; poll++) {
      await untilDue(h, 501);
      const [r] = await h.poll();
      expect(r!.inserted).toBeLessThanOrEqual(50);
    }
    const stored = await storedPosts(h, 501);
    expect(stored).toHaveLength(105);
    expect(new Set(stored.map((p) => p.external_id)).size).toBe(105);
    expect(JSON.parse((await ingestState(h, 501)).cursor_json!)).toEqual({ sinceId: id(109) });
  });

  it('INGEST_MAX_ITEMS below a page: the newest page is all a poll keeps, and the cursor moves to it', async () => {
    await hashtagWall({}, { config: { maxItems: 3 } });
    seed();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 3 });
    expect(new URL(fx.timelineRequests()[0]!.url, fx.origin).searchParams.get('limit')).toBe('3');
    expect((await storedPosts(h, 501)).map((p) => p.external_id)).toEqual([id(3), id(4), id(5)]);
    for (let n = 10; n < 20; n++)
      fx.statuses.push(
        status({ id: id(n), createdAt: at(5), html: mastodonHtml(`burst ${n}`, ['wallery']), tags: ['wallery'] }),
      );
    h.clock.now += 301_000;
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 3 });
    expect(JSON.parse((await ingestState(h, 501)).cursor_json!)).toEqual({ sinceId: id(19) });
  });

  it('handles empty results, then upstream errors with backoff, Retry-After and a failing mark', async () => {
    await hashtagWall();
    const [empty] = await h.poll();
    expect(empty).toMatchObject({ status: 'ok', inserted: 0 });
    const base = (await ingestState(h, 501)).next_poll_at;
    expect(base).toBe(NOW + 300_000);

    // 503 with an HTML error page: a short message, never the page
    h.clock.now = base;
    fx.queue.push(htmlError(503));
    const [e1] = await h.poll();
    expect(e1!.status).toBe('failed');
    expect(e1!.message).toBe(`HTTP 503 from 127.0.0.1:${fx.port} (an HTML error page)`);
    let state = await ingestState(h, 501);
    expect(state).toMatchObject({ consecutive_failures: 1, failing: 0, last_error: e1!.message });
    expect(state.next_poll_at - h.clock.now).toBe(300_000);

    // 429 with Retry-After longer than the backoff: the later one wins
    h.clock.now = state.next_poll_at;
    fx.queue.push({
      status: 429,
      headers: {
        'retry-after': '1200',
        'content-type': 'application/json',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': new Date(h.clock.now + 1200_000).toISOString(),
      },
      body: '{"error":"Too many requests"}',
    });
    const [e2] = await h.poll();
    expect(e2!.message).toBe(`HTTP 429 from 127.0.0.1:${fx.port} (Too many requests)`);
    state = await ingestState(h, 501);
    expect(state.consecutive_failures).toBe(2);
    expect(state.next_poll_at - h.clock.now).toBe(1200_000);

    // malformed JSON, then JSON that is not a list
    h.clock.now = state.next_poll_at;
    fx.queue.push({ status: 200, headers: { 'content-type': 'application/json' }, body: '[{"id": "1", "content": ' });
    expect((await h.poll())[0]!.message).toBe(`malformed JSON from 127.0.0.1:${fx.port}`);
    state = await ingestState(h, 501);
    expect(state.next_poll_at - h.clock.now).toBe(900_000); // 300·2² · 0.75

    h.clock.now = state.next_poll_at;
    fx.queue.push({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"error":"nope"}' });
    expect((await h.poll())[0]!.message).toMatch(/expected a list of statuses/);
    state = await ingestState(h, 501);
    expect(state).toMatchObject({ consecutive_failures: 4, failing: 0 });
    expect(state.next_poll_at - h.clock.now).toBe(1800_000);

    h.clock.now = state.next_poll_at;
    fx.queue.push(htmlError(502));
    await h.poll();
    state = await ingestState(h, 501);
    expect(state).toMatchObject({
      consecutive_failures: 5,
      failing: 1,
      last_error: `HTTP 502 from 127.0.0.1:${fx.port} (an HTML error page)`,
    });
    expect(state.next_poll_at - h.clock.now).toBe(3600_000);
    // not due: nothing is polled; the feed is still there and enabled
    expect(await h.poll()).toEqual([]);
    expect(
      await h.server.store.db.selectFrom('feeds').select('enabled').where('id', '=', 501).executeTakeFirstOrThrow(),
    ).toEqual({ enabled: 1 });

    // recovery clears the failure state
    h.clock.now = state.next_poll_at;
    seed();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 5 });
    state = await ingestState(h, 501);
    expect(state).toMatchObject({ consecutive_failures: 0, failing: 0, last_new_posts: 5 });
  });

  it('an exhausted rate limit pauses every feed on that host until the reset', async () => {
    fx = await startMastodon();
    h = await startHarness([
      { id: 501, name: 'a', connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'wallery' } },
      { id: 502, name: 'b', connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'other' } },
    ]);
    seed();
    fx.rateLimitRemaining = 1;
    fx.rateLimitReset = new Date(NOW + 900_000).toISOString();
    const first = await h.poll(501);
    expect(first[0]).toMatchObject({ status: 'ok', inserted: 5, nextPollAt: NOW + 900_000 });
    const second = await h.poll(502);
    expect(second[0]).toMatchObject({ status: 'deferred', nextPollAt: NOW + 900_000 });
    expect(fx.timelineRequests()).toHaveLength(1);
    expect((await ingestState(h, 502)).consecutive_failures).toBe(0);
  });
});

describe('mastodon account statuses', () => {
  function seedAccount() {
    const ana = account();
    const other = account('cy', 'Cy', '109000000000000003');
    const original = status({
      id: id(20),
      createdAt: at(45),
      html: mastodonHtml('Original by Cy'),
      account: other,
      media: [{ type: 'image', name: 'cy' }],
    });
    fx.statuses.push(
      status({ id: id(21), createdAt: at(30), html: mastodonHtml('Mine'), account: ana }),
      status({ id: id(22), createdAt: at(25), html: '', account: ana, reblogOf: original }),
      status({ id: id(23), createdAt: at(20), html: mastodonHtml('A reply'), account: ana, inReplyTo: id(1) }),
      status({
        id: id(24),
        createdAt: at(10),
        html: mastodonHtml('Also mine'),
        account: ana,
        media: [{ type: 'gifv', name: 'loop' }],
      }),
    );
  }

  it('looks the account up once, skips boosts and replies by default', async () => {
    fx = await startMastodon();
    h = await startHarness([
      { id: 503, name: 'Ana', connector: { kind: 'mastodon', instance: fx.origin, account: '@ana' } },
    ]);
    seedAccount();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 2 });
    const stored = await storedPosts(h, 503);
    expect(stored.map((p) => p.external_id)).toEqual([id(21), id(24)]);
    expect(stored[1]).toMatchObject({ post_type: 3, media: 'video' });
    expect(fx.requests.filter((r) => r.url.startsWith('/api/v1/accounts/lookup?acct=ana'))).toHaveLength(1);
    expect(fx.timelineRequests()[0]!.url).toContain('exclude_reblogs=true');
    h.clock.now += 301_000;
    await h.poll();
    expect(fx.requests.filter((r) => r.url.startsWith('/api/v1/accounts/lookup'))).toHaveLength(1);
    const feed = await h.server.store.db
      .selectFrom('feeds')
      .select('source_type')
      .where('id', '=', 503)
      .executeTakeFirstOrThrow();
    expect(feed.source_type).toBe('account');
  });

  it('unwraps boosts into the original post when set to', async () => {
    fx = await startMastodon();
    h = await startHarness([
      { id: 503, name: 'Ana', connector: { kind: 'mastodon', instance: fx.origin, account: 'ana', reposts: 'unwrap' } },
    ]);
    seedAccount();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 3 });
    const stored = await storedPosts(h, 503);
    const boosted = stored.find((p) => p.external_id === id(20))!;
    expect(boosted).toMatchObject({
      author_name: 'Cy',
      link_url: `https://social.example/@cy/${id(20)}`,
      post_type: 2,
      // flagged for the `repost` moderation rule
      repost: 1,
      reply: 0,
    });
    expect(stored.filter((p) => p.repost === 1)).toEqual([boosted]);
  });

  it('reads with the feed’s Mastodon connection; a token of another instance or another network is never sent', async () => {
    fx = await startMastodon();
    seed();
    const feed = { kind: 'mastodon', instance: fx.origin, hashtag: 'wallery' };
    const token = 'masto-feed-token-7Hq2';
    h = (await connectedWall(504, feed, { network: 'mastodon', token, instance: fx.origin })).h;
    const [read] = await h.poll();
    expect(read).toMatchObject({ status: 'ok' });
    expect(fx.requests.length).toBeGreaterThan(0);
    expect(fx.requests.every((r) => r.headers.authorization === `Bearer ${token}`)).toBe(true);

    // the same feed given another connection
    const refused = (network: string, instance: string) =>
      pollRefusingConnection(h, fx, 504, feed, { network, instance });
    expect(await refused('mastodon', 'https://other.example')).toBe(
      `the feed's Mastodon connection belongs to other.example, not 127.0.0.1:${fx.port}: its token is only sent to its own instance`,
    );
    expect(await refused('pixelfed', fx.origin)).toBe(
      "the feed's connection is a pixelfed connection; a Mastodon feed needs a mastodon connection",
    );
  });

  it('an unknown account fails with the instance’s message', async () => {
    fx = await startMastodon();
    h = await startHarness([
      { id: 503, name: 'x', connector: { kind: 'mastodon', instance: fx.origin, account: 'nobody' } },
    ]);
    const [r] = await h.poll();
    expect(r).toMatchObject({ status: 'failed', message: `HTTP 404 from 127.0.0.1:${fx.port} (Record not found)` });
  });
});

describe('profanity', () => {
  it('on a wall with the profanity flag, profane posts arrive hidden; elsewhere they show', async () => {
    for (const profanity of [1, 0]) {
      if (profanity === 0) {
        await h.close();
        await fx.close();
      }
      await hashtagWall({}, { profanity });
      fx.statuses.push(
        status({
          id: id(1),
          createdAt: at(10),
          html: mastodonHtml('What a fucking great view', ['wallery']),
          tags: ['wallery'],
        }),
        status({
          id: id(2),
          createdAt: at(9),
          html: mastodonHtml('Scunthorpe trail assessment', ['wallery']),
          tags: ['wallery'],
        }),
      );
      await h.poll();
      const hidden = (await storedPosts(h, 501)).map((p) => p.hidden);
      expect(hidden).toEqual(profanity ? [1, 0] : [0, 0]);
    }
  });
});
