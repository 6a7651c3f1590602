// Does fetching and processing pictures slow the read API? (part of `npm run
// bench`; alone: `npx tsx bench/media-ingest.ts [--quick] [--seconds N]`).
// `wallery serve` on SQLite with ingestion and the media pipeline on answers
// random W2 pages (wrk, bench/load.ts) while nothing else happens, then while
// it polls a local RSS feed of 400 items, each with its own 1080-px JPEG,
// and its media worker fetches and processes them (one thread, as by
// default), then idle again. Issue 29's target: the read API while ingesting
// at least 0.9 × the mean of the idle rounds before and after. Writes
// bench/media-ingest-results.md.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { BENCH_KEY, writeDataFile, type WallSpec } from './generate.js';
import type { Case, LoadResult } from './load.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const quick = process.argv.includes('--quick');
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : quick ? 4 : 10;
const WARMUP = quick ? 1 : 2;
const CONNECTIONS = 32;
const TARGET = 0.9;
const ITEMS = quick ? 150 : 400;
const WALL: WallSpec = { id: 5000, posts: 1_500, firstPostId: 60_000_000, feeds: 2 };

const fmt = (n: number) => Math.round(n).toLocaleString('en');

async function load(url: string): Promise<LoadResult> {
  const spec: Case = {
    url,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    connections: CONNECTIONS,
    mix: {
      seed: 7,
      requests: [
        {
          weight: 1,
          path: `/api/v2/widget/posts/${WALL.id}?user_key=${BENCH_KEY}&offset={offset}&limit={limit}`,
          vars: { offset: { int: [0, WALL.posts - 100] }, limit: { int: [10, 100] } },
        },
      ],
    },
  };
  const out = await runToEnd(node(['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)]));
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

/** 1080 × 1350 JPEGs that differ (each a picture of its own: no two share a hash). */
async function pictures(n: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const noise = await sharp({
      create: {
        width: 270,
        height: 338,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 40 + (i % 180), sigma: 30 },
      },
    })
      .png()
      .toBuffer();
    out.push(await sharp(noise).resize(1080, 1350).jpeg({ quality: 85 }).toBuffer());
  }
  return out;
}

/** An RSS feed of `n` items, each with its picture as an enclosure, and the pictures. */
async function upstream(n: number) {
  const jpegs = await pictures(n);
  const server = createServer((req, res) => {
    const picture = /^\/p\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (picture) {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpegs[Number(picture[1])]);
      return;
    }
    const { port } = server.address() as AddressInfo;
    const items = jpegs
      .map(
        (_, i) =>
          `<item><title>Picture ${i}</title><link>http://127.0.0.1:${port}/post/${i}</link><guid>pic-${i}</guid>` +
          `<pubDate>${new Date(Date.UTC(2026, 10, 1) + i * 60_000).toUTCString()}</pubDate>` +
          `<enclosure url="http://127.0.0.1:${port}/p/${i}.jpg" type="image/jpeg" length="${jpegs[i]!.length}"/></item>`,
      )
      .join('');
    res
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Pictures</title>${items}</channel></rss>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`, server };
}

async function mediaCounts(env: Record<string, string>): Promise<Record<string, number>> {
  const out = await runToEnd(node(['dist/cli/main.js', 'media', 'status', '--json'], env));
  const status = JSON.parse(out) as { pictures?: Record<string, number> };
  return status.pictures ?? {};
}

/** Polls `done` every half second, for at most five minutes. */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited five minutes for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-bench-ingest-'));
  const env = {
    DATABASE_URL: join(dir, 'bench.db'),
    MEDIA_DIR: join(dir, 'media'),
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
  };
  log(`media while reading: data and ${ITEMS} pictures…`);
  const data = join(dir, 'data.json');
  await writeDataFile(data, [WALL], true);
  // the generated posts' pictures are on a host that does not exist: left to their originals
  await runToEnd(node(['dist/cli/main.js', 'import', data, '--skip-media'], env));
  const feed = await upstream(ITEMS);

  const serve = node(['dist/cli/main.js', 'serve'], {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    INGEST: 'on',
    INGEST_ALLOW_PRIVATE_NETWORKS: 'on',
    INGEST_MAX_ITEMS: String(ITEMS),
    MEDIA: 'on',
  });
  const base = `http://127.0.0.1:${(await waitFor(serve, /wallery listening on http:\/\/[^:]+:(\d+)/))[1]}`;

  log('  idle');
  const before = await load(base);
  await runToEnd(
    node(
      [
        'dist/cli/main.js',
        'feeds',
        'create',
        String(WALL.id),
        '--name',
        'Pictures',
        '--source',
        'RSS',
        '--source-type',
        'feed',
        '--connector',
        JSON.stringify({ kind: 'rss', url: feed.url }),
      ],
      env,
    ),
  );
  // the round starts once the worker is at work (the feed polled, its first pictures stored)
  await until(async () => ((await mediaCounts(env)).ready ?? 0) > 0, 'the first picture stored');
  log('  ingesting and processing pictures');
  const readyBefore = (await mediaCounts(env)).ready ?? 0;
  const during = await load(base);
  const afterCounts = await mediaCounts(env);
  // and the last round once every picture is in
  await until(async () => ((await mediaCounts(env)).pending ?? 0) === 0, 'every picture stored');
  log('  idle again');
  const after = await load(base);

  serve.kill('SIGTERM');
  await once(serve, 'exit');
  feed.server.close();
  rmSync(dir, { recursive: true, force: true });

  const ready = (afterCounts.ready ?? 0) - readyBefore;
  const pending = afterCounts.pending ?? 0;
  const idle = (before.rps + after.rps) / 2;
  const ratio = during.rps / idle;
  const errors = [before, during, after].reduce((n, r) => n + r.errors + r.non2xx, 0);
  // the case only counts when the worker was busy the whole time: pictures still waited at its end
  const busy = pending > 0;
  const met = ratio >= TARGET && errors === 0 && busy;
  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${fmt(r.rps)} | ${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} | ${r.errors + r.non2xx} |`;
  const generator = during.generator === 'wrk' ? 'wrk, 1 thread' : 'autocannon (wrk not found)';
  const md = [
    '# The read API while pictures are fetched and processed',
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} · Node ${process.version} · ${generator} · ${CONNECTIONS} connections, ${SECONDS} s per case after ${WARMUP} s warm-up${quick ? ' · QUICK RUN' : ''}`,
    '',
    `\`wallery serve\` (SQLite, ingestion and media on, MEDIA_THREADS=1) answers random W2 pages of a ${fmt(WALL.posts)}-post wall`,
    `(offset and limit drawn per request). In the middle round a feed of ${ITEMS} items, each with its own 1080 × 1350 JPEG, is`,
    'added: the server polls it and its media worker fetches each picture and makes its master, WebP renditions and',
    'placeholder, in the same process and on the same two cores as the server and the load generator.',
    '',
    '| round | req/s | p50 / p99 ms | errors |',
    '|---|---:|---:|---:|',
    row('idle', before),
    row('ingesting + processing pictures', during),
    row('idle again', after),
    '',
    `Pictures stored during the middle round: ${ready}; still waiting at its end: ${pending} (the worker was ${busy ? 'busy for the whole round' : 'done before the round ended: the round does not count'}).`,
    '',
    `Ratio (ingesting ÷ mean of the idle rounds): **${ratio.toFixed(2)} ×** — target ≥ ${TARGET} ×: ${met ? 'met' : 'NOT met'}.`,
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'media-ingest-results.md'), md);
  process.stdout.write(`${md}\n`);
}

await main();
