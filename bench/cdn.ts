// The CDN benchmark (part of `npm run bench`; alone: `npx tsx bench/cdn.ts [--quick]`):
// Debian's varnishd with deploy/varnish/wallery.vcl in front of one server
// (SQLite) purging it by tag (CDN_PURGE=varnish:…). Reads a Zipf mix
// (s = 1.1) of 200 walls' embed answers through Varnish and counts the hits
// (X-Cache), then hides and shows a post again and again, measuring how long
// after the write Varnish's answer shows it (purge to visible): p50 and p99.
// Prints the numbers; bench/cdn-results.md keeps them.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../src/http/server.js';
import { CLI_ACTOR, type Op } from '../src/manage/op.js';
import { updatePost } from '../src/manage/posts.js';
import { createPublishableKey } from '../src/manage/publishable-keys.js';
import { ChangeBus } from '../src/store/changes.js';
import { importDataFile } from '../src/store/datafile.js';
import { openStore } from '../src/store/store.js';
import { cdnWallsData, zipfSampler } from '../test/cdn/fixtures.js';
import { hasVarnish, startVarnish } from '../test/helpers/varnish.js';

const quick = process.argv.includes('--quick');
const WALLS = 200;
const READS = quick ? 10_000 : 50_000;
const CONCURRENCY = 32;
const CHANGES = quick ? 20 : 100;

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as { port: number };
  s.close();
  await once(s, 'close');
  return port;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function main() {
  if (!hasVarnish) throw new Error('bench/cdn.ts needs /usr/sbin/varnishd (apt-get install varnish)');
  const dir = mkdtempSync(join(tmpdir(), 'wallery-bench-cdn-'));
  const store = openStore({ kind: 'sqlite', path: join(dir, 'wallery.db') });
  await store.migrate();
  await importDataFile(store, cdnWallsData(WALLS, 10), Date.now());
  const port = await freePort();
  const app = await buildServer(
    { store, now: Date.now, changes: new ChangeBus(), metrics: null },
    {
      embed: { rateLimitPerIp: 0 },
      cdn: { targets: [{ kind: 'varnish', url: `http://127.0.0.1:${port}/` }], sharedMaxAge: 3600 },
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const varnish = await startVarnish(port, (app.server.address() as { port: number }).port);
  try {
    const op = (): Op => ({ db: store.db, actor: CLI_ACTOR, now: Date.now(), changes: app.ctx.changes });
    const keys: string[] = [];
    for (let w = 1; w <= WALLS; w++) keys[w] = (await createPublishableKey(op(), w, { origins: [] })).key;
    await app.cdnPurger!.idle();
    const posts = (w: number) => `${varnish.url}/api/embed/v1/walls/${w}/posts?key=${keys[w]}`;
    const wall = (w: number) => `${varnish.url}/api/embed/v1/walls/${w}?key=${keys[w]}`;

    const pick = zipfSampler(WALLS, 1.1, 7);
    let next = 0;
    let hits = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < READS) {
          const i = next++;
          const w = pick();
          const res = await fetch(i % 5 === 0 ? wall(w) : posts(w));
          await res.arrayBuffer();
          if (res.headers.get('x-cache') === 'HIT') hits++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    // purge to visible: hide a post of wall 1 (the most read), then show it again
    const latencies: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const hide = i % 2 === 0;
      const t0 = performance.now();
      await updatePost(op(), 1, 1001, { hidden: hide });
      for (;;) {
        const body = (await (await fetch(posts(1))).json()) as { posts: { id: string }[] };
        if (body.posts.some((p) => p.id === '1001') !== hide) break;
        if (performance.now() - t0 > 10_000) throw new Error('a change did not reach Varnish within 10 s');
      }
      latencies.push(performance.now() - t0);
    }
    latencies.sort((a, b) => a - b);
    const purges = app.cdnPurger!.stats.purges.varnish!;
    console.log(
      JSON.stringify(
        {
          reads: READS,
          walls: WALLS,
          zipf: 1.1,
          hitRatio: Number((hits / READS).toFixed(4)),
          readsPerSecond: Math.round(READS / seconds),
          changes: CHANGES,
          purgeToVisibleMs: {
            p50: Number(percentile(latencies, 0.5).toFixed(1)),
            p99: Number(percentile(latencies, 0.99).toFixed(1)),
          },
          purges,
        },
        null,
        2,
      ),
    );
  } finally {
    await varnish.stop();
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
