// `npm run bench`: generates data sets, times their import, starts
// `wallery serve` on SQLite, and drives it with wrk (bench/load.ts; autocannon
// when wrk is missing) from a separate process — next to two baselines measured in the same run on the same
// machine: Fastify hello-world and the ceiling (a bare Fastify server
// answering Wallery's own bytes for the same query). Then the random-page
// mixes again on PostgreSQL + Redis (a fresh database, created and dropped;
// skipped, with one line saying so, when either is not reachable). Every case
// with a target of issue 15 (or 34) says in the report whether it is met.
//
// Options: --quick (small data sets and 3 s cases, for a smoke run),
//          --seconds N (measured seconds per case, default 10),
//          --only TEXT (measure only the cases whose name contains TEXT, with
//          the baselines they are compared against; the report is printed,
//          bench/results.md is left alone),
//          --cpu-prof DIR (each `wallery serve` writes a V8 CPU profile
//          there when it stops: where a case's time goes, see docs/performance.md).
// Environment: BENCH_PG_URL (an existing database to connect to for creating
//          the bench's own; default postgres://postgres@127.0.0.1:5432/postgres),
//          BENCH_REDIS_URL (default redis://127.0.0.1:6379).
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY, writeDataFile, type WallSpec } from './generate.js';
import { hasWrk, type Case, type LoadResult } from './load.js';
import { randomPages } from './mixes.js';
import { benchServices, unreachable } from './postgres.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const DATA = join(ROOT, 'bench', 'data');
const quick = process.argv.includes('--quick');
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : quick ? 3 : 10;
const WARMUP = quick ? 1 : 2;
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1]!.toLowerCase() : null;
const profArg = process.argv.indexOf('--cpu-prof');
const CPU_PROF = profArg > 0 ? process.argv[profArg + 1]! : null;
/** Whether a case is measured in this run (all without --only). */
const selected = (name: string) => ONLY === null || name.toLowerCase().includes(ONLY);
const CONNECTIONS = 32;

const SMALL: WallSpec = { id: 1001, posts: 1_000, firstPostId: 1, feeds: 3 };
const MEDIUM: WallSpec = { id: 1002, posts: quick ? 20_000 : 100_000, firstPostId: 10_000_000, feeds: 4 };
const LARGE: WallSpec = { id: 1003, posts: quick ? 200_000 : 1_000_000, firstPostId: 20_000_000, feeds: 5 };
const OTHERS: WallSpec[] = Array.from({ length: 20 }, (_, i) => ({
  id: 2000 + i,
  posts: 500,
  firstPostId: 30_000_000 + i * 1000,
  feeds: 2,
}));
// the random-page mixes: one 1,500-post wall, and 100 walls of 300 posts
const MIX_WALL: WallSpec = { id: 3000, posts: 1_500, firstPostId: 40_000_000, feeds: 3 };
const MIX_WALLS: WallSpec[] = Array.from({ length: 100 }, (_, i) => ({
  id: 4000 + i,
  posts: 300,
  firstPostId: 50_000_000 + i * 1000,
  feeds: 2,
}));
const ALL_WALLS = [SMALL, ...OTHERS, MIX_WALL, ...MIX_WALLS, MEDIUM, LARGE];

const q = `user_key=${BENCH_KEY}`;

const MIXES = [
  [`W2 random pages, one ${MIX_WALL.posts.toLocaleString('en')}-post wall`, randomPages([MIX_WALL], false)],
  [
    `W2 random pages over ${MIX_WALLS.length} walls of ${MIX_WALLS[0]!.posts} + 1 % W3 writes`,
    randomPages(MIX_WALLS, true),
  ],
] as const;

type Result = LoadResult;

