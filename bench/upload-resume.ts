// Part of `npm run bench`: is resumable upload (tus) worth it for attendee
// photos? (issue 33: "resumable upload for large photos if it helps on
// phones (tus) — decide by measurement"). From Debian's Chromium, through a
// proxy that holds the upload to a venue's crowded uplink (4 Mbit/s), one
// photo is sent:
//
//   - as it is, plain multipart (one POST), and with tus (tus-js-client to
//     @tus/server, one PATCH that resumes after a break);
//   - each once without and once with the connection cut at 60 % (a TCP
//     proxy between the browser and the server drops it once): plain starts
//     again, tus asks the server how far it got and sends the rest;
//   - made smaller on the phone first (web/submit/shrink.ts, what the
//     submission page does; its time measured with the CPU slowed 4 × like
//     Lighthouse's phone), plain, with and without the cut;
//   - and through Wallery's own submission page end to end (shrink,
//     challenge, upload, the server's checks and media pipeline: click to
//     "posted").
//
// The photo: a real one (Elephants, 5,640 × 3,172, mate-backgrounds, from
// bench/photo-set.ts's Debian packages) saved as a phone's JPEG of about 10 MB.
// Results: bench/upload-resume-results.md. Options: --quick (fewer rounds).
import { build } from 'esbuild';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { ThrottleGroup } from 'stream-throttle';
import { type WallSpec } from './generate.js';
import { ensurePackages, CACHE } from './photo-set.js';
import { log, ROOT } from './process.js';
import { serveSubmissionWall } from './submission-wall.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 2;
const UPLINK_BITS = 4_000_000;
const CUT_AT = 0.6;
const CPU_SLOWDOWN = 4;
/** after the cut, the network is gone this long (new connections refused) */
const OUTAGE_MS = 2_000;
/** both ways try again this long after a break: tus by its retryDelays, plain as a person pressing "send" again */
const RETRY_AFTER_MS = 3_000;
const WALL: WallSpec = { id: 1001, posts: 10, firstPostId: 1, feeds: 1 };
const PHOTO = join(CACHE, 'mate-backgrounds/usr/share/backgrounds/mate/abstract/Elephants_5640x3172.jpg');

const AGAIN = `sent again from the first byte ${RETRY_AFTER_MS / 1000} s after the break`;
const RESUMED = `resumed from the server’s offset ${RETRY_AFTER_MS / 1000} s after the break`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The phone's uplink: a TCP proxy that lets the browser's bytes through at
 * UPLINK_BITS (stream-throttle; all connections share it, as on one phone)
 * and, when armed, drops the connection once it has carried
 * `cutAfter` bytes and refuses connections for OUTAGE_MS: the network lost
 * for a moment in the middle of an upload. (Without the outage, Chromium
 * sends a request whose kept-alive connection broke again by itself, from
 * the first byte — tus included — before any page code hears of it.)
 * (Chromium's own network emulation is no use here: it sends an upload at full
 * speed and only delays the answer, so a break would cost nothing.)
 */
