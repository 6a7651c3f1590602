// The live streams at scale (part of `npm run bench`; alone:
// `npm run build && npx tsx bench/sse.ts [--quick]`; BENCH_SSE_STREAMS
// changes the 10,000). One `wallery serve` on SQLite with 10 walls; a load
// process (bench/sse-load.ts, raw sockets) opens the streams, 1,000 a wall,
// then creates one post on every wall at once (W3), round after round, and
// times each stream's `upsert` from its wall's write. Measured: the
// server's memory before and with the streams open (per stream), the
// fan-out latency (p50/p99/max over every stream and round), and the load
// process's CPU (it must not be what limits). The same again through nginx
// (deploy/nginx/wallery.conf, buffering off). Writes bench/sse-results.md.
// BENCH_SSE_PROFILE=<dir> has the server write a CPU profile of each case.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY, writeDataFile, type WallSpec } from './generate.js';
import { cpuSecondsOf, fileLimit, hasNginx, rssOf, startNginx, type Nginx } from './nginx.js';
import { log, node, pin, ROOT, runToEnd, waitFor } from './process.js';
import type { Command, LoadSpec, Reply } from './sse-load.js';

const DATA = join(ROOT, 'bench', 'data-sse');
const quick = process.argv.includes('--quick');
const STREAMS = Number(process.env.BENCH_SSE_STREAMS ?? 10_000);
const WALLS = 10;
const PER_WALL = Math.ceil(STREAMS / WALLS);
const ROUNDS = quick ? 3 : 10;
/** target: write → every stream, p99 */
const TARGET_P99_MS = 1000;
/** nginx workers in the nginx case: one holds two descriptors per stream, and the limit here may be 20,000 */
const NGINX_WORKERS = 2;
const SERVER_CPU = 0;
const LOAD_CPU = 1;
let pinned = cpus().length >= 2;

/**
 * Every child inherits the limit on open files: the server and the load
 * process hold one per stream, nginx two. Raised to the hard limit (raising
 * that needs CAP_SYS_RESOURCE, which a container may not have).
 */
function raiseFdLimit(): string {
  const hard = fileLimit();
  const done = spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${hard}:${hard}`]);
  return done.status === 0 ? String(hard) : `unchanged (prlimit: ${done.stderr.toString().trim()})`;
}

async function startWallery(db: string) {
  // BENCH_SSE_PROFILE=<dir>: the server writes a CPU profile there (open it in Chrome's DevTools)
  const profile = process.env.BENCH_SSE_PROFILE;
  const child = node([...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), 'dist/cli/main.js', 'serve'], {
    DATABASE_URL: db,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INGEST: 'off',
    EMBED_RATE_LIMIT_PER_KEY: '0',
    EMBED_RATE_LIMIT_PER_IP: '0',
    EMBED_MAX_STREAMS: String(WALLS * PER_WALL + 100),
    // every stream comes from this one address
    EMBED_MAX_STREAMS_PER_CLIENT: '0',
  });
  if (pinned) pinned = pin(child, SERVER_CPU);
  const port = Number((await waitFor(child, /wallery listening on http:\/\/[^:]+:(\d+)/))[1]);
  const base = `http://127.0.0.1:${port}`;
  const metric = async (name: string) => {
    const text = await (await fetch(`${base}/metrics`)).text();
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : NaN;
  };
  return {
    port,
    base,
    /**
     * Resident memory and V8 heap in use, bytes: the least heap of a few
     * readings half a second apart (garbage collected between them counts
     * less), the RSS of the last one.
     */
    async memory() {
      let heap = Infinity;
      for (let i = 0; i < 5; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 500));
        heap = Math.min(heap, await metric('nodejs_heap_size_used_bytes'));
      }
      return { rss: rssOf(child.pid!), heap };
    },
    openStreams: () => metric('wallery_sse_streams_open'),
    cpuSeconds: () => cpuSecondsOf(child.pid!),
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

