// Moderation end to end through real ingestion from a fixture feed: on a
// manual wall new posts arrive pending and stay out of W2, C2, C5, the embed
// API and its stream; an approval shows them at once; a rejection keeps a
// post out for good — the next poll does not bring it back, and an upstream
// edit leaves it rejected. A feed may override its wall's mode.
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { makeToken } from '../http/manage/helpers.js';
import { openSse } from '../http/embed/sse-client.js';
import { rssXml, startFeeds, type FeedFixture, type RssItem } from './fixtures/feeds.js';
import {
  KEY,
  NOW,
  WALL,
  startHarness,
  storedPosts,
  untilDue,
  widgetPosts,
  commercePosts,
  type Harness,
} from './harness.js';

let fx: FeedFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const rfc822 = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toUTCString();
const item = (n: number, minutesBefore: number, description = `Post number ${n}`): RssItem => ({
  guid: `https://blog.example/?p=${n}`,
  title: `Post ${n}`,
  link: `https://blog.example/${n}/`,
  pubDate: rfc822(minutesBefore),
  description,
});
const ITEMS = [item(1, 30), item(2, 20), item(3, 10)];

interface Post {
  id: number;
  externalId: string | null;
  state: string;
  decision: { by: string; at: string; reason: string | null } | null;
  hidden: boolean;
  content: string;
}

async function manualWall(feeds: { moderation?: 'auto' | 'manual' }[] = [{}]) {
  fx = await startFeeds();
  fx.documents.set('/feed.xml', { body: rssXml(ITEMS), type: 'application/rss+xml; charset=UTF-8' });
  fx.documents.set('/other.xml', { body: rssXml([item(9, 5)]), type: 'application/rss+xml; charset=UTF-8' });
  h = await startHarness(
    feeds.map((f, i) => ({
      id: 801 + i,
      name: `Feed ${i}`,
      connector: { kind: 'rss', url: `${fx.origin}/${i === 0 ? 'feed' : 'other'}.xml` },
      ...f,
    })),
    { moderation: 'manual' },
  );
  const { token } = await makeToken(h.server, 'moderator-ana');
  const manage = (method: string, path: string, body?: unknown) =>
    call(h.server.baseUrl, `/api/manage/v1${path}`, { method, body, headers: { authorization: `Bearer ${token}` } });
  const key = await manage('POST', `/walls/${WALL}/publishable-keys`, {});
  expect(key.status, key.text).toBe(201);
  return { manage, pk: (key.json().responseData as { key: string }).key };
}

const listOf = async (res: Promise<{ status: number; text: string; json(): unknown }>) => {
  const r = await res;
  expect(r.status, r.text).toBe(200);
  return (r.json() as { responseData: { data: Post[] } }).responseData.data;
};

async function publicIds(pk: string): Promise<{ w2: string[]; c2: string[]; embed: string[] }> {
  const embed = await call(h.server.baseUrl, `/api/embed/v1/walls/${WALL}/posts`, { query: { key: pk } });
  expect(embed.status, embed.text).toBe(200);
  return {
    w2: (await widgetPosts(h)).map((p) => String(p.postId)),
    c2: (await commercePosts(h)).map((p) => String(p.postId)),
    embed: (embed.json() as { posts: { id: string }[] }).posts.map((p) => p.id),
  };
}

const c5 = (postId: number) =>
  call(h.server.baseUrl, `/api/v2/commerce/getGalleryProductByID/${WALL}/${postId}/`, { query: { user_key: KEY } });

