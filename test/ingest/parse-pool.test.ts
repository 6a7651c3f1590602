// Parsing off the serving thread: a feed as large as INGEST_MAX_BYTES is
// decoded, parsed, mapped and sanitized in a parse worker while the event
// loop of the process that serves the API stays responsive; a document too
// large to parse within the worker's heap fails its poll, not the process.
import { existsSync, readFileSync } from 'node:fs';
import { createHistogram, monitorEventLoopDelay, performance, type Histogram } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetcher, type Fetcher } from '../../src/net/fetcher.js';
import { rssOfSize, rssXml, startFeeds, type FeedFixture } from './fixtures/feeds.js';
import { NOW, startHarness, storedPosts, testIngestConfig, type Harness } from './harness.js';

let fx: FeedFixture;
let h: Harness;
let fetcher: Fetcher | null = null;
afterEach(async () => {
  await h?.close();
  await fx?.close();
  await fetcher?.close();
  fetcher = null;
});

const CAP = testIngestConfig().maxBytes;
const small = rssXml([
  {
    guid: 's1',
    title: 'Small',
    link: 'https://blog.example/s1',
    pubDate: new Date(NOW).toUTCString(),
    description: 'x',
  },
]);

/** Serves `/small.xml` from the documents and these bodies as they are (Buffers: no work for the fixture per request). */
async function feedsWith(bodies: Record<string, Buffer>) {
  fx = await startFeeds();
  fx.documents.set('/small.xml', { body: small, type: 'application/rss+xml' });
  const documents = fx.handler;
  fx.handler = (req, url) => {
    const body = bodies[url.pathname];
    return body ? { status: 200, headers: { 'content-type': 'application/rss+xml' }, body } : documents(req, url);
  };
}

const ms = (ns: number) => Math.round(ns / 1e5) / 10;

// This thread's time on a CPU so far (ns): Linux's scheduler statistics of
// the main thread (the test runs on it: vitest's `forks` pool), or, where
// there are none, the event loop's active time, which also counts the time
// the thread waited for a CPU while it had work.
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const threadCpuNs = (): number => {
  if (isMainThread && existsSync(SCHEDSTAT)) return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]);
  return performance.eventLoopUtilization().active * 1e6;
};

/**
 * Watches this thread's event loop every 10 ms: how late each turn came
 * (`delay`: perf_hooks' event-loop delay) and how much of that the thread
 * itself spent running code since the turn before (`own`). A turn that came
 * late because the operating system ran other processes first is late, but
 * not of the thread's own doing.
 */
function watchEventLoop() {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const own = createHistogram();
  let last = threadCpuNs();
  const timer = setInterval(() => {
    const now = threadCpuNs();
    own.record(Math.max(1, Math.round(now - last)));
    last = now;
  }, 10);
  delay.enable();
  return () => {
    delay.disable();
    clearInterval(timer);
    const show = (name: string, hist: Histogram) =>
      `${name}: p50 ${ms(hist.percentile(50))} ms, p99 ${ms(hist.percentile(99))} ms, max ${ms(hist.max)} ms (${hist.count} samples)`;
    return { delay, own, seen: `${show('delay', delay)}; ${show('own', own)}` };
  };
}

