// The Get started pages, executed. Every ```sh block of docs/get-started/*.md
// runs, in the sidebar's order of the pages and in page order within each, as
// one bash session (`set -euo pipefail`: variables a block sets, such as
// $TOKEN or $WALL, carry on to the next ones, as in a reader's terminal)
// against a real instance this test starts: the built `wallery start` on a
// temporary SQLite database, on a free port, with
// INGEST_ALLOW_PRIVATE_NETWORKS=on as First feed tells the reader to start it.
//
// How to write these pages:
//   - ```sh     a block the reader types into a shell: executed here. It may use
//               $WALLERY (the instance's address, set here as the reader sets it
//               from what `npm start` prints), $FEED_URL (the address of the
//               page's sample feed, which this test serves from the page's own
//               ```xml block) and what earlier blocks set. It needs curl and jq.
//   - ```bash   a command that must not run here (npm install, npm start,
//               export of the variables above, a server of the reader's own):
//               shown, never executed.
//   - ```text   output as the reader sees it.
// `npx wallery …` runs the built bin directly (what npx runs, without npx's
// start-up time). A block's key output is asserted below (EXPECTED); each one
// must exit 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_DEADLINE_MS, ROOT } from '../helpers/cli.js';

const PAGES = ['install', 'first-wall', 'first-feed', 'embed-a-wall', 'console-tour'];

/** The fenced blocks of a page with the given info string, in order. */
function blocks(page: string, lang: string): string[] {
  const text = readFileSync(join(ROOT, 'docs/get-started', `${page}.md`), 'utf8');
  return [...text.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang).map((m) => m[2]!);
}

/** What each executed block must print (a page's blocks in order; more blocks only need to exit 0). */
const EXPECTED: Record<string, RegExp[]> = {
  install: [/\{"status":"ok"\}\s*\{"status":"ready","store":"ok"\}/, /^"[^"]+"\n"[^"]+"\n<\?xml/],
  'first-wall': [
    /\{"name":"ops","role":"admin"\}/,
    /^account \d+, user key wk_\S+$/m,
    /^wall \d+$/m,
    /"responseCode":200,"responseStatus":"success"/,
    /\{"postId":"\d+","content":"Hello wall"\}/,
    /"content":"Hello wall","hidden":false/,
    /\/walls\/\d+\?key=pk_\S+\n200$/,
  ],
  'first-feed': [
    /^feed \d+$/m,
    /\{"status":"ok","inserted":1,"updated":0,"message":null\}/,
    /\{"content":"Doors open at six; the first band plays at seven.","networkName":"RSS"\}/,
  ],
  'embed-a-wall': [/^pk_\S+$/, /^200 text\/javascript.*\n[^]*Doors open at six/, /^403$/],
  'console-tour': [/^admin$/],
};

let dir: string;
let instance: ChildProcess | undefined;
let feedServer: Server | undefined;
let wallery = '';
let feedUrl = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-get-started-'));
  // the sample feed of First feed, served as the page tells the reader to
  const [feed] = blocks('first-feed', 'xml');
  expect(feed, 'first-feed.md has its sample feed').toBeDefined();
  feedServer = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feed),
  );
  feedServer.listen(0, '127.0.0.1');
  await once(feedServer, 'listening');
  feedUrl = `http://localhost:${(feedServer.address() as AddressInfo).port}/feed.xml`;

  const child = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'start'], {
    cwd: dir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'wallery.db'),
      INGEST_ALLOW_PRIVATE_NETWORKS: 'on',
      LOG_LEVEL: 'warn',
    },
  });
  instance = child;
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  // ready once it has printed what the reader reads (the hosted page's address comes last)
  wallery = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance not ready:\n${out}`)), READY_DEADLINE_MS);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /wallery listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (port && /\/walls\/101\?key=pk_\S+\n/.test(out)) {
        clearTimeout(timer);
        resolve(`http://localhost:${port}`);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code}:\n${out}`));
    });
  });
}, READY_DEADLINE_MS + 10_000);

afterAll(async () => {
  if (instance && instance.exitCode === null) {
    instance.kill('SIGTERM');
    await once(instance, 'exit');
  }
  feedServer?.close();
  rmSync(dir, { recursive: true, force: true });
});

const MARK = '@@wallery-block@@';

describe('Get started, executed', () => {
  it('runs every shell block of the pages, in order, against a real instance', async () => {
    const session = [
      'set -euo pipefail',
      'npx() { if [ "$1" = wallery ]; then shift; node "$WALLERY_BIN" "$@"; else command npx "$@"; fi; }',
    ];
    const ran: { page: string; index: number }[] = [];
    for (const page of PAGES) {
      blocks(page, 'sh').forEach((block, index) => {
        session.push(`echo '${MARK}'`, block);
        ran.push({ page, index });
      });
    }
    const shell = spawn('bash', ['-c', session.join('\n')], {
      cwd: dir,
      env: {
        ...process.env,
        WALLERY: wallery,
        FEED_URL: feedUrl,
        DATABASE_URL: join(dir, 'wallery.db'),
        WALLERY_BIN: join(ROOT, 'dist/cli/main.js'),
      },
    });
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    shell.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(shell, 'close')) as [number | null];
    const outputs = stdout.split(`${MARK}\n`).slice(1);
    const failed = ran[outputs.length - 1];
    expect(code, `a block of ${failed?.page}.md (#${(failed?.index ?? 0) + 1}) failed:\n${stderr}\n${stdout}`).toBe(0);
    expect(outputs).toHaveLength(ran.length);
    for (const [page, expected] of Object.entries(EXPECTED)) {
      const own = ran.flatMap((r, i) => (r.page === page ? [outputs[i]!.trim()] : []));
      expect(own.length, `${page}.md's shell blocks`).toBeGreaterThanOrEqual(expected.length);
      expected.forEach((pattern, index) => expect(own[index], `${page}.md block #${index + 1}`).toMatch(pattern));
    }
  });

  it('tells the reader how to set what the blocks use, in blocks that are not executed', () => {
    expect(blocks('install', 'bash').join('\n')).toMatch(/^export WALLERY=http:\/\/localhost:3000$/m);
    expect(blocks('first-feed', 'bash').join('\n')).toMatch(/^INGEST_ALLOW_PRIVATE_NETWORKS=on npm start$/m);
    expect(blocks('first-feed', 'bash').join('\n')).toMatch(/^export FEED_URL=/m);
  });
});
