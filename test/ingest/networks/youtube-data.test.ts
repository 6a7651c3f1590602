// The YouTube Data API connector (`youtube_data`) against a local Data API:
// a channel's uploads, a search and a live chat, on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN,
  API_KEY,
  CHANNEL_ID,
  HANDLE,
  LIVE_CHAT_ID,
  LIVE_VIDEO,
  startYoutube,
  type YoutubeFixture,
  type YtVideo,
} from '../fixtures/youtube-data.js';
import { ACCOUNT, NOW, ingestState, startHarness, storedPosts, type Harness } from '../harness.js';
import { addConnection } from '../../helpers/connections.js';
import { nextMidnightIn } from '../../../src/ingest/youtube-data.js';
import { connectorProblem } from '../../../src/schemas/connectors.js';

const UPLOADS = 801;
const SEARCH = 802;
const CHAT = 803;
const MIN = 60_000;

let fx: YoutubeFixture;
let h: Harness;
let keyConnection: number;
let tokenConnection: number;

const video = (n: number, minutesBefore: number, over: Partial<YtVideo> = {}): YtVideo => ({
  id: `vid${String(n).padStart(8, '0')}`,
  title: `Ridge run ${n}`,
  description: `Morning loop number ${n} #trailrunning https://trailcrew.example/${n}`,
  publishedAt: NOW - minutesBefore * MIN,
  ...over,
});

async function setConnector(feedId: number, connector: unknown) {
  await h.server.store.db
    .updateTable('feeds')
    .set({ connector: JSON.stringify(connector) })
    .where('id', '=', feedId)
    .execute();
}

async function pollOne(feedId: number) {
  const [report] = await h.poll(feedId);
  return report!;
}