async function uplinkProxy(target: number) {
  const uplink = new ThrottleGroup({ rate: UPLINK_BITS / 8, chunksize: 16 * 1024 });
  let armed: number | null = null;
  /** bumped by arm(): a kept-alive connection counts its bytes from then on */
  let generation = 0;
  let cuts = 0;
  let downUntil = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    if (Date.now() < downUntil) return void client.destroy();
    const upstream = connect(target, '127.0.0.1');
    const paced = uplink.throttle();
    sockets.add(client).add(upstream);
    let carried = 0;
    let counting = generation;
    const drop = () => {
      client.unpipe(paced);
      paced.pause();
      client.destroy();
      upstream.destroy();
    };
    client.pipe(paced);
    paced.on('data', (chunk: Buffer) => {
      if (client.destroyed) return;
      if (counting !== generation) [counting, carried] = [generation, 0];
      carried += chunk.length;
      if (armed !== null && carried >= armed) {
        armed = null;
        cuts++;
        downUntil = Date.now() + OUTAGE_MS;
        return drop();
      }
      if (!upstream.write(chunk)) paced.pause();
    });
    upstream.on('drain', () => paced.resume());
    upstream.pipe(client);
    client.on('error', drop).on('close', () => sockets.delete(client) && upstream.end());
    upstream.on('error', drop).on('close', () => sockets.delete(upstream) && client.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    /** the next connection to carry `bytes` from the browser is dropped there */
    arm(bytes: number | null) {
      armed = bytes;
      generation++;
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** The bench's own origin: a page, the photo, tus-js-client, the shrink module, a plain endpoint and a tus endpoint. */
async function benchOrigin(dir: string, photo: Buffer) {
  const tus = new TusServer({ path: '/files', datastore: new FileStore({ directory: join(dir, 'tus') }) });
  const shrinkJs = (
    await build({
      entryPoints: [join(ROOT, 'web/submit/shrink.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'shrink',
      write: false,
      target: 'es2022',
    })
  ).outputFiles[0]!.text;
  const files: Record<string, [string, string | Buffer]> = {
    '/': [
      'text/html',
      '<!doctype html><title>upload bench</title><script src="/tus.js"></script><script src="/shrink.js"></script><script src="/bench.js"></script>',
    ],
    '/bench.js': ['text/javascript', PAGE_SCRIPT],
    '/tus.js': ['text/javascript', readFileSync(join(ROOT, 'node_modules/tus-js-client/dist/tus.min.js'))],
    '/shrink.js': ['text/javascript', shrinkJs],
    '/photo.jpg': ['image/jpeg', photo],
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (process.env.BENCH_DEBUG) {
      const t0 = Date.now();
      log(`> ${req.method} ${path} offset=${req.headers['upload-offset'] ?? ''}`);
      res.on('close', () => log(`< ${req.method} ${path} ${res.statusCode} ${Date.now() - t0} ms`));
    }
    // a body answered before it was read (tus's 409 for a wrong offset) is read to its end, as a proxy would
    res.on('finish', () => req.resume());
    if (path.startsWith('/files')) return void tus.handle(req, res);
    if (req.method === 'POST' && path === '/plain') {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes })));
      req.on('error', () => res.destroy());
      return;
    }
    const file = files[path];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0], 'cache-control': 'no-store' }).end(file[1]);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

interface Sent {
  ms: number;
  attempts: number;
  bytes: number;
}

/**
 * What runs in the bench page (plain JavaScript, served as /bench.js): the
 * photo as a File; plain multipart, sent again from the first byte after a
 * break (as the page's "send" pressed again); tus, one PATCH of the whole
 * file that, after a break, asks the server (HEAD) how far it got and sends
 * the rest; the shrink, timed.
 */
const PAGE_SCRIPT = `
window.loadPhoto = async () => {
  const blob = await (await fetch('/photo.jpg')).blob();
  window.photo = new File([blob], 'IMG_2041.jpg', { type: 'image/jpeg' });
};
window.shrinkTimed = async () => {
  const t0 = performance.now();
  window.small = await shrink.shrinkPhoto(window.photo);
  return performance.now() - t0;
};
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
window.sendPlain = async (which) => {
  const file = window[which];
  const t0 = performance.now();
  for (let attempts = 1; attempts <= 4; attempts++) {
    const ok = await new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/plain');
      xhr.onload = () => resolve(xhr.status === 201);
      xhr.onerror = () => resolve(false);
      const form = new FormData();
      form.append('name', 'Bench');
      form.append('photo', file, file.name);
      xhr.send(form);
    });
    if (ok) return { ms: performance.now() - t0, attempts, bytes: file.size };
    await pause(${RETRY_AFTER_MS});
  }
  throw new Error('plain upload failed 4 times');
};
window.sendTus = () => new Promise((resolve, reject) => {
  const file = window.photo;
  const t0 = performance.now();
  let attempts = 1;
  new tus.Upload(file, {
    endpoint: '/files/',
    retryDelays: [${RETRY_AFTER_MS}, ${RETRY_AFTER_MS}, ${RETRY_AFTER_MS}],
    metadata: { filename: file.name, filetype: file.type },
    storeFingerprintForResuming: false,
    onShouldRetry: (err) => { attempts++; console.log('tus retry after', String(err)); return true; },
    onError: (err) => reject(new Error(String(err))),
    onSuccess: () => resolve({ ms: performance.now() - t0, attempts, bytes: file.size }),
  }).start();
});
`;

