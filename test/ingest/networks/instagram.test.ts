// The Instagram connector against a local Graph API (test/ingest/fixtures/meta.ts):
// hashtag recent/top media, the account's own media and its tags, on the
// store of the project (SQLite, or PostgreSQL in the postgres project).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IG_TOKEN, IG_USER, graphError, igMedia, startMeta, type MetaFixture } from '../fixtures/meta.js';
import { ACCOUNT, NOW, ingestState, storedPosts, type Harness } from '../harness.js';
import { connectionRow, expectTokenNowhere, metaWalls, pollFeed, type MetaWalls } from './meta-wall.js';
import { PAGE_LIMIT } from '../../../src/ingest/meta/instagram.js';

const min = (n: number) => NOW - n * 60_000;
const HASHTAG_ID = '17843857450040591';

const F = { recent: 811, top: 812, limit: 813, media: 814, tags: 815, expired: 816, usage: 817, limited: 818 };
const token = (feed: number) => `${IG_TOKEN}-${feed}`;

let fx: MetaFixture;
let walls: MetaWalls;
let h: Harness;
beforeAll(async () => {
  fx = await startMeta();
  const feed = (id: number, connector: Record<string, unknown>) => ({
    id,
    connector: { kind: 'instagram', apiBaseUrl: `${fx.origin}/v26.0`, ...connector },
    network: 'instagram',
    token: token(id),
    accountId: IG_USER,
    accountName: 'tonewood.music',
  });
  walls = await metaWalls([
    feed(F.recent, { follow: 'hashtag', hashtag: '#BlueBottle' }),
    feed(F.top, { follow: 'hashtag', hashtag: 'bluebottle', order: 'top' }),
    feed(F.limit, { follow: 'hashtag', hashtag: 'newtag' }),
    feed(F.media, { follow: 'media' }),
    feed(F.tags, { follow: 'tags' }),
    feed(F.expired, { follow: 'media' }),
    feed(F.usage, { follow: 'media' }),
    feed(F.limited, { follow: 'media' }),
  ]);
  h = walls.h;
});
afterAll(async () => {
  await walls?.h.close();
  await fx?.close();
});
beforeEach(() => fx.reset());
const connectionOf = (feed: number) => walls.connection.get(feed)!;

/** `count` hashtag media, newest first, one a minute from `from` minutes ago. */
function hashtagMedia(count: number, from: number, prefix = '1789') {
  return Array.from({ length: count }, (_, i) =>
    igMedia({
      id: `${prefix}${String(count - i).padStart(5, '0')}`,
      type: 'IMAGE',
      at: min(from + i),
      caption: `#bluebottle ${count - i}`,
    }),
  );
}

