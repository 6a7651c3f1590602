// The Threads connector against a local Threads API (test/ingest/fixtures/meta.ts):
// keyword and topic-tag search, the connected account's posts and another
// public profile's, on the store of the project (SQLite, or PostgreSQL in the
// postgres project).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  THREADS_TOKEN,
  THREADS_USER,
  THREADS_USERNAME,
  graphError,
  startMeta,
  thread,
  type MetaFixture,
} from '../fixtures/meta.js';
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
import { PAGE_LIMIT } from '../../../src/ingest/meta/threads.js';

const min = (n: number) => NOW - n * 60_000;
const F = { keyword: 831, mine: 832, profile: 833, tag: 834, expired: 835, limited: 836 };
const token = (feed: number) => `${THREADS_TOKEN}-${feed}`;

let fx: MetaFixture;
let walls: MetaWalls;
let h: Harness;
beforeAll(async () => {
  fx = await startMeta();
  const feed = (id: number, connector: Record<string, unknown>) => ({
    id,
    connector: { kind: 'threads', apiBaseUrl: `${fx.origin}/v1.0`, ...connector },
    network: 'threads',
    token: token(id),
    accountId: THREADS_USER,
    accountName: THREADS_USERNAME,
  });
  walls = await metaWalls([
    feed(F.keyword, { keyword: 'tonewood' }),
    feed(F.mine, { username: `@${THREADS_USERNAME}` }),
    feed(F.profile, { username: 'ana.plays', reposts: 'unwrap' }),
    feed(F.tag, { keyword: '#luthier', order: 'top' }),
    feed(F.expired, { username: 'me' }),
    feed(F.limited, { username: 'me' }),
  ]);
  h = walls.h;
});
afterAll(async () => {
  await walls?.h.close();
  await fx?.close();
});
beforeEach(() => fx.reset());

