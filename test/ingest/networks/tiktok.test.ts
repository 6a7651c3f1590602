// The TikTok Display API connector against a local Display API, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIKTOK_TOKEN, coverUrl, startTiktok, type TiktokFixture, type TkVideo } from '../fixtures/tiktok.js';
import { ACCOUNT, NOW, ingestState, startHarness, storedPosts, type Harness } from '../harness.js';
import { addConnection } from '../../helpers/connections.js';

const FEED = 851;
const SCOPED = 852;

let fx: TiktokFixture;
let h: Harness;
let connection: number;
let scopedConnection: number;

const seconds = Math.floor(NOW / 1000);
const video = (n: number, minutesBefore: number, over: Partial<TkVideo> = {}): TkVideo => ({
  id: String(7_300_000_000_000_000_000n + BigInt(n)),
  createTime: seconds - minutesBefore * 60,
  title: '',
  description: `Summit push number ${n} #trailrunning #tiktok https://trailcrew.example/${n}`,
  likes: n * 10,
  ...over,
});
const idOf = (n: number) => video(n, 0).id;
const timeOf = (n: number) => fx.videos.find((v) => v.id === idOf(n))!.createTime;

async function pollOne(feedId: number) {
  const [report] = await h.poll(feedId);
  return report!;
}

async function connectionRow(id: number) {
  return h.server.store.db
    .selectFrom('connections')
    .select(['status', 'status_detail'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function expectNoToken(feedId: number, extra: unknown[] = []) {
  const text = JSON.stringify([await storedPosts(h, feedId), await ingestState(h, feedId), extra]);
  expect(text).not.toContain(TIKTOK_TOKEN);
}

beforeAll(async () => {
  fx = await startTiktok();
  h = await startHarness([
    { id: FEED, name: 'Our TikTok', connector: null },
    { id: SCOPED, name: 'TikTok without video.list', connector: null },
  ]);
  connection = await addConnection(h.server.store.db, {
    accountId: ACCOUNT,
    network: 'tiktok',
    authKind: 'oauth',
    secret: { accessToken: TIKTOK_TOKEN, refreshToken: 'rft.fixture-refresh' },
    externalAccountId: '723f24d7-e717-40f8-a2b6-cb8464cd23b4',
    externalAccountName: 'trailcrew',
    now: NOW,
  });
  scopedConnection = await addConnection(h.server.store.db, {
    accountId: ACCOUNT,
    network: 'tiktok',
    authKind: 'oauth',
    secret: { accessToken: TIKTOK_TOKEN },
    now: NOW,
  });
  for (const [feedId, connectionId] of [
    [FEED, connection],
    [SCOPED, scopedConnection],
  ] as const) {
    await h.server.store.db
      .updateTable('feeds')
      .set({ connector: JSON.stringify({ kind: 'tiktok', connectionId, apiBaseUrl: fx.origin }) })
      .where('id', '=', feedId)
      .execute();
  }
});

afterAll(async () => {
  await h?.close();
  await fx?.close();
});

describe('the connected account’s videos', () => {
  it('reads the newest page first as video posts by the account', async () => {
    for (let n = 1; n <= 30; n++) fx.videos.push(video(n, 1000 - n * 10));
    fx.videos.find((v) => v.id === idOf(30))!.title = 'Sunrise on the ridge';
    const report = await pollOne(FEED);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(20);
    const posts = await storedPosts(h, FEED);
    expect(posts.map((p) => p.external_id)).toEqual(Array.from({ length: 20 }, (_, i) => idOf(11 + i)).sort());
    const newest = posts.find((p) => p.external_id === idOf(30))!;
    expect(newest).toMatchObject({
      network_name: 'TikTok',
      author_name: 'Trail Crew',
      username: 'trailcrew',
      link_url: `https://www.tiktok.com/@trailcrew/video/${idOf(30)}?utm_campaign=tt4d_open_api&utm_source=awbx37vxswqcvsf6`,
      created_at: (seconds - 700 * 60) * 1000,
      score: 300,
      tags: 'trailrunning,tiktok',
    });
    expect(newest.user_picture).toContain('avatar.jpeg');
    expect(newest.content).toContain('<strong>Sunrise on the ridge</strong>');
    expect(newest.content).toContain('href="https://trailcrew.example/30"');
    const row = JSON.stringify(newest);
    expect(row).toContain(`https://www.tiktok.com/player/v1/${idOf(30)}`);
    expect(row).toContain(coverUrl(idOf(30), 1));

    const list = fx.calls('/v2/video/list/');
    expect(list).toHaveLength(1);
    expect(list[0]!.method).toBe('POST');
    expect(JSON.parse(list[0]!.body)).toEqual({ max_count: 20 });
    const fields = new URL(list[0]!.url, fx.origin).searchParams.get('fields')!.split(',');
    expect(fields).toEqual(expect.arrayContaining(['id', 'create_time', 'cover_image_url', 'embed_link', 'share_url']));
    for (const r of fx.requests) expect(r.headers.authorization).toBe(`Bearer ${TIKTOK_TOKEN}`);
  });

  it('reads only what is new next time, without duplicates', async () => {
    fx.videos.push(video(31, 5), video(32, 1));
    const before = fx.calls('/v2/video/list/').length;
    const report = await pollOne(FEED);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(2);
    expect(fx.calls('/v2/video/list/').length - before).toBe(1);
    const ids = (await storedPosts(h, FEED)).map((p) => p.external_id);
    expect(ids).toHaveLength(22);
    expect(new Set(ids).size).toBe(22);
  });

  it('pages by the cursor to the end of what is new', async () => {
    for (let n = 33; n <= 77; n++) fx.videos.push(video(n, -(n - 32)));
    const before = fx.calls('/v2/video/list/').length;
    const report = await pollOne(FEED);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(45);
    const bodies = fx
      .calls('/v2/video/list/')
      .slice(before)
      .map((r) => JSON.parse(r.body) as { cursor?: number });
    // 45 new: three pages of 20, each from the cursor the one before gave
    expect(bodies).toHaveLength(3);
    expect(bodies[0]!.cursor).toBeUndefined();
    expect(bodies[1]!.cursor).toBe(timeOf(58) * 1000);
    expect(bodies[2]!.cursor).toBe(timeOf(38) * 1000);
    expect(await storedPosts(h, FEED)).toHaveLength(67);
  });

  it('removes a deleted video and refreshes expiring covers through video/query', async () => {
    fx.state.coverVersion = 2;
    const gone = fx.videos.find((v) => v.id === idOf(60))!;
    gone.removed = true;
    const before = fx.calls('/v2/video/query/').length;
    const report = await pollOne(FEED);
    expect(report.status, report.message ?? '').toBe('ok');
    const posts = await storedPosts(h, FEED);
    expect(posts.map((p) => p.external_id)).not.toContain(gone.id);
    expect(posts).toHaveLength(66);
    // the 40 newest stored videos: 20 listed again, 20 asked for (one of them gone)
    const queries = fx.calls('/v2/video/query/').slice(before);
    expect(queries).toHaveLength(1);
    const asked = (JSON.parse(queries[0]!.body) as { filters: { video_ids: string[] } }).filters.video_ids;
    expect(asked).toHaveLength(20);
    expect(asked).toContain(gone.id);
    // an older video asked for again carries its re-signed cover
    const older = posts.find((p) => p.external_id === idOf(50))!;
    expect(JSON.stringify(older)).toContain('x-signature=sig2');
    await expectNoToken(FEED, [report]);
  });

  it('waits as long as a 429 rate_limit_exceeded says', async () => {
    fx.state.rateLimited = { 'retry-after': '1800' };
    try {
      const report = await pollOne(FEED);
      expect(report.status).toBe('failed');
      expect(report.message).toContain('rate_limit_exceeded');
      const state = await ingestState(h, FEED);
      expect(state.next_poll_at).toBeGreaterThanOrEqual(NOW + 1800 * 1000);
      expect((await connectionRow(connection)).status).toBe('active');
    } finally {
      fx.state.rateLimited = null;
      // the host stays paused until then
      h.clock.now = NOW + 1801 * 1000;
    }
  });

  it('fails the feed at once and marks the connection expired when the token is refused', async () => {
    fx.state.token = 'act.a-new-token-the-feed-does-not-have';
    try {
      const report = await pollOne(FEED);
      expect(report.status).toBe('failed');
      expect(report.message).toContain('access_token_invalid');
      expect(report.message).toContain('reconnect');
      const state = await ingestState(h, FEED);
      expect(state.failing).toBe(1);
      const conn = await connectionRow(connection);
      expect(conn.status).toBe('expired');
      expect(conn.status_detail).toContain('access_token_invalid');
      await expectNoToken(FEED, [report, conn]);
      // the next poll does not call TikTok with a connection that needs a reconnect
      const before = fx.requests.length;
      const again = await pollOne(FEED);
      expect(again.status).toBe('failed');
      expect(again.message).toContain('reconnect it');
      expect(fx.requests.length).toBe(before);
    } finally {
      fx.state.token = TIKTOK_TOKEN;
    }
  });

  it('marks a connection that lacks a scope as failing', async () => {
    fx.state.scopes = ['user.info.basic'];
    try {
      const report = await pollOne(SCOPED);
      expect(report.status).toBe('failed');
      expect(report.message).toContain('scope_not_authorized');
      expect(report.message).toContain('video.list');
      expect((await ingestState(h, SCOPED)).failing).toBe(1);
      expect((await connectionRow(scopedConnection)).status).toBe('failing');
    } finally {
      fx.state.scopes = ['user.info.basic', 'video.list'];
    }
  });
});
