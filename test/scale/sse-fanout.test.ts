// Fan-out of the live stream to many streams on one `wallery serve`: 500
// streams open on a wall, posts created one after another with W3, and
// every stream gets every post's `upsert` exactly once, in the order they
// were created, with the same event ids as its neighbours; then again
// through Debian's nginx running the shipped deploy/nginx/wallery.conf
// (buffering off). The heartbeat, sent to a slice of the streams at a
// time, still reaches every one. Modest numbers: bench/sse.ts measures
// 10,000 streams.
// No timing is asserted; every wait is a condition with a deadline.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNginx, startNginx, type Nginx } from '../../bench/nginx.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { hasSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';
import { parseFrames } from '../http/embed/sse-client.js';

const WALL = 7011;
const USER_KEY = 'Demo-ent-key-0001';
const DIRECT_STREAMS = 500;
const NGINX_STREAMS = 300;
const POSTS = 5;
const HEARTBEAT_MS = 2000;
/** streams being opened at once */
const OPEN_BATCH = 50;
/** a loaded two-core machine opens hundreds of streams and delivers thousands of events slowly: generous */
const DEADLINE_MS = 90_000;

interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  events: { event: string; id: string | null; data: string }[];
  /** heartbeat comments received */
  pings: number;
  close(): void;
}

/** One stream on a raw HTTP request; complete frames parsed as they arrive. */
function openStream(url: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      let pending = '';
      const received: Received = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        pings: 0,
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        pending += chunk;
        const end = pending.lastIndexOf('\n\n');
        if (end === -1) return;
        const complete = pending.slice(0, end + 2);
        received.events.push(...parseFrames(complete));
        received.pings += complete.match(/^: ping$/gm)?.length ?? 0;
        pending = pending.slice(end + 2);
      });
      res.on('error', () => undefined);
      resolve(received);
    });
    req.on('error', reject);
    req.end();
  });
}

async function openStreams(url: string, n: number): Promise<Received[]> {
  const streams: Received[] = [];
  for (let from = 0; from < n; from += OPEN_BATCH) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(OPEN_BATCH, n - from) }, () => openStream(url)))));
  }
  return streams;
}

describe.skipIf(!hasSampleData)(
  `the live stream's fan-out to hundreds of streams (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    let server: Instance;
    let nginx: Nginx | undefined;
    let db: { name: string; url: string } | undefined;
    let dir: string;
    let key: string;
    const open: Received[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'wallery-sse-fanout-'));
      db = testStoreKind() === 'postgres' ? await createTestDatabase() : undefined;
      const databaseUrl = db?.url ?? join(dir, 'wallery.db');
      const imported = await runCli(['import', SAMPLE_DATA_PATH], { DATABASE_URL: databaseUrl });
      expect(imported.code, imported.stderr).toBe(0);
      const made = await runCli(['walls', 'keys', 'create', String(WALL), '--json'], { DATABASE_URL: databaseUrl });
      expect(made.code, made.stderr).toBe(0);
      key = (JSON.parse(made.stdout) as { key: string }).key;
      server = await startInstance({
        DATABASE_URL: databaseUrl,
        // every stream comes from this one address
        EMBED_MAX_STREAMS_PER_CLIENT: '0',
        EMBED_RATE_LIMIT_PER_IP: '0',
        EMBED_RATE_LIMIT_PER_KEY: '0',
        // two heartbeat slices, a tick a second: each stream pinged every 2 s, half of them at a time
        EMBED_HEARTBEAT_MS: String(HEARTBEAT_MS),
      });
    });
    afterAll(async () => {
      for (const s of open) s.close();
      await nginx?.stop();
      await server?.stop();
      if (db) await dropTestDatabase(db.name);
      rmSync(dir, { recursive: true, force: true });
    });

    /** Opens `n` streams at `base`, creates POSTS posts one after another, and checks what every stream got. */
    async function fanOut(base: string, n: number) {
      const streams = await openStreams(`${base}/api/embed/v1/walls/${WALL}/stream?key=${key}`, n);
      open.push(...streams);
      for (const s of streams) {
        expect(s.status).toBe(200);
        expect(s.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      }
      // the wall's state is sent to each stream once the hub has read the wall: from then on a write is a change
      await eventually(
        `all ${n} streams have the wall's screen state`,
        async () => streams.filter((s) => s.events.some((e) => e.event === 'screen')).length,
        (got) => got === n,
        DEADLINE_MS,
      );
      const run = randomBytes(4).toString('hex');
      const contents = Array.from({ length: POSTS }, (_, i) => `fan-out ${run} post ${i}`);
      for (const content of contents) {
        const res = await fetch(`${server.url}/api/v2/widget/create-post?user_key=${USER_KEY}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ wallId: WALL, content }),
        });
        expect(res.status, await res.text()).toBe(200);
      }
      const ours = (s: Received) =>
        s.events
          .filter((e) => e.event === 'upsert')
          .map((e) => ({ id: Number(e.id), html: (JSON.parse(e.data) as { html: string }).html }))
          .filter((p) => p.html.startsWith(`fan-out ${run} `));
      const last = contents[POSTS - 1]!;
      await eventually(
        `all ${n} streams have the last post`,
        async () => streams.filter((s) => ours(s).some((p) => p.html === last)).length,
        (got) => got === n,
        DEADLINE_MS,
      );
      const first = ours(streams[0]!);
      for (const s of streams) {
        const got = ours(s);
        // every post once, in the order created, ids rising
        expect(got.map((p) => p.html)).toEqual(contents);
        expect(got.every((p, i) => i === 0 || p.id > got[i - 1]!.id)).toBe(true);
        // the same numbered events as every other stream of the wall, and no reset
        expect(got.map((p) => p.id)).toEqual(first.map((p) => p.id));
        expect(s.events.some((e) => e.event === 'reset')).toBe(false);
      }
    }

    it(`every one of ${DIRECT_STREAMS} streams gets every post exactly once, in order`, async () => {
      await fanOut(server.url, DIRECT_STREAMS);
    });

    it('the heartbeat, a slice of the streams at a time, reaches every stream', async () => {
      const streams = open.slice(0, DIRECT_STREAMS);
      const before = streams.map((s) => s.pings);
      await eventually(
        `all ${DIRECT_STREAMS} streams pinged again`,
        async () => streams.filter((s, i) => s.pings > before[i]!).length,
        (got) => got === DIRECT_STREAMS,
        DEADLINE_MS,
      );
    });

    // nginx: Debian's package (CI installs it, .ci/run)
    it.skipIf(!hasNginx)(
      `through nginx (deploy/nginx/wallery.conf, buffering off), ${NGINX_STREAMS} streams alike${hasNginx ? '' : ' — skipped: /usr/sbin/nginx is missing'}`,
      async () => {
        nginx = await startNginx(Number(new URL(server.url).port));
        await fanOut(`http://127.0.0.1:${nginx.port}`, NGINX_STREAMS);
        expect(nginx.log()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
      },
    );
  },
);
