// Debian's nginx before a Wallery instance, run with the shipped site config
// (deploy/nginx/wallery.conf) as it is, only its upstream and listen
// addresses changed: the SSE bench and test/scale/sse-fanout.test.ts go
// through what an operator installs. A master and its workers in the
// foreground, everything (pid, logs, temp paths) in a temporary directory.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { closedPort } from '../test/helpers/ports.js';

export const NGINX = '/usr/sbin/nginx';
export const hasNginx = existsSync(NGINX);
const SITE = fileURLToPath(new URL('../deploy/nginx/wallery.conf', import.meta.url));

export interface Nginx {
  port: number;
  child: ChildProcess;
  /** the workers' resident memory, bytes (Linux /proc) */
  workerRss(): number;
  /** CPU seconds the workers have used (Linux /proc) */
  workerCpuSeconds(): number;
  /** what nginx logged (errors and warnings) */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The shipped site config pointed at `upstreamPort`, listening on
 * 127.0.0.1:`port` (with `reuseport` when several workers share the
 * streams: the kernel spreads the connections evenly over them).
 */
export function siteConfig(upstreamPort: number, port: number, reuseport = false): string {
  const site = readFileSync(SITE, 'utf8');
  const upstream = 'server 127.0.0.1:3000;';
  const listen = 'listen 80;';
  if (!site.includes(upstream) || !site.includes(listen)) {
    throw new Error(`${SITE} no longer has "${upstream}" and "${listen}" for the bench and test to replace`);
  }
  return site
    .replace(upstream, `server 127.0.0.1:${upstreamPort};`)
    .replace(listen, `listen 127.0.0.1:${port}${reuseport ? ' reuseport' : ''};`);
}

export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The hard limit on open files a process started from here can raise itself to. */
export function fileLimit(): number {
  const out = spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim();
  return out === 'unlimited' ? 1_048_576 : Number(out) || 1024;
}

export interface NginxOptions {
  /** worker processes; each holds two descriptors per stream (visitor and upstream) */
  workers?: number;
  withinMs?: number;
}

/** Starts nginx before the Wallery at 127.0.0.1:`upstreamPort`; resolves once it accepts connections. */
export async function startNginx(upstreamPort: number, options: NginxOptions = {}): Promise<Nginx> {
  const { workers = 1, withinMs = 30_000 } = options;
  const files = Math.min(fileLimit(), 65_536);
  const dir = mkdtempSync(join(tmpdir(), 'wallery-nginx-'));
  const port = await closedPort();
  writeFileSync(join(dir, 'wallery.conf'), siteConfig(upstreamPort, port, workers > 1));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((t) => `  ${t}_temp_path ${join(dir, t)};`)
    .join('\n');
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      `worker_processes ${workers};`,
      `worker_rlimit_nofile ${files};`,
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      `events { worker_connections ${files - 100}; }`,
      'http {',
      '  access_log off;',
      temp,
      `  include ${join(dir, 'wallery.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(
    NGINX,
    ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const log = () => {
    try {
      return out + readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return out;
    }
  };
  // the workers are the master's children
  const workerPids = () => {
    try {
      return readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
    } catch {
      return [NaN];
    }
  };
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (performance.now() - started > withinMs) {
      child.kill('SIGKILL');
      throw new Error(`nginx not listening within ${withinMs} ms:\n${log()}`);
    }
    await sleep(50);
  }
  return {
    port,
    child,
    workerRss: () => workerPids().reduce((sum, pid) => sum + rssOf(pid), 0),
    workerCpuSeconds: () => workerPids().reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    log,
    async stop() {
      if (child.exitCode === null) {
        // TERM: fast shutdown, the open streams are cut (clients reconnect)
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
