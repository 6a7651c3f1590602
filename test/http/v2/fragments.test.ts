// Post lists from kept parts (src/http/v2/fragments.ts): pages assembled from
// rendered posts equal the whole answer rendered at once; a post's revision
// moves with every update the store takes, whoever makes it; and a kept
// order or rendering is never used once it may be stale.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBody, renderListBody, renderListItem, successData, type Format } from '../../../src/http/envelope.js';
import { ANCHOR_STEP, FragmentCache, ORDER_WINDOW_MAX, pageFragments } from '../../../src/http/v2/fragments.js';
import { widgetPost } from '../../../src/http/v2/presenters.js';
import { ChangeBus } from '../../../src/store/changes.js';
import { importDataFile } from '../../../src/store/datafile.js';
import { listPageStamps, type ListFilter, type PostRow } from '../../../src/store/posts.js';
import { makeTempDir, removeDir } from '../../helpers/server.js';
import { openTestStore, type TestStore } from '../../helpers/store.js';
import { smallWallData, SMALL_WALL } from '../../helpers/wall-data.js';

const FORMATS: Format[] = ['json', 'xml'];

describe('a list body from items rendered one by one', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'é', '<', '&', '"', '\u0000', '\r', '🎉', ' ') });
  const item = fc.record({
    postId: text,
    content: text,
    n: fc.oneof(fc.integer(), fc.constant(null)),
    childNode: fc.array(fc.record({ image: text, video: text }), { maxLength: 3 }),
  });
  const head = fc.record({ wall: fc.record({ wallName: text, wallProfanity: fc.integer({ min: 0, max: 1 }) }) });

  it('is byte-identical to the whole envelope rendered at once, in both formats, empty list included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORMATS),
        head,
        fc.array(item, { maxLength: 5 }),
        fc.constantFrom('posts', 'feeds'),
        (format, h, items, name) => {
          const rendered = items.map((i) => Buffer.from(renderListItem(format, name, i)));
          expect(renderListBody(format, h, name, rendered).toString()).toBe(
            renderBody(format, successData([{ ...h, [name]: items }])),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('holds for an empty head too', () => {
    for (const format of FORMATS) {
      const items = [{ a: '1' }, { a: '<2>' }];
      expect(
        renderListBody(
          format,
          {},
          'posts',
          items.map((i) => Buffer.from(renderListItem(format, 'posts', i))),
        ).toString(),
      ).toBe(renderBody(format, successData([{ posts: items }])));
    }
  });
});

describe('kept posts and orders', () => {
  const POSTS = 60;
  let dir: string;
  let t: TestStore;

  beforeAll(async () => {
    dir = makeTempDir();
    t = await openTestStore(dir);
    await importDataFile(t.store, smallWallData(POSTS), Date.now());
  });
  afterAll(async () => {
    await t?.close();
    removeDir(dir);
  });

  const filter = (offset: number, limit: number, createdFrom: number | null = null): ListFilter => ({
    wallId: SMALL_WALL.wall,
    offset,
    limit,
    createdFrom,
    media: [],
  });
  const render = (p: PostRow) => renderListItem('json', 'posts', widgetPost(p, 0));
  const contents = ({ items: texts }: { items: Buffer[] }) =>
    texts.map((x) => (JSON.parse(x.toString()) as { content: string }).content);
  const revOf = async (id: number) =>
    (await t.store.db.selectFrom('posts').select('rev').where('id', '=', id).executeTakeFirstOrThrow()).rev;

  it('bumps a post revision on every update, whatever the statement, and leaves other posts alone', async () => {
    const before = [await revOf(1), await revOf(2)];
    await t.store.db.updateTable('posts').set({ content: 'edited once' }).where('id', '=', 1).execute();
    await t.store.db.updateTable('posts').set({ pin: 0 }).where('id', '=', 1).execute();
    expect(await revOf(1)).toBe(Number(before[0]) + 2);
    expect(await revOf(2)).toBe(before[1]);
  });

  it('answers any page exactly as rendering every post afresh does', async () => {
    const changes = new ChangeBus();
    const cache = new FragmentCache(changes, { maxBytes: 1 << 20, ttlMs: 60_000 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: POSTS + 5 }),
        fc.integer({ min: 1, max: 30 }),
        async (offset, limit) => {
          const f = filter(offset, limit);
          const kept = await pageFragments(t.store.db, cache, 'w|json|0', f, render);
          const fresh = await pageFragments(t.store.db, null, 'w|json|0', f, render);
          expect(kept).toEqual(fresh);
        },
      ),
      { numRuns: 60 },
    );
    cache.close();
  });

  it('renders an updated post anew once its order is read again, even when nobody announced the update', async () => {
    const changes = new ChangeBus();
    const cache = new FragmentCache(changes, { maxBytes: 1 << 20, ttlMs: 60_000 });
    const first = await pageFragments(t.store.db, cache, 's', filter(0, 5), render);
    const [top] = contents(first);
    const id = Number((JSON.parse(first.items[0]!.toString()) as { postId: string }).postId);
    // another process's write: no message on this bus
    await t.store.db.updateTable('posts').set({ content: 'unannounced edit' }).where('id', '=', id).execute();
    // a filter whose order is not kept reads the order afresh, and the kept rendering does not match its stamp
    const other = await pageFragments(t.store.db, cache, 's', filter(0, 5, 0), render);
    expect(contents(other)[0]).toBe('unannounced edit');
    expect(top).not.toBe('unannounced edit');
    // the announced change drops the kept order of the first filter too
    changes.wallChanged(SMALL_WALL.wall);
    expect(contents(await pageFragments(t.store.db, cache, 's', filter(0, 5), render))[0]).toBe('unannounced edit');
    cache.close();
  });

  it('does not keep an order read while a change of its wall was announced', async () => {
    const changes = new ChangeBus();
    const cache = new FragmentCache(changes, { maxBytes: 1 << 20, ttlMs: 60_000 });
    // the order's query is under way when the change is announced
    const reading = cache.page(t.store.db, filter(0, 3));
    changes.wallChanged(SMALL_WALL.wall);
    const [entry] = await reading;
    await t.store.db.updateTable('posts').set({ content: 'after the race' }).where('id', '=', entry!.id).execute();
    const [again] = await cache.page(t.store.db, filter(0, 3));
    // read afresh: the revision moved
    expect(again!.stamp).not.toBe(entry!.stamp);
    cache.close();
  });

  it('forgets kept orders after their time to live', async () => {
    const changes = new ChangeBus();
    const clock = { now: 5_000 };
    const cache = new FragmentCache(changes, { maxBytes: 1 << 20, ttlMs: 1_000, clock: () => clock.now });
    const [entry] = await cache.page(t.store.db, filter(0, 1));
    await t.store.db.updateTable('posts').set({ content: 'later' }).where('id', '=', entry!.id).execute();
    expect((await cache.page(t.store.db, filter(0, 1)))[0]!.stamp).toBe(entry!.stamp);
    clock.now = 6_001;
    expect((await cache.page(t.store.db, filter(0, 1)))[0]!.stamp).not.toBe(entry!.stamp);
    cache.close();
  });
});