function startLoad(spec: LoadSpec) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/sse-load.ts', JSON.stringify(spec)], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (pinned) pinned = pin(child, LOAD_CPU);
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the load process exited (${String(code)})`);
  });
  exited.catch(() => undefined);
  return {
    async send<C extends Command>(command: C): Promise<Extract<Reply, { cmd: C['cmd'] }>> {
      child.send(command);
      const [reply] = (await Promise.race([once(child, 'message'), exited])) as [Reply];
      return reply as Extract<Reply, { cmd: C['cmd'] }>;
    },
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function until(what: string, check: () => Promise<boolean>, withinMs = 60_000) {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
const MB = 1024 * 1024;

interface Phase {
  name: string;
  opened: number;
  openMs: number;
  /** server memory before the streams and with them open */
  before: { rss: number; heap: number };
  after: { rss: number; heap: number };
  nginxRss?: { before: number; after: number };
  times: number[];
  missing: number;
  rounds: number;
  loadCpuShare: number;
  serverCpuShare: number;
  nginxCpuShare?: number;
}

async function phase(
  name: string,
  wallery: Awaited<ReturnType<typeof startWallery>>,
  spec: LoadSpec,
  nginx?: Nginx,
): Promise<Phase> {
  const nginxRss = nginx ? () => nginx.workerRss() : undefined;
  log(`${name}: opening ${WALLS * PER_WALL} streams…`);
  const before = await wallery.memory();
  const nginxBefore = nginxRss?.();
  const load = startLoad(spec);
  try {
    const opened = await load.send({ cmd: 'open' });
    await until('every stream counted open', async () => (await wallery.openStreams()) >= opened.opened);
    // the first round loads each wall's snapshot and warms the code up: not counted
    log(`${name}: warm-up round…`);
    const warm = await load.send({ cmd: 'round', round: -1 });
    if (warm.missing > 0) throw new Error(`${name}: ${warm.missing} streams missed the warm-up post`);
    const after = await wallery.memory();
    const nginxAfter = nginxRss?.();
    const times: number[] = [];
    let missing = 0;
    let loadCpuMs = 0;
    let roundsMs = 0;
    const serverCpu0 = wallery.cpuSeconds();
    const nginxCpu0 = nginx?.workerCpuSeconds() ?? 0;
    for (let round = 0; round < ROUNDS; round++) {
      log(`${name}: round ${round + 1}/${ROUNDS}…`);
      const r = await load.send({ cmd: 'round', round });
      times.push(...r.times);
      missing += r.missing;
      loadCpuMs += r.cpuMs;
      roundsMs += r.wallMs;
    }
    const serverCpuMs = (wallery.cpuSeconds() - serverCpu0) * 1000;
    const nginxCpuMs = ((nginx?.workerCpuSeconds() ?? 0) - nginxCpu0) * 1000;
    await load.send({ cmd: 'close' });
    await until('every stream closed', async () => (await wallery.openStreams()) === 0);
    return {
      name,
      opened: opened.opened,
      openMs: opened.ms,
      before,
      after,
      ...(nginxBefore !== undefined ? { nginxRss: { before: nginxBefore, after: nginxAfter! } } : {}),
      times: times.sort((a, b) => a - b),
      missing,
      rounds: ROUNDS,
      loadCpuShare: loadCpuMs / roundsMs,
      serverCpuShare: serverCpuMs / roundsMs,
      ...(nginx ? { nginxCpuShare: nginxCpuMs / roundsMs } : {}),
    };
  } finally {
    await load.stop();
  }
}

async function main() {
  const load1 = loadavg()[0]!;
  const fdLimit = raiseFdLimit();
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });
  const db = join(DATA, 'bench.db');
  const file = join(DATA, 'data.json');
  const walls: WallSpec[] = Array.from({ length: WALLS }, (_, i) => ({
    id: 1001 + i,
    posts: 200,
    firstPostId: 1 + i * 200,
    feeds: 2,
  }));
  await writeDataFile(file, walls, true);
  await runToEnd(node(['dist/cli/main.js', 'import', file], { DATABASE_URL: db }));
  const keys: { id: number; key: string }[] = [];
  for (const w of walls) {
    const made = await runToEnd(
      node(['dist/cli/main.js', 'walls', 'keys', 'create', String(w.id)], { DATABASE_URL: db }),
    );
    keys.push({ id: w.id, key: made.trim() });
  }

  // a fresh server for each case: the memory a case measures is not what the one before left
  const spec = (wallery: { base: string }, port: number): LoadSpec => ({
    host: '127.0.0.1',
    port,
    writeBase: wallery.base,
    userKey: BENCH_KEY,
    walls: keys,
    streamsPerWall: PER_WALL,
  });
  const phases: Phase[] = [];
  let nginxNote = '';
  let wallery = await startWallery(db);
  try {
    phases.push(await phase('direct', wallery, spec(wallery, wallery.port)));
  } finally {
    await wallery.stop();
  }
  if (hasNginx) {
    wallery = await startWallery(db);
    const nginx = await startNginx(wallery.port, { workers: NGINX_WORKERS });
    // nginx shares the load process's CPU: the server keeps its own
    if (pinned) pin(nginx.child, LOAD_CPU);
    try {
      phases.push(await phase('through nginx', wallery, spec(wallery, nginx.port), nginx));
    } finally {
      await nginx.stop();
      await wallery.stop();
    }
  } else nginxNote = '- nginx was not measured: /usr/sbin/nginx is missing (Debian: `apt-get install nginx`).';

  const ms = (x: number) => x.toFixed(0);
  const mb = (x: number) => (x / MB).toFixed(1);
  const kb = (x: number) => (x / 1024).toFixed(1);
  const met = (yes: boolean) => (yes ? '**met**' : '**NOT met**');
  const md = [
    '# Live streams (SSE) at scale',
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} · Node ${process.version} · SQLite · ${WALLS} walls × ${PER_WALL.toLocaleString('en')} streams · ${ROUNDS} rounds after a warm-up round · descriptor limit ${fdLimit} · load average ${load1.toFixed(2)} at the start${load1 > 1 ? ' (the machine was NOT quiet: other work ran alongside — noisy numbers, to be re-measured)' : ''}${quick ? ' · QUICK RUN' : ''}`,
    '',
    pinned
      ? `The server is pinned to CPU ${SERVER_CPU}; the load process (raw sockets, bench/sse-load.ts) and nginx (${NGINX_WORKERS} workers, \`reuseport\`) to CPU ${LOAD_CPU} (\`taskset\`). Each case on a freshly started server.`
      : 'Not pinned (no taskset, or one CPU).',
    '',
    'A round: one post created with W3 on every wall at once; the time from its wall’s write request to the `upsert` on each stream (every stream, every round).',
    '',
    '| path | streams | opened in s | deliveries | missing | p50 ms | p99 ms | max ms | server CPU in rounds | load process CPU | nginx CPU |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...phases.map(
      (p) =>
        `| ${p.name} | ${p.opened.toLocaleString('en')} | ${(p.openMs / 1000).toFixed(1)} | ${p.times.length.toLocaleString('en')} | ${p.missing} | ${ms(pct(p.times, 50))} | ${ms(pct(p.times, 99))} | ${ms(p.times[p.times.length - 1] ?? NaN)} | ${(p.serverCpuShare * 100).toFixed(0)} % | ${(p.loadCpuShare * 100).toFixed(0)} % | ${p.nginxCpuShare === undefined ? '–' : `${(p.nginxCpuShare * 100).toFixed(0)} %`} |`,
    ),
    '',
    `| path | server RSS before → with streams MB | RSS per stream KB | heap before → with streams MB | heap per stream KB | nginx workers' RSS per stream KB |`,
    '|---|---:|---:|---:|---:|---:|',
    ...phases.map(
      (p) =>
        `| ${p.name} | ${mb(p.before.rss)} → ${mb(p.after.rss)} | ${kb((p.after.rss - p.before.rss) / p.opened)} | ${mb(p.before.heap)} → ${mb(p.after.heap)} | ${kb((p.after.heap - p.before.heap) / p.opened)} | ${p.nginxRss ? kb((p.nginxRss.after - p.nginxRss.before) / p.opened) : '–'} |`,
    ),
    '',
    ...phases.map(
      (p) =>
        `- ${p.name}: fan-out p99 ${ms(pct(p.times, 99))} ms (target < ${TARGET_P99_MS} ms): ${met(pct(p.times, 99) < TARGET_P99_MS && p.missing === 0)}${p.missing ? ` — ${p.missing} deliveries missing` : ''}.`,
    ),
    '- Memory per stream is the difference divided by the streams; the heap is read without forcing a collection, so it includes garbage not yet collected (noisy).',
    '- CPU shares are of one core over the rounds’ wall time. The load process is not the bottleneck when its share stays well below one core; nginx and the load process share one core.',
    ...(nginxNote ? [nginxNote] : []),
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'sse-results.md'), md);
  process.stdout.write(`${md}\n`);
  rmSync(DATA, { recursive: true, force: true });
}

await main();