async function main() {
  if (!existsSync('/usr/bin/chromium'))
    throw new Error('bench/upload-resume.ts needs Debian’s Chromium (/usr/bin/chromium)');
  ensurePackages(log);
  const photo = await sharp(PHOTO).jpeg({ quality: 97 }).toBuffer();
  const meta = await sharp(photo).metadata();
  const dir = mkdtempSync(join(tmpdir(), 'wallery-bench-resume-'));
  const origin = await benchOrigin(dir, photo);
  const proxy = await uplinkProxy(origin.port);
  const { child: wallery, port: walleryPort } = await serveSubmissionWall(dir, WALL);
  const walleryUplink = await uplinkProxy(walleryPort);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const rows: { name: string; runs: Sent[]; note: string }[] = [];
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const cpu = (rate: number) => cdp.send('Emulation.setCPUThrottlingRate', { rate });
    if (process.env.BENCH_DEBUG) page.on('console', (m) => log(`page: ${m.text()}`));
    await page.goto(`http://127.0.0.1:${proxy.port}/`);
    await page.evaluate('loadPhoto()');

    // the photo made smaller as the page does it, on a phone-speed CPU
    const shrinkMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      await cpu(CPU_SLOWDOWN);
      shrinkMs.push(await page.evaluate<number>('shrinkTimed()'));
      await cpu(1);
    }
    const smallBytes = await page.evaluate<number>('small.size');
    const sendPlain = (which: 'photo' | 'small') => () => page.evaluate<Sent>(`sendPlain('${which}')`);
    const sendTus = () => page.evaluate<Sent>('sendTus()');

    const cases: [string, () => Promise<Sent>, number | null, string][] = [
      ['plain multipart, the photo as it is', sendPlain('photo'), null, ''],
      ['tus, the photo as it is', sendTus, null, ''],
      ['plain multipart, the photo as it is, connection cut at 60 %', sendPlain('photo'), photo.length, AGAIN],
      ['tus, the photo as it is, connection cut at 60 %', sendTus, photo.length, RESUMED],
      ['plain multipart, made smaller on the phone', sendPlain('small'), null, ''],
      ['plain multipart, made smaller on the phone, connection cut at 60 %', sendPlain('small'), smallBytes, AGAIN],
    ];
    for (const [name, send, cutOf, note] of cases) {
      if (process.env.BENCH_ONLY && !name.includes(process.env.BENCH_ONLY)) continue;
      const runs: Sent[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        log(`${name} (${r + 1}/${ROUNDS})…`);
        const cutsBefore = proxy.cuts;
        proxy.arm(cutOf === null ? null : Math.round(cutOf * CUT_AT));
        const sent = await send();
        proxy.arm(null);
        if (cutOf !== null && proxy.cuts !== cutsBefore + 1) throw new Error(`${name}: the connection was not cut`);
        runs.push(sent);
      }
      rows.push({ name, runs, note });
    }

    // Wallery's own page, end to end: a phone-speed CPU, the same uplink
    const e2e: Sent[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      log(`the submission page, end to end (${r + 1}/${ROUNDS})…`);
      const phone = await context.newPage();
      const phoneCdp = await context.newCDPSession(phone);
      await phone.goto(`http://127.0.0.1:${walleryUplink.port}/walls/${WALL.id}/submit`);
      await phone.locator('#photo').setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo });
      await phone.locator('#name').fill('Bench');
      await phone.locator('#consent').check();
      await phoneCdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      const t0 = Date.now();
      await phone.locator('#send').click();
      await phone.locator('#done').waitFor({ state: 'visible', timeout: 120_000 });
      e2e.push({ ms: Date.now() - t0, attempts: 1, bytes: smallBytes });
      await phone.close();
    }
    rows.push({
      name: 'Wallery’s submission page, end to end (shrink, challenge, upload, checks, stored)',
      runs: e2e,
      note: 'click to “posted”, CPU slowed 4 ×',
    });

    const ms = (name: string) => median(rows.find((r) => r.name.startsWith(name))!.runs.map((s) => s.ms));
    const plainCut =
      ms('plain multipart, the photo as it is, connection cut') - ms('plain multipart, the photo as it is');
    const tusCut = ms('tus, the photo as it is, connection cut') - ms('tus, the photo as it is');
    const smallCut =
      ms('plain multipart, made smaller on the phone, connection cut') -
      ms('plain multipart, made smaller on the phone');
    const fmtS = (x: number) => (x / 1000).toFixed(1);
    const lines = [
      '# Resumable upload or not: one photo over a phone’s uplink',
      '',
      `Generated by \`tsx bench/upload-resume.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}: Debian's Chromium, the upload held to ${UPLINK_BITS / 1e6} Mbit/s by a pacing proxy (stream-throttle); ${ROUNDS} run(s) per case, median. The photo: a real photograph (mate-backgrounds' Elephants, ${meta.width} × ${meta.height}) saved as a phone's JPEG of ${(photo.length / 1e6).toFixed(1)} MB. The cut: the proxy drops the connection once, at ${CUT_AT * 100} % of the bytes, and refuses connections for ${OUTAGE_MS / 1000} s; both ways try again ${RETRY_AFTER_MS / 1000} s after the break.`,
      '',
      '| Case | Bytes sent | Seconds (median) | Attempts / resumptions | Runs (s) | Note |',
      '|---|---:|---:|---:|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${(r.runs[0]!.bytes / 1e6).toFixed(2)} MB | ${fmtS(median(r.runs.map((s) => s.ms)))} | ${r.runs[0]!.attempts} | ${r.runs.map((s) => fmtS(s.ms)).join(', ')} | ${r.note} |`,
      ),
      '',
      `- Making the photo smaller on the phone (to ${LONG_EDGE_TEXT}, JPEG 0.88): ${(photo.length / 1e6).toFixed(1)} MB → ${(smallBytes / 1e6).toFixed(2)} MB, in ${fmtS(median(shrinkMs))} s on a CPU slowed ${CPU_SLOWDOWN} ×.`,
      `- What a break costs (the ${RETRY_AFTER_MS / 1000} s wait included): plain ${fmtS(plainCut)} s, tus ${fmtS(tusCut)} s, plain after shrinking ${fmtS(smallCut)} s.`,
      `- Shrinking saves ${fmtS(ms('plain multipart, the photo as it is') - ms('plain multipart, made smaller on the phone') - median(shrinkMs))} s on every upload (shrink time included); tus saves ${fmtS(plainCut - tusCut)} s on an upload that breaks, and nothing on one that does not.`,
      '',
    ];
    writeFileSync(join(ROOT, 'bench', 'upload-resume-results.md'), lines.join('\n'));
    process.stdout.write(lines.join('\n'));
  } finally {
    await browser.close();
    wallery.kill('SIGTERM');
    await once(wallery, 'exit');
    await proxy.close();
    await walleryUplink.close();
    origin.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const LONG_EDGE_TEXT = '2,560 px on the long side';
await main();
