// The change log (migration 0015_changes): what each write records, whoever
// makes it (plain Kysely writes here, no service), nothing on rollback, the
// numbering in commit order — on PostgreSQL also when a transaction that
// started writing first commits last — and pruning.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changesAfter, latestChangeSeq, prunedThrough, pruneChanges } from '../../src/store/change-log.js';
import { postDefaults } from '../../src/store/post-columns.js';
import type { Store } from '../../src/store/store.js';
import { testStoreKind } from '../helpers/services.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

let dir: string;
let test: TestStore;
let store: Store;
let wallId: number;
let feedId: number;
let accountId: number;

async function addPost(fields: Partial<ReturnType<typeof postDefaults>> = {}): Promise<number> {
  const row = await store.db
    .insertInto('posts')
    .values({ ...postDefaults(), wall_id: wallId, feed_id: feedId, created_at: 1, updated_at: 1, ...fields })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const kindsAfter = async (after: number) =>
  (await changesAfter(store.db, { after, limit: 1000 })).map((c) => [c.kind, c.post_id, c.visible]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-changelog-'));
  test = await openTestStore(dir);
  store = test.store;
  accountId = (
    await store.db
      .insertInto('accounts')
      .values({ name: 'a', plan: 'free', daily_call_limit: 10, created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

afterAll(async () => {
  await test.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  wallId = (
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
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  feedId = (
    await store.db
      .insertInto('feeds')
      .values({ wall_id: wallId, name: 'f', source: 's', source_type: 'rss', updated_at: 1, connector: null })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

describe('what a write records', () => {
  it('records each kind of post change, with the visibility after it', async () => {
    const start = await latestChangeSeq(store.db);
    const visible = await addPost();
    const pending = await addPost({ state: 'pending' });
    const setPost = (id: number, set: Record<string, unknown>) =>
      store.db.updateTable('posts').set(set).where('id', '=', id).execute();
    await setPost(pending, { state: 'approved', decided_by: 'cli' });
    await setPost(visible, { hidden: 1 });
    await setPost(visible, { hidden: 0 });
    await setPost(pending, { content: 'edited' });
    await setPost(pending, { state: 'rejected' });
    await setPost(pending, { state: 'pending' });
    await store.db.deleteFrom('posts').where('id', '=', visible).execute();
    expect(await kindsAfter(start)).toEqual([
      ['created', visible, true],
      ['created', pending, false],
      ['approved', pending, true],
      ['hidden', visible, false],
      ['updated', visible, true],
      ['updated', pending, true],
      ['rejected', pending, false],
      ['updated', pending, false],
      ['deleted', visible, false],
    ]);
    const rows = await changesAfter(store.db, { after: start, limit: 1000 });
    expect(new Set(rows.map((r) => [r.account_id, r.wall_id, r.feed_id].join()))).toEqual(
      new Set([[accountId, wallId, feedId].join()]),
    );
    // strictly increasing, and `at` is a commit instant of this test run
    expect(rows.map((r) => r.seq)).toEqual([...rows.map((r) => r.seq)].sort((a, b) => a - b));
    expect(new Set(rows.map((r) => r.seq)).size).toBe(rows.length);
    for (const r of rows) expect(Math.abs(r.at - Date.now())).toBeLessThan(10 * 60_000);
  });

  it("records a rule's hold as `held`: on arrival, when a waiting post is held, when a visible one is", async () => {
    const start = await latestChangeSeq(store.db);
    const setPost = (id: number, set: Record<string, unknown>) =>
      store.db.updateTable('posts').set(set).where('id', '=', id).execute();
    const heldOnArrival = await addPost({ state: 'pending', decided_by: 'rule:r1', decision_reason: 'held: …' });
    const byMode = await addPost({ state: 'pending' });
    const waiting = await addPost({ state: 'pending', decided_by: 'check:image' });
    const visible = await addPost();
    await setPost(waiting, { decided_by: 'rule:r2' }); // the image check's decision: a rule holds it
    await setPost(waiting, { decided_at: 5 }); // the same hold written again is no new hold
    await setPost(visible, { state: 'pending', decided_by: 'rule:r3' }); // rules re-applied to a visible post
    await setPost(visible, { decided_by: 'rule:r1' }); // another rule now holds it
    await setPost(byMode, { decided_by: 'alice', decision_reason: 'later' }); // a person's pending is no rule's hold
    expect(await kindsAfter(start)).toEqual([
      ['held', heldOnArrival, false],
      ['created', byMode, false],
      ['created', waiting, false],
      ['created', visible, true],
      ['held', waiting, false],
      ['updated', waiting, false],
      ['held', visible, false],
      ['held', visible, false],
      ['updated', byMode, false],
    ]);
  });

  it('records one change per row of a statement touching many posts', async () => {
    const ids = [await addPost(), await addPost(), await addPost()];
    const start = await latestChangeSeq(store.db);
    await store.db.updateTable('posts').set({ hidden: 1 }).where('wall_id', '=', wallId).execute();
    expect(await kindsAfter(start)).toEqual(ids.map((id) => ['hidden', id, false]));
  });

  it('records a wall deleted and restored, and not each post of a purge', async () => {
    await addPost();
    const start = await latestChangeSeq(store.db);
    await store.db.updateTable('walls').set({ deleted_at: 5 }).where('id', '=', wallId).execute();
    await store.db.updateTable('walls').set({ deleted_at: null }).where('id', '=', wallId).execute();
    await store.db.updateTable('walls').set({ name: 'renamed' }).where('id', '=', wallId).execute();
    await store.db.updateTable('walls').set({ deleted_at: 6 }).where('id', '=', wallId).execute();
    await store.db.deleteFrom('posts').where('wall_id', '=', wallId).execute();
    expect(await kindsAfter(start)).toEqual([
      ['wall_deleted', null, false],
      ['wall_restored', null, false],
      ['wall_deleted', null, false],
    ]);
  });

  it("records a feed turning failing and recovering, and nothing for the rest of its state's updates", async () => {
    await store.db.insertInto('feed_ingest_state').values({ feed_id: feedId, interval_s: 60 }).execute();
    const start = await latestChangeSeq(store.db);
    const setState = (set: Record<string, unknown>) =>
      store.db.updateTable('feed_ingest_state').set(set).where('feed_id', '=', feedId).execute();
    await setState({ consecutive_failures: 1 });
    await setState({ failing: 1 });
    await setState({ last_error: 'x' });
    await setState({ failing: 0 });
    const rows = await changesAfter(store.db, { after: start, limit: 100 });
    expect(rows.map((r) => [r.kind, r.wall_id, r.feed_id])).toEqual([
      ['feed_failing', wallId, feedId],
      ['feed_recovered', wallId, feedId],
    ]);
  });

  it('records nothing for a rolled back transaction', async () => {
    const start = await latestChangeSeq(store.db);
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('posts')
          .values({ ...postDefaults(), wall_id: wallId, feed_id: feedId, created_at: 1, updated_at: 1 })
          .execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await kindsAfter(start)).toEqual([]);
    expect(await latestChangeSeq(store.db)).toBe(start);
  });

  it('filters by wall, account and kind, and pages with `after` and `limit`', async () => {
    const start = await latestChangeSeq(store.db);
    const a = await addPost();
    const b = await addPost();
    await store.db.updateTable('posts').set({ state: 'rejected' }).where('id', '=', a).execute();
    const first = await changesAfter(store.db, { after: start, wallId, limit: 2 });
    expect(first.map((c) => c.post_id)).toEqual([a, b]);
    const rest = await changesAfter(store.db, { after: first[1]!.seq, wallId, accountId, limit: 2 });
    expect(rest.map((c) => [c.kind, c.post_id])).toEqual([['rejected', a]]);
    expect(await changesAfter(store.db, { after: start, wallId: wallId + 1000, limit: 10 })).toEqual([]);
    expect((await changesAfter(store.db, { after: start, kinds: ['rejected'], limit: 10 })).length).toBe(1);
    expect(await changesAfter(store.db, { after: start, kinds: [], limit: 10 })).toEqual([]);
  });
});

describe('pruning', () => {
  it('deletes changes committed before the cutoff, in batches, and moves the pruned mark', async () => {
    await addPost();
    await addPost();
    await addPost();
    const newest = await latestChangeSeq(store.db);
    const future = Date.now() + 60_000;
    let deleted = 0;
    for (let n = await pruneChanges(store.db, future, 2); n > 0; n = await pruneChanges(store.db, future, 2))
      deleted += n;
    expect(deleted).toBeGreaterThanOrEqual(3);
    expect(await prunedThrough(store.db)).toBe(newest);
    expect(await changesAfter(store.db, { after: 0, limit: 10 })).toEqual([]);
    // numbering goes on after the newest pruned change
    expect(await latestChangeSeq(store.db)).toBe(newest);
    await addPost();
    expect((await changesAfter(store.db, { after: 0, limit: 10 }))[0]!.seq).toBeGreaterThan(newest);
    expect(await pruneChanges(store.db, 0, 10)).toBe(0);
  });
});

describe.skipIf(testStoreKind() !== 'postgres')('commit order on PostgreSQL', () => {
  it('numbers a transaction that wrote first but committed last after the one that committed first', async () => {
    const url = test.database;
    const early = new pg.Client({ connectionString: url });
    const late = new pg.Client({ connectionString: url });
    await early.connect();
    await late.connect();
    try {
      const post = await addPost();
      const other = await addPost();
      const start = await latestChangeSeq(store.db);
      await early.query('begin');
      await early.query('update posts set hidden = 1 where id = $1', [post]);
      await late.query('begin');
      await late.query('update posts set state = $2 where id = $1', [other, 'rejected']);
      await late.query('commit');
      // a reader now sees the later writer's change only; the early one is still open
      const seen = await changesAfter(store.db, { after: start, limit: 10 });
      expect(seen.map((c) => [c.kind, c.post_id])).toEqual([['rejected', other]]);
      await early.query('commit');
      // …and the early writer's change comes AFTER what the reader already saw: nothing skipped
      const next = await changesAfter(store.db, { after: seen[0]!.seq, limit: 10 });
      expect(next.map((c) => [c.kind, c.post_id])).toEqual([['hidden', post]]);
    } finally {
      await early.end();
      await late.end();
    }
  });
});