describe('Threads keyword search', () => {
  it('pages to the end, maps carousels, videos and images, then reads only what is new and drops a deleted post', async () => {
    fx.threadsSearch = [
      thread({
        id: '18000000000000104',
        type: 'CAROUSEL_ALBUM',
        at: min(5),
        text: 'tonewood samples',
        username: 'rui.guitar',
      }),
      thread({ id: '18000000000000103', type: 'VIDEO', at: min(6), text: 'tonewood tap test' }),
      thread({ id: '18000000000000102', type: 'IMAGE', at: min(7), text: 'Spruce tonewood' }),
      thread({
        id: '18000000000000101',
        type: 'TEXT_POST',
        at: min(8),
        text: 'Which tonewood for a <b>travel</b> guitar?',
        link: 'https://forum.example/travel',
      }),
      ...Array.from({ length: PAGE_LIMIT }, (_, i) =>
        thread({
          id: `180000000000010${String(50 - i).padStart(2, '0')}`,
          type: 'TEXT_POST',
          at: min(30 + i),
          text: `tonewood note ${i}`,
        }),
      ),
    ];
    const first = await pollFeed(h, F.keyword);
    expect(first.status, first.message ?? '').toBe('ok');
    expect(first.inserted).toBe(PAGE_LIMIT + 4);
    const pages = fx.paths.filter((p) => p.startsWith('/keyword_search'));
    expect(pages).toHaveLength(2);
    expect(pages[0]).toMatch(/^\/keyword_search\?q=tonewood&search_type=RECENT&fields=/);
    expect(pages[1]).toMatch(/&after=/);

    const stored = await storedPosts(h, F.keyword);
    const byId = (id: string) => stored.find((p) => p.external_id === id)!;
    const carousel = byId('18000000000000104');
    expect(carousel.network_name).toBe('Threads');
    expect(carousel.post_type).toBe(4);
    expect(JSON.parse(carousel.children)).toEqual([
      { image: expect.stringMatching(/t180000000000001041\.jpg/), video: '', alt: 'photo 180000000000001041' },
      {
        image: expect.stringMatching(/t180000000000001042-thumb\.jpg/),
        video: expect.stringMatching(/t180000000000001042\.mp4/),
      },
      { image: expect.stringMatching(/t180000000000001043\.jpg/), video: '', alt: 'photo 180000000000001043' },
    ]);
    expect(carousel.author_name).toBe('rui.guitar');
    expect(carousel.username).toBe('rui.guitar');
    expect(carousel.link_url).toMatch(/^https:\/\/www\.threads\.net\/@rui\.guitar\/post\//);
    const video = byId('18000000000000103');
    expect(video.media).toBe('video');
    expect(video.picture).toMatch(/-thumb\.jpg/);
    expect(byId('18000000000000102').media).toBe('image');
    const text = byId('18000000000000101');
    expect(text.media).toBe('text');
    expect(text.content).toContain('&lt;b&gt;travel&lt;/b&gt;');
    expect(text.content).toContain('href="https://forum.example/travel"');

    fx.threadsSearch.unshift(thread({ id: '18000000000000105', type: 'TEXT_POST', at: min(1), text: 'new tonewood' }));
    fx.threadsSearch.splice(3, 1); // 18000000000000102, deleted by its author
    fx.paths.length = 0;
    const second = await pollFeed(h, F.keyword);
    expect(second.status, second.message ?? '').toBe('ok');
    expect(second.inserted).toBe(1);
    expect(fx.paths.filter((p) => p.startsWith('/keyword_search'))).toHaveLength(1);
    const ids = (await storedPosts(h, F.keyword)).map((p) => p.external_id);
    expect(ids).toHaveLength(PAGE_LIMIT + 4);
    expect(ids).not.toContain('18000000000000102');
    await expectTokenNowhere(h, THREADS_TOKEN);
  });

  it('a #tag searches the topic tag, TOP when asked', async () => {
    fx.threadsSearch = [
      thread({ id: '18000000000000201', type: 'IMAGE', at: min(60), text: 'Bracing #luthier' }),
      thread({ id: '18000000000000202', type: 'TEXT_POST', at: min(90), text: 'a luthier without the tag' }),
    ];
    const report = await pollFeed(h, F.tag);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(1);
    expect(fx.paths[0]).toMatch(/^\/keyword_search\?q=luthier&search_type=TOP&search_mode=TAG&/);
  });
});

describe('Threads profiles', () => {
  it('the connected account’s posts (/me/threads): reposts left out, a deleted post removed', async () => {
    fx.threadsMine = [
      thread({ id: '18000000000000303', type: 'REPOST_FACADE', at: min(3), reposted: '18000000000000900' }),
      thread({ id: '18000000000000302', type: 'IMAGE', at: min(10), text: 'New shop hours' }),
      thread({ id: '18000000000000301', type: 'TEXT_POST', at: min(20), text: 'Hello Threads' }),
    ];
    const first = await pollFeed(h, F.mine);
    expect(first.status, first.message ?? '').toBe('ok');
    expect(first.inserted).toBe(2);
    expect(fx.paths[0]).toMatch(/^\/me\/threads\?fields=/);
    fx.threadsMine.splice(2, 1);
    expect((await pollFeed(h, F.mine)).status).toBe('ok');
    expect((await storedPosts(h, F.mine)).map((p) => p.external_id)).toEqual(['18000000000000302']);
  });

  it('another public profile (/profile_posts): a repost unwrapped into the reposted post', async () => {
    fx.threadsSearch = [
      thread({
        id: '18000000000000900',
        type: 'VIDEO',
        at: min(300),
        text: 'Original tonewood video',
        username: 'lena.builds',
      }),
    ];
    fx.threadsProfiles.set('ana.plays', [
      thread({
        id: '18000000000000402',
        type: 'REPOST_FACADE',
        at: min(4),
        username: 'ana.plays',
        reposted: '18000000000000900',
      }),
      thread({ id: '18000000000000401', type: 'TEXT_POST', at: min(40), username: 'ana.plays', text: 'Practice log' }),
    ]);
    const report = await pollFeed(h, F.profile);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(fx.paths[0]).toMatch(/^\/profile_posts\?username=ana\.plays&fields=/);
    expect(fx.paths.filter((p) => p.startsWith('/18000000000000900?fields=id%2Cmedia_type%2C'))).toHaveLength(1);
    const stored = await storedPosts(h, F.profile);
    expect(stored.map((p) => p.external_id)).toEqual(['18000000000000401', '18000000000000900']);
    const reposted = stored.find((p) => p.external_id === '18000000000000900')!;
    expect(reposted.username).toBe('lena.builds');
    expect(reposted.media).toBe('video');
    // a second poll keeps the unwrapped post (it is not taken for deleted)
    expect((await pollFeed(h, F.profile)).status).toBe('ok');
    expect(await storedPosts(h, F.profile)).toHaveLength(2);
  });

  it('an expired token fails the feed at once and marks the connection expired', async () => {
    fx.threadsMine = [thread({ id: '18000000000000501', type: 'TEXT_POST', at: min(5), text: 'hi' })];
    fx.expired.add(token(F.expired));
    const report = await pollFeed(h, F.expired);
    expect(report.status).toBe('failed');
    expect(report.message).toBe('Threads says the access token has expired: reconnect the Threads connection');
    expect((await ingestState(h, F.expired)).failing).toBe(1);
    expect((await connectionRow(h, walls.connection.get(F.expired)!)).status).toBe('expired');
    // announced once, for the connection.failed webhook
    expect(walls.failures.filter((f) => f.feedId === F.expired)).toEqual([
      {
        connectionId: walls.connection.get(F.expired)!,
        accountId: ACCOUNT,
        feedId: F.expired,
        status: 'expired',
        detail: 'Threads says the access token has expired: reconnect the Threads connection',
      },
    ]);
    await expectTokenNowhere(h, THREADS_TOKEN);
  });

  // last: a 429 pauses the fixture's host for the other feeds
  it('a rate limit (429, error 4 with X-App-Usage at 100 %) waits an hour', async () => {
    fx.failNext = {
      path: /^\/me\/threads$/,
      reply: graphError(429, 4, 'Application request limit reached', undefined, {
        'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 20, total_time: 31 }),
      }),
    };
    const report = await pollFeed(h, F.limited);
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(/Threads rate limit reached \(code 4\)/);
    expect((await ingestState(h, F.limited)).next_poll_at).toBeGreaterThanOrEqual(NOW + 60 * 60_000);
    expect((await connectionRow(h, walls.connection.get(F.limited)!)).status).toBe('active');
  });
});
