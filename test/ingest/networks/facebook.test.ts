// The Facebook Page posts connector against a local Graph API
// (test/ingest/fixtures/meta.ts), on the store of the project (SQLite, or
// PostgreSQL in the postgres project).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FB_TOKEN, PAGE_ID, fbPost, graphError, startMeta, type MetaFixture } from '../fixtures/meta.js';
import { ACCOUNT, NOW, type Harness } from '../harness.js';
import {
  connectionRow,
  expectTokenNowhere,
  ingestState,
  metaWalls,
  pollFeed,
  storedPosts,
  type MetaWalls,
} from './meta-wall.js';
import { PAGE_LIMIT } from '../../../src/ingest/meta/facebook.js';

const min = (n: number) => NOW - n * 60_000;
const F = { page: 821, byId: 822, expired: 823, permission: 824, limited: 825 };
const token = (feed: number) => `${FB_TOKEN}-${feed}`;

let fx: MetaFixture;
let walls: MetaWalls;
let h: Harness;
beforeAll(async () => {
  fx = await startMeta();
  const feed = (id: number, connector: Record<string, unknown>, accountId: string | undefined = PAGE_ID) => ({
    id,
    connector: { kind: 'facebook', apiBaseUrl: `${fx.origin}/v26.0`, ...connector },
    network: 'facebook',
    token: id === F.permission ? `${FB_TOKEN}-nopages-${id}` : token(id),
    accountId,
    accountName: 'Tonewood Music',
  });
  walls = await metaWalls([
    feed(F.page, {}),
    feed(F.byId, { pageId: PAGE_ID }, undefined),
    feed(F.expired, {}),
    feed(F.permission, {}),
    feed(F.limited, {}),
  ]);
  h = walls.h;
});
afterAll(async () => {
  await walls?.h.close();
  await fx?.close();
});
beforeEach(() => fx.reset());

/** `count` text posts, newest first, an hour apart from `from` minutes ago. */
const textPosts = (count: number, from: number, first = 1) =>
  Array.from({ length: count }, (_, i) =>
    fbPost({ n: first + count - 1 - i, at: min(from + i * 60), message: `Workshop diary ${first + count - 1 - i}` }),
  );