describe('moderation through ingestion', () => {
  it('manual wall: pending posts are invisible everywhere; the queue lists them oldest first', async () => {
    const { manage, pk } = await manualWall();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 3 });
    expect((await storedPosts(h, 801)).map((p) => p.state)).toEqual(['pending', 'pending', 'pending']);
    expect(await publicIds(pk)).toEqual({ w2: [], c2: [], embed: [] });

    const queue = await listOf(manage('GET', `/walls/${WALL}/posts?state=pending`));
    expect(queue.map((p) => p.externalId)).toEqual(ITEMS.map((i) => i.guid));
    expect(queue.every((p) => p.state === 'pending' && p.decision === null)).toBe(true);
    expect((await c5(queue[0]!.id)).status).toBe(404);
    // the queue pages oldest first too
    const first = await manage('GET', `/walls/${WALL}/posts?state=pending&limit=2`);
    const cursor = (first.json() as { responseData: { nextCursor: string } }).responseData.nextCursor;
    const rest = await listOf(manage('GET', `/walls/${WALL}/posts?state=pending&limit=2&cursor=${cursor}`));
    expect(rest.map((p) => p.externalId)).toEqual([ITEMS[2]!.guid]);

    // a post the account makes itself (W3) arrives approved
    const w3 = await call(h.server.baseUrl, '/api/v2/widget/create-post', {
      method: 'POST',
      query: { user_key: KEY },
      body: { wallId: WALL, content: 'From the team' },
    });
    expect(w3.status, w3.text).toBe(200);
    expect((await publicIds(pk)).w2).toHaveLength(1);
    expect(await listOf(manage('GET', `/walls/${WALL}/posts?state=approved`))).toHaveLength(1);
  });

  it('approve → visible at once in W2, C2, C5, the embed API and its stream, with who, when and why', async () => {
    const { manage, pk } = await manualWall();
    await h.poll();
    const [oldest, middle] = await listOf(manage('GET', `/walls/${WALL}/posts?state=pending`));
    const stream = await openSse(`${h.server.baseUrl}/api/embed/v1/walls/${WALL}/stream?key=${pk}`, {});
    try {
      await h.server.app.embedStreams.settled();
      h.server.clock.now = NOW + 60_000;
      const res = await manage('PATCH', `/walls/${WALL}/posts/${oldest!.id}`, {
        state: 'approved',
        reason: 'on topic',
      });
      expect(res.status, res.text).toBe(200);
      expect((res.json() as { responseData: Post }).responseData).toMatchObject({
        state: 'approved',
        decision: { by: 'moderator-ana', at: new Date(NOW + 60_000).toISOString(), reason: 'on topic' },
      });
      const upsert = await stream.next((e) => e.event === 'upsert' && JSON.parse(e.data).id === String(oldest!.id));
      expect(upsert).toBeDefined();
    } finally {
      stream.close();
    }
    expect(await publicIds(pk)).toEqual({
      w2: [String(oldest!.id)],
      c2: [String(oldest!.id)],
      embed: [String(oldest!.id)],
    });
    expect((await c5(oldest!.id)).status).toBe(200);

    // bulk approve; the queue shrinks; the audit log says who, what and why
    const bulk = await manage('POST', `/walls/${WALL}/posts/bulk`, {
      postIds: [middle!.id, oldest!.id],
      action: 'approve',
      reason: 'fine',
    });
    expect((bulk.json() as { responseData: unknown }).responseData).toEqual({
      action: 'approve',
      postIds: [middle!.id, oldest!.id],
      changed: 1,
    });
    expect(await listOf(manage('GET', `/walls/${WALL}/posts?state=pending`))).toHaveLength(1);
    const audit = await manage('GET', '/audit?limit=2');
    const entries = (audit.json() as { responseData: { data: Record<string, unknown>[] } }).responseData.data;
    expect(entries[0]).toMatchObject({
      tokenName: 'moderator-ana',
      action: 'posts.bulk.approve',
      summary: { after: { state: 'approved', reason: 'fine' }, postIds: [middle!.id, oldest!.id] },
    });
    expect(entries[1]).toMatchObject({
      action: 'post.update',
      targetId: oldest!.id,
      summary: { before: { state: 'pending' }, after: { state: 'approved', reason: 'on topic' } },
    });
  });

  it('reject → never shown, not ingested again, and an upstream edit keeps it rejected', async () => {
    const { manage, pk } = await manualWall();
    await h.poll();
    const [oldest, middle, newest] = await listOf(manage('GET', `/walls/${WALL}/posts?state=pending`));
    const reject = await manage('POST', `/walls/${WALL}/posts/bulk`, {
      postIds: [oldest!.id],
      action: 'reject',
      reason: 'spam',
    });
    expect(reject.status, reject.text).toBe(200);
    await manage('POST', `/walls/${WALL}/posts/bulk`, { postIds: [middle!.id, newest!.id], action: 'approve' });
    expect((await publicIds(pk)).w2.sort()).toEqual([String(middle!.id), String(newest!.id)].sort());

    // upstream edits the rejected post: the next poll updates its text, not its state
    const edited = [item(1, 30, 'Edited upstream, still spam'), item(2, 20), item(3, 10)];
    fx.documents.set('/feed.xml', { body: rssXml(edited), type: 'application/rss+xml' });
    await untilDue(h, 801);
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 1 });
    const stored = await storedPosts(h, 801);
    expect(stored).toHaveLength(3);
    const rejected = stored.find((p) => p.id === oldest!.id)!;
    expect(rejected).toMatchObject({ state: 'rejected', decided_by: 'moderator-ana', decision_reason: 'spam' });
    expect(rejected.content).toContain('Edited upstream');
    expect((await publicIds(pk)).w2).not.toContain(String(oldest!.id));
    expect((await c5(oldest!.id)).status).toBe(404);
    const listed = await listOf(manage('GET', `/walls/${WALL}/posts?state=rejected`));
    expect(listed.map((p) => [p.id, p.decision?.reason])).toEqual([[oldest!.id, 'spam']]);
  });

  it('a feed set to auto publishes at once on a manual wall; switching the wall to auto changes only new posts', async () => {
    const { manage } = await manualWall([{}, { moderation: 'auto' }]);
    await h.poll();
    expect((await storedPosts(h, 802)).map((p) => p.state)).toEqual(['approved']);
    expect((await storedPosts(h, 801)).map((p) => p.state)).toEqual(['pending', 'pending', 'pending']);
    const wall = await manage('PATCH', `/walls/${WALL}`, { moderation: 'auto' });
    expect((wall.json() as { responseData: { moderation: string } }).responseData.moderation).toBe('auto');
    fx.documents.set('/feed.xml', { body: rssXml([item(4, 1), ...ITEMS]), type: 'application/rss+xml' });
    await untilDue(h, 801);
    await h.poll(801);
    const states = (await storedPosts(h, 801)).map((p) => p.state);
    expect(states).toEqual(['pending', 'pending', 'pending', 'approved']);
  });

  it('refuses a reason without a decision and an unknown state, naming the fields', async () => {
    const { manage } = await manualWall();
    await h.poll();
    const [post] = await listOf(manage('GET', `/walls/${WALL}/posts?state=pending`));
    const bad = await manage('PATCH', `/walls/${WALL}/posts/${post!.id}`, { reason: 'why' });
    expect(bad.status).toBe(400);
    expect((bad.json() as { fieldErrors: { field: string }[] }).fieldErrors.map((e) => e.field)).toEqual(['reason']);
    const unknown = await manage('PATCH', `/walls/${WALL}/posts/${post!.id}`, { state: 'maybe' });
    expect(unknown.status).toBe(400);
    const list = await manage('GET', `/walls/${WALL}/posts?state=later`);
    expect(list.status).toBe(400);
    const hide = await manage('POST', `/walls/${WALL}/posts/bulk`, {
      postIds: [post!.id],
      action: 'hide',
      reason: 'x',
    });
    expect(hide.status).toBe(400);
  });

  it('rules judge new posts at ingestion, first match wins, before the mode; the decision names the rule', async () => {
    const { manage, pk } = await manualWall();
    const put = await manage('PUT', `/walls/${WALL}/rules`, {
      rules: [
        { id: 'vip', kind: 'keyword', action: 'approve', words: ['Number 2'] },
        { id: 'spam', kind: 'keyword', action: 'reject', words: ['numbér'] },
      ],
    });
    expect(put.status, put.text).toBe(200);
    fx.documents.set('/feed.xml', {
      body: rssXml([...ITEMS, item(5, 5, 'Nothing to see')]),
      type: 'application/rss+xml',
    });
    await h.poll();
    const stored = await storedPosts(h, 801);
    expect(stored.map((p) => [p.external_id, p.state, p.decided_by])).toEqual([
      ['https://blog.example/?p=1', 'rejected', 'rule:spam'],
      ['https://blog.example/?p=2', 'approved', 'rule:vip'],
      ['https://blog.example/?p=3', 'rejected', 'rule:spam'],
      ['https://blog.example/?p=5', 'pending', null],
    ]);
    const approved = stored.find((p) => p.external_id?.endsWith('p=2'))!;
    expect((await publicIds(pk)).w2).toEqual([String(approved.id)]);
  });
});
