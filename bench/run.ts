// `npm run bench`: generates data sets, times their import, starts
// `wallery serve` on SQLite, and drives it with wrk (bench/load.ts; autocannon
// when wrk is missing) from a separate process — next to two baselines measured in the same run on the same
// machine: Fastify hello-world and the ceiling (a bare Fastify server
// answering Wallery's own bytes for the same query).
//
// Options: --quick (small data sets and 3 s cases, for a smoke run),
//          --seconds N (measured seconds per case, default 10).
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY, writeDataFile, type WallSpec } from './generate.js';
import { hasWrk, type LoadResult } from './load.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const DATA = join(ROOT, 'bench', 'data');
const quick = process.argv.includes('--quick');
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : quick ? 3 : 10;
const WARMUP = quick ? 1 : 2;
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

type Result = LoadResult;

async function load(
  url: string,
  extra: Partial<{ method: 'POST'; headers: Record<string, string>; body: string }> = {},
) {
  const spec = { url, seconds: SECONDS, warmupSeconds: WARMUP, connections: CONNECTIONS, ...extra };
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

async function startWallery(db: string, cacheMb: number) {
  const child = node(['dist/cli/main.js', 'serve'], {
    DATABASE_URL: db,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INGEST: 'off',
    RESPONSE_CACHE_MB: String(cacheMb),
  });
  const port = (await waitFor(child, /wallery listening on http:\/\/[^:]+:(\d+)/))[1];
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), 250);
  return {
    base: `http://127.0.0.1:${port}`,
    peakRss: () => peak,
    async stop() {
      clearInterval(timer);
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

async function main() {
  if (!hasWrk()) log('wrk not found (`apt-get install wrk`): measuring with autocannon, which saturates sooner');
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });
  const db = join(DATA, 'bench.db');

  // ---- data and import ----
  const imports: { name: string; posts: number; seconds: number }[] = [];
  const files: [string, WallSpec[], boolean][] = [
    ['1k wall + 20 walls of 500', [SMALL, ...OTHERS], true],
    [`${MEDIUM.posts.toLocaleString('en')}-post wall`, [MEDIUM], false],
    [`${LARGE.posts.toLocaleString('en')}-post wall`, [LARGE], false],
  ];
  for (const [i, [name, walls, withAccount]] of files.entries()) {
    const file = join(DATA, `data-${i}.json`);
    log(`generating ${name}…`);
    const posts = await writeDataFile(file, walls, withAccount);
    log(`importing ${name} (${posts} posts)…`);
    const started = process.hrtime.bigint();
    await runToEnd(node(['--max-old-space-size=8192', 'dist/cli/main.js', 'import', file], { DATABASE_URL: db }));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    imports.push({ name, posts, seconds });
    rmSync(file);
  }

  const q = `user_key=${BENCH_KEY}`;
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

  const results: { group: string; name: string; r: Result; baseline?: string }[] = [];
  const measure = async (group: string, name: string, url: string, baselineName?: string, extra = {}) => {
    log(`  ${name}`);
    results.push({ group, name, r: await load(url, extra), baseline: baselineName });
  };

  log('baselines…');
  await measure('baseline', 'Fastify hello-world', `${bbase}/hello`);
  await measure('baseline', 'ceiling: W2 limit=100 JSON bytes', `${bbase}/ceiling/w2json`);
  await measure('baseline', 'ceiling: W2 limit=100 XML bytes', `${bbase}/ceiling/w2xml`);

  log('from the store (response cache off)…');
  await measure(
    'store',
    'W1 wall info',
    `${wallery.base}/api/v2/widget/wallInfo/${SMALL.id}?${q}`,
    'Fastify hello-world',
  );
  await measure(
    'store',
    'W2 limit=100 JSON (1k wall)',
    wallery.base + w2(SMALL.id),
    'ceiling: W2 limit=100 JSON bytes',
  );
  await measure(
    'store',
    'W2 limit=100 XML (1k wall)',
    wallery.base + w2(SMALL.id, '&format=xml'),
    'ceiling: W2 limit=100 XML bytes',
  );
  await measure(
    'store',
    'W2 image+video since 01/06/2025',
    wallery.base + w2(SMALL.id, '&include_only_image_posts=true&include_only_video_posts=1&date_from=01/06/2025'),
  );
  await measure(
    'store',
    `W2 page 1 (${LARGE.posts.toLocaleString('en')} wall)`,
    wallery.base + w2(LARGE.id),
    'W2 limit=100 JSON (1k wall)',
  );
  await measure(
    'store',
    `W2 offset 10k (${LARGE.posts.toLocaleString('en')} wall)`,
    wallery.base + w2(LARGE.id, '&offset=10000'),
    'W2 limit=100 JSON (1k wall)',
  );
  await measure(
    'store',
    `W2 offset 100k (${LARGE.posts.toLocaleString('en')} wall)`,
    wallery.base + w2(LARGE.id, '&offset=100000'),
    'W2 limit=100 JSON (1k wall)',
  );
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
  await measure(
    'cache',
    'W1 wall info (cached)',
    `${wallery.base}/api/v2/widget/wallInfo/${SMALL.id}?${q}`,
    'Fastify hello-world',
  );
  await measure('cache', 'W2 limit=100 JSON (cached)', wallery.base + w2(SMALL.id), 'ceiling: W2 limit=100 JSON bytes');
  await measure(
    'cache',
    'W2 limit=100 XML (cached)',
    wallery.base + w2(SMALL.id, '&format=xml'),
    'ceiling: W2 limit=100 XML bytes',
  );
  await measure(
    'cache',
    'W2 limit=100 JSON, Accept-Encoding: gzip, br',
    wallery.base + w2(SMALL.id),
    'ceiling: W2 limit=100 JSON bytes',
    {
      headers: { 'accept-encoding': 'gzip, br' },
    },
  );
  await measure(
    'cache',
    'C2 limit=100 JSON, Accept-Encoding: gzip, br',
    `${wallery.base}/api/v2/commerce/getGalleryPosts/${SMALL.id}/?${q}&limit=100`,
    undefined,
    {
      headers: { 'accept-encoding': 'gzip, br' },
    },
  );
  await measure('cache', `W2 page 1 (${LARGE.posts.toLocaleString('en')} wall, cached)`, wallery.base + w2(LARGE.id));
  await measure('write', 'W3 create post', `${wallery.base}/api/v2/widget/create-post?${q}`, undefined, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallId: OTHERS[0]!.id, content: 'bench post', postFile: 'https://cdn.example.com/x.jpg' }),
  });
  const cacheRss = wallery.peakRss();
  await wallery.stop();
  baseline.kill('SIGTERM');

  // ---- report ----
  const byName = new Map(results.map((x) => [x.name, x]));
  const rows = results.map(({ name, r, baseline: b }) => {
    const base = b ? byName.get(b) : undefined;
    const ratio = base
      ? b!.startsWith('W2 limit')
        ? `${(r.p50 / Math.max(base.r.p50, 0.001)).toFixed(2)} × p50 of ${b}`
        : `${(r.rps / base.r.rps).toFixed(2)} × ${b}`
      : '';
    return `| ${name} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors + r.non2xx} | ${ratio} |`;
  });
  const importRows = imports.map(
    (i) =>
      `| ${i.name} | ${i.posts.toLocaleString('en')} | ${i.seconds.toFixed(1)} | ${Math.round(i.posts / i.seconds).toLocaleString('en')} |`,
  );
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  // the generator must not be what saturates: its hello-world rate at least twice any rate reported for Wallery
  const hello = byName.get('Fastify hello-world')!.r;
  const fastest = Math.max(...results.filter((x) => x.group !== 'baseline').map((x) => x.r.rps));
  const headroom = hello.rps / fastest;
  const generator =
    hello.generator === 'wrk'
      ? 'wrk, 1 thread'
      : 'autocannon, one Node process (wrk was not found: `apt-get install wrk` for figures the generator does not cap)';
  const generatorLine = `Load generator: ${generator}. It drives Fastify hello-world at ${Math.round(hello.rps).toLocaleString('en')} req/s, ${headroom.toFixed(1)} × the fastest Wallery case${headroom >= 2 ? ', so the generator is not the bottleneck' : ' — UNDER 2 ×: the generator may cap the figures'}.`;
  const md = [
    `# Benchmark results`,
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpu} · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} · SQLite store · ${CONNECTIONS} connections, ${SECONDS} s per case after ${WARMUP} s warm-up${quick ? ' · QUICK RUN (smaller data)' : ''}`,
    '',
    generatorLine,
    '',
    '| case | req/s | p50 ms | p99 ms | errors | ratio (same run) |',
    '|---|---:|---:|---:|---:|---|',
    ...rows,
    '',
    `Peak RSS of \`wallery serve\`: ${storeRss.toFixed(0)} MB without the response cache, ${cacheRss.toFixed(0)} MB with it (store holds ${(SMALL.posts + MEDIUM.posts + LARGE.posts + OTHERS.length * 500).toLocaleString('en')} posts).`,
    '',
    '| import | posts | seconds | posts/s |',
    '|---|---:|---:|---:|',
    ...importRows,
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'results.md'), md);
  process.stdout.write(`${md}\n`);
  rmSync(DATA, { recursive: true, force: true });
}

await main();
