// The audit log: every management write, with who, what, which target,
// when, and the changed fields before and after; written atomically with
// the change.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeSample, NOW } from '../../helpers/sample.js';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { data, failure, makeToken, startManageServer, type ManageServer } from './helpers.js';

interface Entry {
  id: number;
  at: string;
  tokenName: string;
  action: string;
  targetType: string;
  targetId: number | null;
  summary: { before: unknown; after: unknown; [k: string]: unknown };
}
interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

describeSample('audit log', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const latest = async () => data<Page<Entry>>(await m.api('GET', '/audit?limit=1')).data[0]!;

  it('records every kind of write with its target and a before/after summary', async () => {
    const at = new Date(NOW).toISOString();
    const writes: [string, string, unknown, Partial<Entry>][] = [
      ['POST', '/accounts', { name: 'Audited', plan: 'free' }, { action: 'account.create', targetType: 'account' }],
      [
        'PATCH',
        '/accounts/7004',
        { plan: 'widget' },
        { action: 'account.update', targetId: 7004, summary: { before: { plan: 'free' }, after: { plan: 'widget' } } },
      ],
      ['POST', '/accounts/7004/keys', undefined, { action: 'user_key.create', targetType: 'user_key' }],
      [
        'PATCH',
        '/walls/7012',
        { name: 'Audited wall' },
        {
          action: 'wall.update',
          targetId: 7012,
          summary: { before: { name: 'Demo Empty Wall' }, after: { name: 'Audited wall' } },
        },
      ],
      [
        'DELETE',
        '/walls/7012',
        undefined,
        { action: 'wall.delete', targetId: 7012, summary: { before: { deletedAt: null }, after: { deletedAt: at } } },
      ],
      ['POST', '/walls/7012/restore', undefined, { action: 'wall.restore', targetId: 7012 }],
      [
        'POST',
        '/walls/7012/feeds',
        { name: 'F', source: 'RSS', sourceType: 'page' },
        { action: 'feed.create', targetType: 'feed' },
      ],
      [
        'PATCH',
        '/walls/7011/posts/17001',
        { hidden: true },
        {
          action: 'post.update',
          targetType: 'post',
          targetId: 17001,
          summary: { before: { hidden: false }, after: { hidden: true }, wallId: 7011 },
        },
      ],
      [
        'POST',
        '/walls/7011/posts/bulk',
        { postIds: [17001, 17004], action: 'unhide' },
        {
          action: 'posts.bulk.unhide',
          targetType: 'wall',
          targetId: 7011,
          summary: { before: { 17001: { hidden: true } }, after: { hidden: false }, postIds: [17001, 17004] },
        },
      ],
      [
        'POST',
        '/walls/7011/posts/17004/products',
        { productId: 7501, left: 1, top: 2 },
        {
          action: 'post.tags.add',
          targetId: 17004,
          summary: { before: [], after: [{ productId: 7501, left: 1, top: 2 }], wallId: 7011 },
        },
      ],
      [
        'POST',
        '/products',
        { accountId: 7004, name: 'P', price: 1 },
        { action: 'product.create', targetType: 'product' },
      ],
      [
        'PATCH',
        '/products/7501',
        { price: 2 },
        { action: 'product.update', targetId: 7501, summary: { before: { price: 182.7 }, after: { price: 2 } } },
      ],
    ];
    for (const [method, path, body, expected] of writes) {
      const res = await m.api(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      const entry = await latest();
      expect(entry, `${method} ${path}`).toMatchObject({ tokenName: 'test-operator', at, ...expected });
    }
  });

  it('records nothing for reads and refused writes', async () => {
    const before = await latest();
    await m.api('GET', '/walls/7011/posts');
    failure(await m.api('PATCH', '/walls/7011', { name: '' }), 400);
    failure(await m.api('DELETE', '/walls/424242'), 404);
    failure(await m.api('POST', '/walls/7011/restore'), 409);
    failure(await m.api('POST', '/walls/7011/posts/bulk', { postIds: [17001, 1], action: 'hide' }), 400);
    expect(await latest()).toEqual(before);
  });

  it('never stores a plaintext key or token', async () => {
    const key = data<{ key: string }>(await m.api('POST', '/accounts/7001/keys'), 201).key;
    const { token } = await makeToken(m.srv, 'another');
    const rows = await m.srv.store.db.selectFrom('audit_log').select('summary').execute();
    const all = JSON.stringify(rows);
    expect(all).not.toContain(key);
    expect(all).not.toContain(token);
  });

  it('keeps a large value as its digest: five ~1 MB rule lists add kilobytes, not megabytes', async () => {
    const sizeOfLog = async () => {
      const rows = await m.srv.store.db.selectFrom('audit_log').select('summary').execute();
      return rows.reduce((n, r) => n + Buffer.byteLength(r.summary), 0);
    };
    const before = await sizeOfLog();
    /** Three author rules of 1000 long usernames: just under the 1 MiB body limit. */
    const rulesOf = (n: number) => ({
      rules: [0, 1, 2].map((r) => ({
        kind: 'author',
        action: 'reject',
        network: null,
        usernames: Array.from({ length: 1000 }, (_, i) => `write${n}-rule${r}-user${i}-${'x'.repeat(275)}`),
      })),
    });
    let sent = 0;
    for (let n = 0; n < 5; n++) {
      const body = rulesOf(n);
      sent += Buffer.byteLength(JSON.stringify(body));
      data(await m.api('PUT', '/walls/7011/rules', body));
    }
    expect(sent).toBeGreaterThan(4_400_000);
    const grown = (await sizeOfLog()) - before;
    expect(grown).toBeLessThan(10_000);
    // the entry still tells which rules were set: the digest of the stored list, its size and its start
    const entry = data<Page<Entry>>(await m.api('GET', '/audit?action=wall.rules.set&limit=1')).data[0]!;
    const { rules: stored } = await m.srv.store.db
      .selectFrom('walls')
      .select('rules')
      .where('id', '=', 7011)
      .executeTakeFirstOrThrow();
    expect(entry.summary.after).toEqual({
      rules: {
        truncated: true,
        sha256: createHash('sha256').update(stored).digest('hex'),
        bytes: Buffer.byteLength(stored),
        preview: `${stored.slice(0, 200)}…`,
      },
    });
    expect((entry.summary.before as { rules: { truncated: boolean } }).rules.truncated).toBe(true);
    data(await m.api('PUT', '/walls/7011/rules', { rules: [] }));
  });

  it('filters by target, action and token, newest first, paginated', async () => {
    const wall = data<Page<Entry>>(await m.api('GET', '/audit?targetType=wall&targetId=7012')).data;
    expect(wall.map((e) => e.action)).toEqual(['wall.restore', 'wall.delete', 'wall.update']);
    const updates = data<Page<Entry>>(await m.api('GET', '/audit?action=product.update')).data;
    expect(updates.map((e) => e.targetId)).toEqual([7501]);
    const cli = data<Page<Entry>>(await m.api('GET', '/audit?tokenName=cli')).data;
    expect(cli.every((e) => e.action === 'operator_token.create')).toBe(true);
    const ofAccount = data<Page<Entry & { accountId: number | null }>>(
      await m.api('GET', '/audit?accountId=7001&limit=200'),
    ).data;
    expect(ofAccount.length).toBeGreaterThan(0);
    expect(ofAccount.every((e) => e.accountId === 7001)).toBe(true);
    expect(ofAccount.map((e) => e.targetType)).toContain('wall');
    expect(failure(await m.api('GET', '/audit?accountId=x'), 400).map((e) => e.field)).toEqual(['accountId']);
    const all = data<Page<Entry>>(await m.api('GET', '/audit?limit=200')).data;
    const walked: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<Entry> = data(await m.api('GET', `/audit?limit=5${cursor ? `&cursor=${cursor}` : ''}`));
      walked.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all.map((e) => e.id));
    expect([...walked].sort((a, b) => b - a)).toEqual(walked);
  });

  it('gives one post’s history: its own changes and the bulk actions of its wall that listed it', async () => {
    const writes: [string, string, unknown][] = [
      ['PATCH', '/walls/7011/posts/17010', { pinned: true }],
      ['POST', '/walls/7011/posts/bulk', { postIds: [17013, 17010], action: 'hide' }], // last in the list
      ['POST', '/walls/7011/posts/bulk', { postIds: [17010], action: 'unpin' }], // alone
      ['POST', '/walls/7011/posts/bulk', { postIds: [17010, 17013], action: 'highlight' }], // first
      ['POST', '/walls/7011/posts/bulk', { postIds: [17013, 17010, 17016], action: 'unhide' }], // in the middle
      ['POST', '/walls/7011/posts/bulk', { postIds: [17013, 170100], action: 'pin' }], // not it (refused: no such post)
      ['POST', '/walls/7011/posts/bulk', { postIds: [17013], action: 'pin' }], // not it
      ['PATCH', '/walls/7011/posts/17013', { hidden: true }], // another post
    ];
    for (const [method, path, body] of writes) await m.api(method, path, body);
    const history = data<Page<Entry>>(await m.api('GET', '/audit?postId=17010')).data;
    expect(history.map((e) => [e.action, e.targetType, e.targetId])).toEqual([
      ['posts.bulk.unhide', 'wall', 7011],
      ['posts.bulk.highlight', 'wall', 7011],
      ['posts.bulk.unpin', 'wall', 7011],
      ['posts.bulk.hide', 'wall', 7011],
      ['post.update', 'post', 17010],
    ]);
    // with the other filters, paged like every list
    const firstPage = data<Page<Entry>>(await m.api('GET', '/audit?postId=17010&limit=2'));
    expect(firstPage.data.map((e) => e.action)).toEqual(['posts.bulk.unhide', 'posts.bulk.highlight']);
    const next = data<Page<Entry>>(await m.api('GET', `/audit?postId=17010&limit=2&cursor=${firstPage.nextCursor}`));
    expect(next.data.map((e) => e.action)).toEqual(['posts.bulk.unpin', 'posts.bulk.hide']);
    const own = data<Page<Entry>>(await m.api('GET', '/audit?postId=17010&targetType=post')).data;
    expect(own.map((e) => e.action)).toEqual(['post.update']);
    // a post no one changed, one that does not exist: no entries; not an id: the field named
    expect(data<Page<Entry>>(await m.api('GET', '/audit?postId=17019')).data).toEqual([]);
    expect(data<Page<Entry>>(await m.api('GET', '/audit?postId=999999')).data).toEqual([]);
    expect(failure(await m.api('GET', '/audit?postId=x'), 400).map((e) => e.field)).toEqual(['postId']);
  });

  it('shows a post’s history to a token of its account, and nothing to a token of another', async () => {
    const token = async (name: string, accounts: number[]) =>
      (
        await createOperatorToken(
          { db: m.srv.store.db, actor: CLI_ACTOR, now: NOW },
          { name, role: 'viewer', accounts },
        )
      ).token;
    const [own, other] = [await token('own-viewer', [7001]), await token('other-viewer', [7002])];
    const history = (as: string) => m.api('GET', '/audit?postId=17010', undefined, as);
    expect(data<Page<Entry>>(await history(own)).data.length).toBe(5);
    expect(data<Page<Entry>>(await history(other)).data).toEqual([]);
  });
});