describe('Instagram hashtag (recent media)', () => {
  it('finds the hashtag id once, reads every page, maps carousels and videos, then reads only what is new', async () => {
    const media = hashtagMedia(PAGE_LIMIT + 8, 10);
    // a carousel (image + video) and a video: hashtag media give no thumbnail and no username
    media[0] = igMedia({
      id: '1789carousel',
      type: 'CAROUSEL_ALBUM',
      children: ['IMAGE', 'VIDEO'],
      at: min(9),
      caption: 'Two sides of a #bluebottle guitar',
    });
    const video = igMedia({ id: '1789video', type: 'VIDEO', reel: true, at: min(9.5), caption: 'Playing #bluebottle' });
    delete video.thumbnail_url;
    media.splice(1, 0, video);
    fx.hashtags.set('bluebottle', { id: HASHTAG_ID, recent: media, top: [] });

    const first = await pollFeed(h, F.recent);
    expect(first.status, first.message ?? '').toBe('ok');
    expect(first.inserted).toBe(media.length);
    expect(fx.paths.filter((p) => p.startsWith('/ig_hashtag_search'))).toEqual([
      `/ig_hashtag_search?user_id=${IG_USER}&q=bluebottle`,
    ]);
    // two pages, the second by its `after` cursor (never the `next` URL, which carries the token)
    const pages = fx.paths.filter((p) => p.startsWith(`/${HASHTAG_ID}/recent_media`));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toMatch(/&after=/);
    expect(fx.requests.every((r) => !r.url.includes('access_token'))).toBe(true);

    const stored = await storedPosts(h, F.recent);
    const carousel = stored.find((p) => p.external_id === '1789carousel')!;
    expect(carousel.network_name).toBe('Instagram');
    expect(carousel.post_type).toBe(4);
    const children = JSON.parse(carousel.children) as { image: string; video: string }[];
    expect(children).toHaveLength(2);
    expect(children[0]!.image).toMatch(/1789carousel1\.jpg/);
    expect(children[1]!.video).toMatch(/1789carousel2\.mp4/);
    // hashtag media name no author: shown as Instagram, linked to the post
    expect(carousel.author_name).toBe('Instagram');
    expect(carousel.username).toBe('');
    expect(carousel.link_url).toMatch(/^https:\/\/www\.instagram\.com\/p\//);
    expect(carousel.content).toContain('Two sides of a #bluebottle guitar');
    const reel = stored.find((p) => p.external_id === '1789video')!;
    expect(reel.media).toBe('video');
    expect(reel.media_file).toMatch(/1789video\.mp4/);
    expect(reel.picture).toBe('');

    // incremental: one new post; the poll stops at the first page, nothing is duplicated
    fx.hashtags
      .get('bluebottle')!
      .recent.unshift(igMedia({ id: '1789new', type: 'IMAGE', at: min(1), caption: 'Fresh #bluebottle' }));
    fx.paths.length = 0;
    const second = await pollFeed(h, F.recent);
    expect(second.status, second.message ?? '').toBe('ok');
    expect(second.inserted).toBe(1);
    expect(fx.paths.filter((p) => p.startsWith('/ig_hashtag_search'))).toEqual([]);
    expect(fx.paths.filter((p) => p.includes('/recent_media'))).toHaveLength(1);
    // `media` is the fixture's list, the new post included
    expect(await storedPosts(h, F.recent)).toHaveLength(media.length);
    await expectTokenNowhere(h, IG_TOKEN);
  });

  it('top media reads the first page of the most popular media', async () => {
    fx.hashtags.set('bluebottle', { id: HASHTAG_ID, recent: [], top: hashtagMedia(PAGE_LIMIT + 5, 600, '1777') });
    const report = await pollFeed(h, F.top);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(PAGE_LIMIT);
    expect(fx.paths.filter((p) => p.includes('/top_media'))).toHaveLength(1);
  });

  it('the 30-hashtags-in-7-days limit fails the feed with a clear message, the connection stays active', async () => {
    fx.failNext = {
      path: /^\/ig_hashtag_search$/,
      reply: graphError(400, 24, 'You have reached the maximum number of hashtags you can query in 7 days', 2207034),
    };
    const report = await pollFeed(h, F.limit);
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(/30 different hashtags in 7 days/);
    expect((await connectionRow(h, connectionOf(F.limit))).status).toBe('active');
    expect((await ingestState(h, F.limit)).next_poll_at).toBeGreaterThanOrEqual(NOW + 6 * 3_600_000);
  });
});

describe('Instagram account media and tags', () => {
  it('own media: pages to the end, video thumbnails, a deleted post removed after its re-check', async () => {
    const own = Array.from({ length: PAGE_LIMIT + 3 }, (_, i) =>
      igMedia({
        id: `1790${String(200 - i)}`,
        type: 'IMAGE',
        at: min(30 + i * 60),
        caption: `Post ${i}`,
        username: 'tonewood.music',
      }),
    );
    own.splice(
      2,
      0,
      igMedia({ id: '1790reel', type: 'VIDEO', reel: true, at: min(100), caption: 'Reel', username: 'tonewood.music' }),
    );
    fx.igMedia = own;
    const first = await pollFeed(h, F.media);
    expect(first.status, first.message ?? '').toBe('ok');
    expect(first.inserted).toBe(own.length);
    expect(fx.paths.filter((p) => p.startsWith(`/${IG_USER}/media`))).toHaveLength(2);
    const reel = (await storedPosts(h, F.media)).find((p) => p.external_id === '1790reel')!;
    expect(reel.media).toBe('video');
    expect(reel.picture).toMatch(/1790reel-thumb\.jpg/);
    expect(reel.author_name).toBe('tonewood.music');
    expect(reel.username).toBe('tonewood.music');
    expect(reel.link_url).toMatch(/^https:\/\/www\.instagram\.com\/reel\//);

    // the author deletes a post: gone from the listing, and its id answers error 100
    const gone = fx.igMedia.splice(1, 1)[0]!;
    const second = await pollFeed(h, F.media);
    expect(second.status, second.message ?? '').toBe('ok');
    expect(fx.paths).toContain(`/${gone.id as string}?fields=id`);
    const ids = (await storedPosts(h, F.media)).map((p) => p.external_id);
    expect(ids).not.toContain(gone.id);
    // `own` is the fixture's list, the deleted post already out of it
    expect(ids).toHaveLength(own.length);
  });

  it('tags: media the account is tagged in, with the tagging account named; an untagged one leaves', async () => {
    fx.igTags = [
      igMedia({
        id: '1791003',
        type: 'CAROUSEL_ALBUM',
        children: ['VIDEO', 'IMAGE'],
        at: min(5),
        caption: 'With @tonewood.music',
        username: 'ana.plays',
      }),
      igMedia({ id: '1791002', type: 'IMAGE', at: min(50), caption: 'New strings', username: 'rui.guitar' }),
      igMedia({ id: '1791001', type: 'IMAGE', at: min(500), caption: 'Workshop', username: 'lena.builds' }),
    ];
    expect((await pollFeed(h, F.tags)).inserted).toBe(3);
    const carousel = (await storedPosts(h, F.tags)).find((p) => p.external_id === '1791003')!;
    expect(carousel.username).toBe('ana.plays');
    const children = JSON.parse(carousel.children) as { image: string; video: string }[];
    expect(children[0]).toEqual({
      image: expect.stringMatching(/17910031-thumb\.jpg/),
      video: expect.stringMatching(/17910031\.mp4/),
    });
    fx.igTags.splice(1, 1);
    expect((await pollFeed(h, F.tags)).status).toBe('ok');
    expect((await storedPosts(h, F.tags)).map((p) => p.external_id)).toEqual(['1791001', '1791003']);
  });

  it('an expired token fails the feed at once and marks the connection expired', async () => {
    fx.igMedia = [igMedia({ id: '1792001', type: 'IMAGE', at: min(5), username: 'tonewood.music' })];
    expect((await pollFeed(h, F.expired)).status).toBe('ok');
    fx.expired.add(token(F.expired));
    const report = await pollFeed(h, F.expired);
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(/Instagram says the access token has expired: reconnect/);
    const state = await ingestState(h, F.expired);
    expect(state.failing).toBe(1);
    expect(state.last_error).toMatch(/expired/);
    const connection = await connectionRow(h, connectionOf(F.expired));
    expect(connection.status).toBe('expired');
    // announced once, for the connection.failed webhook
    expect(walls.failures.filter((f) => f.feedId === F.expired)).toEqual([
      {
        connectionId: walls.connection.get(F.expired)!,
        accountId: ACCOUNT,
        feedId: F.expired,
        status: 'expired',
        detail: 'Instagram says the access token has expired: reconnect the Instagram connection',
      },
    ]);
    expect(connection.status_detail).toMatch(/reconnect the Instagram connection/);
    // the next poll does not call Instagram with the refused token
    fx.paths.length = 0;
    const again = await pollFeed(h, F.expired);
    expect(again.status).toBe('failed');
    expect(again.message).toMatch(/reconnect it/);
    expect(fx.paths).toEqual([]);
    await expectTokenNowhere(h, IG_TOKEN);
  });

  it('high usage (X-App-Usage over 80 %) slows the next poll down', async () => {
    fx.igMedia = [igMedia({ id: '1794001', type: 'IMAGE', at: min(5), username: 'tonewood.music' })];
    fx.extraHeaders = { 'x-app-usage': JSON.stringify({ call_count: 90, total_cputime: 10, total_time: 15 }) };
    const report = await pollFeed(h, F.usage);
    expect(report.status, report.message ?? '').toBe('ok');
    // 90 % → 35 minutes at least
    expect((await ingestState(h, F.usage)).next_poll_at).toBeGreaterThanOrEqual(NOW + 35 * 60_000);
  });

  // last: a 429 pauses the fixture's host for the other feeds
  it('a rate limit (429, error 80002) waits as long as X-Business-Use-Case-Usage says', async () => {
    fx.igMedia = [igMedia({ id: '1793001', type: 'IMAGE', at: min(5), username: 'tonewood.music' })];
    fx.failNext = {
      path: new RegExp(`^/${IG_USER}/media$`),
      reply: graphError(
        429,
        80002,
        'There have been too many calls to this Instagram account. Wait a bit and try again.',
        undefined,
        {
          'x-business-use-case-usage': JSON.stringify({
            [IG_USER]: [
              {
                type: 'instagram',
                call_count: 100,
                total_cputime: 12,
                total_time: 20,
                estimated_time_to_regain_access: 47,
              },
            ],
          }),
        },
      ),
    };
    const report = await pollFeed(h, F.limited);
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(/Instagram rate limit reached \(code 80002\)/);
    expect((await ingestState(h, F.limited)).next_poll_at).toBeGreaterThanOrEqual(NOW + 47 * 60_000);
    expect((await connectionRow(h, connectionOf(F.limited))).status).toBe('active');
  });
});
