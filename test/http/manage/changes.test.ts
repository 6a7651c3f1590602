// A wall's change feed (GET /api/manage/v1/walls/{id}/changes) over real
// HTTP: what each moderation call shows, paging by cursor, `since=latest`,
// errors, the prune horizon (410) — and exactness with two instances on one
// store and several writers at once, while a follower reads the feed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { pruneChangeLog } from '../../../src/store/change-log.js';
import { removeDir, makeTempDir, startTestServer, type TestServer } from '../../helpers/server.js';
import { call, type Res } from '../../helpers/http.js';
import { sample } from '../../helpers/sample.js';
import { dropTestDatabase } from '../../helpers/services.js';
import { BASE, data, failure, makeToken } from './helpers.js';

const WALL = 7011;

interface Change {
  cursor: string;
  kind: string;
  postId: number | null;
  visible: boolean;
  at: string;
  post: { id: number; hidden: boolean; state: string; content: string } | null;
}
interface ChangesPage {
  changes: Change[];
  cursor: string;
  hasMore: boolean;
}

let dir: string;
let first: TestServer;
let second: TestServer;
let token: string;

const api = (srv: TestServer, method: string, path: string, body?: unknown, as = token): Promise<Res> =>
  call(srv.baseUrl, BASE + path, { method, body, headers: { authorization: `Bearer ${as}` } });
const changes = async (srv: TestServer, query: string, as = token) =>
  data<ChangesPage>(await api(srv, 'GET', `/walls/${WALL}/changes${query}`, undefined, as));
const latest = async (srv: TestServer) => (await changes(srv, '?since=latest')).cursor;

/** Every change after `since`, page after page. */
async function follow(srv: TestServer, since: string, limit = 200): Promise<{ seen: Change[]; cursor: string }> {
  const seen: Change[] = [];
  let cursor = since;
  for (;;) {
    const page = await changes(srv, `?since=${cursor}&limit=${limit}`);
    seen.push(...page.changes);
    cursor = page.cursor;
    if (!page.hasMore) return { seen, cursor };
  }
}

async function postIdsOfWall(srv: TestServer, n: number): Promise<number[]> {
  const page = data<{ data: { id: number }[] }>(
    await api(srv, 'GET', `/walls/${WALL}/posts?state=approved&limit=${n}`),
  );
  return page.data.map((p) => p.id);
}

beforeAll(async () => {
  dir = makeTempDir();
  // two instances on one store (the same SQLite file, or the same PostgreSQL database), each with its own connections
  first = await startTestServer({ dir, data: sample() });
  second = await startTestServer({ dir });
  first.clock.now = second.clock.now = Date.now();
  token = (await makeToken(first, 'changes-test')).token;
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  const marker = join(dir, 'postgres-database');
  if (existsSync(marker)) await dropTestDatabase(readFileSync(marker, 'utf8').trim());
  removeDir(dir);
});

