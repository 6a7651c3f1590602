// The image check inside a real Wallery (issue 32; part of `npm run bench`;
// alone: `npx tsx bench/image-check-pipeline.ts [--quick] [--seconds N]`).
// `wallery serve` on SQLite, ingestion and media on, one wall with the
// default image rule, fed by a local RSS feed whose items each carry their
// own photo (from bench/photo-set.ts, 1080 px wide, each made distinct)
// served by a local HTTP server. Measured:
//
// - the added time from a post's arrival (stored, pending `check:image`) to
//   its decision, p50 / p99, for posts arriving one at a time;
// - the read API (wrk, random W2 pages, bench/load.ts) while the check
//   classifies a burst of 1,000 stored photos, against the same load idle
//   before and after, in the same run: issue 32's target is ≥ 0.9 ×.
//
// Arrival and decision times are the change log's (`changes.at`, written by
// the store's triggers when the post is inserted and when it is approved).
// Writes bench/image-check-pipeline-results.md.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { DEFAULT_IMAGE_CLASSES, DEFAULT_IMAGE_THRESHOLD, IMAGE_MODEL } from '../src/domain/image-rules.js';
import { BENCH_KEY, writeDataFile, type WallSpec } from './generate.js';
import type { Case, LoadResult } from './load.js';
import { photoSet } from './photo-set.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const quick = process.argv.includes('--quick');
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : quick ? 4 : 10;
const WARMUP = quick ? 1 : 2;
const CONNECTIONS = 32;
const TARGET = 0.9;
/** posts arriving one at a time (after one more that loads the model, not counted) */
const SINGLES = quick ? 6 : 30;
const BURST = quick ? 150 : 1_000;
const WALL: WallSpec = { id: 5000, posts: 1_500, firstPostId: 60_000_000, feeds: 2 };
const WIDTH = 1080;

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

/** `n` distinct JPEGs, 1080 px wide: the photo set in turn, each pass a little brighter (no two share a hash). */
async function pictures(n: number): Promise<Buffer[]> {
  const photos = photoSet(log);
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const photo = photos[i % photos.length]!;
    const pass = Math.floor(i / photos.length);
    out.push(
      await sharp(photo.file)
        .flatten({ background: '#ffffff' })
        .resize({ width: WIDTH })
        .modulate({ brightness: 1 + pass * 0.01 })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }
  return out;
}

