// Misskey connector against a local Misskey/Sharkey instance (POST + JSON API).
import { afterEach, describe, expect, it } from 'vitest';
import { misskeyError, misskeyNote, misskeyUser, startMisskey, type MisskeyFixture } from '../fixtures/misskey.js';
import { findConnection } from '../../../src/store/connections.js';
import type { ConnectionFailure } from '../../../src/ingest/runtime.js';
import { ACCOUNT, NOW, ingestState, storedPosts, wallPosts, type Harness } from '../harness.js';
import { connectedWall, storedText } from './connected-feed.js';

const TOKEN = 'mk-tok-8HqP2sV9xLw4Rn6T';
const FEED = 802;
const aid = (n: number) => `9m${n.toString(36).padStart(8, '0')}`;
const at = (minutesBefore: number) => new Date(NOW - minutesBefore * 60_000).toISOString();

let fx: MisskeyFixture;
let h: Harness;
let failures: ConnectionFailure[];
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function wall(connector: Record<string, unknown>, withConnection = true) {
  fx = await startMisskey();
  fx.token = withConnection ? TOKEN : null;
  const w = await connectedWall(
    FEED,
    { kind: 'misskey', instance: fx.origin, ...connector },
    withConnection ? { network: 'misskey', token: TOKEN, instance: fx.origin } : null,
  );
  h = w.h;
  failures = w.failures;
  return w.connectionId;
}

const remote = misskeyUser('rin', 'Rin', '9m0000rin0', 'remote.example');

function seed() {
  const quoted = misskeyNote({
    id: aid(1),
    createdAt: at(60),
    text: 'The original view',
    user: remote,
    files: [{ type: 'image/webp', name: 'view' }],
  });
  fx.notes.push(
    quoted,
    misskeyNote({
      id: aid(2),
      createdAt: at(50),
      text: 'Morning $[x2 **sun**] on the <small>ridge</small> :blobcat: <script>alert(1)</script> #wallery https://maps.example/p',
      tags: ['wallery'],
      emojis: { blobcat: 'https://misskey.example/emoji/blobcat.webp' },
      files: [
        { type: 'image/jpeg', name: 'ridge' },
        { type: 'video/mp4', name: 'descent' },
        { type: 'audio/mpeg', name: 'wind' },
      ],
    }),
    misskeyNote({
      id: aid(3),
      createdAt: at(40),
      text: 'Only for followers #wallery',
      tags: ['wallery'],
      visibility: 'followers',
    }),
    misskeyNote({ id: aid(4), createdAt: at(30), text: null, tags: ['wallery'], renote: quoted }),
    misskeyNote({ id: aid(5), createdAt: at(20), text: 'Look at this #wallery', tags: ['wallery'], renote: quoted }),
    misskeyNote({ id: aid(6), createdAt: at(15), text: 'Blisters #wallery', tags: ['wallery'], cw: 'feet' }),
    misskeyNote({
      id: aid(7),
      createdAt: at(10),
      text: 'A clip #wallery',
      tags: ['wallery'],
      visibility: 'home',
      files: [{ type: 'video/mp4', name: 'clip', sensitive: true }],
    }),
  );
}