describe('Facebook Page posts', () => {
  it('reads every page, maps albums, videos and links, then only what is new, and removes a deleted post', async () => {
    const posts = [
      fbPost({ n: 903, at: min(10), message: 'Spring workshop photos #luthier', attachment: 'album' }),
      fbPost({ n: 902, at: min(20), message: 'Sanding the top', attachment: 'video' }),
      fbPost({ n: 901, at: min(30), message: 'Worth a read', attachment: 'link' }),
      fbPost({ n: 900, at: min(40), message: 'New arrivals', attachment: 'photo' }),
      ...textPosts(PAGE_LIMIT, 100),
    ];
    fx.fbPosts = posts;
    const first = await pollFeed(h, F.page);
    expect(first.status, first.message ?? '').toBe('ok');
    expect(first.inserted).toBe(PAGE_LIMIT + 4);
    const pages = fx.paths.filter((p) => p.startsWith(`/${PAGE_ID}/posts`));
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('fields=id%2Cmessage%2Ccreated_time');
    expect(pages[1]).toMatch(/&after=/);

    const stored = await storedPosts(h, F.page);
    const byN = (n: number) => stored.find((p) => p.external_id === `${PAGE_ID}_${1000 + n}`)!;
    const album = byN(903);
    expect(album.network_name).toBe('Facebook');
    expect(album.post_type).toBe(4);
    expect((JSON.parse(album.children) as { image: string }[]).map((c) => c.image)).toEqual([
      expect.stringMatching(/a903-1_n\.jpg/),
      expect.stringMatching(/a903-2_n\.jpg/),
      expect.stringMatching(/a903-3_n\.jpg/),
    ]);
    expect(album.author_name).toBe('Tonewood Music');
    expect(album.link_url).toBe(`https://www.facebook.com/${PAGE_ID}/posts/pfbid01903`);
    expect(album.tags).toBe('luthier');
    const video = byN(902);
    expect(video.media).toBe('video');
    expect(video.media_file).toMatch(/v902_n\.mp4/);
    expect(video.picture).toMatch(/v902_n\.jpg/);
    const link = byN(901);
    expect(link.content).toContain('href="https://blog.example/tonewoods"');
    expect(link.content).toContain('Luthier notes: tonewoods explained');
    expect(link.picture).toMatch(/link901\.jpg/);
    expect(byN(900).media).toBe('image');

    // incremental: one new post, the first page only, no duplicates; a deleted post is re-checked and removed
    fx.fbPosts.unshift(fbPost({ n: 904, at: min(2), message: 'Open today' }));
    const gone = fx.fbPosts.splice(2, 1)[0]!;
    fx.paths.length = 0;
    const second = await pollFeed(h, F.page);
    expect(second.status, second.message ?? '').toBe('ok');
    expect(second.inserted).toBe(1);
    expect(fx.paths.filter((p) => p.startsWith(`/${PAGE_ID}/posts`))).toHaveLength(1);
    expect(fx.paths).toContain(`/${gone.id as string}?fields=id`);
    const ids = (await storedPosts(h, F.page)).map((p) => p.external_id);
    expect(ids).toHaveLength(PAGE_LIMIT + 4);
    expect(ids).not.toContain(gone.id);
    expect(ids).toContain(`${PAGE_ID}_1904`);
    await expectTokenNowhere(h, FB_TOKEN);
  });

  it('reads the Page the feed names when the connection names none', async () => {
    fx.fbPosts = textPosts(3, 5);
    const report = await pollFeed(h, F.byId);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(3);
  });

  it('an expired token fails the feed at once and marks the connection expired', async () => {
    fx.fbPosts = textPosts(2, 5);
    expect((await pollFeed(h, F.expired)).status).toBe('ok');
    fx.expired.add(token(F.expired));
    const report = await pollFeed(h, F.expired);
    expect(report.status).toBe('failed');
    expect(report.message).toBe('Facebook says the access token has expired: reconnect the Facebook connection');
    expect((await ingestState(h, F.expired)).failing).toBe(1);
    expect((await connectionRow(h, walls.connection.get(F.expired)!)).status).toBe('expired');
    // announced once, for the connection.failed webhook
    expect(walls.failures.filter((f) => f.feedId === F.expired)).toEqual([
      {
        connectionId: walls.connection.get(F.expired)!,
        accountId: ACCOUNT,
        feedId: F.expired,
        status: 'expired',
        detail: 'Facebook says the access token has expired: reconnect the Facebook connection',
      },
    ]);
    await expectTokenNowhere(h, FB_TOKEN);
  });

  it('a token without the Page permission fails the feed and marks the connection failing', async () => {
    fx.fbPosts = textPosts(2, 5);
    const report = await pollFeed(h, F.permission);
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(
      /Facebook refused a permission this feed needs \(.*pages_read_engagement.*\) \(code 10\)/,
    );
    expect((await ingestState(h, F.permission)).failing).toBe(1);
    expect((await connectionRow(h, walls.connection.get(F.permission)!)).status).toBe('failing');
  });

  // last: a 429 pauses the fixture's host for the other feeds
  it('a rate limit (429, error 32) waits until the Page regains access', async () => {
    fx.fbPosts = textPosts(2, 5);
    fx.failNext = {
      path: new RegExp(`^/${PAGE_ID}/posts$`),
      reply: graphError(429, 32, 'Page request limit reached', undefined, {
        'x-business-use-case-usage': JSON.stringify({
          [PAGE_ID]: [
            { type: 'pages', call_count: 100, total_cputime: 40, total_time: 38, estimated_time_to_regain_access: 30 },
          ],
        }),
      }),
    };
    const report = await pollFeed(h, F.limited);
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(/Facebook rate limit reached \(code 32\)/);
    expect((await ingestState(h, F.limited)).next_poll_at).toBeGreaterThanOrEqual(NOW + 30 * 60_000);
  });
});
