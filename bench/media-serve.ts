// The media serving benchmark (part of `npm run bench`; alone:
// `npx tsx bench/media-serve.ts [--quick] [--seconds N]`). Wallery serving a
// stored rendition of a picture (GET /media/{hash}/{name}: a row lookup kept
// in memory, Accept negotiation, headers, the file sent by @fastify/static)
// against a bare static-file server sending the same bytes from the same
// folder (Fastify with @fastify/static, bench/baselines.ts), measured with
// wrk (bench/load.ts) in the same run. Issue 29's target: at least 0.8 × the
// static server. Writes bench/media-serve-results.md.
import { once } from 'node:events';
import { rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { cpus } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Case, LoadResult } from './load.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const quick = process.argv.includes('--quick');
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : quick ? 3 : 8;
const WARMUP = quick ? 1 : 2;
const CONNECTIONS = 32;
const TARGET = 0.8;
const ROUNDS = quick ? 2 : 3;

async function load(url: string, extra: Partial<Case> = {}): Promise<LoadResult> {
  const spec: Case = { url, seconds: SECONDS, warmupSeconds: WARMUP, connections: CONNECTIONS, ...extra };
  const out = await runToEnd(node(['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)]));
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en');

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-bench-media-'));
  const server = node(['--import', 'tsx', 'bench/media-server.ts', dir], { NODE_ENV: 'production' });
  const [, port, hash, storageDir] = await waitFor(server, /READY (\d+) ([0-9a-f]{64}) (\S+)/);
  const wallery = `http://127.0.0.1:${port}`;
  const baseline = node(['--import', 'tsx', 'bench/baselines.ts'], {
    BENCH_STATIC_DIR: storageDir!,
    NODE_ENV: 'production',
  });
  const base = `http://127.0.0.1:${(await waitFor(baseline, /READY (\d+)/))[1]}`;
  const file = (name: string) => `${base}/static/${hash!.slice(0, 2)}/${hash}/${name}`;

  // the AVIF rendition is made on its first request, then stored: make it before measuring
  const avif = await fetch(`${wallery}/media/${hash}/320`, { headers: { accept: 'image/avif,image/webp,*/*' } });
  if (avif.status !== 200 || avif.headers.get('content-type') !== 'image/avif') throw new Error('no AVIF rendition');
  const webp = await fetch(`${wallery}/media/${hash}/640.webp`);
  const same = Buffer.from(await webp.arrayBuffer()).equals(
    Buffer.from(await (await fetch(file('640.webp'))).arrayBuffer()),
  );
  if (!same) throw new Error('the two servers do not send the same bytes');
  const etag = webp.headers.get('etag')!;

  // Each pair runs in alternating rounds (static, Wallery, static, Wallery…): on a shared machine the load
  // of the moment moves both sides of a round alike, and the median of the rounds' ratios is kept.
  const pairs: { name: string; baseline: string; rounds: { base: LoadResult; wallery: LoadResult }[] }[] = [];
  const pair = async (
    name: string,
    baselineName: string,
    staticUrl: string,
    walleryUrl: string,
    extra: Partial<Case>,
  ) => {
    log(`  ${name}`);
    const rounds: { base: LoadResult; wallery: LoadResult }[] = [];
    for (let i = 0; i < ROUNDS; i++)
      rounds.push({ base: await load(staticUrl), wallery: await load(walleryUrl, extra) });
    pairs.push({ name, baseline: baselineName, rounds });
  };
  log('media serving…');
  const hello = await load(`${base}/hello`);
  await pair(
    '/media/{hash}/640, Accept: image/webp (negotiated)',
    '640.webp',
    file('640.webp'),
    `${wallery}/media/${hash}/640`,
    {
      headers: { accept: 'image/avif;q=0,image/webp,*/*' },
    },
  );
  await pair('/media/{hash}/640.webp (named)', '640.webp', file('640.webp'), `${wallery}/media/${hash}/640.webp`, {});
  await pair(
    '/media/{hash}/320, Accept: image/avif (rendered on first request, then stored)',
    '320.avif',
    file('320.avif'),
    `${wallery}/media/${hash}/320`,
    { headers: { accept: 'image/avif,image/webp,*/*' } },
  );
  log('  revalidation (304)');
  const revalidated = await load(`${wallery}/media/${hash}/640.webp`, { headers: { 'if-none-match': etag } });

  server.kill('SIGTERM');
  baseline.kill('SIGTERM');
  await Promise.all([once(server, 'exit'), once(baseline, 'exit')]);
  rmSync(dir, { recursive: true, force: true });

  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  let allMet = true;
  const table = pairs.map(({ name, baseline: file, rounds }) => {
    const ratios = rounds.map((r) => r.wallery.rps / r.base.rps);
    const ratio = median(ratios);
    const errors = rounds.reduce((n, r) => n + r.wallery.errors + r.wallery.non2xx + r.base.errors + r.base.non2xx, 0);
    const met = ratio >= TARGET && errors === 0;
    allMet &&= met;
    const w = rounds.map((r) => r.wallery);
    return (
      `| ${name} | ${file} | ${fmt(median(rounds.map((r) => r.base.rps)))} | ${fmt(median(w.map((r) => r.rps)))} | ` +
      `${median(w.map((r) => r.p50)).toFixed(2)} / ${median(w.map((r) => r.p99)).toFixed(2)} | ${errors} | ` +
      `${ratios.map((x) => x.toFixed(2)).join(', ')} | **${ratio.toFixed(2)} ×** | ≥ ${TARGET} ×: ${met ? 'met' : 'NOT met'} |`
    );
  });
  const generator = hello.generator === 'wrk' ? 'wrk, 1 thread' : 'autocannon (wrk not found)';
  const md = [
    '# Media serving benchmark',
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} · Node ${process.version} · ${generator} · ${CONNECTIONS} connections, ${SECONDS} s per case after ${WARMUP} s warm-up${quick ? ' · QUICK RUN' : ''}`,
    '',
    'One picture (1600 × 1067, processed as the media worker does) in a folder storage. Wallery answers',
    '`GET /media/{hash}/{name}` (the picture’s row from memory, Accept negotiation, its headers, the file sent by',
    '@fastify/static); the baseline is a bare Fastify server with @fastify/static sending the same files from the',
    'same folder. Issue 29’s target: a stored rendition at least 0.8 × the static server.',
    '',
    `Each case runs in ${ROUNDS} alternating rounds (the static server, then Wallery); the ratio is the median of the`,
    'rounds’ ratios, so that what else the machine does at a moment weighs on both sides of a round alike.',
    '',
    '| case (Wallery) | file | static server req/s | Wallery req/s | Wallery p50 / p99 ms | errors | ratio per round | ratio | target |',
    '|---|---|---:|---:|---:|---:|---|---:|---|',
    ...table,
    '',
    `Revalidation: \`If-None-Match\` with the file's ETag → 304 at ${fmt(revalidated.rps)} req/s (p99 ${revalidated.p99.toFixed(2)} ms); Fastify hello-world on the same machine: ${fmt(hello.rps)} req/s.`,
    '',
    `Target: ${allMet ? 'met' : 'NOT met'}.`,
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'media-serve-results.md'), md);
  process.stdout.write(`${md}\n`);
}

await main();