describe('a large feed does not stall the serving thread', () => {
  // The event loop of this process — the one that runs the API server, the
  // fixture server and the poll — is watched while the feed is parsed: from
  // the moment its body has been fetched until the poll reports, with the
  // parse worker already running (its start is not the poll's). Parsed on
  // this thread, the 5 MB feed held it for one stretch of 1–3 s (parse, map,
  // sanitize, normalize, write: all in one turn), the p99 of every measure
  // here. Off the thread, the loop only moves bytes and writes rows in
  // batches of 50, a turn each.
  //
  // The assertion is on `own`, the thread's own CPU time per turn: on a
  // machine with more runnable processes than cores (the test suites of
  // parallel workers), the operating system alone leaves a few percent of
  // 10 ms turns more than 50 ms late, so the raw delay's p99 crosses 50 ms in
  // some runs whatever the poll does, while what the thread does between
  // turns does not depend on that. (Both, before and after, are in the
  // change's report.)
  it('event-loop delay p99 stays under 50 ms while a 5 MB feed is parsed and stored', async () => {
    const big = rssOfSize(CAP, NOW);
    expect(big.length).toBeGreaterThan(CAP * 0.95);
    await feedsWith({ '/big.xml': big });
    const { allowPrivateNetworks, maxBytes, timeoutMs, hostConcurrency } = testIngestConfig();
    const direct = createFetcher({ allowPrivateNetworks, maxBytes, timeoutMs, hostConcurrency });
    fetcher = direct;
    let stop: ReturnType<typeof watchEventLoop> | null = null;
    const watched: Fetcher = {
      limiter: direct.limiter,
      close: () => direct.close(),
      async fetch(req) {
        const res = await direct.fetch(req);
        if (req.url.endsWith('/big.xml')) stop = watchEventLoop();
        return res;
      },
    };
    h = await startHarness(
      [
        { id: 301, name: 'small', connector: { kind: 'rss', url: `${fx.origin}/small.xml` } },
        { id: 302, name: 'big', connector: { kind: 'rss', url: `${fx.origin}/big.xml` } },
      ],
      { runtime: { fetcher: watched } },
    );
    expect((await h.poll(301))[0]).toMatchObject({ status: 'ok', inserted: 1 }); // the worker is up

    const [report] = await h.poll(302);
    const { own, seen } = stop!();

    expect(report).toMatchObject({ status: 'ok', inserted: 500, skippedItems: 0 });
    expect(ms(own.percentile(99)), seen).toBeLessThan(50);
    // the newest 500 of the feed's items, whole
    const stored = await storedPosts(h, 302);
    expect(stored).toHaveLength(500);
    expect(stored.map((p) => p.external_id).sort()).toEqual(Array.from({ length: 500 }, (_, i) => `big-${i}`).sort());
    expect(stored.find((p) => p.external_id === 'big-7')).toMatchObject({
      content:
        '<p><strong>Day 7 on the trail</strong></p><p>Day <strong>7</strong> on the ridge: switchbacks, scree and a long view over the valley. <a href="https://blog.example/days/7" rel="nofollow noopener noreferrer" target="_blank">Read on</a></p>',
      picture: 'https://blog.example/days/7.jpg',
    });
  });
});

describe('a document too large to parse', () => {
  const head = '<?xml version="1.0"?><rss version="2.0"><channel><title>Empty</title>';
  const tail = '</channel></rss>';
  /** 5 MB of one empty element, repeated: 750,000 of them */
  const fillWith = (element: string) =>
    Buffer.from(head + element.repeat(Math.floor((CAP - head.length - tail.length) / element.length)) + tail);

  it('fails its poll with a clear message; the process and the other feeds go on', async () => {
    // 750,000 empty elements in the channel, all kept (the channel is read whole): more than the worker's heap holds
    await feedsWith({ '/empties.xml': fillWith('<x/>'.padEnd(7, ' ')) });
    h = await startHarness([
      { id: 311, name: 'empties', connector: { kind: 'rss', url: `${fx.origin}/empties.xml` } },
      { id: 312, name: 'small', connector: { kind: 'rss', url: `${fx.origin}/small.xml` } },
    ]);
    const [failed] = await h.poll(311);
    expect(failed).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(
        new RegExp(
          `^127\\.0\\.0\\.1:${fx.port} sent a document too large to read: parsing it needed more than \\d+ MB$`,
        ),
      ),
    });
    expect(await storedPosts(h, 311)).toEqual([]);
    expect((await h.poll(312))[0]).toMatchObject({ status: 'ok', inserted: 1 });
  });

  it('750,000 empty items are not too large: only the newest INGEST_MAX_ITEMS are ever held', async () => {
    await feedsWith({ '/items.xml': fillWith('<item/>') });
    h = await startHarness([
      { id: 313, name: 'empty items', connector: { kind: 'rss', url: `${fx.origin}/items.xml` } },
    ]);
    // nothing to show in any of them: the kept ones are counted as unreadable
    expect((await h.poll(313))[0]).toMatchObject({ status: 'ok', inserted: 0, skippedItems: 500 });
  });
});