/** An RSS feed of the items published so far (newest first), each with its picture as an enclosure. */
async function upstream(jpegs: Buffer[]) {
  let published = 0;
  const server = createServer((req, res) => {
    const picture = /^\/p\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (picture) {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpegs[Number(picture[1])]);
      return;
    }
    const { port } = server.address() as AddressInfo;
    let items = '';
    for (let i = published - 1; i >= 0; i--)
      items +=
        `<item><title>Photo ${i}</title><link>http://127.0.0.1:${port}/post/${i}</link><guid>photo-${i}</guid>` +
        `<pubDate>${new Date(Date.UTC(2026, 10, 1) + i * 1000).toUTCString()}</pubDate>` +
        `<enclosure url="http://127.0.0.1:${port}/p/${i}.jpg" type="image/jpeg" length="${jpegs[i]!.length}"/></item>`;
    res
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Photos</title>${items}</channel></rss>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`,
    server,
    /** the feed shows items up to `n` (exclusive) from now on */
    publish: (n: number) => (published = n),
  };
}

/** Polls `done` every 200 ms, for at most `minutes`. */
async function until(done: () => boolean | Promise<boolean>, what: string, minutes = 15): Promise<void> {
  const deadline = Date.now() + minutes * 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited ${minutes} minutes for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** CPU time (s) of each thread of a process so far, by name and niceness (/proc/<pid>/task/<tid>/stat). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  const tick = 100; // USER_HZ
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields after the name: utime 12th, stime 13th, nice 17th (0-based 11, 12, 16)
    const key = `${tid === String(pid) ? 'main thread' : name} (nice ${f[16]})`;
    out.set(key, (out.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) / tick);
  }
  return out;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-bench-image-check-'));
  const env = {
    DATABASE_URL: join(dir, 'bench.db'),
    MEDIA_DIR: join(dir, 'media'),
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
  };
  const total = 1 + SINGLES + BURST;
  log(`image check in the pipeline: data and ${total} photos…`);
  const jpegs = await pictures(total);
  const data = join(dir, 'data.json');
  await writeDataFile(data, [WALL], true);
  await runToEnd(node(['dist/cli/main.js', 'import', data, '--skip-media'], env));
  const token = (await runToEnd(node(['dist/cli/main.js', 'tokens', 'create', '--name', 'bench'], env))).trim();
  const feed = await upstream(jpegs);

  const serve = node(['dist/cli/main.js', 'serve'], {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    INGEST: 'on',
    INGEST_ALLOW_PRIVATE_NETWORKS: 'on',
    INGEST_MAX_ITEMS: String(Math.max(total, 500)),
    MEDIA: 'on',
  });
  const base = `http://127.0.0.1:${(await waitFor(serve, /wallery listening on http:\/\/[^:]+:(\d+)/))[1]}`;
  const manage = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api/manage/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as { responseData: Record<string, unknown> };
  };
  // the default image rule: porn, hentai, sexy at 0.8, hold
  const RULES = { rules: [{ id: 'nsfw', kind: 'image', action: 'hold' }] };
  await manage('PUT', `/walls/${WALL.id}/rules`, RULES);
  const created = await manage('POST', `/walls/${WALL.id}/feeds`, {
    name: 'Photos',
    source: 'RSS',
    sourceType: 'feed',
    connector: { kind: 'rss', url: feed.url },
  });
  const feedId = created.responseData.id as number;
  const poll = () => manage('POST', `/walls/${WALL.id}/feeds/${feedId}/poll`);

  // the server's store, read beside it (WAL: readers never block its writer)
  const db = new Database(env.DATABASE_URL, { readonly: true });
  // a new feed is polled by the scheduler soon after it is made: that first (empty) poll is let
  // happen before anything is published, since a poll asked for while one is in flight joins it
  const firstPoll = db.prepare<[number], { at: number | null }>(
    'select last_polled_at as at from feed_ingest_state where feed_id = ?',
  );
  await until(() => (firstPoll.get(feedId)?.at ?? null) !== null, 'the new feed’s first poll', 1);
  /** The photo posts' arrival and decision times (ms), by item number; held ones too. */
  const timings = db.prepare<[number], { guid: string; arrived: number; decided: number | null; state: string }>(
    `select p.external_id as guid, p.state as state,
       (select min(c.at) from changes c where c.post_id = p.id and c.kind = 'created') as arrived,
       coalesce((select min(c.at) from changes c where c.post_id = p.id and c.kind = 'approved'),
                case when p.decided_by like 'rule:%' then p.decided_at end) as decided
     from posts p where p.wall_id = ? and p.external_id is not null`,
  );
  const decided = () => {
    const out = new Map<number, { wait: number; held: boolean }>();
    for (const r of timings.all(WALL.id)) {
      const item = Number(/(\d+)$/.exec(r.guid)?.[1]);
      if (r.decided !== null) out.set(item, { wait: r.decided - r.arrived, held: r.state !== 'approved' });
    }
    return out;
  };

  log('  idle');
  const before = await load(base);

  log(`  ${SINGLES} photos arriving one at a time`);
  for (let i = 0; i <= SINGLES; i++) {
    feed.publish(i + 1);
    await poll();
    await until(() => decided().has(i), `photo ${i} decided`, 2);
  }
  const singles = [...decided()].filter(([i]) => i >= 1 && i <= SINGLES).map(([, d]) => d);

  // the burst: its posts stored and their photos processed while the wall has no picture rule
  // (the media pipeline's own load is bench/media-ingest.ts's); then the image rule is set, and
  // the check classifies the 1,000 stored photos in the background while the API is read
  log(`  a burst of ${BURST} photos stored (no picture rule yet)`);
  await manage('PUT', `/walls/${WALL.id}/rules`, { rules: [] });
  feed.publish(total);
  await poll();
  const unprocessed = db.prepare<[number], { n: number }>(
    `select count(*) as n from posts where wall_id = ? and external_id is not null
       and (media_state is null or media_state = 'pending')`,
  );
  await until(() => unprocessed.get(WALL.id)!.n === 0, 'every photo of the burst stored');
  const checks = db.prepare<[string], { n: number }>(`select count(*) as n from picture_checks where model = ?`);
  const checked = () => checks.get(IMAGE_MODEL)!.n;
  const unchecked = db.prepare<[string], { n: number }>(
    `select count(distinct m.hash) as n from post_media m left join picture_checks c on c.hash = m.hash and c.model = ?
     where m.state = 'ready' and c.hash is null`,
  );
  const toCheck = () => unchecked.get(IMAGE_MODEL)!.n;
  const checkedBefore = checked();
  log(`  the image rule set: ${BURST} stored photos to classify`);
  const burstStart = Date.now();
  await manage('PUT', `/walls/${WALL.id}/rules`, RULES);
  // the round starts once the check is at work (its first photo of the burst classified)
  await until(() => checked() > checkedBefore, 'the first photo of the burst classified');
  log('  reading while the burst is classified');
  const atRoundStart = checked();
  const cpuBefore = threadCpu(serve.pid!);
  const roundStart = Date.now();
  const during = await load(base);
  const roundSeconds = (Date.now() - roundStart) / 1000;
  const cpuAfter = threadCpu(serve.pid!);
  const cpuRows = [...cpuAfter]
    .map(([k, v]) => [k, (v - (cpuBefore.get(k) ?? 0)) / roundSeconds] as const)
    .filter(([, v]) => v >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `| ${k} | ${(100 * v).toFixed(0)} % |`);
  const checkedDuring = checked() - atRoundStart;
  const leftAfterRound = toCheck();
  await until(() => toCheck() === 0, 'every photo of the burst classified');
  const burstSeconds = (Date.now() - burstStart) / 1000;
  log('  idle again');
  const after = await load(base);

  const all = decided();
  const held = [...all.values()].filter((d) => d.held).length;
  db.close();
  serve.kill('SIGTERM');
  await once(serve, 'exit');
  feed.server.close();
  rmSync(dir, { recursive: true, force: true });

  const waits = (ds: { wait: number }[]) => ds.map((d) => d.wait / 1000).sort((a, b) => a - b);
  const singleWaits = waits(singles);
  const idle = (before.rps + after.rps) / 2;
  const ratio = during.rps / idle;
  const errors = [before, during, after].reduce((n, r) => n + r.errors + r.non2xx, 0);
  const busy = leftAfterRound > 0;
  const met = ratio >= TARGET && errors === 0 && busy;
  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${fmt(r.rps)} | ${r.p50.toFixed(2)} / ${r.p99.toFixed(2)} | ${r.errors + r.non2xx} |`;
  const generator = during.generator === 'wrk' ? 'wrk, 1 thread' : 'autocannon (wrk not found)';
  const s = (n: number) => `${n.toFixed(2)} s`;
  const md = [
    '# The image check in the pipeline: time to a decision, and the read API during a burst',
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} (\`nproc\`: ${cpus().length}) · Node ${process.version} · ${IMAGE_MODEL} on TensorFlow.js WASM · ${generator} · ${CONNECTIONS} connections, ${SECONDS} s per round after ${WARMUP} s warm-up${quick ? ' · QUICK RUN' : ''}`,
    '',
    `\`wallery serve\` (SQLite, ingestion and media on with their defaults: one media thread, one image-check thread at nice 10)`,
    `serves a wall whose only rule is the default image rule (${DEFAULT_IMAGE_CLASSES.join(', ')} at ${DEFAULT_IMAGE_THRESHOLD}, hold), fed by a local RSS feed`,
    `whose items each carry their own photo (bench/photo-set.ts, ${WIDTH} px wide JPEG) from a local HTTP server. A post arrives`,
    'pending `check:image`; the media worker fetches its photo, makes its master and renditions, the image check classifies',
    'the master and the post is decided (approved here: ordinary photos). Wait = the change log’s `approved` time minus its',
    '`created` time for the post. Everything runs on the same machine: server, media and check threads, upstream, wrk.',
    '',
    '## Arrival → decision',
    '',
    '| posts | p50 | p99 | max |',
    '| --- | ---: | ---: | ---: |',
    `| ${singleWaits.length} arriving one at a time (the pipeline idle) | ${s(percentile(singleWaits, 50))} | ${s(percentile(singleWaits, 99))} | ${s(singleWaits.at(-1)!)} |`,
    '',
    `Held by the rule: ${held} of the ${all.size} photo posts decided.`,
    '',
    '## The read API while a burst of photos is classified',
    '',
    `${BURST} more photo posts arrive at once while the wall has no picture rule: stored, their photos processed. Then the image`,
    `rule is set, and the image check classifies the ${BURST} stored photos in the background (the media worker has nothing`,
    'left to do: this is the check’s own cost) while wrk reads the wall. The idle rounds are before everything and after the',
    `last photo is classified. The ${BURST} photos took ${s(burstSeconds)} from the rule being set to the last one classified:`,
    `${(BURST / burstSeconds).toFixed(1)} a second, the read load running for ${SECONDS + WARMUP} s of it.`,
    '',
    '| round | req/s | p50 / p99 ms | errors |',
    '|---|---:|---:|---:|',
    row('idle', before),
    row(`burst of ${BURST} photos being classified`, during),
    row('idle again', after),
    '',
    `Photos classified during the middle round: ${checkedDuring}; still to classify at its end: ${leftAfterRound} (the check was ${busy ? 'busy for the whole round' : 'done before the round ended: the round does not count'}).`,
    '',
    'Where the server’s CPU went during the middle round (its threads by name and niceness; 100 % = one core; wrk and the',
    'upstream take the rest):',
    '',
    '| threads | CPU |',
    '| --- | ---: |',
    ...cpuRows,
    '',
    `Ratio (burst ÷ mean of the idle rounds): **${ratio.toFixed(2)} ×** — target ≥ ${TARGET} ×: ${met ? 'met' : 'NOT met'}.`,
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'image-check-pipeline-results.md'), md);
  process.stdout.write(`${md}\n`);
}

await main();
