// Feed polls per worker-second (issue 34, the capacity model's 1 M feeds
// row). A fixture upstream — this file run with `--upstream`, a process of
// its own so it never shares the poller's event loop — serves N RSS feeds of
// 20 items (about 1 KB of HTML each) with ETag and Last-Modified, answering
// 304 when a feed has not changed. Per store (SQLite, PostgreSQL):
//
// 1. `wallery worker` polls every feed for the first time (20 new posts
//    each), on its own schedule: the rate its tick and batches allow;
// 2. `wallery ingest --once --force` polls every feed as fast as the
//    process goes, twice: all changed (a new item in every feed, a 200 with
//    the whole document) and mostly unchanged (one feed in ten changed, the
//    rest answer 304 Not Modified, as most hourly polls of a real feed do).
//
// Measured: polls per second of wall time and per CPU-second of the poller
// (utime + stime of /proc/<pid>/stat, all its threads), posts written per
// second, and the upstream's CPU share (that it is not the bottleneck).
// Writes bench/polls-results.md.
//
// Options: --quick (200 feeds), --feeds N (default 2,000).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { benchServices, unreachable } from './postgres.js';
import { log, node, ROOT, waitFor } from './process.js';

const ITEMS = 20;
/** the mostly-unchanged round: one feed in this many has a new item */
const CHANGED_EVERY = 10;

// ---------- the upstream (a process of its own) ----------

interface UpstreamStats {
  requests: number;
  ok: number;
  notModified: number;
  bytes: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const BASE_TIME = Date.UTC(2026, 0, 1);
const LOREM =
  'We left the hut before sunrise and followed the ridge to the col, where the snow was still hard enough to carry us. ' +
  'The light came up over the glacier and we stopped for coffee and photographs before the long descent to the lake.';

/** Item `n` of feed `f`: an hour after item n - 1, with a paragraph or three of HTML and a picture. */
function item(f: number, n: number): string {
  const paragraphs = 2 + ((f + n) % 3);
  const html =
    Array.from({ length: paragraphs }, (_, p) => `<p>${p === 0 ? `<b>Day ${n}</b> ` : ''}${LOREM}</p>`).join('') +
    `<p><a href="https://blog${f}.example/tags/trail">#trail</a> <a href="https://blog${f}.example/tags/summer">#summer</a></p>`;
  return `    <item>
      <title>Feed ${f}, day ${n}: along the ridge</title>
      <link>https://blog${f}.example/${n}/along-the-ridge</link>
      <guid isPermaLink="false">feed-${f}-item-${n}</guid>
      <pubDate>${new Date(BASE_TIME + n * 3_600_000).toUTCString()}</pubDate>
      <dc:creator><![CDATA[Author ${f}]]></dc:creator>
      <category><![CDATA[trail]]></category>
      <description>${esc(html)}</description>
      <media:content url="https://blog${f}.example/wp-content/uploads/${n}.jpg" medium="image" type="image/jpeg" width="1200" height="800"/>
    </item>`;
}

function feedXml(f: number, version: number): string {
  const items = [];
  for (let n = version; n > version - ITEMS; n--) items.push(item(f, n));
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>Trail Notes ${f}</title>
    <atom:link href="https://blog${f}.example/feed.xml" rel="self" type="application/rss+xml"/>
    <link>https://blog${f}.example/</link>
    <description>Notes from the trail</description>
    <lastBuildDate>${new Date(BASE_TIME + version * 3_600_000).toUTCString()}</lastBuildDate>
    <language>en-US</language>
    <generator>https://wordpress.org/?v=6.7.1</generator>
${items.join('\n')}
  </channel>
</rss>
`;
}

/** Serves /feed-<i>.xml; POST /round?every=k gives every k-th feed a new item; GET /stats counts the answers. */
async function upstream(feeds: number) {
  const versions = new Array<number>(feeds).fill(ITEMS);
  const stats: UpstreamStats = { requests: 0, ok: 0, notModified: 0, bytes: 0 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    if (url.pathname === '/stats') return void res.end(JSON.stringify(stats));
    if (url.pathname === '/round') {
      const every = Number(url.searchParams.get('every'));
      for (let f = 0; f < feeds; f += every) versions[f]! += 1;
      return void res.end('{}');
    }
    const m = /^\/feed-(\d+)\.xml$/.exec(url.pathname);
    const f = m ? Number(m[1]) : -1;
    if (f < 0 || f >= feeds) return void res.writeHead(404).end();
    stats.requests++;
    const version = versions[f]!;
    const etag = `"f${f}-v${version}"`;
    const lastModified = new Date(BASE_TIME + version * 3_600_000).toUTCString();
    const headers = { etag, 'last-modified': lastModified, 'cache-control': 'max-age=0' };
    if (req.headers['if-none-match'] === etag) {
      stats.notModified++;
      return void res.writeHead(304, headers).end();
    }
    const body = Buffer.from(feedXml(f, version));
    stats.ok++;
    stats.bytes += body.length;
    res.writeHead(200, { ...headers, 'content-type': 'application/rss+xml; charset=UTF-8' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.stdout.write(`UPSTREAM ${(server.address() as { port: number }).port}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

// ---------- the measurement ----------

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU seconds (user + system, all threads) a live process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3); utime and stime are fields 14 and 15
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

interface Store {
  name: string;
  env: Record<string, string>;
  posts(): Promise<number>;
  drop(): Promise<void>;
}

interface Row {
  store: string;
  case: string;
  polls: number;
  ok: number;
  notModified: number;
  seconds: number;
  cpu: number;
  upstreamCpu: number;
  posts: number;
}

async function sqliteStore(dir: string): Promise<Store> {
  const file = join(dir, 'polls.db');
  return {
    name: 'SQLite',
    env: { DATABASE_URL: file, REDIS_URL: '' },
    async posts() {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        return (db.prepare('select count(*) as n from posts').get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    async drop() {},
  };
}

async function postgresStore(): Promise<Store> {
  const services = await benchServices();
  return {
    name: 'PostgreSQL',
    env: { ...services.env, REDIS_URL: '' },
    async posts() {
      const client = new pg.Client({ connectionString: services.env.DATABASE_URL });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>('select count(*) as n from posts')).rows[0]!.n);
      } finally {
        await client.end();
      }
    },
    drop: () => services.drop(),
  };
}