describe('deep pages from anchors', () => {
  // more posts than the kept window, with ties in creation time and pinned posts among them
  const POSTS = ORDER_WINDOW_MAX + 2 * ANCHOR_STEP + 350;
  let dir: string;
  let t: TestStore;

  beforeAll(async () => {
    dir = makeTempDir();
    t = await openTestStore(dir);
    const data = smallWallData(POSTS);
    const posts = data.walls[0]!.feeds[0]!.posts as { createdAt: string; pin?: number }[];
    posts.forEach((p, i) => {
      p.createdAt = new Date(Date.UTC(2025, 0, 2) + Math.floor(i / 3) * 60_000).toISOString();
      if (i % 97 === 0) p.pin = 1;
    });
    await importDataFile(t.store, data, Date.now());
  });
  afterAll(async () => {
    await t?.close();
    removeDir(dir);
  });

  const filter = (offset: number, limit: number): ListFilter => ({
    wallId: SMALL_WALL.wall,
    offset,
    limit,
    createdFrom: null,
    media: [],
  });

  it('answers every deep page exactly as skipping from the start does', async () => {
    const changes = new ChangeBus();
    const cache = new FragmentCache(changes, { maxBytes: 1 << 20, ttlMs: 60_000 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: ORDER_WINDOW_MAX - 100, max: POSTS + 10 }),
        fc.integer({ min: 1, max: 100 }),
        async (offset, limit) => {
          const ids = (await cache.page(t.store.db, filter(offset, limit))).map((e) => e.id);
          const plain = (await listPageStamps(t.store.db, filter(offset, limit))).map((p) => p.id);
          expect(ids).toEqual(plain);
        },
      ),
      { numRuns: 80 },
    );
    // around each anchor exactly
    for (const offset of [ANCHOR_STEP * 2 - 1, ANCHOR_STEP * 2, ANCHOR_STEP * 3 - 1, ANCHOR_STEP * 3, ANCHOR_STEP * 4])
      expect((await cache.page(t.store.db, filter(offset, 3))).map((e) => e.id)).toEqual(
        (await listPageStamps(t.store.db, filter(offset, 3))).map((p) => p.id),
      );
    cache.close();
  });

  it('moves its anchors when a change of the wall is announced', async () => {
    const changes = new ChangeBus();
    const cache = new FragmentCache(changes, { maxBytes: 1 << 20, ttlMs: 60_000 });
    const f = filter(ANCHOR_STEP * 3 + 5, 5);
    const before = (await cache.page(t.store.db, f)).map((e) => e.id);
    // a post of the page hidden: every later post moves one place up
    await t.store.db.updateTable('posts').set({ hidden: 1 }).where('id', '=', before[0]!).execute();
    changes.wallChanged(SMALL_WALL.wall);
    const after = (await cache.page(t.store.db, f)).map((e) => e.id);
    expect(after).toEqual((await listPageStamps(t.store.db, f)).map((p) => p.id));
    expect(after).not.toEqual(before);
    cache.close();
  });
});
