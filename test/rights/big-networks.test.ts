// Rights requests on X, Threads, YouTube, Reddit and Pixelfed, each against a
// local fixture of the network's API, on both stores: the request posted as
// a reply (or comment) on the post with the template's text, through the
// connection of the post's feed; the post's author's grant heard (listenTo,
// and once through RightsWatcher.runOnce) — the post's hold lifted on a wall
// that requires rights — someone else's answer ignored, a deleted grant
// revoking; a refused token failing the request and marking the connection,
// and what refuses only the one request leaving the connection alone.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionSecret } from '../../src/connections/secrets.js';
import { createFetcher, type Fetcher } from '../../src/net/fetcher.js';
import { listenTo, requestRights, type RightsDeps } from '../../src/rights/service.js';
import { RightsWatcher } from '../../src/rights/watcher.js';
import { findConnection } from '../../src/store/connections.js';
import { postDefaults } from '../../src/store/post-columns.js';
import {
  DEFAULT_RIGHTS_SETTINGS,
  requestText,
  type MastodonVisibility,
  type RightsState,
} from '../../src/domain/rights.js';
import {
  findPostRights,
  findRightsSettings,
  refreshHolds,
  rightsEventsOf,
  saveRightsSettings,
} from '../../src/store/rights.js';
import type { Store } from '../../src/store/store.js';
import { addConnection } from '../helpers/connections.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const GRANT = `#${DEFAULT_RIGHTS_SETTINGS.grantHashtag} happy to!`;
const TOKEN = 'good-token-0001';
const BAD_TOKEN = 'revoked-token-0002';

type Json = Record<string, unknown>;

// ---------- a fixture network ----------

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Answer {
  status?: number;
  json: unknown;
}

interface Fixture {
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function startFixture(route: (req: Seen) => Answer): Promise<Fixture> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const s: Seen = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(s);
      let answer: Answer;
      try {
        answer = route(s);
      } catch (err) {
        answer = { status: 500, json: { error: String(err) } };
      }
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const bearer = (s: Seen) => (s.headers.authorization ?? '').replace(/^bearer /i, '');
const posted = (fx: Fixture, path: RegExp) => fx.seen.filter((s) => s.method === 'POST' && path.test(s.path));

// ---------- the store ----------

let dir: string;
let test: TestStore;
let store: Store;
let fetcher: Fetcher;
let clock = NOW;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-rights-big-'));
  test = await openTestStore(dir);
  store = test.store;
  fetcher = createFetcher({ allowPrivateNetworks: true, timeoutMs: 10_000, maxBytes: 1024 * 1024, hostConcurrency: 4 });
});

afterAll(async () => {
  await fetcher?.close();
  await test?.close();
  rmSync(dir, { recursive: true, force: true });
});

const deps = (): RightsDeps => ({ db: store.db, secretKey: null, fetcher, memory: new Map(), now: () => clock });

