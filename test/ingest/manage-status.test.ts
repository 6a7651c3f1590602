// A feed that keeps failing is marked failing, with its last error visible
// through the management API; it is never disabled or deleted.
import { afterEach, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/store/manage/op.js';
import { createOperatorToken } from '../../src/store/manage/tokens.js';
import { startFeeds, type FeedFixture } from './fixtures/feeds.js';
import { startHarness, untilDue, WALL, type Harness } from './harness.js';

let fx: FeedFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

it('shows a failing feed and its last error in the management API', async () => {
  fx = await startFeeds(); // no document: every poll gets a 404 HTML page
  h = await startHarness([{ id: 201, name: 'gone', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
  const { token } = await createOperatorToken({ db: h.server.store.db, actor: CLI_ACTOR, now: h.clock.now }, 'ops');
  const feed = async () => {
    const res = await fetch(`${h.server.baseUrl}/api/manage/v1/walls/${WALL}/feeds/201`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return (
      (await res.json()) as { responseData: { enabled: boolean; ingest?: Record<string, string | number | boolean> } }
    ).responseData;
  };
  expect((await feed()).ingest).toBeUndefined(); // never polled yet
  for (let i = 0; i < 5; i++) {
    expect((await h.poll(201))[0]).toMatchObject({ status: 'failed' });
    await untilDue(h, 201);
  }
  const after = await feed();
  expect(after.enabled).toBe(true);
  expect(after.ingest).toMatchObject({ failing: true, consecutiveFailures: 5 });
  expect(String(after.ingest!.lastError)).toMatch(/404/);
  expect(Date.parse(String(after.ingest!.nextPollAt))).toBeGreaterThan(Date.parse(String(after.ingest!.lastPolledAt)));
});
