// The media pipeline's benchmark (part of `npm run bench`; alone:
// `npx tsx bench/media.ts [--quick]`). Pictures processed through the
// worker pool (src/media/media-pool.ts: type detection, a master, the eager
// WebP renditions and a ThumbHash each), for a 12-megapixel phone JPEG and a
// typical 1080-px JPEG, with 1 and 2 threads: pictures per second, and per
// core. Then a burst — 1,000 1080-px pictures submitted at once, as a
// backlog would be — and the process's peak resident memory through it
// (worker threads and libvips's native memory are the process's own: one
// RSS). Then the renditions made on a client's first request. Each case
// runs in a fresh process, so that its memory is its own. Writes
// bench/media-results.md. The burst is most of the run: about 3 minutes of
// the 4 on two idle cores (--quick: 100 pictures, about a minute in all).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { MediaPool } from '../src/media/media-pool.js';
import { DEFAULT_PROCESS_OPTIONS, type RenditionFormat } from '../src/media/types.js';
import { log, node, ROOT, runToEnd } from './process.js';

const quick = process.argv.includes('--quick');
const MB = 1024 * 1024;

type Picture = '12mp' | '1080';
const PICTURES: Record<Picture, { width: number; height: number; label: string }> = {
  '12mp': { width: 4000, height: 3000, label: '12 MP JPEG (4000 × 3000)' },
  '1080': { width: 1080, height: 1350, label: '1080-px JPEG (1080 × 1350)' },
};

/** A photo-like JPEG: noise softened by a blur (fine detail everywhere, as a camera's), quality 90. */
function makeJpeg(picture: Picture): Promise<Buffer> {
  const { width, height } = PICTURES[picture];
  return sharp({
    create: { width, height, channels: 3, background: '#7a8c9e', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .blur(1.5)
    .jpeg({ quality: 90 })
    .toBuffer();
}

const rssMb = () => process.memoryUsage().rss / MB;

/** CPU time of the whole process (every thread: the workers', libvips's) since `start`, in seconds. */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6;
}

/** Samples the process's RSS every 20 ms until stopped: its peak. */
function watchRss() {
  let peak = rssMb();
  const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb());
  };
}

/** `count` pictures, at most `inFlight` at a time; a copy of the source each (the pool moves the bytes to a worker). */
async function processSome(pool: MediaPool, source: Buffer, count: number, inFlight: number) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const result = await pool.process(new Uint8Array(source), DEFAULT_PROCESS_OPTIONS);
      if (!result.ok) throw new Error(result.reason);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

type ChildCase =
  | { kind: 'throughput'; file: string; threads: number; count: number }
  | { kind: 'burst'; file: string; threads: number; count: number }
  | { kind: 'render'; file: string; rounds: number };

interface Measured {
  seconds: number;
  cpuSeconds: number;
  /** RSS with the source read, before the pool */
  beforeMb: number;
  /** RSS with every worker started and warm, idle */
  idleMb: number;
  /** the peak while measured (sampled) */
  peakMb: number;
  /** the kernel's peak for the whole process */
  maxRssMb: number;
  refused: number;
}

/** A pool of `threads` with every worker started and warm (two pictures each), then `run` measured. */
async function measure(file: string, threads: number, run: (pool: MediaPool, source: Buffer) => Promise<number>) {
  const source = readFileSync(file);
  const beforeMb = rssMb();
  const pool = new MediaPool({ threads });
  await processSome(pool, source, threads * 2, threads);
  const idleMb = rssMb();
  const stop = watchRss();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const refused = await run(pool, source);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpu);
  const peakMb = stop();
  await pool.close();
  const maxRssMb = (process.resourceUsage().maxRSS * 1024) / MB; // Linux reports kB
  return { seconds, cpuSeconds, beforeMb, idleMb, peakMb, maxRssMb, refused } satisfies Measured;
}

/** One case, in this (fresh) process. */
async function runCase(spec: ChildCase): Promise<unknown> {
  if (spec.kind === 'throughput') {
    // two in flight per thread: a worker never waits for its next picture
    return measure(spec.file, spec.threads, async (pool, source) => {
      await processSome(pool, source, spec.count, spec.threads * 2);
      return 0;
    });
  }
  if (spec.kind === 'burst') {
    return measure(spec.file, spec.threads, async (pool, source) => {
      let refused = 0;
      // all submitted at once, each with its bytes; the results are let go as they come
      await Promise.all(
        Array.from({ length: spec.count }, async () => {
          if (!(await pool.process(new Uint8Array(source), DEFAULT_PROCESS_OPTIONS)).ok) refused++;
        }),
      );
      return refused;
    });
  }
  const pool = new MediaPool({ threads: 1 });
  const processed = await pool.process(readFileSync(spec.file), DEFAULT_PROCESS_OPTIONS);
  if (!processed.ok) throw new Error(processed.reason);
  const master = processed.files.find((f) => f.name === processed.master)!.bytes;
  const rows: { format: RenditionFormat; width: number; ms: number; bytes: number }[] = [];
  for (const width of [640, 1600]) {
    for (const format of ['avif', 'webp', 'jpeg', 'png'] as const) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < spec.rounds; i++) {
        const started = performance.now();
        bytes = (await pool.render(new Uint8Array(master), width, format, false)).bytes.byteLength;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      rows.push({ format, width, ms: times[Math.floor(times.length / 2)]!, bytes });
    }
  }
  await pool.close();
  return { rows, masterBytes: master.byteLength };
}