async function connectionStatus(id: number) {
  const row = await h.server.store.db
    .selectFrom('connections')
    .select(['status', 'status_detail'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row;
}

/** Nothing the poll stored or reported carries the key or the token. */
async function expectNoSecrets(feedId: number, extra: unknown[] = []) {
  const posts = await storedPosts(h, feedId);
  const state = await ingestState(h, feedId);
  const text = JSON.stringify([posts, state, extra]);
  expect(text).not.toContain(API_KEY);
  expect(text).not.toContain(ACCESS_TOKEN);
}

beforeAll(async () => {
  fx = await startYoutube();
  // the quota resets at midnight Pacific, further off than the default 6 h cap
  h = await startHarness(
    [
      { id: UPLOADS, name: 'Trail Crew uploads', connector: null },
      { id: SEARCH, name: '#trailrunning on YouTube', connector: null },
      { id: CHAT, name: 'Race live chat', connector: null },
    ],
    { config: { maxIntervalS: 86_400 } },
  );
  const db = h.server.store.db;
  keyConnection = await addConnection(db, {
    accountId: ACCOUNT,
    network: 'youtube',
    authKind: 'api_key',
    secret: { apiKey: API_KEY },
    now: NOW,
  });
  tokenConnection = await addConnection(db, {
    accountId: ACCOUNT,
    network: 'youtube',
    authKind: 'oauth',
    secret: { accessToken: ACCESS_TOKEN, refreshToken: '1//refresh-fixture' },
    now: NOW,
  });
  await setConnector(UPLOADS, {
    kind: 'youtube_data',
    connectionId: keyConnection,
    mode: 'uploads',
    channel: HANDLE,
    apiBaseUrl: `${fx.origin}/youtube/v3`,
  });
  await setConnector(SEARCH, {
    kind: 'youtube_data',
    connectionId: tokenConnection,
    mode: 'search',
    query: '#trailrunning',
    apiBaseUrl: `${fx.origin}/youtube/v3`,
  });
  await setConnector(CHAT, {
    kind: 'youtube_data',
    connectionId: keyConnection,
    mode: 'live_chat',
    videoId: LIVE_VIDEO,
    apiBaseUrl: `${fx.origin}/youtube/v3`,
  });
});

afterAll(async () => {
  await h?.close();
  await fx?.close();
});

describe('a channel’s uploads', () => {
  it('reads the newest page first, as video posts by the channel, sending the key in its header', async () => {
    for (let n = 1; n <= 60; n++) fx.videos.push(video(n, 10_000 - n * 100));
    fx.videos.find((v) => v.id === video(60, 0).id)!.ageRestricted = true;
    fx.videos.find((v) => v.id === video(59, 0).id)!.privacy = 'unlisted';
    const report = await pollOne(UPLOADS);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(49); // the newest 50, the unlisted one withheld

    const posts = await storedPosts(h, UPLOADS);
    expect(posts).toHaveLength(49);
    const newest = posts.find((p) => p.external_id === video(58, 0).id)!;
    expect(newest).toMatchObject({
      network_name: 'YouTube',
      author_name: 'Trail Crew',
      username: HANDLE,
      user_picture: 'https://yt3.ggpht.example/trailcrew=s240',
      link_url: `https://www.youtube.com/watch?v=${video(58, 0).id}`,
      created_at: NOW - (10_000 - 5800) * MIN,
      hidden: 0,
    });
    expect(newest.content).toContain('<strong>Ridge run 58</strong>');
    expect(newest.content).toContain('href="https://trailcrew.example/58"');
    expect(newest.tags).toBe('trailrunning');
    expect(JSON.stringify(newest)).toContain(`https://www.youtube.com/embed/${video(58, 0).id}`);
    expect(JSON.stringify(newest)).toContain(`https://i.ytimg.com/vi/${video(58, 0).id}/maxresdefault.jpg`);
    // age-restricted: stored, hidden
    expect(posts.find((p) => p.external_id === video(60, 0).id)!.hidden).toBe(1);
    expect(posts.some((p) => p.external_id === video(59, 0).id)).toBe(false);

    expect(fx.calls('channels')).toHaveLength(1);
    expect(new URL(fx.calls('channels')[0]!.url, fx.origin).searchParams.get('forHandle')).toBe(HANDLE);
    expect(fx.calls('playlistItems')).toHaveLength(1);
    for (const r of fx.requests) {
      expect(r.headers['x-goog-api-key']).toBe(API_KEY);
      expect(r.url).not.toContain(API_KEY);
    }
    const state = await ingestState(h, UPLOADS);
    expect(JSON.parse(state.cursor_json!).channel).toMatchObject({
      id: CHANNEL_ID,
      uploads: 'UU_x5XG1OV2P6uZZ5FSM9Ttw',
    });
  });

  it('reads only what is new next time, without duplicates, and the channel from its cursor', async () => {
    for (let n = 61; n <= 63; n++) fx.videos.push(video(n, 63 - n + 1));
    const before = fx.requests.length;
    const report = await pollOne(UPLOADS);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(3);
    expect(await storedPosts(h, UPLOADS)).toHaveLength(52);
    const calls = fx.requests.slice(before).map((r) => new URL(r.url, fx.origin).pathname);
    expect(calls).toEqual(['/youtube/v3/playlistItems', '/youtube/v3/videos']);
  });

  it('pages to the end of what is new', async () => {
    for (let n = 64; n <= 183; n++) fx.videos.push(video(n, -(n - 63)));
    const before = fx.calls('playlistItems').length;
    const report = await pollOne(UPLOADS);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(120);
    // 120 new: three pages of 50, the third reaching what was read before
    expect(fx.calls('playlistItems').length - before).toBe(3);
    const tokens = fx
      .calls('playlistItems')
      .slice(before)
      .map((r) => new URL(r.url, fx.origin).searchParams.get('pageToken'));
    expect(tokens).toEqual([null, 'p50', 'p100']);
    const ids = (await storedPosts(h, UPLOADS)).map((p) => p.external_id);
    expect(ids).toHaveLength(172);
    expect(new Set(ids).size).toBe(172);
  });

  it('removes deleted, private and vanished videos on the next poll', async () => {
    const deleted = fx.videos.find((v) => v.id === video(183, 0).id)!;
    const made = fx.videos.find((v) => v.id === video(182, 0).id)!;
    const vanished = fx.videos.find((v) => v.id === video(181, 0).id)!;
    deleted.gone = 'deleted';
    made.gone = 'private';
    vanished.removed = true;
    const stored = (await storedPosts(h, UPLOADS)).map((p) => p.external_id);
    expect(stored).toEqual(expect.arrayContaining([deleted.id, made.id, vanished.id]));
    const report = await pollOne(UPLOADS);
    expect(report.status, report.message ?? '').toBe('ok');
    const after = (await storedPosts(h, UPLOADS)).map((p) => p.external_id);
    expect(after).toHaveLength(169);
    expect(after).not.toContain(deleted.id);
    expect(after).not.toContain(made.id);
    expect(after).not.toContain(vanished.id);
    await expectNoSecrets(UPLOADS, [report]);
  });

  it('waits for the daily quota to reset at midnight Pacific time when it is used up', async () => {
    fx.state.quotaExceeded = true;
    try {
      const report = await pollOne(UPLOADS);
      expect(report.status).toBe('failed');
      expect(report.message).toContain('quotaExceeded');
      expect(report.message).toContain('midnight Pacific');
      // 12:00 UTC on 15 Jan is 04:00 PST: the quota resets at 08:00 UTC on the 16th
      const reset = Date.UTC(2026, 0, 16, 8, 0, 0);
      expect(nextMidnightIn('America/Los_Angeles', NOW)).toBe(reset);
      const state = await ingestState(h, UPLOADS);
      expect(state.next_poll_at).toBe(reset);
      expect(state.last_error).toContain('quota');
      // a quota problem is no credential problem
      expect((await connectionStatus(keyConnection)).status).toBe('active');
      await expectNoSecrets(UPLOADS, [report]);
    } finally {
      fx.state.quotaExceeded = false;
    }
  });
});

describe('a search', () => {
  it('reads one page first, spaced by its interval, with channel pictures, sending the token as Bearer', async () => {
    fx.videos.push(
      video(901, -200, { channelId: 'UCsearchChannel000000001', upload: false, title: 'Ridge Runner vlog' }),
      video(902, -190, { channelId: 'UCsearchChannel000000001', upload: false, description: 'no tag here' }),
    );
    const before = fx.requests.length;
    const report = await pollOne(SEARCH);
    expect(report.status, report.message ?? '').toBe('ok');
    const searches = fx.calls('search');
    expect(searches).toHaveLength(1);
    const q = new URL(searches[0]!.url, fx.origin).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({ type: 'video', order: 'date', q: '#trailrunning', maxResults: '50' });
    expect(q.has('publishedAfter')).toBe(false);
    for (const r of fx.requests.slice(before)) expect(r.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    const posts = await storedPosts(h, SEARCH);
    expect(posts).toHaveLength(50);
    const vlog = posts.find((p) => p.external_id === video(901, 0).id)!;
    expect(vlog).toMatchObject({
      author_name: 'Ridge Runner',
      username: '@ridgerunner',
      user_picture: 'https://yt3.ggpht.example/ridgerunner=s240',
    });
    expect(posts.some((p) => p.external_id === video(902, 0).id)).toBe(false);
    // each search costs 100 units: the next one waits 30 minutes at least
    expect((await ingestState(h, SEARCH)).next_poll_at).toBeGreaterThanOrEqual(NOW + 30 * MIN);
  });

  it('searches from just before the newest video seen, and drops the stored videos that are gone', async () => {
    fx.videos.push(video(903, -210, { channelId: 'UCsearchChannel000000001', upload: false }));
    const gone = fx.videos.find((v) => v.id === video(150, 0).id)!;
    gone.removed = true;
    expect((await storedPosts(h, SEARCH)).map((p) => p.external_id)).toContain(gone.id);
    const before = fx.calls('search').length;
    h.clock.now = NOW + 31 * MIN;
    try {
      const report = await pollOne(SEARCH);
      expect(report.status, report.message ?? '').toBe('ok');
      const q = new URL(fx.calls('search')[before]!.url, fx.origin).searchParams;
      // the newest seen was video 901 (published 200 minutes after NOW); an hour before it
      expect(q.get('publishedAfter')).toBe(new Date(NOW + 200 * MIN - 60 * MIN).toISOString());
      const ids = (await storedPosts(h, SEARCH)).map((p) => p.external_id);
      expect(ids).toContain(video(903, 0).id);
      expect(ids).not.toContain(gone.id);
      expect(new Set(ids).size).toBe(ids.length);
      await expectNoSecrets(SEARCH, [report]);
    } finally {
      h.clock.now = NOW;
    }
  });

  it('fails the feed at once and marks the connection expired when Google refuses the token', async () => {
    fx.state.token = 'ya29.another-token';
    try {
      const report = await pollOne(SEARCH);
      expect(report.status).toBe('failed');
      expect(report.message).toContain('reconnect');
      const state = await ingestState(h, SEARCH);
      expect(state.failing).toBe(1);
      expect(state.consecutive_failures).toBe(1);
      const conn = await connectionStatus(tokenConnection);
      expect(conn.status).toBe('expired');
      expect(conn.status_detail).toContain('authError');
      await expectNoSecrets(SEARCH, [report, conn]);
    } finally {
      fx.state.token = ACCESS_TOKEN;
    }
  });
});

describe('a live chat', () => {
  it('reads the chat’s text messages as posts, waiting the polling interval it asks for', async () => {
    fx.state.pollingIntervalMillis = 15 * MIN;
    fx.chat.push(
      { id: 'msg1', type: 'textMessageEvent', text: 'Go go go! #race', author: 'anna', publishedAt: NOW - 3 * MIN },
      { id: 'msg2', type: 'superChatEvent', text: 'Tip for the crew', author: 'ben', publishedAt: NOW - 2 * MIN },
      { id: 'msg3', type: 'textMessageEvent', text: 'Spam <script>x</script>', author: 'carl', publishedAt: NOW - MIN },
    );
    const report = await pollOne(CHAT);
    expect(report.status, report.message ?? '').toBe('ok');
    const posts = await storedPosts(h, CHAT);
    expect(posts.map((p) => p.external_id)).toEqual(['msg1', 'msg3']);
    expect(posts[0]).toMatchObject({
      network_name: 'YouTube',
      author_name: 'anna',
      username: '@anna',
      user_picture: 'https://yt3.ggpht.example/anna=s88',
      link_url: `https://www.youtube.com/watch?v=${LIVE_VIDEO}`,
      tags: 'race',
    });
    expect(posts[0]!.content).toContain('Go go go! #race');
    expect(posts[1]!.content).not.toContain('<script');
    const chatCalls = fx.calls('liveChat/messages');
    expect(chatCalls).toHaveLength(1);
    expect(new URL(chatCalls[0]!.url, fx.origin).searchParams.get('liveChatId')).toBe(LIVE_CHAT_ID);
    const state = await ingestState(h, CHAT);
    expect(state.next_poll_at).toBeGreaterThanOrEqual(NOW + 15 * MIN);
    expect(JSON.parse(state.cursor_json!)).toEqual({ liveChatId: LIVE_CHAT_ID, pageToken: 'p3' });
  });

  it('goes on from the page token, removes a message the chat deleted, and warns when the chat went offline', async () => {
    fx.state.broadcast = 'offline';
    fx.chat.push(
      { id: 'msg4', type: 'textMessageEvent', text: 'What a finish', author: 'dora', publishedAt: NOW },
      { id: 'del1', type: 'messageDeletedEvent', deletedId: 'msg3', author: 'mod', publishedAt: NOW },
    );
    const report = await pollOne(CHAT);
    expect(report.status, report.message ?? '').toBe('ok');
    expect(report.inserted).toBe(1);
    expect(report.warnings.join(' ')).toContain('went offline');
    expect((await storedPosts(h, CHAT)).map((p) => p.external_id)).toEqual(['msg1', 'msg4']);
    const last = fx.calls('liveChat/messages').at(-1)!;
    expect(new URL(last.url, fx.origin).searchParams.get('pageToken')).toBe('p3');
    // the live video was looked up once: its chat id is in the cursor
    expect(fx.calls('videos').filter((r) => r.url.includes(LIVE_VIDEO))).toHaveLength(1);
  });

  it('fails with a clear message once the chat has ended', async () => {
    fx.state.broadcast = 'ended';
    const report = await pollOne(CHAT);
    expect(report.status).toBe('failed');
    expect(report.message).toContain('has ended (liveChatEnded');
    expect(report.message).toContain('disable this feed');
    expect((await connectionStatus(keyConnection)).status).toBe('active');
    await expectNoSecrets(CHAT, [report]);
  });
});

describe('an API key Google says is not valid', () => {
  it('fails the feed at once and marks the connection failing', async () => {
    fx.state.apiKey = 'AIzaSy-rotated';
    try {
      const report = await pollOne(UPLOADS);
      expect(report.status).toBe('failed');
      expect(report.message).toContain('API_KEY_INVALID');
      expect((await ingestState(h, UPLOADS)).failing).toBe(1);
      expect((await connectionStatus(keyConnection)).status).toBe('failing');
      await expectNoSecrets(UPLOADS, [report]);
    } finally {
      fx.state.apiKey = API_KEY;
    }
  });
});

describe('settings and the quota day', () => {
  it('asks for exactly the field each feed type needs', () => {
    const base = { kind: 'youtube_data', connectionId: 1 };
    expect(connectorProblem({ ...base, mode: 'uploads', channel: CHANNEL_ID })).toBeNull();
    expect(connectorProblem({ ...base, mode: 'uploads', channel: '@trail.crew' })).toBeNull();
    expect(connectorProblem({ ...base, mode: 'search', query: '#trailrunning', searchEveryMinutes: 60 })).toBeNull();
    expect(connectorProblem({ ...base, mode: 'live_chat', videoId: LIVE_VIDEO })).toBeNull();
    expect(connectorProblem({ ...base, mode: 'uploads' })).toBe('channel is required for mode uploads');
    expect(connectorProblem({ ...base, mode: 'search', query: 'x', videoId: LIVE_VIDEO })).toBe(
      'videoId is only for mode live_chat',
    );
    expect(connectorProblem({ ...base, mode: 'uploads', channel: HANDLE, searchEveryMinutes: 60 })).toBe(
      'searchEveryMinutes is only for mode search',
    );
    expect(connectorProblem({ ...base, mode: 'search', query: 'x', searchEveryMinutes: 5 })).toMatch(
      /searchEveryMinutes/,
    );
    expect(connectorProblem({ kind: 'youtube_data', mode: 'search', query: 'x' })).toMatch(/connectionId/);
    expect(connectorProblem({ kind: 'tiktok', connectionId: 2 })).toBeNull();
    expect(connectorProblem({ kind: 'tiktok' })).toMatch(/connectionId/);
  });

  it('finds the next midnight Pacific across daylight-saving changes', () => {
    // PST is UTC−8, PDT UTC−7; 2026 switches on 8 March and 1 November
    expect(nextMidnightIn('America/Los_Angeles', Date.UTC(2026, 2, 7, 12))).toBe(Date.UTC(2026, 2, 8, 8));
    expect(nextMidnightIn('America/Los_Angeles', Date.UTC(2026, 2, 8, 12))).toBe(Date.UTC(2026, 2, 9, 7));
    expect(nextMidnightIn('America/Los_Angeles', Date.UTC(2026, 9, 31, 12))).toBe(Date.UTC(2026, 10, 1, 7));
    expect(nextMidnightIn('America/Los_Angeles', Date.UTC(2026, 10, 1, 12))).toBe(Date.UTC(2026, 10, 2, 8));
    // just before and at midnight
    expect(nextMidnightIn('America/Los_Angeles', Date.UTC(2026, 0, 16, 7, 59, 59))).toBe(Date.UTC(2026, 0, 16, 8));
    expect(nextMidnightIn('America/Los_Angeles', Date.UTC(2026, 0, 16, 8))).toBe(Date.UTC(2026, 0, 17, 8));
  });
});
