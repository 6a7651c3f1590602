// Memory of a poll is bounded by INGEST_MAX_BYTES, not a multiple of the
// feed's items: the real `wallery ingest --once` (dist/, its parse worker
// included) polls one feed in a child process whose peak resident set size
// is read at exit, and compared with the same command polling a tiny feed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { testDatabaseUrl, testStoreKind } from '../helpers/services.js';
import { rssOfSize, rssXml, startFeeds, type FeedFixture } from './fixtures/feeds.js';
import { NOW, dataFile } from './harness.js';

const MiB = 1024 * 1024;
const PRELOAD = fileURLToPath(new URL('./fixtures/peak-rss.mjs', import.meta.url));

let fx: FeedFixture;
let server: TestServer;
let scratch: string;
const bodies: Record<string, Buffer> = {};

beforeAll(async () => {
  fx = await startFeeds();
  // served without validators: every poll reads it (the baseline has the parse worker running too)
  bodies['/tiny.xml'] = Buffer.from(
    rssXml([
      {
        guid: 't',
        title: 'Tiny',
        link: 'https://blog.example/t',
        pubDate: new Date(NOW).toUTCString(),
        description: 'x',
      },
    ]),
  );
  const documents = fx.handler;
  fx.handler = (req, url) => {
    const body = bodies[url.pathname];
    return body ? { status: 200, headers: { 'content-type': 'application/rss+xml' }, body } : documents(req, url);
  };
  const feed = (id: number, path: string) => ({
    id,
    name: path,
    connector: { kind: 'rss', url: `${fx.origin}${path}` },
  });
  server = await startTestServer({
    data: dataFile([feed(901, '/tiny.xml'), feed(902, '/at-cap.xml'), feed(903, '/fifty.xml')]),
  });
  scratch = mkdtempSync(join(tmpdir(), 'wallery-peak-'));
});

afterAll(async () => {
  await server?.close();
  await fx?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function databaseArg(): string {
  if (server.store.name === 'sqlite') return join(server.dir, 'wallery.db');
  return testDatabaseUrl(readFileSync(join(server.dir, 'postgres-database'), 'utf8').trim());
}

/** `wallery ingest --once --feed <id>` with the cap; its stdout and peak RSS (bytes). */
function pollInChild(feedId: number, maxBytes: number): Promise<{ code: number | null; out: string; peak: number }> {
  const file = join(scratch, `peak-${feedId}-${Date.now()}`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        PRELOAD,
        'dist/cli/main.js',
        'ingest',
        '--once',
        '--force',
        '--feed',
        String(feedId),
        '--database',
        databaseArg(),
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PEAK_RSS_FILE: file,
          INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
          INGEST_MAX_BYTES: String(maxBytes),
          // a 50 MB feed on a loaded machine: time enough to move it
          INGEST_TIMEOUT_MS: '120000',
          LOG_LEVEL: 'warn',
        },
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, peak: Number(readFileSync(file, 'utf8')) }));
  });
}

// The bound: the body itself, its text, and the parser's and the worker's
// working room for it — three times the cap — plus a constant for what a
// poll holds whatever the feed (a new V8 heap's growth steps, the rows of
// the kept items and their writes). Parsed as one tree on the serving
// thread, the 50 MB feed took 919 MB; the 5 MB one 90+ MB.
const bound = (cap: number) => 3 * cap + 64 * MiB;

// The store does not matter to what is measured here: SQLite only.
describe.skipIf(testStoreKind() === 'postgres')('memory of a poll', () => {
  it.each([
    ['a feed at the default cap (5 MiB)', 902, '/at-cap.xml', 5 * MiB, 'rich'],
    ['a 50 MiB feed of short notes with the cap raised to it', 903, '/fifty.xml', 50 * MiB, 'dense'],
  ] as const)(
    '%s: peak RSS grows by less than 3 × the cap + 64 MiB',
    async (_name, feedId, path, cap, style) => {
      bodies[path] = rssOfSize(cap, NOW, style);
      expect(bodies[path].length).toBeGreaterThan(cap * 0.95);
      const tiny = await pollInChild(901, cap);
      expect(tiny.out).toMatch(/feed 901 \(rss\): \d new/);
      const big = await pollInChild(feedId, cap);
      expect(big.code, big.out).toBe(0);
      expect(big.out).toContain(`feed ${feedId} (rss): 500 new`);
      const growth = big.peak - tiny.peak;
      expect(
        growth,
        `peak ${Math.round(big.peak / MiB)} MiB vs ${Math.round(tiny.peak / MiB)} MiB for a tiny feed: +${Math.round(growth / MiB)} MiB`,
      ).toBeLessThan(bound(cap));
      delete bodies[path];
    },
    600_000,
  );
});
