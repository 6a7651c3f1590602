// SIGTERM on real `wallery serve` and `wallery worker` processes (src/cli/shutdown.ts):
// requests in flight are answered, requests arriving while it closes get a
// 503 in their API's envelope, SSE streams get a retry hint and a clean end,
// analytics counts reach the store without waiting for the flush interval,
// feed leases are given back at once, exit 0; SHUTDOWN_DELAY_MS keeps serving
// with /readyz 503; a second signal exits at once; SHUTDOWN_TIMEOUT_MS exits 1.
//
// The store is SQLite (this is the sqlite project's suite); the PostgreSQL
// path of the same sequence runs in test/scale/rolling-restart.test.ts.
//
// "Arriving while it closes" without a test hook in the server: a request
// whose head is sent in part before the signal (the server has begun reading
// it, so it is not an idle connection its close may drop) and finished after
// the server says it is closing.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimFeed } from '../../src/store/ingest.js';
import { startCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { openRaw, type RawConnection } from '../helpers/raw-http.js';
import { parseXmlDoc } from '../helpers/xml.js';
import { describeSample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { BROWSER_UA, counters } from '../http/analytics/helpers.js';
import { startEmbedServer, type EmbedServer } from '../http/embed/helpers.js';
import { openSse } from '../http/embed/sse-client.js';
import { dataFile } from '../ingest/harness.js';

const KEY = 'Demo-ent-key-0001';
const SHUTTING_DOWN = 'Service unavailable: this instance is shutting down; retry';
const MANAGE_TOKEN_HEADER = (token: string) => `Authorization: Bearer ${token}\r\n`;

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return once(child, 'exit').then(([code]) => code as number | null);
}

/** Resolves once the instance's log has a line matching `pattern`. */
function logged(instance: { output(): string }, pattern: RegExp): Promise<number> {
  return eventually(`log line ${pattern}`, async () => pattern.test(instance.output()), Boolean, 60_000);
}

/** The first bytes of a request (a head without its last CRLF); `finish()` ends the head. */
async function partialRequest(baseUrl: string, start: string) {
  const conn: RawConnection = await openRaw(baseUrl);
  conn.send(start);
  return { conn, finish: () => conn.send('\r\n') };
}

/**
 * Resolves once the server has read everything sent so far on every open
 * connection. On loopback a write is in the peer's socket buffer when it
 * returns, so those connections were readable before this one's connect
 * reached the server; the server's event loop reads them no later than the
 * turn in which it accepts this connection, and reads this request after
 * that. (A fresh connection: a reused keep-alive one gives no such order.)
 */
async function serverHasRead(baseUrl: string): Promise<void> {
  const probe = await openRaw(baseUrl);
  probe.send('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect((await probe.response()).status).toBe(200);
  probe.destroy();
}

describeSample('SIGTERM on `wallery serve`', () => {
  let s: EmbedServer;
  let database: string;
  let publishable: string;
  const started: Instance[] = [];
  beforeAll(async () => {
    // the store the processes share with this one, which looks into it
    s = await startEmbedServer({ now: Date.now() });
    publishable = (await s.makeKey(7011)).key;
    database = join(s.srv.dir, 'wallery.db');
  });
  afterAll(async () => {
    for (const i of started) if (i.child.exitCode === null) i.child.kill('SIGKILL');
    await s?.close();
  });

  const serve = async (env: Record<string, string> = {}) => {
    const instance = await startInstance({ ANALYTICS_FLUSH_MS: '60000', ...env }, ['serve', '--database', database]);
    started.push(instance);
    return instance;
  };

  it('answers the request in flight, refuses late ones in their envelope, ends SSE with a retry hint, keeps the analytics counts, exits 0', async () => {
    const a = await serve({ SHUTDOWN_TIMEOUT_MS: '60000' });
    // analytics counted, not written yet (the flush interval is a minute)
    const beacon = await fetch(`${a.url}/api/embed/v1/events?key=${publishable}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER_UA },
      body: JSON.stringify({
        view: `shutdown-view-${process.pid}`,
        events: [
          { type: 'click', postId: '17001' },
          { type: 'click', postId: '17001' },
          { type: 'click', postId: '17004' },
        ],
      }),
    });
    expect(beacon.status, await beacon.text()).toBeLessThan(300);
    expect(await counters(s.srv.store.db, 7011)).toEqual([]);

    const stream = await openSse(`${a.url}/api/embed/v1/walls/7011/stream?key=${publishable}`);
    expect(stream.status).toBe(200);
    await eventually(
      'the stream opened',
      async () => stream.text(),
      (t) => t.startsWith('retry: 2000\n\n'),
      30_000,
    );

    // a write whose body is still arriving: in flight
    const content = `in flight through a shutdown ${process.pid}`;
    const body = JSON.stringify({ wallId: 7011, content });
    const half = Math.floor(body.length / 2);
    const write = await partialRequest(
      a.url,
      `POST /api/v2/widget/create-post?user_key=${KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    // heads finished after the signal
    const xmlRead = await partialRequest(
      a.url,
      `GET /api/v2/widget/wallInfo/7011?user_key=${KEY}&format=xml HTTP/1.1\r\nHost: x\r\n`,
    );
    const manage = await partialRequest(
      a.url,
      `GET /api/manage/v1/walls/7011 HTTP/1.1\r\nHost: x\r\n${MANAGE_TOKEN_HEADER(s.token)}`,
    );
    const ready = await partialRequest(a.url, `GET /readyz HTTP/1.1\r\nHost: x\r\n`);
    await serverHasRead(a.url);

    a.child.kill('SIGTERM');
    await logged(a, /shutdown: refusing new requests/);

    // the SSE stream: told when to reconnect, then ended cleanly (a complete chunked body)
    const streamed = await stream.body();
    expect(streamed).toMatch(/\n\nretry: \d+\n\n$/);
    const hint = Number(/retry: (\d+)\n\n$/.exec(streamed)![1]);
    expect(hint).toBeGreaterThanOrEqual(1000);
    expect(hint).toBeLessThan(2000);

    xmlRead.finish();
    const refused = await xmlRead.conn.response();
    expect(refused.status).toBe(503);
    expect(refused.headers).toMatchObject({
      'content-type': 'application/xml; charset=utf-8',
      'retry-after': '1',
      connection: 'close',
    });
    const doc = parseXmlDoc(refused.body);
    expect(doc.root).toBe('xml');
    expect(doc.children).toStrictEqual([
      { responseStatus: 'error' },
      { responseMessage: SHUTTING_DOWN },
      { responseCode: '503' },
    ]);
    await xmlRead.conn.closed();

    manage.finish();
    const refusedManage = await manage.conn.response();
    expect(refusedManage.status).toBe(503);
    expect(refusedManage.headers).toMatchObject({ 'retry-after': '1', connection: 'close' });
    expect(JSON.parse(refusedManage.body)).toStrictEqual({
      responseCode: 503,
      responseStatus: 'error',
      responseMessage: SHUTTING_DOWN,
    });

    ready.finish();
    const readiness = await ready.conn.response();
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.body)).toMatchObject({ status: 'unavailable', shutdown: 'draining' });

    // the request in flight is answered in full, and its connection closed after
    write.conn.send(body.slice(half));
    const written = await write.conn.response();
    expect(written.status, written.body).toBe(200);
    expect(written.headers.connection).toBe('close');
    expect(JSON.parse(written.body)).toMatchObject({ responseCode: 200, responseStatus: 'success' });
    await write.conn.closed();

    expect(await exited(a.child)).toBe(0);
    const out = a.output();
    for (const step of [
      /shutdown: started, \/readyz answers 503/,
      /shutdown: HTTP server closed/,
      /shutdown: quota counts written/,
      /shutdown: store and Redis closed/,
      /shutdown: done/,
    ])
      expect(out).toMatch(step);
    // what the process held in memory is in the store: no count lost, and the write done
    const clicks = (await counters(s.srv.store.db, 7011)).filter((r) => r.type === 'click');
    expect(clicks.map((r) => [r.post_id, r.n])).toEqual([
      [17001, 2],
      [17004, 1],
    ]);
    const post = await s.srv.store.db.selectFrom('posts').select('id').where('content', '=', content).execute();
    expect(post).toHaveLength(1);
  });

  it('SHUTDOWN_DELAY_MS: /readyz answers 503 while requests are still served; a second signal exits at once', async () => {
    const a = await serve({ SHUTDOWN_DELAY_MS: '600000' });
    a.child.kill('SIGTERM');
    await logged(a, /shutdown: started/);
    const ready = await fetch(`${a.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', store: 'ok', shutdown: 'draining' });
    const read = await fetch(`${a.url}/api/v2/widget/wallInfo/7011?user_key=${KEY}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('connection')).toBe('close');
    a.child.kill('SIGTERM');
    // 128 + SIGTERM's 15, long before the ten-minute delay is over
    expect(await exited(a.child)).toBe(143);
    expect(a.output()).toMatch(/shutdown: second signal, exiting now/);
  });

  it('SHUTDOWN_TIMEOUT_MS: a request that never finishes cannot keep it alive; exit 1', async () => {
    const a = await serve({ SHUTDOWN_TIMEOUT_MS: '300' });
    const stuck = await partialRequest(
      a.url,
      `POST /api/v2/widget/create-post?user_key=${KEY} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n`,
    );
    stuck.finish(); // the head is complete; the body never comes
    await serverHasRead(a.url);
    a.child.kill('SIGTERM');
    expect(await exited(a.child)).toBe(1);
    expect(a.output()).toMatch(/SHUTDOWN_TIMEOUT_MS passed with work unfinished/);
    stuck.conn.destroy();
  });
});

describe('SIGTERM gives feed leases back at once', () => {
  let upstream: Server;
  let origin: string;
  const held: ServerResponse[] = [];
  let srv: TestServer;
  beforeAll(async () => {
    // an upstream that never answers: the poll holds the feed's lease until stopped
    upstream = createServer((_req, res) => void held.push(res));
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    origin = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    srv = await startTestServer({
      data: dataFile([{ id: 11, name: 'Slow', connector: { kind: 'rss', url: `${origin}/feed.xml` } }]),
    });
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    upstream?.close();
    await srv?.close();
  });

  const lease = () =>
    srv.store.db
      .selectFrom('feed_ingest_state')
      .select(['lease_owner', 'lease_until'])
      .where('feed_id', '=', 11)
      .executeTakeFirst();

  it.each([
    ['serve', ['serve', '--port', '0', '--host', '127.0.0.1'], /Server listening at/],
    ['worker', ['worker'], /polling feeds/],
  ] as const)('%s: the lease of the feed it was polling is free after it exits', async (_name, args, ready) => {
    const { child, output } = await startCli(
      [...args, '--database', join(srv.dir, 'wallery.db')],
      {
        INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
        // the poll can only end by the shutdown, and its lease (a multiple of this) outlives the test
        INGEST_TIMEOUT_MS: '600000',
        LOG_LEVEL: 'info',
        INGEST: 'on',
        SHUTDOWN_TIMEOUT_MS: '60000',
      },
      ready,
    );
    try {
      await eventually('the poll holds the lease', lease, (row) => row?.lease_owner != null, 60_000);
      child.kill('SIGTERM');
      expect(await exited(child), output()).toBe(0);
      expect(await lease()).toEqual({ lease_owner: null, lease_until: null });
      // another poller takes it now, not after the lease would have run out
      const now = Date.now();
      expect(await claimFeed(srv.store.db, 11, 'worker-b', now, now + 60_000, null)).toBe(true);
      expect(output()).toMatch(/shutdown: ingestion and webhook delivery stopped, their leases released/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await srv.store.db
        .updateTable('feed_ingest_state')
        .set({ lease_owner: null, lease_until: null, next_poll_at: 0 })
        .execute();
    }
  });
});
