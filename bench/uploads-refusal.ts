// Part of `npm run bench`: does refusing abusive uploads cost the readers?
// `wallery serve` (SQLite) with a wall of 1,000 posts whose submission page
// is on; wrk reads its v2 posts (W2 limit=20 JSON, 32 connections) for N
// seconds alone, then again while a sender (in this process: its own event
// loop, not the server's) posts uploads the server must refuse — a forged
// challenge, then a 300 KB "photo" — at a steady 240 a minute (target:
// 100+). The read rate while refusing must stay within 10 % of the rate
// alone. Rounds alternate (alone, refusing, alone, refusing, …) and the
// medians are compared, so drift of a shared machine falls on both.
// Results: bench/uploads-refusal-results.md. Options: --quick, --seconds N.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveSubmission } from '../src/store/uploads.js';
import { openStore } from '../src/store/store.js';
import { BENCH_KEY, writeDataFile, type WallSpec } from './generate.js';
import { type Case, type LoadResult } from './load.js';
import { log, node, ROOT, runToEnd, waitFor } from './process.js';

const quick = process.argv.includes('--quick');
const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : quick ? 3 : 10;
const ROUNDS = quick ? 2 : 3;
const PER_MINUTE = 240;
const PHOTO_BYTES = 300 * 1024;
const WALL: WallSpec = { id: 1001, posts: 1_000, firstPostId: 1, feeds: 2 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function readLoad(base: string): Promise<LoadResult> {
  const spec: Case = {
    url: `${base}/api/v2/widget/posts/${WALL.id}?user_key=${BENCH_KEY}&limit=20`,
    seconds: SECONDS,
    warmupSeconds: 1,
    connections: 32,
  };
  const out = await runToEnd(node(['--import', 'tsx', 'bench/load.ts', JSON.stringify(spec)]));
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

/** Sends refused uploads at PER_MINUTE until stopped; counts the answers by status. */
function refuser(base: string) {
  const statuses = new Map<number, number>();
  const photo = new Uint8Array(PHOTO_BYTES).fill(0xff);
  const forged = Buffer.from(
    JSON.stringify({
      algorithm: 'SHA-256',
      challenge: 'f'.repeat(64),
      number: 1,
      salt: 'x?wall=1001&',
      signature: '0',
    }),
  ).toString('base64');
  let stopped = false;
  const sendOne = async () => {
    const form = new FormData();
    form.append('altcha', forged);
    form.append('name', 'bench');
    form.append('consent', 'yes');
    form.append('photo', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
    try {
      const res = await fetch(`${base}/walls/${WALL.id}/submit`, {
        method: 'POST',
        body: form,
        headers: { accept: 'application/json' },
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    } catch {
      statuses.set(0, (statuses.get(0) ?? 0) + 1);
    }
  };
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    if (stopped) return;
    const p = sendOne().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 60_000 / PER_MINUTE);
  const started = Date.now();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      const sendingMs = Date.now() - started;
      await Promise.all(inFlight);
      const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
      return { statuses, sent, perMinute: (sent / sendingMs) * 60_000 };
    },
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-bench-uploads-'));
  const db = join(dir, 'bench.db');
  try {
    const file = join(dir, 'data.json');
    await writeDataFile(file, [WALL], true);
    await runToEnd(node(['dist/cli/main.js', 'import', file], { DATABASE_URL: db }));
    const store = openStore({ kind: 'sqlite', path: db });
    await store.migrate();
    await saveSubmission(store.db, WALL.id, { enabled: true }, 'b'.repeat(64), Date.now());
    await store.close();

    const child = node(['dist/cli/main.js', 'serve'], {
      DATABASE_URL: db,
      REDIS_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INGEST: 'off',
      MEDIA_DIR: join(dir, 'media'),
    });
    const port = (await waitFor(child, /wallery listening on http:\/\/[^:]+:(\d+)/))[1];
    const base = `http://127.0.0.1:${port}`;
    const alone: LoadResult[] = [];
    const refusing: LoadResult[] = [];
    const sends: { statuses: Map<number, number>; sent: number; perMinute: number }[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        log(`round ${round + 1}/${ROUNDS}: reads alone…`);
        alone.push(await readLoad(base));
        log(`round ${round + 1}/${ROUNDS}: reads while refusing uploads…`);
        const sender = refuser(base);
        refusing.push(await readLoad(base));
        sends.push(await sender.stop());
      }
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }

    const a = median(alone.map((r) => r.rps));
    const b = median(refusing.map((r) => r.rps));
    const change = (b - a) / a;
    const statuses = new Map<number, number>();
    for (const s of sends) for (const [k, v] of s.statuses) statuses.set(k, (statuses.get(k) ?? 0) + v);
    const accepted = statuses.get(201) ?? 0;
    const rate = median(sends.map((s) => s.perMinute));
    const met = Math.abs(change) <= 0.1 && rate >= 100 && accepted === 0;
    const lines = [
      '# Reads while uploads are refused',
      '',
      `Generated by \`tsx bench/uploads-refusal.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}, ` +
        `${ROUNDS} rounds of ${SECONDS} s per case, alternating; wrk, 32 connections, W2 limit=20 JSON of a ` +
        `${WALL.posts.toLocaleString('en')}-post wall; SQLite, no Redis. The sender posts a forged challenge and a ` +
        `${PHOTO_BYTES / 1024} KB body at ${PER_MINUTE} a minute from the same machine.`,
      '',
      '| Case | Reads/s (median) | p99 ms (median) | Rounds |',
      '|---|---:|---:|---|',
      `| reads alone | ${Math.round(a)} | ${median(alone.map((r) => r.p99)).toFixed(1)} | ${alone.map((r) => Math.round(r.rps)).join(', ')} |`,
      `| reads while refusing uploads | ${Math.round(b)} | ${median(refusing.map((r) => r.p99)).toFixed(1)} | ${refusing.map((r) => Math.round(r.rps)).join(', ')} |`,
      '',
      `- Change of the read rate: **${(change * 100).toFixed(1)} %** (target: within 10 %).`,
      `- Uploads refused: ${[...statuses.entries()]
        .sort((x, y) => x[0] - y[0])
        .map(([k, v]) => `${v} × ${k === 0 ? 'closed before the body was sent (refused early)' : k}`)
        .join(', ')}; ${Math.round(rate)} a minute (target: 100+); accepted: ${accepted}.`,
      `- Target ${met ? 'met' : 'NOT met'}.`,
      '',
    ];
    writeFileSync(join(ROOT, 'bench', 'uploads-refusal-results.md'), lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