describe('the change feed of a wall', () => {
  it('shows each moderation call as one change, with the post as it is now', async () => {
    const since = await latest(first);
    expect(since).toMatch(/^[0-9]+$/);
    const [a, b] = (await postIdsOfWall(first, 2)) as [number, number];
    data(await api(first, 'PATCH', `/walls/${WALL}/posts/${a}`, { hidden: true }));
    data(await api(second, 'PATCH', `/walls/${WALL}/posts/${b}`, { state: 'rejected', reason: 'off topic' }));
    data(await api(first, 'PATCH', `/walls/${WALL}/posts/${b}`, { state: 'approved' }));
    data(await api(second, 'PATCH', `/walls/${WALL}/posts/${a}`, { hidden: false }));
    // posts leave with their feed or when ingestion drops them: here a plain delete by another writer
    await second.store.db.deleteFrom('posts').where('id', '=', b).execute();
    const page = await changes(second, `?since=${since}`);
    expect(page.changes.map((c) => [c.kind, c.postId, c.visible])).toEqual([
      ['hidden', a, false],
      ['rejected', b, false],
      ['approved', b, true],
      ['updated', a, true],
      ['deleted', b, false],
    ]);
    expect(page.hasMore).toBe(false);
    // `post` is the post now: a is shown again, b is gone
    expect(page.changes[0]!.post).toMatchObject({ id: a, hidden: false, state: 'approved' });
    for (const c of page.changes.filter((c) => c.postId === b)) expect(c.post).toBeNull();
    for (const c of page.changes) expect(Date.parse(c.at)).toBeGreaterThan(Date.now() - 600_000);
    // the cursor of the answer is the place after its last change: asking with it gives nothing new
    expect(page.cursor).toBe(page.changes[4]!.cursor);
    expect((await changes(first, `?since=${page.cursor}`)).changes).toEqual([]);
  });

  it('pages with limit and hasMore, each change once, cursors rising', async () => {
    const since = await latest(first);
    const ids = await postIdsOfWall(first, 5);
    for (const id of ids) data(await api(first, 'PATCH', `/walls/${WALL}/posts/${id}`, { content: `edited ${id}` }));
    const pages: ChangesPage[] = [];
    let cursor = since;
    do {
      pages.push(await changes(second, `?since=${cursor}&limit=2`));
      cursor = pages[pages.length - 1]!.cursor;
    } while (pages[pages.length - 1]!.hasMore);
    expect(pages.map((p) => p.changes.length)).toEqual([2, 2, 1]);
    const all = pages.flatMap((p) => p.changes);
    expect(all.map((c) => c.postId)).toEqual(ids);
    expect(all.every((c) => c.kind === 'updated' && c.post?.content === `edited ${c.postId}`)).toBe(true);
    const numbers = all.map((c) => Number(c.cursor));
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("shows only this wall's changes, and the wall's own deletion and restoration", async () => {
    const since = await latest(first);
    const other = data<{ data: { id: number }[] }>(await api(first, 'GET', '/walls/7013/posts?limit=1')).data[0]!.id;
    data(await api(first, 'PATCH', `/walls/7013/posts/${other}`, { hidden: true }));
    data(await api(first, 'DELETE', `/walls/${WALL}`));
    data(await api(first, 'POST', `/walls/${WALL}/restore`));
    const page = await changes(first, `?since=${since}`);
    expect(page.changes.map((c) => [c.kind, c.postId])).toEqual([
      ['wall_deleted', null],
      ['wall_restored', null],
    ]);
  });

  it('refuses a cursor it did not give with a 400 naming since, an unknown wall with a 404', async () => {
    for (const since of ['abc', '-1', '1.5', '', '9'.repeat(16)]) {
      const errors = failure(await api(first, 'GET', `/walls/${WALL}/changes?since=${since}`), 400);
      expect(errors.map((e) => e.field)).toEqual(['since']);
    }
    expect(failure(await api(first, 'GET', `/walls/${WALL}/changes?limit=0`), 400).map((e) => e.field)).toEqual([
      'limit',
    ]);
    failure(await api(first, 'GET', `/walls/999999/changes`), 404);
  });

  it('is read with a viewer token; without a token it is refused', async () => {
    const viewer = await createOperatorToken(
      { db: first.store.db, actor: CLI_ACTOR, now: Date.now() },
      { name: 'read-only', role: 'viewer' },
    );
    expect((await changes(first, '?since=latest', viewer.token)).changes).toEqual([]);
    expect((await call(first.baseUrl, `${BASE}/walls/${WALL}/changes`)).status).toBe(401);
  });

  it('answers 410 for a cursor older than the pruned history, and goes on from since=latest', async () => {
    const old = '0';
    expect((await changes(first, `?since=${old}&limit=1`)).changes).toHaveLength(1);
    const [id] = await postIdsOfWall(first, 1);
    data(await api(first, 'PATCH', `/walls/${WALL}/posts/${id}`, { hidden: true }));
    // everything committed until now is pruned (the worker does this after CHANGES_RETENTION_DAYS)
    expect(await pruneChangeLog(first.store.db, Date.now() + 1000)).toBeGreaterThan(0);
    failure(await api(first, 'GET', `/walls/${WALL}/changes?since=${old}`), 410, /pruned/);
    failure(await api(first, 'GET', `/walls/${WALL}/changes`), 410, /since=latest/);
    const now = await latest(second);
    expect((await changes(second, `?since=${now}`)).changes).toEqual([]);
    data(await api(second, 'PATCH', `/walls/${WALL}/posts/${id}`, { hidden: false }));
    expect((await changes(first, `?since=${now}`)).changes.map((c) => [c.kind, c.postId])).toEqual([['updated', id]]);
  });
});

describe('exactness with several writers on two instances', () => {
  it('gives a follower every change exactly once, in each post’s order, and a mirror equal to the wall', async () => {
    const WRITERS = 6;
    const PER_WRITER = 3;
    const ROUNDS = 12;
    const ids = await postIdsOfWall(first, WRITERS * PER_WRITER);
    expect(ids).toHaveLength(WRITERS * PER_WRITER);
    // the mirror: the visible posts as read, then kept up to date from the feed alone
    const start = await latest(first);
    const mirror = new Map<number, boolean>();
    for (const id of ids) mirror.set(id, true);

    const done = { writers: false };
    const expected = new Map<number, string[]>();
    const writer = async (w: number) => {
      const srv = w % 2 === 0 ? first : second;
      const mine = ids.slice(w * PER_WRITER, (w + 1) * PER_WRITER);
      for (let round = 0; round < ROUNDS; round++) {
        const id = mine[round % PER_WRITER]!;
        const hide = Math.floor(round / PER_WRITER) % 2 === 0;
        data(await api(srv, 'PATCH', `/walls/${WALL}/posts/${id}`, { hidden: hide }));
        expected.set(id, [...(expected.get(id) ?? []), hide ? 'hidden' : 'updated']);
      }
    };
    // the follower reads while the writers write, from both instances in turn
    const seen: Change[] = [];
    const follower = async () => {
      let cursor = start;
      for (let turn = 0; ; turn++) {
        const finished = done.writers;
        const page = await changes(turn % 2 === 0 ? first : second, `?since=${cursor}&limit=7`);
        seen.push(...page.changes);
        cursor = page.cursor;
        // one more full read after the writers are done: then nothing can be missing
        if (finished && !page.hasMore) return;
      }
    };
    const following = follower();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    done.writers = true;
    await following;

    const numbers = seen.map((c) => Number(c.cursor));
    expect(new Set(numbers).size, 'no change given twice').toBe(numbers.length);
    expect(numbers, 'in commit order').toEqual([...numbers].sort((x, y) => x - y));
    expect(seen.length, 'every write once').toBe(WRITERS * ROUNDS);
    for (const id of ids) {
      expect(
        seen.filter((c) => c.postId === id).map((c) => c.kind),
        `post ${id}`,
      ).toEqual(expected.get(id));
    }
    // applying each change's visibility in order gives the wall as it is
    for (const c of seen) mirror.set(c.postId!, c.visible);
    const visibleNow = new Set(
      data<{ data: { id: number }[] }>(
        await api(first, 'GET', `/walls/${WALL}/posts?status=visible&limit=200`),
      ).data.map((p) => p.id),
    );
    for (const id of ids) expect(mirror.get(id), `post ${id}`).toBe(visibleNow.has(id));
    // and a follow from the start cursor now gives the same changes again
    expect((await follow(second, start)).seen.map((c) => c.cursor)).toEqual(seen.map((c) => c.cursor));
  });
});
