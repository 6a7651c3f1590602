// GET /attention (the console's Home) on the sample data, made to need
// attention through the store: posts waiting on two walls (and on a deleted
// one, which does not count), failing feeds, failing and disabled webhooks,
// accounts near their daily call limit, today's impressions and clicks —
// and what a token limited to one account sees of it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { utcDay } from '../../../src/domain/dates.js';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import type { AttentionRecord } from '../../../src/schemas/attention.js';
import { addCounts } from '../../../src/store/analytics.js';
import { raiseUsage } from '../../../src/store/usage.js';
import { describeSample } from '../../helpers/sample.js';
import { data, failure, startManageServer, type ManageServer } from './helpers.js';

describeSample('what needs attention (GET /attention)', () => {
  let m: ManageServer;
  let today: number;

  beforeAll(async () => {
    m = await startManageServer();
    today = utcDay(m.srv.clock.now);
  });
  afterAll(async () => m?.close());

  const db = () => m.srv.store.db;
  const get = async (token?: string) => data<AttentionRecord>(await m.api('GET', '/attention', undefined, token));

  /** The first `n` posts of a wall (by id) set pending. */
  async function makePending(wallId: number, n: number) {
    const ids = (
      await db().selectFrom('posts').select('id').where('wall_id', '=', wallId).orderBy('id').limit(n).execute()
    ).map((r) => r.id);
    await db().updateTable('posts').set({ state: 'pending' }).where('id', 'in', ids).execute();
  }

  async function feedFailed(feedId: number, failures: number, failing: boolean, error: string) {
    await db()
      .insertInto('feed_ingest_state')
      .values({
        feed_id: feedId,
        interval_s: 300,
        consecutive_failures: failures,
        failing: failing ? 1 : 0,
        last_error: error,
        last_error_at: m.srv.clock.now - 60_000,
      })
      .execute();
  }

  it('an instance with nothing to do: the counts of what the token sees, every list empty', async () => {
    const seen = await get();
    expect(seen).toEqual({
      day: new Date(m.srv.clock.now).toISOString().slice(0, 10),
      accounts: 5,
      // 7015 is deleted
      walls: 5,
      pending: { posts: 0, walls: { total: 0, items: [] } },
      failingFeeds: { total: 0, items: [] },
      failingWebhooks: { total: 0, items: [] },
      nearQuota: { total: 0, items: [] },
      today: { impressions: 0, clicks: 0, walls: { total: 0, items: [] } },
    });
  });

  it('lists what needs attention, the most urgent first', async () => {
    await makePending(7011, 3);
    await makePending(7013, 5);
    await makePending(7015, 2); // deleted: not counted
    await feedFailed(7101, 1, false, 'example.org did not answer within 10000 ms');
    await feedFailed(7105, 6, true, 'refused: 127.0.0.1 is a loopback address');
    await feedFailed(7110, 9, true, 'of a deleted wall');
    const hooks = [];
    for (const [accountId, url] of [
      [7001, 'https://hooks.example/a?token=secret'],
      [7002, 'https://hooks.example/b'],
      [7003, 'https://hooks.example/c'],
    ] as const) {
      hooks.push(
        data<{ id: number }>(await m.api('POST', '/webhooks', { accountId, url, events: ['post.approved'] }), 201),
      );
    }
    await db()
      .updateTable('webhooks')
      .set({ state: 'failing', consecutive_failures: 5, last_error_at: m.srv.clock.now })
      .where('id', '=', hooks[0]!.id)
      .execute();
    await db()
      .updateTable('webhooks')
      .set({ state: 'disabled', enabled: 0, consecutive_failures: 40, disabled_at: m.srv.clock.now })
      .where('id', '=', hooks[1]!.id)
      .execute();
    await raiseUsage(db(), 7005, today, 5); // 5 of 5
    await raiseUsage(db(), 7002, today, 85_000); // 85 % of 100,000
    await raiseUsage(db(), 7003, today, 50_000); // half: fine
    await raiseUsage(db(), 7001, today - 1, 10_000_000); // yesterday: over
    await addCounts(db(), [
      { wallId: 7011, day: today, type: 'impression', postId: 1, productId: 0, n: 40 },
      { wallId: 7011, day: today, type: 'click', postId: 1, productId: 0, n: 3 },
      { wallId: 7011, day: today, type: 'cta_click', postId: 1, productId: 0, n: 2 },
      { wallId: 7011, day: today, type: 'wall_load', postId: 0, productId: 0, n: 9 },
      { wallId: 7013, day: today, type: 'impression', postId: 2, productId: 0, n: 70 },
      { wallId: 7013, day: today - 1, type: 'impression', postId: 2, productId: 0, n: 1000 },
      { wallId: 7014, day: today, type: 'product_click', postId: 3, productId: 1, n: 1 },
    ]);

    const seen = await get();
    expect(seen.pending).toEqual({
      posts: 8,
      walls: {
        total: 2,
        items: [
          { wallId: 7013, wallName: 'Demo Widget Wall', accountId: 7002, pending: 5 },
          { wallId: 7011, wallName: 'Demo Summer Wall', accountId: 7001, pending: 3 },
        ],
      },
    });
    expect(seen.failingFeeds.total).toBe(2);
    expect(seen.failingFeeds.items.map((f) => [f.feedId, f.wallId, f.failures, f.failing])).toEqual([
      [7105, 7013, 6, true],
      [7101, 7011, 1, false],
    ]);
    expect(seen.failingFeeds.items[0]).toMatchObject({
      wallName: 'Demo Widget Wall',
      lastError: 'refused: 127.0.0.1 is a loopback address',
      lastErrorAt: new Date(m.srv.clock.now - 60_000).toISOString(),
    });
    expect(seen.failingWebhooks).toEqual({
      total: 2,
      items: [
        {
          webhookId: hooks[1]!.id,
          accountId: 7002,
          accountName: 'Demo Widgets',
          url: 'https://hooks.example/b',
          state: 'disabled',
          failures: 40,
          lastErrorAt: null,
        },
        {
          webhookId: hooks[0]!.id,
          accountId: 7001,
          accountName: 'Demo Outdoor',
          // the receiver's token in the query is not shown
          url: 'https://hooks.example/a',
          state: 'failing',
          failures: 5,
          lastErrorAt: new Date(m.srv.clock.now).toISOString(),
        },
      ],
    });
    expect(seen.nearQuota).toEqual({
      total: 2,
      items: [
        { accountId: 7005, accountName: 'Demo Tiny', calls: 5, dailyCallLimit: 5 },
        { accountId: 7002, accountName: 'Demo Widgets', calls: 85_000, dailyCallLimit: 100_000 },
      ],
    });
    expect(seen.today).toEqual({
      impressions: 110,
      clicks: 6,
      walls: {
        total: 3,
        items: [
          { wallId: 7013, wallName: 'Demo Widget Wall', impressions: 70, clicks: 0 },
          { wallId: 7011, wallName: 'Demo Summer Wall', impressions: 40, clicks: 5 },
          { wallId: 7014, wallName: 'Demo Shop Wall', impressions: 0, clicks: 1 },
        ],
      },
    });
  });

  it('a token limited to an account sees that account’s only; any role may read it', async () => {
    const { token } = await createOperatorToken(
      { db: db(), actor: CLI_ACTOR, now: m.srv.clock.now },
      { name: 'widgets-viewer', role: 'viewer', accounts: [7002] },
    );
    const seen = await get(token);
    expect(seen).toMatchObject({ accounts: 1, walls: 1 });
    expect(seen.pending.walls.items.map((w) => w.wallId)).toEqual([7013]);
    expect(seen.pending.posts).toBe(5);
    expect(seen.failingFeeds.items.map((f) => f.feedId)).toEqual([7105]);
    expect(seen.failingWebhooks.items.map((w) => w.accountId)).toEqual([7002]);
    expect(seen.nearQuota.items.map((a) => a.accountId)).toEqual([7002]);
    expect(seen.today).toMatchObject({ impressions: 70, clicks: 0 });
  });

  it('lists hold the first 50, with the whole count beside them', async () => {
    const made = await m.api('POST', '/walls', { accountId: 7003, name: 'Many feeds', url: 'many-feeds' });
    const wall = data<{ id: number }>(made, 201);
    const feeds = await db()
      .insertInto('feeds')
      .values(
        Array.from({ length: 55 }, (_, i) => ({
          wall_id: wall.id,
          name: `feed ${i}`,
          source: 'RSS',
          source_type: 'feed',
          created_at: m.srv.clock.now,
          updated_at: m.srv.clock.now,
          connector: null,
        })),
      )
      .returning('id')
      .execute();
    for (const f of feeds) await feedFailed(f.id, 2, false, 'down');
    const seen = await get();
    expect(seen.failingFeeds.total).toBe(57);
    expect(seen.failingFeeds.items).toHaveLength(50);
    expect(seen.failingFeeds.items[0]!.feedId).toBe(7105);
  });

  it('takes no query parameters and needs a token', async () => {
    failure(await m.api('GET', '/attention?wallId=1'), 400);
    failure(await m.api('GET', '/attention', undefined, null), 401);
  });
});