async function main() {
  const quick = process.argv.includes('--quick');
  const feedsArg = process.argv.indexOf('--feeds');
  const FEEDS = feedsArg > 0 ? Number(process.argv[feedsArg + 1]) : quick ? 200 : 2_000;
  const DATA = join(ROOT, 'bench', 'data-polls');
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });

  const up = node(['--import', 'tsx', 'bench/polls.ts', '--upstream', String(FEEDS)]);
  const origin = `http://127.0.0.1:${(await waitFor(up, /UPSTREAM (\d+)/))[1]}`;
  const upstreamStats = async () => (await (await fetch(`${origin}/stats`)).json()) as UpstreamStats;
  const round = (every: number) => fetch(`${origin}/round?every=${every}`, { method: 'POST' });

  const file = join(DATA, 'feeds.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      accounts: [
        { id: 1, name: 'Bench', plan: 'enterprise', dailyCallLimit: 1_000_000, userKeys: ['bench-polls-key'] },
      ],
      walls: [
        {
          id: 1,
          accountId: 1,
          name: 'Polled wall',
          url: 'polled-wall',
          profanity: 0,
          createdAt: '2025-01-01T00:00:00.000Z',
          feeds: Array.from({ length: FEEDS }, (_, i) => ({
            id: 1 + i,
            name: `Feed ${i}`,
            source: 'Pending',
            sourceType: 'pending',
            createdAt: '2025-06-01T00:00:00.000Z',
            updatedAt: '2025-06-01T00:00:00.000Z',
            connector: { kind: 'rss', url: `${origin}/feed-${i}.xml` },
            posts: [],
          })),
        },
      ],
    }),
  );
  const pollerEnv = {
    INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
    // every feed is on this one host; as many requests to it as feeds polled at once (4)
    INGEST_HOST_CONCURRENCY: '4',
    MEDIA: 'off',
    LOG_LEVEL: 'warn',
  };

  const rows: Row[] = [];
  const stores: (() => Promise<Store>)[] = [() => sqliteStore(DATA)];
  const missing = await unreachable();
  if (missing) log(`PostgreSQL left out: ${missing} does not answer`);
  else stores.push(postgresStore);

  /** Runs from `begin` to `end` (both seen on the poller's output), measuring around them. */
  const measure = async (
    store: Store,
    name: string,
    child: ChildProcess,
    begin: Promise<unknown>,
    end: () => Promise<unknown>,
  ) => {
    await begin;
    const t0 = performance.now();
    const cpu0 = cpuSeconds(child.pid!);
    const up0 = cpuSeconds(up.pid!);
    const s0 = await upstreamStats();
    const p0 = await store.posts();
    await end();
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(child.pid!) - cpu0;
    const upstreamCpu = cpuSeconds(up.pid!) - up0;
    const s1 = await upstreamStats();
    const posts = (await store.posts()) - p0;
    const row: Row = {
      store: store.name,
      case: name,
      polls: s1.requests - s0.requests,
      ok: s1.ok - s0.ok,
      notModified: s1.notModified - s0.notModified,
      seconds,
      cpu,
      upstreamCpu,
      posts,
    };
    rows.push(row);
    log(
      `  ${store.name}, ${name}: ${row.polls} polls in ${seconds.toFixed(1)} s, ${cpu.toFixed(1)} CPU-s, ${posts} posts`,
    );
  };

  try {
    for (const open of stores) {
      const store = await open();
      try {
        execFileSync(process.execPath, ['dist/cli/main.js', 'import', file], {
          cwd: ROOT,
          env: { ...process.env, ...store.env },
          stdio: 'ignore',
        });
        // 1. the worker on its schedule: every feed is due (never polled); done when every feed's 20 posts are in
        const worker = node(['dist/cli/main.js', 'worker'], { ...store.env, ...pollerEnv });
        try {
          await measure(
            store,
            'first poll (20 new posts a feed), `wallery worker` on its schedule',
            worker,
            waitFor(worker, /wallery worker: polling feeds/),
            async () => {
              while ((await store.posts()) < FEEDS * ITEMS) await new Promise((r) => setTimeout(r, 100));
            },
          );
        } finally {
          worker.kill('SIGTERM');
          await once(worker, 'exit');
        }
        // 2. and 3. every feed at once, as fast as one process polls
        for (const [name, every] of [
          ['all changed (a new item in every feed), `ingest --once --force`', 1],
          [
            `mostly unchanged (1 feed in ${CHANGED_EVERY} changed, the rest 304), \`ingest --once --force\``,
            CHANGED_EVERY,
          ],
        ] as const) {
          await round(every);
          const once_ = node(['dist/cli/main.js', 'ingest', '--once', '--force'], { ...store.env, ...pollerEnv });
          // the last progress line is printed before the runtime closes: the process still runs
          const last = new RegExp(`\\[${FEEDS}/${FEEDS}\\]`);
          const finished = waitFor(once_, last);
          await measure(store, name, once_, waitFor(once_, /polling \d+ feeds/), () => finished);
          const [code] = (await once(once_, 'exit')) as [number];
          if (code !== 0) throw new Error(`ingest --once exited ${code}`);
        }
      } finally {
        await store.drop();
      }
    }
  } finally {
    up.kill('SIGTERM');
    await once(up, 'exit');
    rmSync(DATA, { recursive: true, force: true });
  }
  writeResults(rows, FEEDS);
}

