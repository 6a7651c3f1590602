// Import read as a stream (contract §8): still one transaction, the first
// problem in file order named by its JSON path, sections and fields in any
// order, and a round trip that gives back the same file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeDataFile } from '../../bench/generate.js';
import {
  DataFileError,
  DataFileSyntaxError,
  exportDataFile,
  importDataFile,
  importDataFileFrom,
} from '../../src/store/datafile.js';
import type { Store } from '../../src/store/store.js';
import { RULE_KINDS } from '../../src/domain/rules.js';
import { spoken } from '../../src/domain/lists.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

const T = '2025-05-01T10:00:00.000Z';
const account = (id = 1) => ({ id, name: `Account ${id}`, plan: 'enterprise', userKeys: [`key-${id}`] });
const product = (id: number) => ({ id, accountId: 1, name: `Product ${id}`, price: 9.5, createdAt: T });
const post = (
  id: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> & { id: number; createdAt: string } => ({
  id,
  createdAt: T,
  content: `post ${id}`,
  ...extra,
});
const posts = (from: number, count: number) => Array.from({ length: count }, (_, i) => post(from + i));
const feed = (id: number, list: unknown[]) => ({
  id,
  name: `Feed ${id}`,
  source: 'RSS',
  sourceType: 'feed',
  posts: list,
});
const wall = (id: number, feeds: unknown[]) => ({
  id,
  accountId: 1,
  name: `Wall ${id}`,
  url: `w${id}`,
  createdAt: T,
  feeds,
});
const file = (walls: unknown[], products: unknown[] = []) => ({ version: 1, accounts: [account()], products, walls });

let dir: string;
let ts: TestStore;
let store: Store;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-datafile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await ts?.close();
});

async function freshStore(): Promise<Store> {
  ts = await openTestStore(dir, `s${n++}`);
  store = ts.store;
  return store;
}