async function load(url: string, extra: Partial<Case> = {}) {
  const spec: Case = { url, seconds: SECONDS, warmupSeconds: WARMUP, connections: CONNECTIONS, ...extra };
  const out = await runToEnd(node(['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)]));
  return JSON.parse(out.trim().split('\n').pop()!) as Result;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** `wallery serve` on the given store (SQLite without Redis unless `env` says otherwise). */
async function startWallery(db: string, cacheMb: number, env: Record<string, string> = {}) {
  const profile = CPU_PROF === null ? [] : ['--cpu-prof', '--cpu-prof-dir', CPU_PROF];
  const child = node([...profile, 'dist/cli/main.js', 'serve'], {
    DATABASE_URL: db,
    REDIS_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INGEST: 'off',
    RESPONSE_CACHE_MB: String(cacheMb),
    ...env,
  });
  // what it printed last, to say why if it ends before it is stopped
  let tail = '';
  const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let stopping = false;
  child.on('exit', (code, signal) => {
    if (!stopping) log(`wallery serve ended by itself (${code ?? signal}):\n${tail}`);
  });
  const port = (await waitFor(child, /wallery listening on http:\/\/[^:]+:(\d+)/))[1];
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 250);
  return {
    base: `http://127.0.0.1:${port}`,
    peakRss: () => peak,
    async stop() {
      clearInterval(timer);
      stopping = true;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

async function timedImport(file: string, env: Record<string, string>): Promise<number> {
  const started = process.hrtime.bigint();
  await runToEnd(node(['--max-old-space-size=8192', 'dist/cli/main.js', 'import', file], env));
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** A target of issue 15: the ratio column at least / at most so much, or a rate with a p99 bound. */
type Target = { ratioAtLeast: number } | { ratioAtMost: number } | { rps: number; p99Under: number };

interface CaseOptions {
  /** the ratio column: this case against the named one (req/s, or p50 latency with `byP50`) */
  vs?: string;
  byP50?: boolean;
  target?: Target;
  /** what the load generator sends, besides the URL */
  load?: Partial<Case>;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');

/** The target column: what is wanted, and whether this run met it (never with errors). */
function verdict(target: Target | undefined, r: Result, ratio: number | undefined): string {
  if (!target) return '';
  let wanted: string;
  let met: boolean;
  if ('rps' in target) {
    wanted = `≥ ${fmt(target.rps)} req/s, p99 < ${target.p99Under} ms`;
    met = r.rps >= target.rps && r.p99 < target.p99Under;
  } else if ('ratioAtLeast' in target) {
    wanted = `≥ ${target.ratioAtLeast} ×`;
    met = ratio !== undefined && ratio >= target.ratioAtLeast;
  } else {
    wanted = `≤ ${target.ratioAtMost} ×`;
    met = ratio !== undefined && ratio <= target.ratioAtMost;
  }
  const errors = r.errors + r.non2xx;
  return `${wanted}: ${met && errors === 0 ? 'met' : 'NOT met'}${errors ? ` (${fmt(errors)} errors)` : ''}`;
}

async function main() {
  if (!hasWrk()) log('wrk not found (`apt-get install wrk`): measuring with autocannon, which saturates sooner');
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });
  const db = join(DATA, 'bench.db');

  // ---- data and import ----
  const imports: { name: string; posts: number; seconds: number; target?: number }[] = [];
  const IMPORT_TARGET = 20_000;
  const smallName = `1k wall, 20 walls of 500, a ${MIX_WALL.posts.toLocaleString('en')}-post wall, ${MIX_WALLS.length} walls of ${MIX_WALLS[0]!.posts}`;
  const smallFile = join(DATA, 'data-0.json'); // kept for PostgreSQL
  const files: [string, WallSpec[], boolean][] = [
    [smallName, [SMALL, ...OTHERS, MIX_WALL, ...MIX_WALLS], true],
    [`${MEDIUM.posts.toLocaleString('en')}-post wall`, [MEDIUM], false],
    [`${LARGE.posts.toLocaleString('en')}-post wall`, [LARGE], false],
  ];
  let smallPosts = 0;
  // with --only, the large walls are imported only when a selected case reads one
  const large = LARGE.posts.toLocaleString('en');
  const largeCases = ['W2 page 1', 'W2 offset 10k', 'W2 offset 100k'].map((c) => `${c} (${large} wall)`);
  const needsLarge = [...largeCases, `W2 page 1 (${large} wall, cached)`].some(selected);
  for (const [i, [name, walls, withAccount]] of files.entries()) {
    if (i > 0 && !needsLarge) continue;
    const file = join(DATA, `data-${i}.json`);
    log(`generating ${name}…`);
    const posts = await writeDataFile(file, walls, withAccount);
    log(`importing ${name} (${posts} posts)…`);
    const seconds = await timedImport(file, { DATABASE_URL: db });
    // the target is the large import's rate (the small files' time is mostly the process starting)
    imports.push({ name, posts, seconds, target: walls.includes(LARGE) ? IMPORT_TARGET : undefined });
    if (file === smallFile) smallPosts = posts;
    else rmSync(file);
  }

  const w2 = (wall: number, extra = '') => `/api/v2/widget/posts/${wall}?${q}&limit=100${extra}`;

  // ---- baselines: capture Wallery's bytes for the ceiling ----
  let wallery = await startWallery(db, 0);
  const ceilings: Record<string, { body: string; type: string }> = {};
  for (const [name, path] of [
    ['w2json', w2(SMALL.id)],
    ['w2xml', w2(SMALL.id, '&format=xml')],
  ] as const) {
    const res = await fetch(wallery.base + path);
    const file = join(DATA, `${name}.body`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    ceilings[name] = { body: file, type: res.headers.get('content-type')! };
  }
  const baseline = node(['--import', 'tsx', 'bench/baselines.ts'], { BENCH_CEILINGS: JSON.stringify(ceilings) });
  const bport = (await waitFor(baseline, /READY (\d+)/))[1];
  const bbase = `http://127.0.0.1:${bport}`;

  const results: { group: string; name: string; r: Result; options: CaseOptions }[] = [];
  const measure = async (group: string, name: string, url: string, options: CaseOptions = {}) => {
    if (group !== 'baseline' && !selected(name)) return;
    log(`  ${name}`);
    results.push({ group, name, r: await load(url, options.load), options });
  };

  const HELLO = 'Fastify hello-world';
  const CEILING_JSON = 'ceiling: W2 limit=100 JSON bytes';
  const CEILING_XML = 'ceiling: W2 limit=100 XML bytes';
  const W2_1K = 'W2 limit=100 JSON (1k wall)';

  log('baselines…');
  await measure('baseline', HELLO, `${bbase}/hello`);
  await measure('baseline', CEILING_JSON, `${bbase}/ceiling/w2json`);
  await measure('baseline', CEILING_XML, `${bbase}/ceiling/w2xml`);

  log('from the store (response cache off)…');
  await measure('store', '/healthz', `${wallery.base}/healthz`, { vs: HELLO, target: { ratioAtLeast: 0.8 } });
  // issue 34: W1 from the store ≥ 0.4 × hello-world
  await measure('store', 'W1 wall info', `${wallery.base}/api/v2/widget/wallInfo/${SMALL.id}?${q}`, {
    vs: HELLO,
    target: { ratioAtLeast: 0.4 },
  });
  await measure('store', W2_1K, wallery.base + w2(SMALL.id), { vs: CEILING_JSON });
  await measure('store', 'W2 limit=100 XML (1k wall)', wallery.base + w2(SMALL.id, '&format=xml'), {
    vs: CEILING_XML,
  });
  await measure(
    'store',
    'W2 image+video since 01/06/2025',
    wallery.base + w2(SMALL.id, '&include_only_image_posts=true&include_only_video_posts=1&date_from=01/06/2025'),
  );
  await measure('store', `W2 page 1 (${large} wall)`, wallery.base + w2(LARGE.id), {
    vs: W2_1K,
    byP50: true,
    target: { ratioAtMost: 1.5 },
  });
  await measure('store', `W2 offset 10k (${large} wall)`, wallery.base + w2(LARGE.id, '&offset=10000'), {
    vs: W2_1K,
    byP50: true,
  });
  await measure('store', `W2 offset 100k (${large} wall)`, wallery.base + w2(LARGE.id, '&offset=100000'), {
    vs: W2_1K,
    byP50: true,
    target: { ratioAtMost: 3 },
  });
  await measure(
    'store',
    'C2 limit=100 JSON',
    `${wallery.base}/api/v2/commerce/getGalleryPosts/${SMALL.id}/?${q}&limit=100`,
  );
  await measure(
    'store',
    'C5 post with products',
    `${wallery.base}/api/v2/commerce/getGalleryProductByID/${SMALL.id}/${SMALL.firstPostId + 10}/?${q}`,
  );
  const storeRss = wallery.peakRss();
  await wallery.stop();

  log('with the response cache…');
  wallery = await startWallery(db, 64);
  await measure('cache', 'W1 wall info (cached)', `${wallery.base}/api/v2/widget/wallInfo/${SMALL.id}?${q}`, {
    vs: HELLO,
    target: { ratioAtLeast: 0.5 },
  });
  // issue 34: W2 from the cache ≥ 0.9 × the server that sends the same bytes
  await measure('cache', 'W2 limit=100 JSON (cached)', wallery.base + w2(SMALL.id), {
    vs: CEILING_JSON,
    target: { ratioAtLeast: 0.9 },
  });
  await measure('cache', 'W2 limit=100 XML (cached)', wallery.base + w2(SMALL.id, '&format=xml'), {
    vs: CEILING_XML,
    target: { ratioAtLeast: 0.9 },
  });
  const compressed = { headers: { 'accept-encoding': 'gzip, br' } };
  await measure('cache', 'W2 limit=100 JSON, Accept-Encoding: gzip, br', wallery.base + w2(SMALL.id), {
    vs: CEILING_JSON,
    load: compressed,
  });
  await measure(
    'cache',
    'C2 limit=100 JSON, Accept-Encoding: gzip, br',
    `${wallery.base}/api/v2/commerce/getGalleryPosts/${SMALL.id}/?${q}&limit=100`,
    { load: compressed },
  );
  await measure('cache', `W2 page 1 (${large} wall, cached)`, wallery.base + w2(LARGE.id));
  await measure('write', 'W3 create post', `${wallery.base}/api/v2/widget/create-post?${q}`, {
    load: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallId: OTHERS[0]!.id, content: 'bench post', postFile: 'https://cdn.example.com/x.jpg' }),
    },
  });

  log('random pages (response cache on, mostly missed)…');
  for (const [name, mix] of MIXES)
    await measure('mix', name, `${wallery.base}/`, { load: { mix }, target: { rps: 3_000, p99Under: 50 } });
  const cacheRss = wallery.peakRss();
  await wallery.stop();

  // ---- the mixes on PostgreSQL + Redis ----
  log('PostgreSQL + Redis…');
  const wanted = MIXES.some(([name]) => selected(`${name} (PostgreSQL + Redis)`));
  const missing = wanted ? await unreachable() : null;
  let postgresLine: string;
  if (!wanted) {
    postgresLine = 'PostgreSQL + Redis: not selected by --only.';
  } else if (missing) {
    postgresLine = `PostgreSQL + Redis: skipped — ${missing} not reachable.`;
    log(postgresLine);
  } else {
    const services = await benchServices();
    try {
      const name = `${smallName} (PostgreSQL)`;
      log(`  importing ${name}…`);
      imports.push({ name, posts: smallPosts, seconds: await timedImport(smallFile, services.env) });
      wallery = await startWallery(services.env.DATABASE_URL, 64, services.env);
      for (const [mixName, mix] of MIXES)
        await measure('postgres', `${mixName} (PostgreSQL + Redis)`, `${wallery.base}/`, {
          load: { mix },
          target: { rps: 1_500, p99Under: 80 },
        });
      await wallery.stop();
    } finally {
      await services.drop();
    }
    postgresLine =
      'PostgreSQL + Redis: the same random-page mixes on a fresh PostgreSQL database (the first data file imported, not the large walls), Redis for the quota, response cache on.';
  }
  baseline.kill('SIGTERM');

  // ---- report ----
  const byName = new Map(results.map((x) => [x.name, x]));
  const rows = results.map(({ name, r, options }) => {
    const base = options.vs ? byName.get(options.vs) : undefined;
    const ratio = base ? (options.byP50 ? r.p50 / Math.max(base.r.p50, 0.001) : r.rps / base.r.rps) : undefined;
    const ratioText = ratio === undefined ? '' : `${ratio.toFixed(2)} × ${options.byP50 ? 'p50 of ' : ''}${options.vs}`;
    return `| ${name} | ${fmt(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors + r.non2xx} | ${ratioText} | ${verdict(options.target, r, ratio)} |`;
  });
  const importRows = imports.map((i) => {
    const rate = i.posts / i.seconds;
    const target = i.target === undefined ? '' : `≥ ${fmt(i.target)} posts/s: ${rate >= i.target ? 'met' : 'NOT met'}`;
    return `| ${i.name} | ${i.posts.toLocaleString('en')} | ${i.seconds.toFixed(1)} | ${fmt(rate)} | ${target} |`;
  });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  // the generator must not be what saturates: its hello-world rate at least twice any rate reported for Wallery
  const hello = byName.get(HELLO)!.r;
  const fastest = Math.max(...results.filter((x) => x.group !== 'baseline').map((x) => x.r.rps));
  const headroom = hello.rps / fastest;
  const generator =
    hello.generator === 'wrk'
      ? 'wrk, 1 thread'
      : 'autocannon, one Node process (wrk was not found: `apt-get install wrk` for figures the generator does not cap)';
  // and what it costs itself: its CPU time while each Wallery case ran, against one core
  const waller = results.filter((x) => x.group !== 'baseline');
  const busiest = waller.reduce((a, b) => (b.r.generatorCores > a.r.generatorCores ? b : a));
  const targetRate = Math.max(...waller.map(({ options: { target } }) => (target && 'rps' in target ? target.rps : 0)));
  const generatorLine = [
    `Load generator: ${generator}. It drives Fastify hello-world at ${fmt(hello.rps)} req/s:`,
    `${(hello.rps / targetRate).toFixed(1)} × the highest rate a target asks for (${fmt(targetRate)} req/s)${hello.rps >= 2 * targetRate ? '' : ' — UNDER 2 ×'},`,
    `${headroom.toFixed(1)} × the fastest Wallery case (where the hello-world server, one Node process, is what saturates).`,
    `Its own CPU time during the Wallery cases was at most ${Math.round(100 * busiest.r.generatorCores)} % of one core (${busiest.name}), median ${Math.round(100 * median(waller.map((x) => x.r.generatorCores)))} %:`,
    busiest.r.generatorCores < 0.8
      ? 'the generator was never saturated, the server was.'
      : 'the generator may have been saturated in the busiest cases.',
  ].join(' ');
  const RSS_TARGET = 250;
  const peakRss = Math.max(storeRss, cacheRss);
  const storePosts = ALL_WALLS.reduce((sum, w) => sum + w.posts, 0);
  const md = [
    `# Benchmark results`,
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpu} · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} · SQLite store · ${CONNECTIONS} connections, ${SECONDS} s per case after ${WARMUP} s warm-up${quick ? ' · QUICK RUN (smaller data)' : ''}`,
    '',
    generatorLine,
    '',
    '| case | req/s | p50 ms | p99 ms | errors | ratio (same run) | target |',
    '|---|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
    postgresLine,
    '',
    `Peak RSS of \`wallery serve\`: ${storeRss.toFixed(0)} MB without the response cache, ${cacheRss.toFixed(0)} MB with it (store holds ${storePosts.toLocaleString('en')} posts) — target < ${RSS_TARGET} MB: ${peakRss < RSS_TARGET ? 'met' : 'NOT met'}.`,
    '',
    '| import | posts | seconds | posts/s | target |',
    '|---|---:|---:|---:|---|',
    ...importRows,
    '',
  ].join('\n');
  // a partial run does not replace the report of a whole one
  if (ONLY === null) writeFileSync(join(ROOT, 'bench', 'results.md'), md);
  process.stdout.write(`${md}\n`);
  rmSync(DATA, { recursive: true, force: true });
}

await main();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