function writeResults(rows: Row[], feeds: number) {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const perWall = (r: Row) => r.polls / r.seconds;
  const perCpu = (r: Row) => r.polls / Math.max(r.cpu, 0.01);
  const TARGET = 278;
  const derive = (r: Row) => Math.ceil(TARGET / Math.min(perWall(r), perCpu(r)));
  const mostly = rows.filter((r) => r.case.startsWith('mostly'));
  const scheduled = rows.filter((r) => r.case.includes('wallery worker'));
  const lines = [
    '# Feed polls per worker-second',
    '',
    `Generated by \`tsx bench/polls.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}: ` +
      `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}). ${fmt(feeds)} RSS feeds of ${ITEMS} items ` +
      '(about 1 KB of HTML and a picture each; a document of about 30 KB) served with ETag and Last-Modified by a fixture ' +
      'upstream in a process of its own, on the same machine. The poller: `INGEST_HOST_CONCURRENCY=4` (every feed is on ' +
      "one host here), `MEDIA=off` (pictures are the media workers' load), the rest at its defaults (4 feeds polled at " +
      'once, one parse thread). CPU is utime + stime of `/proc/<pid>/stat` over the measured span (all threads); ' +
      "the poller's start-up is outside it. Run on a quiet machine: other work moves these numbers by tens of per cent.",
    '',
    '| Store | Case | polls | 200 / 304 | s | polls/s (wall) | poller CPU-s | polls per CPU-s | posts written/s | upstream CPU share |',
    '| ----- | ---- | ----: | --------: | -: | -------------: | -----------: | --------------: | --------------: | -----------------: |',
    ...rows.map(
      (r) =>
        `| ${r.store} | ${r.case} | ${fmt(r.polls)} | ${fmt(r.ok)} / ${fmt(r.notModified)} | ${fmt(r.seconds, 1)} | ` +
        `${fmt(perWall(r))} | ${fmt(r.cpu, 1)} | ${fmt(perCpu(r))} | ${fmt(r.posts / r.seconds)} | ` +
        `${fmt((r.upstreamCpu / r.seconds) * 100)} % of a core |`,
    ),
    '',
    '- The upstream is not the bottleneck when its CPU share (of one core, over the same span) stays well under the ' +
      "poller's.",
    ...scheduled.map(
      (r) =>
        `- ${r.store}, \`wallery worker\` on its schedule: ${fmt(perWall(r))} polls/s — a tick starts 100 due feeds ` +
        `and, while more are due, the next 100 follow as the polls run short (no longer one batch per 5 s tick: ` +
        `that capped a worker at 20 polls/s before); ${fmt(perCpu(r))} polls per CPU-second here.`,
    ),
    ...mostly.map(
      (r) =>
        `- ${r.store}, mostly unchanged (the hourly case): 278 polls/s ÷ ${fmt(Math.min(perWall(r), perCpu(r)))} ` +
        `= **${derive(r)} poller process${derive(r) === 1 ? '' : 'es'}** at this run's rate (the lower of polls/s and polls per CPU-s).`,
    ),
    '',
  ];
  writeFileSync(join(ROOT, 'bench', 'polls-results.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

if (process.argv[2] === '--upstream') await upstream(Number(process.argv[3]));
else await main();