/** Writes `content` (a value, or JSON text as written) to a file of its own. */
function onDisk(content: unknown): string {
  const path = join(dir, `f${n++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function rowCounts(s: Store) {
  const count = async (table: 'accounts' | 'user_keys' | 'products' | 'walls' | 'feeds' | 'posts' | 'post_products') =>
    Number(
      (
        await s.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    accounts: await count('accounts'),
    keys: await count('user_keys'),
    products: await count('products'),
    walls: await count('walls'),
    feeds: await count('feeds'),
    posts: await count('posts'),
    tags: await count('post_products'),
  };
}
const EMPTY = { accounts: 0, keys: 0, products: 0, walls: 0, feeds: 0, posts: 0, tags: 0 };

async function importError(path: string): Promise<Error> {
  const err = await importDataFileFrom(store, path, Date.now()).then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(err).not.toBeNull();
  return err!;
}

describe('one transaction, the first problem by its path', () => {
  it('a problem in the very last record leaves the store unchanged', async () => {
    await freshStore();
    const list = posts(1, 1200);
    list[1199]!.createdAt = '2024-02-31T00:00:00.000Z';
    const err = await importError(onDisk(file([wall(1, [feed(1, list)])])));
    expect(err).toBeInstanceOf(DataFileError);
    expect(err.message).toBe(
      '$.walls[0].feeds[0].posts[1199].createdAt: "2024-02-31T00:00:00.000Z" is not an ISO 8601 date-time',
    );
    expect(await rowCounts(store)).toEqual(EMPTY);
  });

  it('of several problems, the first in the file is named (a schema problem does not jump ahead)', async () => {
    await freshStore();
    const list = posts(1, 1000);
    list[900]!.media = 'gif';
    list[10]!.createdAt = 'yesterday';
    expect((await importError(onDisk(file([wall(1, [feed(1, list)])])))).message).toMatch(
      /^\$\.walls\[0\]\.feeds\[0\]\.posts\[10\]\.createdAt: /,
    );
    expect(await rowCounts(store)).toEqual(EMPTY);
  });

  it('an id the file repeats, batches apart, and an id the store already holds', async () => {
    await freshStore();
    const list = posts(1, 700);
    list[650]!.id = 3;
    expect((await importError(onDisk(file([wall(1, [feed(1, list)])])))).message).toBe(
      '$.walls[0].feeds[0].posts[650].id: duplicate post id 3',
    );
    expect(await rowCounts(store)).toEqual(EMPTY);

    await importDataFileFrom(store, onDisk(file([wall(1, [feed(1, posts(1, 10))])])), Date.now());
    const second = { version: 1, walls: [wall(2, [feed(2, [...posts(100, 400), post(5), post(9)])])] };
    expect((await importError(onDisk(second))).message).toBe(
      '$.walls[0].feeds[0].posts[400].id: post 5 already exists in the store',
    );
    expect((await rowCounts(store)).posts).toBe(10);
  });

  it('an id already in the store comes before a later schema problem', async () => {
    await freshStore();
    await importDataFileFrom(store, onDisk(file([wall(1, [feed(1, posts(1, 10))])])), Date.now());
    const list = posts(100, 600);
    list[3]!.id = 7;
    list[500]!.media = 'gif';
    const second = { version: 1, walls: [wall(2, [feed(2, list)])] };
    expect((await importError(onDisk(second))).message).toBe(
      '$.walls[0].feeds[0].posts[3].id: post 7 already exists in the store',
    );
  });

  it('JSON that breaks off late changes nothing', async () => {
    await freshStore();
    const text = JSON.stringify(file([wall(1, [feed(1, posts(1, 2000))])]));
    const err = await importError(onDisk(text.slice(0, -200)));
    expect(err).toBeInstanceOf(DataFileSyntaxError);
    expect(err.message).toMatch(/^not valid JSON near byte \d+/);
    expect(await rowCounts(store)).toEqual(EMPTY);
  });

  it('the whole file must be an object with version 1', async () => {
    await freshStore();
    expect((await importError(onDisk('[]'))).message).toBe('$: must be object');
    expect((await importError(onDisk({ accounts: [account()] }))).message).toBe(
      '$: missing required field ["version"]',
    );
    expect((await importError(onDisk({ ...file([]), version: 2 }))).message).toBe(
      '$.version: must be equal to constant',
    );
    expect((await importError(onDisk({ version: 1, walls: {} }))).message).toBe('$.walls: must be array');
    expect(await rowCounts(store)).toEqual(EMPTY);
  });
});

describe('any order of sections and fields', () => {
  /** walls first, then products, then accounts; version last */
  const backwards = (productId = 2) =>
    `{"walls":${JSON.stringify([
      wall(1, [feed(1, [post(1, { products: [{ productId, left: 10, top: 20 }] }), post(2)])]),
    ])},"products":${JSON.stringify([product(2)])},"accounts":${JSON.stringify([account()])},"version":1}`;

  it('sections out of their load order are read again section by section, in one transaction', async () => {
    await freshStore();
    const counts = await importDataFileFrom(store, onDisk(backwards()), Date.now());
    expect(counts).toEqual({ accounts: 1, userKeys: 1, products: 1, walls: 1, feeds: 1, posts: 2 });
    expect(await rowCounts(store)).toEqual({
      ...EMPTY,
      accounts: 1,
      keys: 1,
      products: 1,
      walls: 1,
      feeds: 1,
      posts: 2,
      tags: 1,
    });
  });

  it('a dangling reference in such a file is still named by its path', async () => {
    await freshStore();
    expect((await importError(onDisk(backwards(99)))).message).toBe(
      '$.walls[0].feeds[0].posts[0].products[0].productId: no product 99',
    );
    expect(await rowCounts(store)).toEqual(EMPTY);
  });

  it('the same file in memory gives the same store', async () => {
    await freshStore();
    await importDataFile(store, JSON.parse(backwards()), Date.now());
    expect(await rowCounts(store)).toEqual({
      ...EMPTY,
      accounts: 1,
      keys: 1,
      products: 1,
      walls: 1,
      feeds: 1,
      posts: 2,
      tags: 1,
    });
  });

  it('a wall’s or feed’s fields may follow its feeds or posts', async () => {
    await freshStore();
    const feedsFirst = `{"feeds":[${JSON.stringify(feed(1, posts(1, 3)))}],"id":1,"accountId":1,"name":"W","url":"w","createdAt":"${T}"}`;
    const postsFirst = `{"posts":${JSON.stringify(posts(10, 3))},"id":2,"name":"F2","source":"RSS","sourceType":"feed","enabled":false}`;
    const tailFields = `{"id":2,"accountId":1,"name":"W2","url":"w2","createdAt":"${T}","feeds":[${postsFirst},{"id":3,"name":"F3","source":"Mastodon","sourceType":"tag","posts":${JSON.stringify(posts(20, 2))},"enabled":false}],"deleted":true,"profanity":2}`;
    const text = `{"version":1,"accounts":${JSON.stringify([account()])},"walls":[${feedsFirst},${tailFields}]}`;
    await importDataFileFrom(store, onDisk(text), Date.now());
    const walls = await store.db
      .selectFrom('walls')
      .select(['id', 'name', 'deleted_at', 'profanity'])
      .orderBy('id')
      .execute();
    expect(walls.map((w) => [w.id, w.name, w.deleted_at !== null, w.profanity])).toEqual([
      [1, 'W', false, 0],
      [2, 'W2', true, 2],
    ]);
    const feeds = await store.db.selectFrom('feeds').select(['id', 'wall_id', 'enabled']).orderBy('id').execute();
    expect(feeds).toEqual([
      { id: 1, wall_id: 1, enabled: 1 },
      { id: 2, wall_id: 2, enabled: 0 },
      { id: 3, wall_id: 2, enabled: 0 },
    ]);
    const stored = await store.db.selectFrom('posts').select(['id', 'feed_id', 'network_name']).orderBy('id').execute();
    expect(stored.map((p) => [p.id, p.feed_id, p.network_name])).toEqual([
      [1, 1, 'RSS'],
      [2, 1, 'RSS'],
      [3, 1, 'RSS'],
      [10, 2, 'RSS'],
      [11, 2, 'RSS'],
      [12, 2, 'RSS'],
      [20, 3, 'Mastodon'],
      [21, 3, 'Mastodon'],
    ]);
  });

  it('a field given twice around a wall’s feeds is refused', async () => {
    await freshStore();
    const text = `{"version":1,"accounts":${JSON.stringify([account()])},"walls":[{"id":1,"accountId":1,"name":"W","url":"w","createdAt":"${T}","feeds":[],"name":"again"}]}`;
    expect((await importError(onDisk(text))).message).toBe('$.walls[0].name: name appears twice in the object');
    expect(await rowCounts(store)).toEqual(EMPTY);
  });
});

describe('round trip and progress', () => {
  it('export of an import imports to the same export (products, tags, several walls and feeds)', async () => {
    const source = join(dir, 'generated.json');
    await writeDataFile(
      source,
      [
        { id: 1, posts: 1500, firstPostId: 1, feeds: 3 },
        { id: 2, posts: 300, firstPostId: 5000, feeds: 1 },
      ],
      true,
    );
    await freshStore();
    const progress: [number, number][] = [];
    const counts = await importDataFileFrom(store, source, Date.now(), (done, fraction) =>
      progress.push([done, fraction]),
    );
    expect(counts).toMatchObject({ accounts: 1, products: 20, walls: 2, feeds: 4, posts: 1800 });
    expect(progress.at(-1)).toEqual([1800, 1]);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]![0]).toBeGreaterThan(progress[i - 1]![0]);
      expect(progress[i]![1]).toBeGreaterThanOrEqual(progress[i - 1]![1]);
    }
    const first = join(dir, 'export-1.json');
    await exportDataFile(store.db, first);
    const original = ts;
    await freshStore();
    await importDataFileFrom(store, first, Date.now());
    const second = join(dir, 'export-2.json');
    await exportDataFile(store.db, second);
    expect(readFileSync(second, 'utf8')).toBe(readFileSync(first, 'utf8'));
    await original.close();
  });
});

describe('alt text (Wallery’s extension of the data file)', () => {
  const exported = async () => {
    const path = join(dir, `export-${n++}.json`);
    await exportDataFile(store.db, path);
    const text = readFileSync(path, 'utf8');
    const data = JSON.parse(text) as { walls: { feeds: { posts: Record<string, unknown>[] }[] }[] };
    return { text, posts: data.walls[0]!.feeds[0]!.posts };
  };

  it('a post’s and each child’s alt text: imported, exported, and imported again the same', async () => {
    const media = {
      postType: 4,
      media: 'image',
      picture: 'https://cdn.example/1.jpg',
      file: 'https://cdn.example/1.jpg',
      alt: 'a heron at dawn',
      children: [
        { image: 'https://cdn.example/1.jpg', video: '', alt: 'a heron at dawn' },
        { image: 'https://cdn.example/2.jpg', video: '' },
        { image: 'https://cdn.example/3.jpg', video: '', alt: '' },
      ],
    };
    await freshStore();
    await importDataFile(store, file([wall(1, [feed(1, [post(1, media)])])]), Date.now());
    const first = await exported();
    expect(first.posts[0]).toMatchObject({
      alt: 'a heron at dawn',
      children: [
        { image: 'https://cdn.example/1.jpg', video: '', alt: 'a heron at dawn' },
        { image: 'https://cdn.example/2.jpg', video: '' },
        { image: 'https://cdn.example/3.jpg', video: '' },
      ],
    });
    await freshStore();
    await importDataFile(store, JSON.parse(first.text), Date.now());
    expect((await exported()).text).toBe(first.text);
  });

  it('a file without alt text imports as before and exports without it', async () => {
    await freshStore();
    const children = [{ image: 'https://cdn.example/1.jpg', video: '' }];
    await importDataFile(store, file([wall(1, [feed(1, [post(1, { children }), post(2)])])]), Date.now());
    const rows = await store.db.selectFrom('posts').select(['alt', 'children']).orderBy('id').execute();
    expect(rows).toEqual([
      { alt: '', children: JSON.stringify(children) },
      { alt: '', children: '[]' },
    ]);
    const { posts: out } = await exported();
    expect(out.map((p) => 'alt' in p)).toEqual([false, false]);
    expect(out[0]!.children).toEqual(children);
  });
});

describe('attendee uploads (Wallery’s extension of the data file)', () => {
  const upload = {
    consentVersion: 3,
    consentText: 'I agree that my photo and name are shown on the wall.',
    consentedAt: '2025-05-01T10:05:00.000Z',
    deleteTokenHash: 'a'.repeat(64),
    uploaderHash: 'b'.repeat(64),
  };
  const exported = async () => {
    const path = join(dir, `export-${n++}.json`);
    await exportDataFile(store.db, path);
    const text = readFileSync(path, 'utf8');
    const data = JSON.parse(text) as { walls: { feeds: { posts: Record<string, unknown>[] }[] }[] };
    return { text, posts: data.walls[0]!.feeds[0]!.posts };
  };

  it('an upload’s consent and token digest: imported, exported, imported again the same; other posts have none', async () => {
    await freshStore();
    const uploads = { ...feed(1, [post(1, { upload }), post(2)]), source: 'upload', sourceType: 'submission page' };
    await importDataFile(store, file([wall(1, [uploads])]), Date.now());
    expect(await store.db.selectFrom('post_uploads').selectAll().execute()).toEqual([
      {
        post_id: 1,
        wall_id: 1,
        consent_version: 3,
        consent_text: upload.consentText,
        consented_at: Date.parse(upload.consentedAt),
        delete_token_hash: upload.deleteTokenHash,
        uploader_hash: upload.uploaderHash,
      },
    ]);
    const first = await exported();
    expect(first.posts[0]!.upload).toEqual(upload);
    expect('upload' in first.posts[1]!).toBe(false);
    await freshStore();
    await importDataFile(store, JSON.parse(first.text), Date.now());
    expect((await exported()).text).toBe(first.text);
  });

  it('a bad upload record is named by its path', async () => {
    await freshStore();
    const bad = { ...upload, deleteTokenHash: 'the token itself' };
    await expect(
      importDataFile(store, file([wall(1, [feed(1, [post(1, { upload: bad })])])]), Date.now()),
    ).rejects.toThrow(/\$\.walls\[0\]\.feeds\[0\]\.posts\[0\]\.upload\.deleteTokenHash/);
  });
});

describe('moderation (Wallery’s extension of the data file)', () => {
  const exported = async () => {
    const path = join(dir, `export-${n++}.json`);
    await exportDataFile(store.db, path);
    const text = readFileSync(path, 'utf8');
    return { text, data: JSON.parse(text) as { walls: Record<string, unknown>[] } };
  };

  it('walls’ and feeds’ modes, posts’ states and decisions: imported, exported, imported again the same', async () => {
    await freshStore();
    const decision = { by: 'moderator-ana', at: '2025-05-02T08:00:00.000Z', reason: 'spam' };
    const manual = {
      ...wall(1, [
        {
          ...feed(1, [post(1, { state: 'pending' }), post(2, { state: 'rejected', decision }), post(3)]),
          moderation: 'auto',
        },
        feed(2, [post(4, { state: 'approved', decision: { ...decision, reason: null } })]),
      ]),
      moderation: 'manual',
    };
    await importDataFile(store, file([manual]), Date.now());
    expect(await store.db.selectFrom('walls').select('moderation').execute()).toEqual([{ moderation: 'manual' }]);
    expect(await store.db.selectFrom('feeds').select(['id', 'moderation']).orderBy('id').execute()).toEqual([
      { id: 1, moderation: 'auto' },
      { id: 2, moderation: null },
    ]);
    const rows = await store.db
      .selectFrom('posts')
      .select(['id', 'state', 'decided_by', 'decided_at', 'decision_reason'])
      .orderBy('id')
      .execute();
    const at = Date.parse(decision.at);
    expect(rows).toEqual([
      { id: 1, state: 'pending', decided_by: null, decided_at: null, decision_reason: null },
      { id: 2, state: 'rejected', decided_by: 'moderator-ana', decided_at: at, decision_reason: 'spam' },
      { id: 3, state: 'approved', decided_by: null, decided_at: null, decision_reason: null },
      { id: 4, state: 'approved', decided_by: 'moderator-ana', decided_at: at, decision_reason: null },
    ]);
    const first = await exported();
    const w = first.data.walls[0] as {
      moderation: string;
      feeds: { moderation?: string; posts: Record<string, unknown>[] }[];
    };
    expect(w.moderation).toBe('manual');
    expect(w.feeds.map((f) => f.moderation)).toEqual(['auto', undefined]);
    expect(w.feeds[0]!.posts.map((p) => [p.state, p.decision])).toEqual([
      ['pending', undefined],
      ['rejected', decision],
      [undefined, undefined],
    ]);
    await freshStore();
    await importDataFile(store, JSON.parse(first.text), Date.now());
    expect((await exported()).text).toBe(first.text);
  });

  it('a file without them imports as today: auto walls, feeds of their wall’s mode, approved posts; exports without them', async () => {
    await freshStore();
    await importDataFile(store, file([wall(1, [feed(1, [post(1), post(2)])])]), Date.now());
    expect(await store.db.selectFrom('walls').select('moderation').execute()).toEqual([{ moderation: 'auto' }]);
    expect(await store.db.selectFrom('feeds').select('moderation').execute()).toEqual([{ moderation: null }]);
    expect(await store.db.selectFrom('posts').select('state').execute()).toEqual([
      { state: 'approved' },
      { state: 'approved' },
    ]);
    const { data } = await exported();
    const w = data.walls[0] as Record<string, unknown> & {
      feeds: (Record<string, unknown> & { posts: Record<string, unknown>[] })[];
    };
    expect('moderation' in w || 'moderation' in w.feeds[0]! || 'rules' in w).toBe(false);
    expect(w.feeds[0]!.posts.some((p) => 'state' in p || 'decision' in p || 'repost' in p || 'reply' in p)).toBe(false);
    expect(await store.db.selectFrom('walls').select('rules').execute()).toEqual([{ rules: '[]' }]);
    expect(await store.db.selectFrom('posts').select(['repost', 'reply']).execute()).toEqual([
      { repost: 0, reply: 0 },
      { repost: 0, reply: 0 },
    ]);
  });

  it('an unknown mode or state is refused with its path', async () => {
    await freshStore();
    await expect(
      importDataFile(store, file([{ ...wall(1, [feed(1, [post(1, { state: 'maybe' })])]) }]), Date.now()),
    ).rejects.toThrow(/\$\.walls\[0\]\.feeds\[0\]\.posts\[0\]\.state/);
    await freshStore();
    await expect(importDataFile(store, file([{ ...wall(1, []), moderation: 'later' }]), Date.now())).rejects.toThrow(
      /\$\.walls\[0\]\.moderation/,
    );
  });
});

describe('rules and repost/reply flags (Wallery’s extension of the data file)', () => {
  const RULES = [
    { id: 'spam', kind: 'keyword', action: 'reject', words: ['free money'], match: 'all' },
    { kind: 'repost', action: 'hold' },
    { id: 'r1', kind: 'reply', action: 'reject' },
    { kind: 'profanity', action: 'hold' },
  ];

  it('walls’ rules (as GET …/rules answers them), display defaults and posts’ flags: imported, exported, imported again the same', async () => {
    await freshStore();
    const flagged = feed(1, [
      post(1, { repost: true }),
      post(2, { reply: true, repost: false, sensitive: true }),
      post(3, { sensitive: false }),
    ]);
    // wall 1 gives its rules after its feeds (a wall's tail), wall 2 before them (its head, read before its feeds stream)
    const head = `{"id":2,"accountId":1,"name":"W2","url":"w2","createdAt":"${T}","rules":[{"id":"short","kind":"length","action":"hold","min":12}],"feeds":[${JSON.stringify(feed(2, posts(10, 1)))}]}`;
    const text = `{"version":1,"accounts":${JSON.stringify([account()])},"walls":[${JSON.stringify({ ...wall(1, [flagged]), rules: RULES })},${head},${JSON.stringify({ ...wall(3, []), layout: 'grid', theme: 'dark', columns: 4 })}]}`;
    await importDataFileFrom(store, onDisk(text), Date.now());
    const walls = await store.db.selectFrom('walls').select(['id', 'rules']).orderBy('id').execute();
    // ids kept; the absent ones assigned (not r1, which the file uses); defaults written out
    expect(walls.map((w) => [w.id, JSON.parse(w.rules) as unknown])).toEqual([
      [
        1,
        [
          RULES[0],
          { id: 'r2', kind: 'repost', action: 'hold' },
          RULES[2],
          { id: 'r3', kind: 'profanity', action: 'hold', languages: ['en'] },
        ],
      ],
      [2, [{ id: 'short', kind: 'length', action: 'hold', min: 12 }]],
      [3, []],
    ]);
    expect(
      await store.db.selectFrom('posts').select(['id', 'repost', 'reply', 'sensitive']).orderBy('id').execute(),
    ).toEqual([
      { id: 1, repost: 1, reply: 0, sensitive: 0 },
      { id: 2, repost: 0, reply: 1, sensitive: 1 },
      { id: 3, repost: 0, reply: 0, sensitive: 0 },
      { id: 10, repost: 0, reply: 0, sensitive: 0 },
    ]);
    const path = join(dir, `export-${n++}.json`);
    await exportDataFile(store.db, path);
    const first = readFileSync(path, 'utf8');
    const data = JSON.parse(first) as {
      walls: {
        rules?: unknown[];
        layout?: string;
        theme?: string;
        columns?: number;
        feeds: { posts: Record<string, unknown>[] }[];
      }[];
    };
    expect(data.walls.map((w) => w.rules)).toEqual(
      walls.map((w) => (w.rules === '[]' ? undefined : JSON.parse(w.rules))),
    );
    // the embed's display defaults: only where a wall has them
    expect(data.walls.map((w) => [w.layout, w.theme, w.columns])).toEqual([
      [undefined, undefined, undefined],
      [undefined, undefined, undefined],
      ['grid', 'dark', 4],
    ]);
    expect(data.walls[0]!.feeds[0]!.posts.map((p) => [p.repost, p.reply, p.sensitive])).toEqual([
      [true, undefined, undefined],
      [undefined, true, true],
      [undefined, undefined, undefined],
    ]);
    await freshStore();
    await importDataFile(store, JSON.parse(first), Date.now());
    const again = join(dir, `export-${n++}.json`);
    await exportDataFile(store.db, again);
    expect(readFileSync(again, 'utf8')).toBe(first);
  });

  it('a bad rule list is refused as the management API words it, at the JSON path of its first problem; nothing is stored', async () => {
    const cases: [unknown, string][] = [
      [{ kind: 'repost' }, '$.walls[0].rules: must be a list of at most 100 rules'],
      [[RULES[0], 'spam'], '$.walls[0].rules[1]: must be a rule object'],
      [
        [{ kind: 'boost', action: 'hold' }],
        // every kind, in order: keyword, author, profanity, media, repost, reply, sensitive, length, then the later ones
        `$.walls[0].rules[0].kind: must be ${spoken(RULE_KINDS)}`,
      ],
      [
        [RULES[1], { kind: 'keyword', action: 'reject', words: [] }],
        '$.walls[0].rules[1].words: words must be a list of 1 to 200 words or phrases, each with a letter or digit',
      ],
      [[{ kind: 'reply', action: 'hold', min: 3 }], '$.walls[0].rules[0].min: is not a field of a reply rule'],
      [[{ kind: 'media', action: 'hold' }], '$.walls[0].rules[0].require: is required'],
      [[RULES[2], { ...RULES[2], action: 'hold' }], '$.walls[0].rules[1].id: r1 is used by an earlier rule'],
    ];
    // a refused import leaves the store as it was: one store serves every case
    await freshStore();
    for (const [rules, message] of cases) {
      const err = await importError(onDisk(file([{ ...wall(1, [feed(1, posts(1, 2))]), rules }])));
      expect(err).toBeInstanceOf(DataFileError);
      expect(err.message, JSON.stringify(rules)).toBe(message);
      expect(await rowCounts(store)).toEqual(EMPTY);
    }
    // given before (all the cases above give them after the wall's feeds) or after a wall's feeds: checked all the same
    const before = `{"version":1,"accounts":${JSON.stringify([account()])},"walls":[{"id":1,"accountId":1,"name":"W","url":"w","createdAt":"${T}","rules":[{"kind":"reply","action":"drop"}],"feeds":[${JSON.stringify(feed(1, posts(1, 2)))}]}]}`;
    expect((await importError(onDisk(before))).message).toBe(
      '$.walls[0].rules[0].action: action must be reject, hold or approve',
    );
    expect(await rowCounts(store)).toEqual(EMPTY);
    const tail = `{"version":1,"accounts":${JSON.stringify([account()])},"walls":[{"id":1,"accountId":1,"name":"W","url":"w","createdAt":"${T}","feeds":[${JSON.stringify(feed(1, posts(1, 2)))}],"rules":[{"kind":"length","action":"hold","min":0}]}]}`;
    expect((await importError(onDisk(tail))).message).toBe(
      '$.walls[0].rules[0].min: min must be an integer from 1 to 10000',
    );
    expect(await rowCounts(store)).toEqual(EMPTY);
    // a flag must be a boolean
    expect((await importError(onDisk(file([wall(1, [feed(1, [post(1, { repost: 1 })])])])))).message).toMatch(
      /^\$\.walls\[0\]\.feeds\[0\]\.posts\[0\]\.repost: /,
    );
  });
});

describe('branding (Wallery’s extension of the data file)', () => {
  const BRANDING = {
    accent: '#E4572E',
    background: '#111',
    cardBackground: '#1b1e24',
    text: '#f5f5f5',
    font: 'serif',
    radius: 0,
    cardStyle: 'outlined',
    logoUrl: 'https://example.org/logo.svg',
    callToPost: 'Post with #harborfest',
    infoUrl: 'https://example.org/join',
    vars: { '--wallery-gap': '16px' },
  };

  it('a wall’s branding, given before or after its feeds: imported normalised, exported, imported again the same', async () => {
    await freshStore();
    const tail = `{"id":2,"accountId":1,"name":"W2","url":"w2","createdAt":"${T}","feeds":[],"branding":{"font":"mono"}}`;
    const text = `{"version":1,"accounts":${JSON.stringify([account()])},"walls":[${JSON.stringify({ ...wall(1, []), branding: BRANDING })},${tail},${JSON.stringify({ ...wall(3, []), branding: null })}]}`;
    await importDataFileFrom(store, onDisk(text), Date.now());
    const path = join(dir, `export-${n++}.json`);
    await exportDataFile(store.db, path);
    const first = readFileSync(path, 'utf8');
    const data = JSON.parse(first) as { walls: { branding?: Record<string, unknown> }[] };
    expect(data.walls[0]!.branding).toEqual({ ...BRANDING, accent: '#e4572e', background: '#111111' });
    expect(data.walls[1]!.branding).toMatchObject({ font: 'mono', accent: null, cardStyle: 'elevated' });
    // no branding: none written
    expect(data.walls[2]!.branding).toBeUndefined();
    await freshStore();
    await importDataFile(store, JSON.parse(first), Date.now());
    const again = join(dir, `export-${n++}.json`);
    await exportDataFile(store.db, again);
    expect(readFileSync(again, 'utf8')).toBe(first);
  });

  it('a bad branding or one below WCAG AA is refused at its JSON path; nothing is stored', async () => {
    await freshStore();
    const cases: [unknown, string][] = [
      [{ accent: 'red' }, '$.walls[0].branding.accent: must be null or a hex colour such as #1a2b3c or #abc'],
      [
        { vars: { '--evil': '1px' } },
        expect.stringMatching(/^\$\.walls\[0\]\.branding\.vars\.--evil: is not a variable/) as never,
      ],
      [
        { text: '#999999', cardBackground: '#ffffff' },
        '$.walls[0].branding.text: the text #999999 on the card background #ffffff has a contrast of 2.84:1; WCAG AA needs at least 4.5:1',
      ],
      ['dark', '$.walls[0].branding: must be an object'],
    ];
    for (const [branding, message] of cases) {
      const err = await importError(onDisk(file([{ ...wall(1, [feed(1, posts(1, 2))]), branding }])));
      expect(err).toBeInstanceOf(DataFileError);
      expect(err.message, JSON.stringify(branding)).toEqual(message);
      expect(await rowCounts(store)).toEqual(EMPTY);
    }
  });
});