async function inChild<T>(spec: ChildCase): Promise<T> {
  const out = await runToEnd(node(['--import', 'tsx', 'bench/media.ts', '--case', JSON.stringify(spec)]));
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

const fixed = (x: number, digits = 1) => x.toFixed(digits);
const mb = (x: number) => String(Math.round(x));
const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KB`;

async function main() {
  const counts: Record<Picture, number> = quick ? { '12mp': 2, '1080': 8 } : { '12mp': 6, '1080': 24 };
  const burst = quick ? 100 : 1000;
  const burstThreads = 2;
  const load = loadavg()[0]!;

  const dir = mkdtempSync(join(tmpdir(), 'wallery-bench-media-'));
  const files = {} as Record<Picture, string>;
  const sizes = {} as Record<Picture, number>;
  for (const picture of ['12mp', '1080'] as const) {
    const bytes = await makeJpeg(picture);
    files[picture] = join(dir, `${picture}.jpg`);
    sizes[picture] = bytes.byteLength;
    writeFileSync(files[picture], bytes);
  }

  const throughput: string[] = [];
  for (const picture of ['12mp', '1080'] as const) {
    for (const threads of [1, 2]) {
      log(`  ${PICTURES[picture].label}, ${threads} thread(s), ${counts[picture]} pictures…`);
      const count = counts[picture];
      const r = await inChild<Measured>({ kind: 'throughput', file: files[picture], threads, count });
      const perCpuSecond = count / r.cpuSeconds;
      throughput.push(
        `| ${PICTURES[picture].label} | ${threads} | ${count} | ${fixed(r.seconds)} | ${fixed(count / r.seconds, 2)} | ${fixed(perCpuSecond, 2)} | ${Math.round(1000 / perCpuSecond)} | ${mb(r.beforeMb)} | ${mb(r.idleMb)} | ${mb(r.peakMb)} |`,
      );
    }
  }

  log(`  burst: ${burst} 1080-px pictures at once, ${burstThreads} threads…`);
  const b = await inChild<Measured>({ kind: 'burst', file: files['1080'], threads: burstThreads, count: burst });

  log('  renditions on first request…');
  const r = await inChild<{
    rows: { format: string; width: number; ms: number; bytes: number }[];
    masterBytes: number;
  }>({ kind: 'render', file: files['12mp'], rounds: quick ? 1 : 3 });
  rmSync(dir, { recursive: true, force: true });

  const cpu = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`;
  const md = [
    '# Media processing benchmark',
    '',
    `${new Date().toISOString().slice(0, 10)} · ${cpu} · Node ${process.version} · sharp ${sharp.versions.sharp}, libvips ${sharp.versions.vips} · load average ${fixed(load, 2)} at the start${quick ? ' · QUICK RUN' : ''}`,
    '',
    `Each picture through the media pool (src/media/media-pool.ts, run from src/ through tsx): its type from the bytes, the SHA-256 of the source, a master (JPEG q88, mozjpeg), the eager WebP renditions (${DEFAULT_PROCESS_OPTIONS.widths.join(', ')} px: the widths narrower than the picture, and its own capped at the largest) and a ThumbHash. Sources: photo-like JPEGs (noise under a blur, q90): ${PICTURES['12mp'].label}, ${kb(sizes['12mp'])}; ${PICTURES['1080'].label}, ${kb(sizes['1080'])}. Two pictures in flight per thread, after every worker has processed two. Per core: pictures per CPU-second of the whole process (every thread's CPU time, the workers' and libvips's), which other processes on the machine do not change as they change the wall-clock rate. Each case in a fresh process; RSS is the whole process's (the workers' threads and libvips's native memory are in it), sampled every 20 ms.`,
    '',
    '| picture | threads | pictures | seconds | pictures/s | pictures/s per core | CPU ms per picture | RSS before the pool MB | RSS, pool warm and idle MB | peak RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...throughput,
    '',
    `Burst: ${burst} 1080-px pictures submitted at once, each with its bytes (${kb(sizes['1080'])} each, ${fixed((burst * sizes['1080']) / MB, 0)} MB waiting in the pool's queue), to a pool of ${burstThreads} threads; the results let go as they come. Peak RSS sampled, and the kernel's (maxRSS).`,
    '',
    '| pictures | threads | seconds | pictures/s | pictures/s per core | RSS before the pool MB | RSS, pool warm and idle MB | peak RSS (sampled) MB | peak RSS (maxRSS) MB | refused |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${burst} | ${burstThreads} | ${fixed(b.seconds)} | ${fixed(burst / b.seconds, 1)} | ${fixed(burst / b.cpuSeconds, 2)} | ${mb(b.beforeMb)} | ${mb(b.idleMb)} | ${mb(b.peakMb)} | ${mb(b.maxRssMb)} | ${b.refused} |`,
    '',
    `Renditions made on a client's first request (renderRendition, one worker), from the 12 MP picture's master (${kb(r.masterBytes)}); median of ${quick ? 1 : 3}:`,
    '',
    '| format | width | ms | size |',
    '|---|---:|---:|---:|',
    ...r.rows.map((row) => `| ${row.format} | ${row.width} | ${Math.round(row.ms)} | ${kb(row.bytes)} |`),
    '',
  ].join('\n');
  writeFileSync(join(ROOT, 'bench', 'media-results.md'), md);
  process.stdout.write(`${md}\n`);
}

const caseArg = process.argv.indexOf('--case');
if (caseArg > 0) {
  process.stdout.write(`${JSON.stringify(await runCase(JSON.parse(process.argv[caseArg + 1]!) as ChildCase))}\n`);
} else {
  log('media processing…');
  await main();
}
