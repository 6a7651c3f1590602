// The embed API's benchmark (part of `npm run bench`; alone:
// `npm run build && npx tsx bench/embed.ts [--quick]`). On a 1k-post wall in
// SQLite: the posts page (limit=20 and 100) from the store (response cache
// off), from the response cache, and revalidated (304); then SSE fan-out —
// N streams open on one `wallery serve`, a post created with W3, and the
// time until each stream has its `upsert`. Writes bench/embed-results.md.
import { once } from 'node:events';
import { request } from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY, writeDataFile, type WallSpec } from './generate.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const DATA = join(ROOT, 'bench', 'data-embed');
const quick = process.argv.includes('--quick');
const SECONDS = quick ? 3 : 10;
const WARMUP = quick ? 1 : 2;
const CONNECTIONS = 32;
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const ROUNDS = quick ? 3 : 10;
const WALL: WallSpec = { id: 1001, posts: 1_000, firstPostId: 1, feeds: 3 };

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Result> {
  const spec = { url, headers, seconds: SECONDS, warmupSeconds: WARMUP, connections: CONNECTIONS };
  const out = await runToEnd(node(['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)]));
  return JSON.parse(out.trim().split('\n').pop()!) as Result;
}

async function startWallery(db: string, cacheMb: number) {
  const child = node(['dist/cli/main.js', 'serve'], {
    DATABASE_URL: db,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INGEST: 'off',
    RESPONSE_CACHE_MB: String(cacheMb),
    EMBED_RATE_LIMIT_PER_KEY: '0',
    EMBED_RATE_LIMIT_PER_IP: '0',
    EMBED_MAX_STREAMS: String(STREAMS + 10),
    // every stream comes from this one address
    EMBED_MAX_STREAMS_PER_CLIENT: '0',
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

/** N open streams; `arrival(marker)` resolves with each stream's ms from `t0` until an event containing marker. */
async function openStreams(url: string, n: number) {
  const listeners = new Set<(i: number, chunk: string) => void>();
  const sockets: (() => void)[] = [];
  await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const req = request(url, { agent: false }, (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream ${i}: ${res.statusCode}`));
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              for (const l of listeners) l(i, chunk);
            });
            res.once('data', () => resolve());
          });
          req.on('error', reject);
          sockets.push(() => req.destroy());
          req.end();
        }),
    ),
  );
  return {
    arrival(marker: string, t0: number): Promise<number[]> {
      return new Promise((resolve) => {
        const times = new Array<number>(n).fill(-1);
        let left = n;
        const l = (i: number, chunk: string) => {
          if (times[i] !== -1 || !chunk.includes(marker)) return;
          times[i] = performance.now() - t0;
          if (--left === 0) {
            listeners.delete(l);
            resolve(times);
          }
        };
        listeners.add(l);
      });
    },
    close: () => sockets.forEach((c) => c()),
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });
  const db = join(DATA, 'bench.db');
  const file = join(DATA, 'data.json');
  await writeDataFile(file, [WALL], true);
  await runToEnd(node(['dist/cli/main.js', 'import', file], { DATABASE_URL: db }));
  const made = await runToEnd(
    node(['dist/cli/main.js', 'walls', 'keys', 'create', String(WALL.id)], { DATABASE_URL: db }),
  );
  const key = made.trim();
  const posts = (limit: number) => `/api/embed/v1/walls/${WALL.id}/posts?key=${key}&limit=${limit}`;

  const rows: string[] = [];
  const measure = async (name: string, url: string, headers: Record<string, string> = {}) => {
    log(`  ${name}`);
    const r = await load(url, headers);
    // a revalidation's 304 is its success
    const failed = r.errors + ('if-none-match' in headers ? 0 : r.non2xx);
    rows.push(
      `| ${name} | ${Math.round(r.rps).toLocaleString('en')} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${failed} |`,
    );
  };

  log('embed reads from the store (response cache off)…');
  let wallery = await startWallery(db, 0);
  await measure('embed posts limit=20 (uncached)', wallery.base + posts(20));
  await measure('embed posts limit=100 (uncached)', wallery.base + posts(100));
  await wallery.stop();

  log('embed reads with the response cache…');
  wallery = await startWallery(db, 64);
  await measure('embed posts limit=20 (cached)', wallery.base + posts(20));
  await measure('embed posts limit=100 (cached)', wallery.base + posts(100));
  await measure('embed posts limit=100 (cached, gzip/br)', wallery.base + posts(100), {
    'accept-encoding': 'gzip, br',
  });
  const etag = (await fetch(wallery.base + posts(20))).headers.get('etag')!;
  await measure('embed posts limit=20, If-None-Match → 304', wallery.base + posts(20), { 'if-none-match': etag });
  await measure('embed wall info', `${wallery.base}/api/embed/v1/walls/${WALL.id}?key=${key}`);

  log(`SSE fan-out: ${STREAMS} streams…`);
  const opened = performance.now();
  const streams = await openStreams(`${wallery.base}/api/embed/v1/walls/${WALL.id}/stream?key=${key}`, STREAMS);
  const openMs = performance.now() - opened;
  // let the hub load its snapshot before the first change
  await new Promise((r) => setTimeout(r, 500));
  const all: number[] = [];
  const firsts: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const marker = `fan-out round ${round} ${Date.now()}`;
    const t0 = performance.now();
    const arrived = streams.arrival(marker, t0);
    const res = await fetch(`${wallery.base}/api/v2/widget/create-post?user_key=${BENCH_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallId: WALL.id, content: marker }),
    });
    if (res.status !== 200) throw new Error(`W3: ${res.status}`);
    const times = (await arrived).sort((a, b) => a - b);
    firsts.push(times[0]!);
    all.push(...times);
  }
  streams.close();
  await wallery.stop();
  all.sort((a, b) => a - b);
  firsts.sort((a, b) => a - b);
  const ms = (x: number) => x.toFixed(0);

  const md = [
    '# Embed API benchmark',
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} · Node ${process.version} · SQLite · 1k-post wall · ${CONNECTIONS} connections, ${SECONDS} s per case after ${WARMUP} s warm-up${quick ? ' · QUICK RUN' : ''}`,
    '',
    '| case | req/s | p50 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '',
    `SSE fan-out: ${STREAMS} open streams on one instance (opened in ${ms(openMs)} ms); ${ROUNDS} posts created with W3, one at a time; time from the W3 request to the \`upsert\` on each stream:`,
    '',
    '| streams | deliveries | first p50 ms | all p50 ms | all p99 ms | all max ms |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${STREAMS} | ${all.length.toLocaleString('en')} | ${ms(pct(firsts, 50))} | ${ms(pct(all, 50))} | ${ms(pct(all, 99))} | ${ms(all[all.length - 1]!)} |`,
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'embed-results.md'), md);
  process.stdout.write(`${md}\n`);
  rmSync(DATA, { recursive: true, force: true });
}

await main();
