// Rights management in the data file (Wallery's extension of contract §8):
// walls' rightsRequired/rightsAuto, each post's rights (state, evidence and
// trail), the accounts' settings and opt-out lists. Made with the real
// service on one store, exported, imported into another and exported again:
// the same file, the same evidence, the same holds (recomputed on import).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RIGHTS_SETTINGS } from '../../src/domain/rights.js';
import { getPostRights } from '../../src/manage/rights.js';
import { createFetcher } from '../../src/net/fetcher.js';
import { recordAnswer, requestRights } from '../../src/rights/service.js';
import { exportDataFile, importDataFile, importDataFileFrom } from '../../src/store/datafile.js';
import {
  addOptOut,
  findPostRights,
  findRightsSettings,
  listOptOuts,
  refreshHolds,
  saveRightsSettings,
} from '../../src/store/rights.js';
import type { Store } from '../../src/store/store.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

const T = '2025-05-01T10:00:00.000Z';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const post = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  createdAt: T,
  content: `post ${id}`,
  networkName: 'Instagram',
  username: `author_${id}`,
  authorName: `Author ${id}`,
  linkUrl: `https://www.instagram.com/p/${id}/`,
  ...extra,
});
const tagged = { products: [{ productId: 1, left: 50, top: 50 }] };
/** Two walls of account 1: wall 1 (posts 1–3 tagged 1 and 2), wall 2 (posts 10–12, a custom post 13). */
const base = (walls: { 1?: Record<string, unknown>; 2?: Record<string, unknown> } = {}) => ({
  version: 1,
  accounts: [
    { id: 1, name: 'Harbor', plan: 'enterprise', userKeys: ['harbor-key-1'] },
    { id: 2, name: 'Other', plan: 'enterprise', userKeys: ['other-key-1'] },
  ],
  products: [{ id: 1, accountId: 1, name: 'Mug', price: 9.5, createdAt: T }],
  walls: [
    {
      id: 1,
      accountId: 1,
      name: 'Shop',
      url: 'shop',
      createdAt: T,
      ...walls[1]!,
      feeds: [
        {
          id: 1,
          name: 'Tag',
          source: 'Instagram',
          sourceType: 'hashtag',
          posts: [post(1, tagged), post(2, tagged), post(3)],
        },
      ],
    },
    {
      id: 2,
      accountId: 1,
      name: 'Event',
      url: 'event',
      createdAt: T,
      ...walls[2]!,
      feeds: [
        { id: 2, name: 'Feed', source: 'RSS', sourceType: 'feed', posts: [post(10), post(11), post(12)] },
        {
          id: 3,
          name: 'Custom',
          source: 'Custom',
          sourceType: 'post',
          posts: [post(13, { networkName: 'Custom', username: '' })],
        },
      ],
    },
  ],
});

type Json = Record<string, unknown>;
/** A data file as these tests read and spoil it. */
interface FileShape {
  accounts: (Json & { rights?: { settings?: Json; optOuts?: ({ author: string; reason: string } & Json)[] } })[];
  walls: (Json & { feeds: (Json & { posts: (Json & { rights?: Json & { events?: Json[] } })[] })[] })[];
}

let dir: string;
const open: TestStore[] = [];
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-datafile-rights-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function freshStore(): Promise<Store> {
  const ts = await openTestStore(dir, `r${n++}`);
  open.push(ts);
  return ts.store;
}

async function exported(store: Store): Promise<{ path: string; text: string; data: FileShape }> {
  const path = join(dir, `export-${n++}.json`);
  await exportDataFile(store.db, path);
  const text = readFileSync(path, 'utf8');
  return { path, text, data: JSON.parse(text) as FileShape };
}

const holds = async (store: Store) =>
  (
    await store.db
      .selectFrom('posts')
      .select(['id', 'rights_hold'])
      .where('rights_hold', '<>', 0)
      .orderBy('id')
      .execute()
  ).map((r) => r.id);