/** An account with a wall that requires rights for every post. */
async function account(visibility: MastodonVisibility = 'public') {
  const accountId = (
    await store.db
      .insertInto('accounts')
      .values({ name: 'brand', plan: 'enterprise', daily_call_limit: 1000, created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const wallId = (
    await store.db
      .insertInto('walls')
      .values({
        account_id: accountId,
        name: 'w',
        url: '',
        profanity: 0,
        allow_framing: 0,
        created_at: 1,
        moderation: 'auto',
        rules: '[]',
        rights_required: 'all',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const settings = await findRightsSettings(store.db, accountId);
  await saveRightsSettings(store.db, accountId, { ...settings, mastodonVisibility: visibility }, NOW);
  return { accountId, wallId };
}

interface PostSpec {
  network: string;
  externalId: string;
  username: string;
  linkUrl: string;
  connector: Json;
}

/** A feed reading with `connectionId` and one post of it, held by the wall's requirement. */
async function postOn(wall: { accountId: number; wallId: number }, connectionId: number, p: PostSpec) {
  const feedId = (
    await store.db
      .insertInto('feeds')
      .values({
        wall_id: wall.wallId,
        name: p.network,
        source: p.network,
        source_type: 'search',
        updated_at: 1,
        connector: JSON.stringify({ ...p.connector, connectionId }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const postId = (
    await store.db
      .insertInto('posts')
      .values({
        ...postDefaults(),
        wall_id: wall.wallId,
        feed_id: feedId,
        network_name: p.network,
        external_id: p.externalId,
        username: p.username,
        author_name: p.username,
        link_url: p.linkUrl,
        created_at: NOW - 3_600_000,
        updated_at: NOW - 3_600_000,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await refreshHolds(store.db, wall.wallId, [postId]);
  return postId;
}

async function connection(
  accountId: number,
  network: string,
  secret: ConnectionSecret,
  extra: { externalAccountId?: string; externalAccountName?: string; instance?: string } = {},
) {
  return addConnection(store.db, { accountId, network, secret, authKind: 'oauth', now: NOW, ...extra });
}

async function ask(postId: number) {
  const [outcome] = await requestRights(deps(), [postId], { actor: 'test' });
  return outcome!;
}

async function listen(postId: number) {
  const row = await findPostRights(store.db, postId);
  if (!row) throw new Error(`post ${postId} has no request`);
  return listenTo(deps(), row);
}

async function postState(postId: number): Promise<{ state: RightsState | null; hold: number }> {
  const row = await store.db
    .selectFrom('posts')
    .select(['rights_state', 'rights_hold'])
    .where('id', '=', postId)
    .executeTakeFirstOrThrow();
  return { state: row.rights_state, hold: Number(row.rights_hold) };
}

/** The evidence trail's last entry: its kind and detail. */
async function lastEvent(postId: number) {
  const events = await rightsEventsOf(store.db, postId);
  const last = events[events.length - 1]!;
  return { kind: last.kind, detail: JSON.parse(last.detail) as Json };
}

const statusOf = async (connectionId: number) => (await findConnection(store.db, connectionId))?.status;

/** The request's text for a post by `username` (the default template). */
const expectedText = (username: string) => requestText(DEFAULT_RIGHTS_SETTINGS, { username, authorName: username });

// ---------- X ----------

describe('X', () => {
  interface Tweet {
    id: string;
    text: string;
    author_id: string;
    created_at: string;
    conversation_id: string;
    referenced_tweets?: { type: string; id: string }[];
    edit_history_tweet_ids: string[];
  }
  const tweets = new Map<string, Tweet>();
  let next = 2000;
  let fx: Fixture;
  afterAll(() => fx?.close());

  const tweet = (id: string, author: string, text: string, replyTo?: string): Tweet => {
    const parent = replyTo ? tweets.get(replyTo) : undefined;
    const t: Tweet = {
      id,
      text,
      author_id: author,
      created_at: new Date(clock).toISOString(),
      conversation_id: parent?.conversation_id ?? id,
      ...(replyTo ? { referenced_tweets: [{ type: 'replied_to', id: replyTo }] } : {}),
      edit_history_tweet_ids: [id],
    };
    tweets.set(id, t);
    return t;
  };

  beforeAll(async () => {
    fx = await startFixture((req) => {
      if (bearer(req) !== TOKEN)
        return {
          status: 401,
          json: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
        };
      if (req.method === 'POST' && req.path === '/2/tweets') {
        const body = JSON.parse(req.body) as { text: string; reply: { in_reply_to_tweet_id: string } };
        if (tweets.get(body.reply.in_reply_to_tweet_id)?.author_id === '13')
          return {
            status: 403,
            json: {
              title: 'Forbidden',
              type: 'about:blank',
              status: 403,
              detail: 'Reply to this conversation is not allowed because you have not been mentioned',
            },
          };
        const t = tweet(String(next++), '99', body.text, body.reply.in_reply_to_tweet_id);
        return { status: 201, json: { data: { id: t.id, text: t.text, edit_history_tweet_ids: [t.id] } } };
      }
      if (req.method === 'GET' && req.path === '/2/tweets/search/recent') {
        const conversation = /^conversation_id:(\d+) is:reply$/.exec(req.query.get('query') ?? '')?.[1];
        const data = [...tweets.values()]
          .filter((t) => t.conversation_id === conversation && t.referenced_tweets)
          .reverse();
        return { json: { data, meta: { result_count: data.length } } };
      }
      const one = /^\/2\/tweets\/(\d+)$/.exec(req.path);
      if (req.method === 'GET' && one) {
        const t = tweets.get(one[1]!);
        return t
          ? { json: { data: t } }
          : { json: { errors: [{ value: one[1], detail: 'Could not find tweet', title: 'Not Found Error' }] } };
      }
      return { status: 404, json: { title: 'Not Found' } };
    });
  });

  const xPost = (id: string, username: string): PostSpec => ({
    network: 'X',
    externalId: id,
    username,
    linkUrl: `https://x.com/${username}/status/${id}`,
    connector: { kind: 'x', query: '#harbourfest', apiBaseUrl: fx.origin },
  });

  it('replies to the post, hears its author grant (someone else’s grant ignored), and revokes when the grant is deleted', async () => {
    const wall = await account();
    const conn = await connection(
      wall.accountId,
      'x',
      { accessToken: TOKEN },
      { externalAccountId: '99', externalAccountName: '@brand' },
    );
    tweet('1001', '11', 'Stage at dusk #harbourfest');
    const postId = await postOn(wall, conn, xPost('1001', 'ana'));
    expect(await postState(postId)).toEqual({ state: null, hold: 1 });

    const outcome = await ask(postId);
    expect(outcome).toMatchObject({ ok: true, method: 'reply', state: 'requested' });
    const [sent] = posted(fx, /^\/2\/tweets$/);
    expect(JSON.parse(sent!.body)).toEqual({ text: expectedText('ana'), reply: { in_reply_to_tweet_id: '1001' } });
    const requestId = (await findPostRights(store.db, postId))!.request_id!;
    expect(outcome.ok && outcome.requestUrl).toBe(`https://x.com/brand/status/${requestId}`);

    tweet('3001', '12', GRANT, requestId); // someone else
    tweet('3002', '11', 'thanks! #YesPlease', '1001'); // the author, but not answering the request
    expect(await listen(postId)).toMatchObject({ state: 'requested', changed: false });
    expect(await postState(postId)).toEqual({ state: 'requested', hold: 1 });

    // the author's grant, heard by the watcher once the listening interval has passed
    tweet('3003', '11', GRANT, requestId);
    clock = NOW + 16 * 60_000;
    const watcher = new RightsWatcher({
      db: store.db,
      secretKey: null,
      allowPrivateNetworks: true,
      fetcher,
      now: () => clock,
    });
    const report = await watcher.runOnce();
    await watcher.stop();
    expect(report.heard).toEqual([expect.objectContaining({ postId, state: 'granted', changed: true })]);
    expect(await postState(postId)).toEqual({ state: 'granted', hold: 0 });
    expect((await findPostRights(store.db, postId))!.answer_id).toBe('3003');

    tweets.delete('3003');
    expect(await listen(postId)).toMatchObject({ state: 'revoked', changed: true });
    expect(await postState(postId)).toEqual({ state: 'revoked', hold: 1 });
    clock = NOW;
  });

  it('follows an edited grant to its newest version: edited into a refusal, it is a decline', async () => {
    const wall = await account();
    const conn = await connection(wall.accountId, 'x', { accessToken: TOKEN }, { externalAccountId: '99' });
    tweet('1101', '21', 'Harbour lights');
    const postId = await postOn(wall, conn, xPost('1101', 'ben'));
    expect(await ask(postId)).toMatchObject({ ok: true, method: 'reply' });
    const requestId = (await findPostRights(store.db, postId))!.request_id!;
    tweet('3101', '21', GRANT, requestId);
    expect(await listen(postId)).toMatchObject({ state: 'granted' });
    // X keeps the first version and lists the newer ones
    tweet('3102', '21', 'on second thought, no thanks', requestId);
    tweets.get('3101')!.edit_history_tweet_ids = ['3101', '3102'];
    expect(await listen(postId)).toMatchObject({ state: 'declined', changed: true });
    expect((await findPostRights(store.db, postId))!.answer_text).toBe('on second thought, no thanks');
  });

  it('a refused token fails the request and marks the connection; a refused reply does not; a bearer token is not tried', async () => {
    const wall = await account();
    const revoked = await connection(wall.accountId, 'x', { accessToken: BAD_TOKEN }, { externalAccountId: '99' });
    tweet('1201', '31', 'Boats');
    const postId = await postOn(wall, revoked, xPost('1201', 'cai'));
    const outcome = await ask(postId);
    expect(outcome).toMatchObject({ ok: false, status: 'failed' });
    expect(!outcome.ok && outcome.reason).toMatch(/refused the connection's credentials \(401/);
    expect(!outcome.ok && outcome.reason).not.toContain(BAD_TOKEN);
    expect(await statusOf(revoked)).toBe('failing');
    expect(await findPostRights(store.db, postId)).toBeUndefined();

    // the author limits replies: this request fails, the connection stays as it was
    const wall2 = await account();
    const good = await connection(wall2.accountId, 'x', { accessToken: TOKEN }, { externalAccountId: '99' });
    tweet('1202', '13', 'Only mentioned accounts may reply');
    const limited = await ask(await postOn(wall2, good, xPost('1202', 'dee')));
    expect(limited).toMatchObject({ ok: false, status: 'failed' });
    expect(!limited.ok && limited.reason).toMatch(/answered 403: Reply to this conversation is not allowed/);
    expect(await statusOf(good)).toBe('active');

    // a pasted app-only bearer token (no account) cannot post: said, nothing sent, nothing marked
    const before = posted(fx, /^\/2\/tweets$/).length;
    const bearerOnly = await addConnection(store.db, {
      accountId: wall2.accountId,
      network: 'x',
      secret: { accessToken: TOKEN },
      authKind: 'token',
    });
    tweet('1203', '41', 'Gulls');
    const refused = await ask(await postOn(wall2, bearerOnly, xPost('1203', 'eve')));
    expect(!refused.ok && refused.reason).toMatch(/app-only bearer token/);
    expect(posted(fx, /^\/2\/tweets$/)).toHaveLength(before);
    expect(await statusOf(bearerOnly)).toBe('active');
  });
});

// ---------- Threads ----------

describe('Threads', () => {
  interface Media {
    id: string;
    text: string;
    username: string;
    timestamp: string;
    permalink: string;
    replyTo?: string;
  }
  const media = new Map<string, Media>();
  const containers = new Map<string, { text: string; replyTo: string }>();
  let next = 5000;
  let fx: Fixture;
  afterAll(() => fx?.close());

  const thread = (id: string, username: string, text: string, replyTo?: string): Media => {
    const m: Media = {
      id,
      text,
      username,
      timestamp: new Date(clock).toISOString().replace('.000Z', '+0000'),
      permalink: `https://www.threads.net/@${username}/post/${id}`,
      ...(replyTo ? { replyTo } : {}),
    };
    media.set(id, m);
    return m;
  };
  const shown = ({ replyTo: _, ...m }: Media) => m;

  beforeAll(async () => {
    fx = await startFixture((req) => {
      if (bearer(req) !== TOKEN)
        return {
          status: 400,
          json: { error: { message: 'Error validating access token', type: 'OAuthException', code: 190 } },
        };
      const form = new URLSearchParams(req.body);
      if (req.method === 'POST' && req.path === '/v1.0/777/threads') {
        const id = `c${next++}`;
        containers.set(id, { text: form.get('text') ?? '', replyTo: form.get('reply_to_id') ?? '' });
        return { json: { id } };
      }
      if (req.method === 'POST' && req.path === '/v1.0/777/threads_publish') {
        const c = containers.get(form.get('creation_id') ?? '');
        if (!c) return { status: 400, json: { error: { message: 'no such container', code: 100 } } };
        return { json: { id: thread(String(next++), 'brand', c.text, c.replyTo).id } };
      }
      const replies = /^\/v1\.0\/(\d+)\/replies$/.exec(req.path);
      if (replies) {
        const data = [...media.values()].filter((m) => m.replyTo === replies[1]).map(shown);
        return { json: { data, paging: { cursors: { before: 'b', after: 'a' } } } };
      }
      const one = /^\/v1\.0\/(\d+)$/.exec(req.path);
      const m = one ? media.get(one[1]!) : undefined;
      if (m) return { json: shown(m) };
      return {
        status: 400,
        json: {
          error: {
            message: 'Unsupported get request. Object with ID does not exist',
            type: 'GraphMethodException',
            code: 100,
            error_subcode: 33,
          },
        },
      };
    });
  });

  const threadsPost = (id: string, username: string): PostSpec => ({
    network: 'Threads',
    externalId: id,
    username,
    linkUrl: `https://www.threads.net/@${username}/post/${id}`,
    connector: { kind: 'threads', keyword: '#harbourfest', apiBaseUrl: `${fx.origin}/v1.0` },
  });

  it('replies in two steps, hears the author by username (not someone else), and revokes when the grant is deleted', async () => {
    const wall = await account();
    const conn = await connection(
      wall.accountId,
      'threads',
      { accessToken: TOKEN },
      { externalAccountId: '777', externalAccountName: '@brand' },
    );
    thread('4001', 'lena', 'Harbour at night');
    const postId = await postOn(wall, conn, threadsPost('4001', 'lena'));

    const outcome = await ask(postId);
    expect(outcome).toMatchObject({ ok: true, method: 'reply' });
    const [container] = posted(fx, /\/threads$/);
    expect(Object.fromEntries(new URLSearchParams(container!.body))).toEqual({
      media_type: 'TEXT',
      text: expectedText('lena'),
      reply_to_id: '4001',
    });
    expect(container!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(posted(fx, /\/threads_publish$/)).toHaveLength(1);
    const row = (await findPostRights(store.db, postId))!;
    expect(row.request_url).toBe(`https://www.threads.net/@brand/post/${row.request_id}`);
    expect(row.author_ref).toBe('lena');

    thread('4101', 'mallory', GRANT, row.request_id!);
    expect(await listen(postId)).toMatchObject({ state: 'requested', changed: false });
    thread('4102', 'lena', GRANT, row.request_id!);
    expect(await listen(postId)).toMatchObject({ state: 'granted', changed: true });
    expect(await postState(postId)).toEqual({ state: 'granted', hold: 0 });

    media.delete('4102');
    expect(await listen(postId)).toMatchObject({ state: 'revoked', changed: true });
    expect(await postState(postId)).toEqual({ state: 'revoked', hold: 1 });
  });

  it('a token Threads does not take (code 190, on a 400) fails the request and marks the connection', async () => {
    const wall = await account();
    const conn = await connection(wall.accountId, 'threads', { accessToken: BAD_TOKEN }, { externalAccountId: '777' });
    thread('4201', 'nico', 'Ferries');
    const outcome = await ask(await postOn(wall, conn, threadsPost('4201', 'nico')));
    expect(outcome).toMatchObject({ ok: false, status: 'failed' });
    expect(!outcome.ok && outcome.reason).toMatch(/refused the connection's credentials \(400: Error validating/);
    expect(await statusOf(conn)).toBe('failing');
  });
});

// ---------- YouTube ----------

describe('YouTube', () => {
  interface Comment {
    id: string;
    parentId?: string;
    channel: string;
    text: string;
    publishedAt: string;
    updatedAt: string;
  }
  const videos = new Map<string, { channelId: string; comments: boolean }>();
  const comments = new Map<string, Comment>();
  let next = 1;
  let fx: Fixture;
  afterAll(() => fx?.close());

  const comment = (id: string, channel: string, text: string, parentId?: string): Comment => {
    const at = new Date(clock + next++ * 1000).toISOString();
    const c: Comment = { id, channel, text, publishedAt: at, updatedAt: at, ...(parentId ? { parentId } : {}) };
    comments.set(id, c);
    return c;
  };
  const resource = (c: Comment) => ({
    kind: 'youtube#comment',
    id: c.id,
    snippet: {
      textDisplay: c.text,
      authorChannelId: { value: c.channel },
      publishedAt: c.publishedAt,
      updatedAt: c.updatedAt,
      ...(c.parentId ? { parentId: c.parentId } : {}),
    },
  });

  beforeAll(async () => {
    fx = await startFixture((req) => {
      if (bearer(req) !== TOKEN)
        return {
          status: 401,
          json: {
            error: {
              code: 401,
              message: 'Request had invalid authentication credentials.',
              errors: [{ reason: 'authError' }],
            },
          },
        };
      if (req.method === 'GET' && req.path === '/youtube/v3/videos') {
        const id = req.query.get('id') ?? '';
        const v = videos.get(id);
        return { json: { items: v ? [{ id, snippet: { channelId: v.channelId, title: 'A video' } }] : [] } };
      }
      if (req.method === 'POST' && req.path === '/youtube/v3/commentThreads') {
        const body = JSON.parse(req.body) as {
          snippet: { videoId: string; topLevelComment: { snippet: { textOriginal: string } } };
        };
        if (videos.get(body.snippet.videoId)?.comments === false)
          return {
            status: 403,
            json: {
              error: {
                code: 403,
                message: 'The video has disabled comments.',
                errors: [{ reason: 'commentsDisabled' }],
              },
            },
          };
        const c = comment(`Ugx${next++}`, 'UCbrand', body.snippet.topLevelComment.snippet.textOriginal);
        return { json: { id: c.id, snippet: { videoId: body.snippet.videoId, topLevelComment: resource(c) } } };
      }
      if (req.method === 'GET' && req.path === '/youtube/v3/comments') {
        const parent = req.query.get('parentId');
        const id = req.query.get('id');
        const items = [...comments.values()]
          .filter((c) => (parent ? c.parentId === parent : c.id === id))
          .map(resource);
        return { json: { kind: 'youtube#commentListResponse', items } };
      }
      return { status: 404, json: { error: { code: 404, message: 'Not Found' } } };
    });
  });

  const video = (id: string): PostSpec => ({
    network: 'YouTube',
    externalId: id,
    username: 'Harbour Channel',
    linkUrl: `https://www.youtube.com/watch?v=${id}`,
    connector: { kind: 'youtube_data', mode: 'search', query: '#harbourfest', apiBaseUrl: `${fx.origin}/youtube/v3` },
  });

  it('comments on the video, hears its channel’s reply (not another channel’s), and revokes when the grant is deleted', async () => {
    const wall = await account();
    const conn = await connection(wall.accountId, 'youtube', { accessToken: TOKEN }, { externalAccountId: 'UCbrand' });
    videos.set('dQw4w9WgXcQ', { channelId: 'UCowner', comments: true });
    const postId = await postOn(wall, conn, video('dQw4w9WgXcQ'));

    const outcome = await ask(postId);
    expect(outcome).toMatchObject({ ok: true, method: 'reply' });
    const [sent] = posted(fx, /commentThreads$/);
    expect(sent!.query.get('part')).toBe('snippet');
    expect(JSON.parse(sent!.body)).toEqual({
      snippet: {
        videoId: 'dQw4w9WgXcQ',
        topLevelComment: { snippet: { textOriginal: expectedText('Harbour Channel') } },
      },
    });
    const row = (await findPostRights(store.db, postId))!;
    expect(row.author_ref).toBe('UCowner');
    expect(row.request_url).toBe(`https://www.youtube.com/watch?v=dQw4w9WgXcQ&lc=${row.request_id}`);

    comment('Ugr1', 'UCstranger', GRANT, row.request_id!);
    expect(await listen(postId)).toMatchObject({ state: 'requested', changed: false });
    comment('Ugr2', 'UCowner', GRANT, row.request_id!);
    expect(await listen(postId)).toMatchObject({ state: 'granted', changed: true });
    expect(await postState(postId)).toEqual({ state: 'granted', hold: 0 });

    comments.delete('Ugr2');
    expect(await listen(postId)).toMatchObject({ state: 'revoked', changed: true });
  });

  it('a refused token marks the connection; comments turned off fail only the request; an API key is not tried', async () => {
    const wall = await account();
    const revoked = await connection(wall.accountId, 'youtube', { accessToken: BAD_TOKEN });
    videos.set('aaaaaaaaaa1', { channelId: 'UCowner', comments: true });
    const failed = await ask(await postOn(wall, revoked, video('aaaaaaaaaa1')));
    expect(failed).toMatchObject({ ok: false, status: 'failed' });
    expect(await statusOf(revoked)).toBe('failing');

    const wall2 = await account();
    const good = await connection(wall2.accountId, 'youtube', { accessToken: TOKEN });
    videos.set('aaaaaaaaaa2', { channelId: 'UCother', comments: false });
    const closed = await ask(await postOn(wall2, good, video('aaaaaaaaaa2')));
    expect(!closed.ok && closed.reason).toMatch(/answered 403: The video has disabled comments/);
    expect(await statusOf(good)).toBe('active');

    const keyed = await addConnection(store.db, {
      accountId: wall2.accountId,
      network: 'youtube',
      secret: { apiKey: 'AIza-test-key' },
      authKind: 'api_key',
    });
    videos.set('aaaaaaaaaa3', { channelId: 'UCother', comments: true });
    const byKey = await ask(await postOn(wall2, keyed, video('aaaaaaaaaa3')));
    expect(!byKey.ok && byKey.reason).toMatch(/is an API key, which cannot comment/);
  });
});

// ---------- Reddit ----------

describe('Reddit', () => {
  interface RComment {
    id: string;
    parent: string;
    author: string;
    body: string;
    created_utc: number;
    edited: false | number;
    permalink: string;
  }
  const reddit = new Map<string, RComment>();
  let next = 1;
  let fx: Fixture;
  afterAll(() => fx?.close());

  const rcomment = (id: string, author: string, body: string, parent: string): RComment => {
    const c: RComment = {
      id,
      parent,
      author,
      body,
      created_utc: clock / 1000 + next++,
      edited: false,
      permalink: `/r/pics/comments/abc123/_/${id}/`,
    };
    reddit.set(id, c);
    return c;
  };
  const listing = (children: unknown[]) => ({ kind: 'Listing', data: { after: null, children } });
  const thing = (c: RComment) => ({ kind: 't1', data: { ...c, name: `t1_${c.id}` } });

  beforeAll(async () => {
    fx = await startFixture((req) => {
      if (bearer(req) !== TOKEN) return { status: 401, json: { message: 'Unauthorized', error: 401 } };
      if (req.method === 'POST' && req.path === '/api/comment') {
        const form = new URLSearchParams(req.body);
        const c = rcomment(`c${next++}`, 'brandbot', form.get('text') ?? '', form.get('thing_id') ?? '');
        return { json: { json: { errors: [], data: { things: [thing(c)] } } } };
      }
      const article = /^\/comments\/([a-z0-9]+)$/.exec(req.path);
      if (req.method === 'GET' && article) {
        const request = reddit.get(req.query.get('comment') ?? '');
        if (!request) return { json: [listing([]), listing([])] };
        const replies = [...reddit.values()].filter((c) => c.parent === `t1_${request.id}`).map(thing);
        const data = { ...thing(request).data, replies: replies.length > 0 ? listing(replies) : '' };
        return { json: [listing([{ kind: 't3', data: { id: article[1] } }]), listing([{ kind: 't1', data }])] };
      }
      if (req.method === 'GET' && req.path === '/api/info') {
        const c = reddit.get((req.query.get('id') ?? '').replace(/^t1_/, ''));
        return { json: listing(c ? [thing(c)] : []) };
      }
      return { status: 404, json: { message: 'Not Found', error: 404 } };
    });
  });

  const redditPost = (id: string, author: string): PostSpec => ({
    network: 'Reddit',
    externalId: id,
    username: `u/${author}`,
    linkUrl: `https://www.reddit.com/r/pics/comments/${id}/harbour/`,
    connector: { kind: 'reddit', subreddit: 'pics', apiBaseUrl: fx.origin },
  });

  it('comments on the post as a form, hears its author (not someone else), and revokes when the grant is deleted', async () => {
    const wall = await account();
    const conn = await connection(
      wall.accountId,
      'reddit',
      { accessToken: TOKEN },
      { externalAccountId: 't2_brand', externalAccountName: 'u/brandbot' },
    );
    const postId = await postOn(wall, conn, redditPost('abc123', 'harbour_fan'));

    const outcome = await ask(postId);
    expect(outcome).toMatchObject({ ok: true, method: 'reply' });
    const [sent] = posted(fx, /^\/api\/comment$/);
    expect(sent!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent!.headers['user-agent']).toContain('by /u/brandbot');
    expect(Object.fromEntries(new URLSearchParams(sent!.body))).toEqual({
      api_type: 'json',
      thing_id: 't3_abc123',
      text: expectedText('u/harbour_fan'),
    });
    const row = (await findPostRights(store.db, postId))!;
    expect(row.author_ref).toBe('harbour_fan');
    expect(row.request_url).toBe(`https://www.reddit.com/r/pics/comments/abc123/_/${row.request_id}/`);

    rcomment('r1', 'someone_else', GRANT, `t1_${row.request_id}`);
    expect(await listen(postId)).toMatchObject({ state: 'requested', changed: false });
    const grant = rcomment('r2', 'harbour_fan', GRANT, `t1_${row.request_id}`);
    expect(await listen(postId)).toMatchObject({ state: 'granted', changed: true });
    expect(await postState(postId)).toEqual({ state: 'granted', hold: 0 });

    // Reddit keeps a deleted comment in place: its author and text read [deleted]
    grant.author = '[deleted]';
    grant.body = '[deleted]';
    expect(await listen(postId)).toMatchObject({ state: 'revoked', changed: true });
    expect(await lastEvent(postId)).toEqual({
      kind: 'revoked',
      detail: { state: 'revoked', reason: 'the author deleted the answer' },
    });
  });

  it('a refused token fails the request and marks the connection', async () => {
    const wall = await account();
    const conn = await connection(wall.accountId, 'reddit', { accessToken: BAD_TOKEN });
    const outcome = await ask(await postOn(wall, conn, redditPost('def456', 'boat_person')));
    expect(outcome).toMatchObject({ ok: false, status: 'failed' });
    expect(!outcome.ok && outcome.reason).toMatch(/refused the connection's credentials \(401: Unauthorized\)/);
    expect(await statusOf(conn)).toBe('failing');
  });
});

// ---------- Pixelfed ----------

describe('Pixelfed', () => {
  interface Status {
    id: string;
    account: { id: string; acct: string };
    content: string;
    in_reply_to_id: string | null;
    created_at: string;
    edited_at: string | null;
    url: string;
  }
  const statuses = new Map<string, Status>();
  let next = 900;
  let fx: Fixture;
  afterAll(() => fx?.close());

  const status = (id: string, account: { id: string; acct: string }, content: string, replyTo?: string): Status => {
    const s: Status = {
      id,
      account,
      content: `<p>${content}</p>`,
      in_reply_to_id: replyTo ?? null,
      created_at: new Date(clock).toISOString(),
      edited_at: null,
      url: `${fx.origin}/p/${account.acct}/${id}`,
    };
    statuses.set(id, s);
    return s;
  };
  const LENA = { id: '77', acct: 'lena' };
  const BRAND = { id: '5', acct: 'brand' };

  beforeAll(async () => {
    fx = await startFixture((req) => {
      if (bearer(req) !== TOKEN) return { status: 401, json: { error: 'Unauthenticated.' } };
      if (req.method === 'POST' && req.path === '/api/v1/statuses') {
        const body = JSON.parse(req.body) as { status: string; in_reply_to_id: string; visibility: string };
        if (body.visibility === 'direct')
          return { status: 400, json: { error: 'Direct visibility is not available.' } };
        return { json: status(String(next++), BRAND, body.status, body.in_reply_to_id) };
      }
      const context = /^\/api\/v1\/statuses\/(\d+)\/context$/.exec(req.path);
      if (context) {
        const descendants = [...statuses.values()].filter((s) => s.in_reply_to_id === context[1]);
        return { json: { ancestors: [], descendants } };
      }
      const one = /^\/api\/v1\/statuses\/(\d+)$/.exec(req.path);
      const s = one ? statuses.get(one[1]!) : undefined;
      return s ? { json: s } : { status: 404, json: { error: 'Record not found' } };
    });
  });

  const pixelfedPost = (id: string, username: string): PostSpec => ({
    network: 'Pixelfed',
    externalId: id,
    username,
    linkUrl: `${fx.origin}/p/${username}/${id}`,
    connector: { kind: 'pixelfed', instance: fx.origin, hashtag: 'harbourfest' },
  });

  it('comments on the post mentioning its author, hears their grant (not someone else’s), and revokes when it is deleted', async () => {
    const wall = await account();
    const conn = await connection(
      wall.accountId,
      'pixelfed',
      { accessToken: TOKEN },
      { externalAccountId: '5', instance: fx.origin },
    );
    status('700', LENA, 'Harbour #harbourfest');
    const postId = await postOn(wall, conn, pixelfedPost('700', 'lena'));

    const outcome = await ask(postId);
    expect(outcome).toMatchObject({ ok: true, method: 'reply' });
    const [sent] = posted(fx, /^\/api\/v1\/statuses$/);
    expect(JSON.parse(sent!.body)).toEqual({
      status: expectedText('lena'),
      in_reply_to_id: '700',
      visibility: 'public',
    });
    const row = (await findPostRights(store.db, postId))!;
    expect(row.author_ref).toBe('77');

    status('801', { id: '78', acct: 'mallory' }, GRANT, row.request_id!);
    expect(await listen(postId)).toMatchObject({ state: 'requested', changed: false });
    status('802', LENA, GRANT, row.request_id!);
    expect(await listen(postId)).toMatchObject({ state: 'granted', changed: true });
    expect(await postState(postId)).toEqual({ state: 'granted', hold: 0 });

    statuses.delete('802');
    expect(await listen(postId)).toMatchObject({ state: 'revoked', changed: true });
  });

  it('a refused token marks the connection; direct requests are refused before anything is posted', async () => {
    const wall = await account();
    const conn = await connection(wall.accountId, 'pixelfed', { accessToken: BAD_TOKEN }, { instance: fx.origin });
    status('710', LENA, 'Pier');
    const outcome = await ask(await postOn(wall, conn, pixelfedPost('710', 'lena')));
    expect(!outcome.ok && outcome.reason).toMatch(/refused the connection's credentials \(401: Unauthenticated/);
    expect(await statusOf(conn)).toBe('failing');

    const direct = await account('direct');
    const good = await connection(direct.accountId, 'pixelfed', { accessToken: TOKEN }, { instance: fx.origin });
    status('720', { id: '79', acct: 'otto' }, 'Lighthouse');
    const before = posted(fx, /^\/api\/v1\/statuses$/).length;
    const refused = await ask(await postOn(direct, good, pixelfedPost('720', 'otto')));
    expect(!refused.ok && refused.reason).toMatch(/Pixelfed has no direct replies/);
    expect(posted(fx, /^\/api\/v1\/statuses$/)).toHaveLength(before);
    expect(await statusOf(good)).toBe('active');
  });
});
