// The ingestion runtime: which feeds are polled, crash safety, leases,
// setting changes, the tick, and stopping cleanly.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { IngestRuntime } from '../../src/ingest/runtime.js';
import { openHookedStore } from '../helpers/hooked-store.js';
import { eventually } from '../helpers/poll.js';
import { ChangeBus } from '../../src/store/changes.js';
import { rssXml, startFeeds, type FeedFixture, type RssItem } from './fixtures/feeds.js';
import { NOW, ingestState, startHarness, storedPosts, testIngestConfig, untilDue, type Harness } from './harness.js';

let fx: FeedFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const items = (n: number, prefix = 'item'): RssItem[] =>
  Array.from({ length: n }, (_, i) => ({
    guid: `${prefix}-${i}`,
    title: `Post ${i}`,
    link: `https://blog.example/${prefix}/${i}`,
    pubDate: new Date(NOW - (i + 1) * 60_000).toUTCString(),
    description: `Body ${i}`,
  }));

async function withFeeds(feeds: Parameters<typeof startHarness>[0], options: Parameters<typeof startHarness>[1] = {}) {
  h = await startHarness(feeds, options);
}

const rss = (path = '/feed.xml') => ({ kind: 'rss', url: `${fx.origin}${path}` });

describe('which feeds are polled', () => {
  it('only enabled feeds with a connector on live walls', async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(2)), type: 'application/rss+xml' });
    await withFeeds([
      { id: 201, name: 'with connector', connector: rss() },
      { id: 202, name: 'imported only', connector: null },
      { id: 203, name: 'disabled', connector: rss(), enabled: false },
    ]);
    const reports = await h.poll();
    expect(reports.map((r) => [r.feedId, r.status])).toEqual([[201, 'ok']]);
    const states = await h.server.store.db
      .selectFrom('feed_ingest_state')
      .select('feed_id')
      .orderBy('feed_id')
      .execute();
    expect(states.map((s) => s.feed_id)).toEqual([201, 203]);
    expect((await h.poll(203))[0]).toMatchObject({ status: 'skipped', message: 'the feed is disabled' });
    expect((await h.poll(202))[0]).toMatchObject({ status: 'skipped', message: 'the feed has no connector' });
    expect((await h.poll(999))[0]).toMatchObject({ status: 'skipped', message: 'no feed 999' });

    // a deleted wall is never polled, its feeds stay
    await h.server.store.db.updateTable('walls').set({ deleted_at: NOW }).execute();
    h.clock.now += 86_400_000;
    expect(await h.poll()).toEqual([]);
    expect((await h.poll(201))[0]).toMatchObject({ status: 'skipped', message: 'the wall is deleted' });
    expect(fx.requests).toHaveLength(1);
  });

  it('a stored setting that is not valid fails the feed; it is kept, never disabled', async () => {
    fx = await startFeeds();
    await withFeeds([{ id: 201, name: 'x', connector: rss() }]);
    await h.server.store.db
      .updateTable('feeds')
      .set({ connector: '{"kind":"rss","url":"gopher://x"}' })
      .where('id', '=', 201)
      .execute();
    expect((await h.poll())[0]).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^the connector setting is invalid: url /),
    });
    await h.server.store.db.updateTable('feeds').set({ connector: '{not json' }).where('id', '=', 201).execute();
    expect((await h.poll(201))[0]).toMatchObject({
      status: 'failed',
      message: 'the connector setting is not valid JSON',
    });
    expect(await h.server.store.db.selectFrom('feeds').select(['id', 'enabled']).execute()).toEqual([
      { id: 201, enabled: 1 },
    ]);
  });

  it('a connection that is refused is a failure like any other', async () => {
    fx = await startFeeds();
    const url = `${fx.origin}/feed.xml`;
    await fx.close();
    await withFeeds([{ id: 201, name: 'x', connector: { kind: 'rss', url } }]);
    const [r] = await h.poll();
    expect(r!.status).toBe('failed');
    expect(r!.message).toMatch(/ECONNREFUSED/);
    fx = await startFeeds(); // for afterEach
  });
});