describe('rights in the data file', () => {
  it('asked, answered and opted out with the service: exported, imported, exported again the same; holds recomputed', async () => {
    const a = await freshStore();
    await importDataFile(
      a,
      base({ 1: { rightsRequired: 'shoppable', rightsAuto: 'shoppable' }, 2: { rightsRequired: 'all' } }),
      NOW,
    );
    // a file's walls requiring rights hold their posts at once
    expect(await holds(a)).toEqual([1, 2, 10, 11, 12]);

    let clock = NOW;
    const fetcher = createFetcher({ allowPrivateNetworks: false, timeoutMs: 1000, maxBytes: 1024, hostConcurrency: 1 });
    try {
      const deps = { db: a.db, secretKey: null, fetcher, memory: new Map(), now: () => clock };
      await saveRightsSettings(
        a.db,
        1,
        {
          ...DEFAULT_RIGHTS_SETTINGS,
          grantHashtag: 'YesHarbor',
          brand: 'Harbor',
          perAuthorPerDay: 3,
          connections: { mastodon: 77 },
        },
        clock,
      );
      await addOptOut(a.db, {
        accountId: 1,
        author: 'instagram:someone',
        reason: 'operator',
        postId: null,
        note: 'by e-mail',
        now: clock,
      });
      const asked = await requestRights(deps, [2, 3, 10, 11], { actor: 'ana-token' });
      expect(asked.map((o) => o.ok)).toEqual([true, true, true, true]);
      clock += 60_000;
      expect(
        await recordAnswer(deps, 2, {
          state: 'granted',
          actor: 'ana-token',
          note: 'agreed by e-mail',
          url: 'https://mail.example/1',
        }),
      ).toMatchObject({ ok: true });
      expect(await recordAnswer(deps, 10, { state: 'granted', actor: 'cli', note: null, url: null })).toMatchObject({
        ok: true,
      });
      clock += 60_000;
      expect(
        await recordAnswer(deps, 10, { state: 'revoked', actor: 'cli', note: '=took it back', url: null }),
      ).toMatchObject({ ok: true });
      expect(await recordAnswer(deps, 11, { state: 'declined', actor: 'cli', note: 'no', url: null })).toMatchObject({
        ok: true,
      });
      expect(
        await recordAnswer(deps, 12, { state: 'granted', actor: 'cli', note: 'signed release', url: null }),
      ).toMatchObject({ ok: true });
    } finally {
      await fetcher.close();
    }
    expect(await holds(a)).toEqual([1, 10, 11]);

    const first = await exported(a);
    const [w1, w2] = first.data.walls;
    expect([w1!.rightsRequired, w1!.rightsAuto, w2!.rightsRequired, 'rightsAuto' in w2!]).toEqual([
      'shoppable',
      'shoppable',
      'all',
      false,
    ]);
    const account = first.data.accounts[0]!;
    expect(account.rights!.settings).toEqual({
      ...DEFAULT_RIGHTS_SETTINGS,
      grantHashtag: 'YesHarbor',
      brand: 'Harbor',
      perAuthorPerDay: 3,
    });
    expect(account.rights!.optOuts!.map((o: { author: string; reason: string }) => [o.author, o.reason])).toEqual([
      ['instagram:someone', 'operator'],
      ['instagram:author_11', 'declined'],
    ]);
    expect('rights' in first.data.accounts[1]!).toBe(false);
    const p2 = w1!.feeds[0]!.posts[1]!;
    expect(p2.rights).toMatchObject({
      state: 'granted',
      method: 'manual',
      requestedBy: 'ana-token',
      decidedBy: 'ana-token',
      answerUrl: 'https://mail.example/1',
    });
    expect(p2.rights!.events!.map((e) => e.kind)).toEqual(['requested', 'recorded']);
    expect('rights' in w1!.feeds[0]!.posts[0]!).toBe(false);

    const b = await freshStore();
    await importDataFileFrom(b, first.path, NOW + DAY);
    expect((await exported(b)).text).toBe(first.text);
    expect(await holds(b)).toEqual([1, 10, 11]);
    for (const [wallId, postId] of [
      [1, 1],
      [1, 2],
      [1, 3],
      [2, 10],
      [2, 11],
      [2, 12],
      [2, 13],
    ] as const)
      expect(await getPostRights(b.db, wallId, postId)).toEqual(await getPostRights(a.db, wallId, postId));
    expect(await listOptOuts(b.db, 1)).toEqual(await listOptOuts(a.db, 1));
    // the connection each network asks with is not in the file (connections are not)
    expect(await findRightsSettings(b.db, 1)).toEqual({ ...(await findRightsSettings(a.db, 1)), connections: {} });
    // the public views follow: held posts stay out of the counts
    const visible = await b.db
      .selectFrom('posts')
      .select('id')
      .where('rights_hold', '=', 0)
      .where('wall_id', '=', 2)
      .orderBy('id')
      .execute();
    expect(visible.map((r) => r.id)).toEqual([12, 13]);
  });

  it('a request sent by a reply keeps its evidence; nothing listens for its answer after an import', async () => {
    const s = await freshStore();
    const file = base({ 2: { rightsRequired: 'all' } }) as unknown as FileShape;
    const rights = {
      state: 'requested',
      method: 'reply',
      network: 'Mastodon',
      author: 'mastodon:ana@harbor.social',
      authorName: 'Ana',
      postUrl: 'https://harbor.social/@ana/1',
      requestText: 'Hi @ana@harbor.social! Reply #YesPlease.',
      requestId: '113200000000000001',
      requestUrl: 'https://social.example/@brand/113200000000000001',
      requestRef: { instance: 'https://social.example', statusId: '113200000000000001' },
      authorRef: '109000000000000001',
      requestedAt: '2026-01-10T09:00:00.000Z',
      requestedBy: 'rule',
      expiresAt: '2026-01-24T09:00:00.000Z',
      events: [
        { at: '2026-01-10T09:00:00.000Z', kind: 'requested', actor: 'rule', detail: { method: 'reply', text: 'Hi' } },
      ],
    };
    file.walls[1]!.feeds[0]!.posts[0]!.rights = rights;
    await importDataFile(s, file, NOW);
    const row = await findPostRights(s.db, 10);
    expect(row).toMatchObject({
      account_id: 1,
      wall_id: 2,
      state: 'requested',
      method: 'reply',
      author: 'mastodon:ana@harbor.social',
      request_id: '113200000000000001',
      request_ref: JSON.stringify(rights.requestRef),
      author_ref: '109000000000000001',
      requested_at: Date.parse(rights.requestedAt),
      expires_at: Date.parse(rights.expiresAt),
      connection_id: null,
      listen_at: null,
    });
    const post = await s.db
      .selectFrom('posts')
      .select(['rights_state', 'rights_hold'])
      .where('id', '=', 10)
      .executeTakeFirstOrThrow();
    expect(post).toEqual({ rights_state: 'requested', rights_hold: 1 });
    const again = await exported(s);
    expect(again.data.walls[1]!.feeds[0]!.posts[0]!.rights).toEqual({
      ...rights,
      answerId: null,
      answerUrl: null,
      answerText: null,
      answeredAt: null,
      answerEditedAt: null,
      decidedBy: null,
      note: null,
    });
    // the watcher's reconciliation finds the holds as the import left them
    expect(await refreshHolds(s.db, 2)).toBe(0);
  });

  it('a file without rights imports as before and exports without them', async () => {
    const s = await freshStore();
    await importDataFile(s, base(), NOW);
    expect(await holds(s)).toEqual([]);
    const out = await exported(s);
    expect(out.text).not.toMatch(/"rights/);
    expect(await s.db.selectFrom('post_rights').selectAll().execute()).toEqual([]);
    expect(await s.db.selectFrom('rights_settings').selectAll().execute()).toEqual([]);
  });

  it.each([
    [
      'an unknown state',
      (f: FileShape) =>
        (f.walls[0]!.feeds[0]!.posts[0]!.rights = {
          state: 'maybe',
          method: 'manual',
          requestedAt: T,
          requestedBy: 'cli',
        }),
      /^\$\.walls\[0\]\.feeds\[0\]\.posts\[0\]\.rights\.state: /,
    ],
    [
      'a bad date in the trail',
      (f: FileShape) =>
        (f.walls[0]!.feeds[0]!.posts[0]!.rights = {
          state: 'granted',
          method: 'manual',
          requestedAt: T,
          requestedBy: 'cli',
          events: [{ at: 'yesterday', kind: 'recorded', actor: 'cli' }],
        }),
      /^\$\.walls\[0\]\.feeds\[0\]\.posts\[0\]\.rights\.events\[0\]\.at: "yesterday" is not an ISO 8601 date-time$/,
    ],
    [
      'a wall requirement that does not exist',
      (f: FileShape) => (f.walls[1]!.rightsRequired = 'some'),
      /^\$\.walls\[1\]\.rightsRequired: /,
    ],
    [
      'a template that does not say how to grant',
      (f: FileShape) => (f.accounts[0]!.rights = { settings: { template: 'May we, {author}?' } }),
      /^\$\.accounts\[0\]\.rights\.settings\.template: must say how to grant/,
    ],
    [
      'an author on the opt-out list twice',
      (f: FileShape) =>
        (f.accounts[0]!.rights = {
          optOuts: [
            { author: 'rss:bo', reason: 'operator', createdAt: T },
            { author: 'RSS:Bo', reason: 'declined', createdAt: T },
          ],
        }),
      /^\$\.accounts\[0\]\.rights\.optOuts\[1\]\.author: rss:bo is on the list twice$/,
    ],
    [
      'an opt-out that is no network:handle',
      (f: FileShape) => (f.accounts[0]!.rights = { optOuts: [{ author: 'bo', reason: 'operator', createdAt: T }] }),
      /^\$\.accounts\[0\]\.rights\.optOuts\[0\]\.author: /,
    ],
  ])('%s is refused at its JSON path; nothing is stored', async (_name, spoil, message) => {
    const s = await freshStore();
    const file = base() as unknown as FileShape;
    spoil(file);
    await expect(importDataFile(s, file, NOW)).rejects.toThrow(message);
    expect(await s.db.selectFrom('accounts').selectAll().execute()).toEqual([]);
  });
});

const DAY = 86_400_000;