describe('misskey hashtag feed', () => {
  it('maps notes, pages forward from the cursor to the end and drops deleted notes', async () => {
    await wall({ hashtag: 'wallery' });
    seed();
    const [first] = await h.poll();
    // followers-only left out, the pure renote skipped
    expect(first).toMatchObject({ feedId: FEED, kind: 'misskey', status: 'ok', inserted: 4 });
    expect(fx.bodies()[0]).toEqual({
      path: '/api/notes/search-by-tag',
      body: { tag: 'wallery', limit: 100, i: TOKEN },
    });
    for (const r of fx.requests) {
      expect(r.method).toBe('POST');
      expect(r.url).not.toContain(TOKEN);
      expect(r.headers.authorization).toBeUndefined();
    }

    const posts = await wallPosts(h);
    expect(posts.size).toBe(2); // the cw note and the one with a sensitive file arrive hidden
    const media = posts.get(`${fx.origin}/notes/${aid(2)}`)!.widget;
    expect(media).toMatchObject({
      networkName: 'Misskey',
      PostType: 4,
      postAuthorName: 'Aki :blobcat:',
      postUsername: 'aki@127.0.0.1:' + fx.port,
      postTags: 'wallery',
      childNode: [
        { image: 'https://misskey.example/files/ridge.jpeg', video: '' },
        {
          image: 'https://misskey.example/files/thumbnail-descent.webp',
          video: 'https://misskey.example/files/descent.mp4',
        },
      ],
    });
    const content = String(media.content);
    expect(content).toContain('Morning **sun** on the ridge');
    expect(content).toContain(
      '<img src="https://misskey.example/emoji/blobcat.webp" alt=":blobcat:" title=":blobcat:" class="emoji" width="20" height="20" />',
    );
    expect(content).toContain('<a href="https://maps.example/p"');
    expect(content).not.toMatch(/<script|\$\[|<small>/);
    // a quote keeps the quoted note (its media become the post's)
    const quote = posts.get(`${fx.origin}/notes/${aid(5)}`)!.widget;
    expect(String(quote.content)).toContain('<blockquote><p><a href="https://remote.example/notes/');
    expect(String(quote.content)).toContain('The original view');
    expect(quote.postFile).toBe('https://misskey.example/files/view.webp');
    const stored = await storedPosts(h, FEED);
    expect(stored.map((p) => [p.external_id, p.hidden, p.sensitive])).toEqual([
      [aid(2), 0, 0],
      [aid(5), 0, 0],
      [aid(6), 1, 1],
      [aid(7), 1, 1],
    ]);
    expect(JSON.parse((await ingestState(h, FEED)).cursor_json!)).toMatchObject({ sinceId: aid(7) });

    // 120 new notes: pages of 100 forward from the cursor until one is not full; one note deleted
    for (let n = 100; n < 220; n++)
      fx.notes.push(
        misskeyNote({ id: aid(n), createdAt: at(9 - n / 100), text: `Note ${n} #wallery`, tags: ['wallery'] }),
      );
    fx.notes = fx.notes.filter((n) => n.id !== aid(6));
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    fx.requests.length = 0;
    const [second] = await h.poll();
    expect(second).toMatchObject({ status: 'ok', inserted: 120, updated: 0 });
    const calls = fx.bodies();
    expect(calls.filter((c) => c.path === '/api/notes/search-by-tag').map((c) => c.body.sinceId)).toEqual([
      aid(7),
      aid(199),
    ]);
    // every stored note not on these pages was asked for: the deleted one (NO_SUCH_NOTE) goes
    expect(calls.filter((c) => c.path === '/api/notes/show').map((c) => c.body.noteId)).toEqual(
      expect.arrayContaining([aid(6)]),
    );
    const ids = (await storedPosts(h, FEED)).map((p) => p.external_id);
    expect(ids).toHaveLength(123);
    expect(ids).not.toContain(aid(6));

    // nothing new: one page, no duplicates
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const [third] = await h.poll();
    expect(third).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(await storedPosts(h, FEED)).toHaveLength(123);
    expect(await storedText(h)).not.toContain(TOKEN);
  });

  it('reads a user’s notes without a connection and unwraps renotes when asked', async () => {
    await wall({ user: '@aki', reposts: 'unwrap' }, false);
    const original = misskeyNote({ id: aid(1), createdAt: at(30), text: 'Remote sunset', user: remote });
    fx.notes.push(
      original,
      misskeyNote({ id: aid(2), createdAt: at(20), text: 'Mine', files: [{ type: 'image/png', name: 'mine' }] }),
      misskeyNote({ id: aid(3), createdAt: at(15), text: 'A reply', replyId: aid(1) }),
      misskeyNote({ id: aid(4), createdAt: at(10), text: null, renote: original }),
    );
    const [report] = await h.poll();
    expect(report).toMatchObject({ status: 'ok', inserted: 2 });
    expect(fx.bodies().map((c) => c.body)).toEqual([
      { username: 'aki', host: null },
      { userId: '9m0000user', limit: 100, withReplies: false, withRenotes: true },
    ]);
    const stored = await storedPosts(h, FEED);
    expect(stored.map((p) => [p.external_id, p.repost, p.username])).toEqual([
      [aid(1), 1, 'rin@remote.example'],
      [aid(2), 0, `aki@127.0.0.1:${fx.port}`],
    ]);
  });
});

describe('misskey refusals and limits', () => {
  it('fails the feed at once and marks the connection revoked when the token is refused', async () => {
    const connectionId = await wall({ hashtag: 'wallery' });
    seed();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 4 });
    fx.token = 'a-new-token';
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    const [report] = await h.poll();
    expect(report!.status).toBe('failed');
    expect(report!.message).toMatch(/no longer accepts the connection's access token/);
    expect(await ingestState(h, FEED)).toMatchObject({ failing: 1 });
    expect(await findConnection(h.server.store.db, connectionId!)).toMatchObject({ status: 'revoked' });
    expect(failures).toEqual([
      expect.objectContaining({ connectionId, feedId: FEED, status: 'revoked', accountId: ACCOUNT }),
    ]);
    expect(await storedText(h)).not.toContain(TOKEN);
  });

  it('says an instance requires sign-in, honours Retry-After on a 429 and an empty bucket', async () => {
    await wall({ hashtag: 'wallery' }, false);
    fx.token = 'needed';
    const [anonymous] = await h.poll();
    expect(anonymous!.message).toMatch(/requires sign-in for its API: give the feed a Misskey connection/);

    fx.token = null;
    h.clock.now = (await ingestState(h, FEED)).next_poll_at;
    fx.queue.push({
      ...misskeyError(
        429,
        'RATE_LIMIT_EXCEEDED',
        'Rate limit exceeded. Please try again later.',
        'd5826d14-3982-4d2e-8011-b9e9f02499ef',
      ),
      headers: {
        'content-type': 'application/json',
        'retry-after': '5400',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '5400.000',
        'x-ratelimit-clear': '5400.000',
      },
    });
    const [limited] = await h.poll();
    expect(limited!.message).toMatch(/^HTTP 429 from .*\(RATE_LIMIT_EXCEEDED: Rate limit exceeded/);
    let state = await ingestState(h, FEED);
    expect(state.next_poll_at).toBeGreaterThanOrEqual(h.clock.now + 5400_000);

    // a success that empties the bucket: the next poll waits until it is clear
    h.clock.now = state.next_poll_at;
    fx.rateLimit = { remaining: 0, clear: 4000 };
    expect((await h.poll())[0]).toMatchObject({ status: 'ok' });
    state = await ingestState(h, FEED);
    expect(state.next_poll_at).toBeGreaterThanOrEqual(h.clock.now + 4000_000);
  });
});
