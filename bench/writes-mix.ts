// Writes against reads (issue 34): random W2 pages over 100 walls of 300
// posts, with and without 1 % W3 writes to those walls, in alternating
// rounds against one `wallery serve`, on SQLite and then on PostgreSQL +
// Redis. The target: the mix with writes ≥ 0.9 × the same mix without, per
// store (medians of the rounds, all measured in this run). A hello-world
// case shows what the load generator can drive.
//
// Options: --quick (2 s rounds, 2 of each), --seconds N (per round, default
//          10), --rounds N (of each mix, default 3).
// Environment: BENCH_CPU_PROF=DIR writes a V8 CPU profile of the server to
//          DIR for each store (the rounds with writes and without alike; open
//          it in Chrome DevTools or speedscope), BENCH_PG_URL, BENCH_REDIS_URL
//          (bench/postgres.ts).
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { writeDataFile, type WallSpec } from './generate.js';
import { hasWrk, type Case, type LoadResult } from './load.js';
import { randomPages } from './mixes.js';
import { benchServices, unreachable } from './postgres.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const DATA = join(ROOT, 'bench', 'data-writes-mix');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : undefined;
};
const quick = process.argv.includes('--quick');
const SECONDS = arg('--seconds') ?? (quick ? 2 : 10);
const ROUNDS = arg('--rounds') ?? (quick ? 2 : 3);
const WARMUP = 1;
const CONNECTIONS = 32;
const TARGET = 0.9;
const PROFILE_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

const WALLS: WallSpec[] = Array.from({ length: 100 }, (_, i) => ({
  id: 4000 + i,
  posts: 300,
  firstPostId: 50_000_000 + i * 1000,
  feeds: 2,
}));

async function load(url: string, extra: Partial<Case> = {}): Promise<LoadResult> {
  const spec: Case = { url, seconds: SECONDS, warmupSeconds: WARMUP, connections: CONNECTIONS, ...extra };
  const out = await runToEnd(node(['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)]));
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

async function startWallery(env: Record<string, string>, profile?: string) {
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${profile}.cpuprofile`] : [];
  const child = node([...flags, 'dist/cli/main.js', 'serve'], {
    REDIS_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INGEST: 'off',
    RESPONSE_CACHE_MB: '64',
    ...env,
  });
  const port = (await waitFor(child, /wallery listening on http:\/\/[^:]+:(\d+)/))[1];
  return {
    base: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

interface StoreResult {
  store: string;
  without: LoadResult[];
  withWrites: LoadResult[];
}

/** Alternating rounds (without, with, without, …) so that drift on the machine falls on both alike. */
async function rounds(store: string, env: Record<string, string>): Promise<StoreResult> {
  const wallery = await startWallery(env, PROFILE_DIR ? store.toLowerCase().replace(/\W+/g, '-') : undefined);
  const result: StoreResult = { store, without: [], withWrites: [] };
  try {
    for (let i = 0; i < ROUNDS; i++) {
      log(`  ${store} round ${i + 1}/${ROUNDS}`);
      result.without.push(await load(`${wallery.base}/`, { mix: randomPages(WALLS, false) }));
      result.withWrites.push(await load(`${wallery.base}/`, { mix: randomPages(WALLS, true) }));
    }
  } finally {
    await wallery.stop();
  }
  return result;
}

function rows({ store, without, withWrites }: StoreResult): string[] {
  const line = (name: string, rs: LoadResult[], ratio = '', verdict = '') => {
    const errors = rs.reduce((n, r) => n + r.errors + r.non2xx, 0);
    return `| ${store} | ${name} | ${fmt(median(rs.map((r) => r.rps)))} | ${rs.map((r) => fmt(r.rps)).join(', ')} | ${median(rs.map((r) => r.p50)).toFixed(2)} | ${median(rs.map((r) => r.p99)).toFixed(2)} | ${errors} | ${ratio} | ${verdict} |`;
  };
  const ratio = median(withWrites.map((r) => r.rps)) / median(without.map((r) => r.rps));
  const errors = [...without, ...withWrites].some((r) => r.errors + r.non2xx > 0);
  return [
    line('without writes', without),
    line(
      '+ 1 % W3 writes',
      withWrites,
      `${ratio.toFixed(2)} ×`,
      `≥ ${TARGET} ×: ${ratio >= TARGET && !errors ? 'met' : 'NOT met'}`,
    ),
  ];
}

async function main() {
  if (!hasWrk()) log('wrk not found (`apt-get install wrk`): measuring with autocannon, which saturates sooner');
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  const file = join(DATA, 'walls.json');
  const posts = await writeDataFile(file, WALLS, true);
  const sqliteEnv = { DATABASE_URL: join(DATA, 'bench.db') };
  log(`importing ${posts} posts (SQLite)…`);
  await runToEnd(node(['dist/cli/main.js', 'import', file], sqliteEnv));

  // what the generator drives where nothing else limits it
  const baseline = node(['--import', 'tsx', 'bench/baselines.ts'], { BENCH_CEILINGS: '{}' });
  const hello = await load(`http://127.0.0.1:${(await waitFor(baseline, /READY (\d+)/))[1]}/hello`);
  baseline.kill('SIGTERM');

  const results: StoreResult[] = [await rounds('SQLite', sqliteEnv)];
  let postgresLine = '';
  const missing = await unreachable();
  if (missing) postgresLine = `PostgreSQL + Redis: skipped — ${missing} not reachable.`;
  else {
    const services = await benchServices();
    try {
      log('importing (PostgreSQL)…');
      await runToEnd(node(['dist/cli/main.js', 'import', file], services.env));
      results.push(await rounds('PostgreSQL + Redis', services.env));
    } finally {
      await services.drop();
    }
  }

  const all = results.flatMap((r) => [...r.without, ...r.withWrites]);
  const fastest = Math.max(...all.map((r) => r.rps));
  const busiest = Math.max(...all.map((r) => r.generatorCores));
  const md = [
    '# Writes against reads: the 100-wall mix with and without 1 % W3 writes',
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'} · Node ${process.version} · ${CONNECTIONS} connections · ${ROUNDS} alternating rounds of each mix, ${SECONDS} s each after ${WARMUP} s warm-up${quick ? ' · QUICK RUN' : ''} · response cache 64 MB`,
    '',
    `Random W2 pages over ${WALLS.length} walls of ${WALLS[0]!.posts} posts (offset 0…${WALLS[0]!.posts - 100}, limit 10…100); the second mix sends 1 % W3 create-post requests to the same walls instead. req/s is the median of the rounds; the ratio is with writes / without, same server, same run.`,
    '',
    `Load generator: ${hello.generator}. It drives Fastify hello-world at ${fmt(hello.rps)} req/s, ${(hello.rps / fastest).toFixed(1)} × the fastest round here; its own CPU was at most ${Math.round(100 * busiest)} % of one core during the rounds${busiest < 0.8 ? ': the server was the bottleneck, not the generator' : ': the generator may have been saturated'}.`,
    '',
    '| store | mix | req/s (median) | rounds | p50 ms | p99 ms | errors | ratio | target |',
    '|---|---|---:|---|---:|---:|---:|---|---|',
    ...results.flatMap(rows),
    '',
    ...(postgresLine ? [postgresLine, ''] : []),
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'writes-mix-results.md'), md);
  process.stdout.write(`${md}\n`);
  rmSync(DATA, { recursive: true, force: true });
}

await main();