describe('crash safety', () => {
  async function failInsertsOf(externalId: string) {
    const db = h.server.store.db;
    if (h.server.store.name === 'sqlite') {
      await sql
        .raw(
          `create trigger wallery_test_crash before insert on posts when new.external_id = '${externalId}' begin select raise(abort, 'simulated crash'); end`,
        )
        .execute(db);
    } else {
      await sql
        .raw(
          `create function wallery_test_crash() returns trigger language plpgsql as $$ begin if new.external_id = '${externalId}' then raise exception 'simulated crash'; end if; return new; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          'create trigger wallery_test_crash before insert on posts for each row execute function wallery_test_crash()',
        )
        .execute(db);
    }
  }
  async function healed() {
    await sql
      .raw(`drop trigger wallery_test_crash${h.server.store.name === 'sqlite' ? '' : ' on posts'}`)
      .execute(h.server.store.db);
  }

  it('a poll that dies mid-write keeps what it stored, and the next poll completes it without duplicates', async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(120)), type: 'application/rss+xml' });
    await withFeeds([{ id: 201, name: 'big', connector: rss() }]);
    await failInsertsOf('item-77');
    const [crashed] = await h.poll();
    expect(crashed).toMatchObject({ status: 'failed', inserted: 50 });
    expect(crashed!.message).toMatch(/simulated crash/);
    expect(await storedPosts(h, 201)).toHaveLength(50);
    // the validators did not move: the next poll is not answered 304
    expect((await ingestState(h, 201)).etag).toBeNull();
    expect(h.changed).toHaveLength(1);

    await healed();
    await untilDue(h, 201);
    const [done] = await h.poll();
    expect(done).toMatchObject({ status: 'ok', inserted: 70, updated: 0 });
    const stored = await storedPosts(h, 201);
    expect(stored).toHaveLength(120);
    expect(new Set(stored.map((p) => p.external_id)).size).toBe(120);
    await untilDue(h, 201);
    expect((await h.poll())[0]).toMatchObject({ status: 'not_modified' });
  });
});

describe('leases', () => {
  it('a feed another poller holds is skipped until its lease runs out', async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(3)), type: 'application/rss+xml' });
    await withFeeds([{ id: 201, name: 'x', connector: rss() }]);
    await h.runtime.runOnce({ feedId: 999 }); // makes the state rows
    await h.server.store.db
      .updateTable('feed_ingest_state')
      .set({ lease_owner: 'someone-else', lease_until: NOW + 60_000 })
      .execute();
    expect(await h.poll()).toEqual([]);
    expect((await h.poll(201))[0]).toMatchObject({ status: 'skipped', message: 'another poller holds this feed' });
    h.clock.now = NOW + 60_001;
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 3 });
    expect(await ingestState(h, 201)).toMatchObject({ lease_owner: null, lease_until: null });
  });

  it('two pollers on one store: each feed is polled once', async () => {
    fx = await startFeeds();
    fx.handler = async () => {
      await new Promise((r) => setTimeout(r, 100));
      return { status: 200, headers: { 'content-type': 'application/rss+xml' }, body: rssXml(items(5)) };
    };
    await withFeeds([{ id: 201, name: 'x', connector: rss() }]);
    const other = new IngestRuntime({
      db: h.server.store.db,
      changes: new ChangeBus(),
      config: testIngestConfig(),
      now: () => h.clock.now,
      owner: 'other-poller',
    });
    try {
      const [a, b] = await Promise.all([h.poll(), other.runOnce()]);
      const polled = [...a!, ...b!].filter((r) => r.status === 'ok');
      expect(polled).toHaveLength(1);
      expect(fx.requests).toHaveLength(1);
      expect(await storedPosts(h, 201)).toHaveLength(5);
    } finally {
      await other.stop();
    }
  });
  // The race behind a CI failure: poller B reads a feed that was never polled
  // (due whatever its schedule says), poller A polls it completely, then B
  // claims the lease A has just released. B must see the poll it missed.
  it("a poller whose read predates another poller's finished poll does not poll again", async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(2)), type: 'application/rss+xml' });
    await withFeeds([{ id: 201, name: 'x', connector: rss() }]);
    await h.runtime.runOnce({ feedId: 999 }); // makes the state rows
    let aDone: Promise<unknown> | null = null;
    const dbB = openHookedStore(h.server.dir, async (q) => {
      // B is about to claim: A runs its whole poll first
      if (aDone === null && /^update "feed_ingest_state" set "lease_owner"/.test(q.sql)) {
        aDone = h.runtime.pollFeed(201);
        await aDone;
      }
    });
    const b = new IngestRuntime({
      db: dbB,
      changes: new ChangeBus(),
      config: testIngestConfig(),
      now: () => h.clock.now,
      owner: 'poller-b',
    });
    try {
      const report = await b.pollFeed(201);
      expect(aDone).not.toBeNull();
      expect(await aDone).toMatchObject({ status: 'ok', inserted: 2 });
      expect(report).toMatchObject({ status: 'skipped', message: 'another poller holds this feed' });
      expect(fx.requests).toHaveLength(1);
      expect(await ingestState(h, 201)).toMatchObject({ lease_owner: null, last_new_posts: 2 });
    } finally {
      await b.stop();
      await dbB.destroy();
    }
  });
});

describe('setting changes', () => {
  it('a new connector setting is polled at once and starts afresh', async () => {
    fx = await startFeeds();
    fx.documents.set('/a.xml', { body: rssXml(items(2, 'a')), type: 'application/rss+xml' });
    fx.documents.set('/b.xml', { body: rssXml(items(3, 'b')), type: 'application/rss+xml' });
    await withFeeds([{ id: 201, name: 'x', connector: rss('/a.xml') }]);
    await h.poll();
    expect((await ingestState(h, 201)).next_poll_at).toBeGreaterThan(NOW);
    await h.server.store.db
      .updateTable('feeds')
      .set({ connector: JSON.stringify(rss('/b.xml')) })
      .where('id', '=', 201)
      .execute();
    const [r] = await h.poll();
    expect(r).toMatchObject({ status: 'ok', inserted: 3 });
    expect(fx.requests.at(-1)!.headers['if-none-match']).toBeUndefined();
    expect((await storedPosts(h, 201)).length).toBe(5);
  });
});

describe('the running runtime', () => {
  it('the tick polls due feeds by itself; stop() waits and releases the feed', async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(4)), type: 'application/rss+xml' });
    await withFeeds([{ id: 201, name: 'x', connector: rss() }], { runtime: { tickMs: 20 } });
    h.runtime.start();
    await eventually(
      "the tick stores the feed's 4 posts",
      () => storedPosts(h, 201),
      (p) => p.length === 4,
      60_000,
      15,
    );
    await h.runtime.stop();
    const seen = fx.requests.length;
    await new Promise((r) => setTimeout(r, 80));
    expect(fx.requests.length).toBe(seen);
    expect(await ingestState(h, 201)).toMatchObject({ lease_owner: null, consecutive_failures: 0 });
  });

  it('more feeds due than a tick starts: the next batch follows as the polls run short, not a tick later', async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(1)), type: 'application/rss+xml' });
    // 250 due feeds, a tick starts 100; the next tick is an hour away
    const feeds = Array.from({ length: 250 }, (_, i) => ({ id: 1000 + i, name: `f${i}`, connector: rss() }));
    await withFeeds(feeds, { runtime: { tickMs: 3_600_000, feedConcurrency: 8 } });
    h.runtime.start();
    const polled = () =>
      h.server.store.db
        .selectFrom('feed_ingest_state')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('last_success_at', 'is not', null)
        .executeTakeFirstOrThrow();
    await eventually('every due feed polled within the first tick', polled, (r) => Number(r.n) === 250, 90_000, 50);
    await h.runtime.stop();
    expect(h.runtime.stats.polls.ok).toBe(250);
  });

  it('stop() during a slow request cancels it without counting a failure', async () => {
    fx = await startFeeds();
    // the upstream holds the request until the test ends: only stop() can end the poll
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    fx.handler = async () => {
      await held;
      return { status: 200, headers: { 'content-type': 'application/rss+xml' }, body: rssXml(items(1)) };
    };
    try {
      await withFeeds([{ id: 201, name: 'x', connector: rss() }], { runtime: { tickMs: 1000 } });
      h.runtime.start();
      await eventually(
        'the poll reaches the upstream',
        async () => fx.requests.length,
        (n) => n > 0,
        60_000,
        10,
      );
      const started = Date.now();
      await h.runtime.stop();
      // far below the poll's own time cap (80 % of a lease of at least a minute)
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(await ingestState(h, 201)).toMatchObject({
        lease_owner: null,
        lease_until: null,
        consecutive_failures: 0,
        last_error: null,
      });
      expect(await storedPosts(h, 201)).toHaveLength(0);
    } finally {
      release();
    }
  });
});

describe('stored state', () => {
  it('an unreadable stored cursor starts the connector afresh instead of failing', async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(2)), type: 'application/rss+xml' });
    await withFeeds([{ id: 201, name: 'x', connector: rss() }]);
    await h.poll();
    await h.server.store.db.updateTable('feed_ingest_state').set({ cursor_json: '{broken' }).execute();
    await untilDue(h, 201);
    expect((await h.poll())[0]!.status).toMatch(/^(ok|not_modified)$/);
    expect((await ingestState(h, 201)).consecutive_failures).toBe(0);
    expect(await storedPosts(h, 201)).toHaveLength(2);
  });
});

describe('pruning the change log', () => {
  it('the tick prunes changes older than the retention, at most once an hour', async () => {
    fx = await startFeeds();
    fx.documents.set('/feed.xml', { body: rssXml(items(3)), type: 'application/rss+xml' });
    await withFeeds([{ id: 201, name: 'feed', connector: rss() }]);
    await h.poll();
    const db = h.server.store.db;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('changes')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBeGreaterThanOrEqual(3);
    // 30 days less 15 minutes on (the test config keeps 30): nothing is old enough
    h.clock.now = Date.now() + 30 * 86_400_000 - 15 * 60_000;
    await h.runtime.tick();
    expect(await count()).toBeGreaterThanOrEqual(3);
    // half an hour later the changes are old enough, but the last prune was within the hour
    h.clock.now += 30 * 60_000;
    await h.runtime.tick();
    expect(await count()).toBeGreaterThanOrEqual(3);
    h.clock.now += 31 * 60_000;
    await h.runtime.tick();
    expect(await count()).toBe(0);
    expect(
      (await db.selectFrom('change_log').select('pruned_through').executeTakeFirstOrThrow()).pruned_through,
    ).toBeGreaterThan(0);
  });
});
