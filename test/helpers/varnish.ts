// A real Varnish (Debian's varnishd) in front of a test server, with the
// VCL Wallery ships (deploy/varnish/wallery.vcl), its backend pointed at the
// server's port. It runs in the foreground as a child of this process, its
// working directory in a temporary folder (no root-only path), and answers
// once its port does. `stats()` reads its counters with varnishstat.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './poll.js';

export const VARNISHD = '/usr/sbin/varnishd';
export const VARNISHSTAT = '/usr/bin/varnishstat';
export const hasVarnish = existsSync(VARNISHD) && existsSync(VARNISHSTAT);
export const SKIP_NO_VARNISH = `skipped: ${VARNISHD} is absent (apt-get install varnish; .ci/run installs it)`;

const VCL = new URL('../../deploy/varnish/wallery.vcl', import.meta.url).pathname;
const run = promisify(execFile);

export interface Varnish {
  url: string;
  /** MAIN.* counters by name (cache_hit, cache_miss, bans, …) */
  stats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** The shipped VCL with its backend on 127.0.0.1:`backendPort`. */
export function walleryVcl(backendPort: number): string {
  const vcl = readFileSync(VCL, 'utf8');
  const backend = /\.host = "127\.0\.0\.1";\s*\.port = "3000";/;
  if (!backend.test(vcl)) throw new Error('deploy/varnish/wallery.vcl no longer names its backend 127.0.0.1:3000');
  return vcl.replace(backend, `.host = "127.0.0.1";\n    .port = "${backendPort}";`);
}

/** Starts varnishd on 127.0.0.1:`port` in front of 127.0.0.1:`backendPort`. */
export async function startVarnish(port: number, backendPort: number): Promise<Varnish> {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-varnish-'));
  const vcl = join(dir, 'wallery.vcl');
  writeFileSync(vcl, walleryVcl(backendPort));
  const workdir = join(dir, 'n');
  const child: ChildProcess = spawn(
    VARNISHD,
    [
      '-F',
      '-j',
      'none',
      '-n',
      workdir,
      '-a',
      `127.0.0.1:${port}`,
      '-T',
      'none',
      '-f',
      vcl,
      '-s',
      'malloc,64m',
      // small pools: two cores are shared with the server and the other tests
      '-p',
      'thread_pools=1',
      '-p',
      'thread_pool_min=10',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // compiling the VCL takes a C compiler a second or two
    await eventually(
      'varnishd answers',
      async () => {
        if (child.exitCode !== null) throw new Error(`varnishd exited ${child.exitCode}: ${output}`);
        return fetch(`${url}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
      },
      (status) => status === 200,
      30_000,
      100,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    async stats() {
      const { stdout } = await run(VARNISHSTAT, ['-n', workdir, '-1', '-j', '-f', 'MAIN.*']);
      const parsed = JSON.parse(stdout) as {
        counters?: Record<string, { value: number }>;
      } & Record<string, { value: number }>;
      // varnishstat 6.5+ nests the counters under "counters"; older ones put them at the top
      const counters = parsed.counters ?? parsed;
      const out: Record<string, number> = {};
      for (const [name, c] of Object.entries(counters))
        if (typeof c === 'object' && c && 'value' in c) out[name.replace(/^MAIN\./, '')] = c.value;
      return out;
    },
    stop,
  };
}
