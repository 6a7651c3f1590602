// A feed that keeps failing is marked failing, with its last error visible
// through the management API; it is never disabled or deleted.
import { afterEach, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { rssXml, startFeeds, type FeedFixture } from './fixtures/feeds.js';
import { startHarness, untilDue, WALL, type Harness } from './harness.js';

let fx: FeedFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

async function feedReader(feedId: number) {
  const { token } = await createOperatorToken({ db: h.server.store.db, actor: CLI_ACTOR, now: h.clock.now }, 'ops');
  return async () => {
    const res = await fetch(`${h.server.baseUrl}/api/manage/v1/walls/${WALL}/feeds/${feedId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return (
      (await res.json()) as { responseData: { enabled: boolean; ingest?: Record<string, string | number | boolean> } }
    ).responseData;
  };
}

it('shows a failing feed and its last error in the management API', async () => {
  fx = await startFeeds(); // no document: every poll gets a 404 HTML page
  h = await startHarness([{ id: 201, name: 'gone', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
  const feed = await feedReader(201);
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

it('reports items whose date could not be read in the feed’s status, not only by dating them when read', async () => {
  fx = await startFeeds();
  const item = (guid: string, pubDate: string) => ({
    guid,
    title: guid,
    link: `https://blog.example/${guid}`,
    pubDate,
    description: 'x',
  });
  fx.documents.set('/feed.xml', {
    body: rssXml([item('a', 'Thu, 15 Jan 2026 11:00:00 GMT'), item('b', 'Qui, 32 Jan 2026 11:00:00')]),
    type: 'application/rss+xml',
  });
  h = await startHarness([{ id: 202, name: 'dates', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }]);
  const feed = await feedReader(202);
  const warning = '1 item with a date that could not be read (e.g. "Qui, 32 Jan 2026 11:00:00"): dated when first read';
  expect((await h.poll(202))[0]).toMatchObject({ status: 'ok', inserted: 2, warnings: [warning] });
  expect((await feed()).ingest).toMatchObject({
    warnings: 1,
    lastWarning: warning,
    lastWarningAt: new Date(h.clock.now).toISOString(),
  });

  // fixed upstream: no warning now, the last one stays to be read
  fx.documents.set('/feed.xml', {
    body: rssXml([item('a', 'Thu, 15 Jan 2026 11:00:00 GMT'), item('b', 'Qui, 15 Jan 2026 11:30:00 GMT')]),
    type: 'application/rss+xml',
  });
  await untilDue(h, 202);
  expect((await h.poll(202))[0]).toMatchObject({ status: 'ok', warnings: [] });
  expect((await feed()).ingest).toMatchObject({ warnings: 0, lastWarning: warning });
});
