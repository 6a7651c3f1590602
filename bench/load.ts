// One load case, run in its own process so the load generator never shares
// an event loop with the server it measures. Prints one JSON line.
//
// The generator is wrk (Debian: `apt-get install wrk`), one thread: a C
// client that costs the machine far less than the server it drives, so the
// server, not the generator, is what saturates (the bench shows it: wrk's
// rate against Fastify hello-world must be at least twice any rate it
// reports for Wallery). Without wrk the case runs with autocannon, one Node
// process — that saturates first on a small machine, and the report says so.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface Case {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

export interface LoadResult {
  generator: 'wrk' | 'autocannon';
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  bytesPerSec: number;
}

export const hasWrk = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

/** A Lua string literal for any text: every byte that is not plainly safe as a decimal escape. */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9 _.,:;/{}=+-]/.test(c) ? c : `\\${byte}`;
  }
  return `${out}"`;
}

/** The script: the request to send, and a `done` hook that prints the summary as one line of numbers. */
function wrkScript(spec: Case): string {
  const lines = [`wrk.method = ${luaString(spec.method ?? 'GET')}`];
  if (spec.body !== undefined) lines.push(`wrk.body = ${luaString(spec.body)}`);
  for (const [name, value] of Object.entries(spec.headers ?? {}))
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("WALLERY %d %d %d %d %d %f %f\\n", summary.requests, summary.duration, summary.bytes,',
    '    e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99)))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

function runWrk(spec: Case, seconds: number, script: string): LoadResult {
  const out = spawnSync(
    'wrk',
    ['-t1', `-c${spec.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, spec.url],
    { encoding: 'utf8' },
  );
  const m = /WALLERY (\d+) (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(out.stdout ?? '');
  if (!m) throw new Error(`wrk gave no summary:\n${out.stdout}\n${out.stderr}`);
  const [requests, durationUs, bytes, errors, non2xx, p50Us, p99Us] = m.slice(1).map(Number) as number[];
  const s = durationUs! / 1e6;
  return {
    generator: 'wrk',
    rps: requests! / s,
    p50: p50Us! / 1000,
    p99: p99Us! / 1000,
    requests: requests!,
    errors: errors!,
    non2xx: non2xx!,
    bytesPerSec: bytes! / s,
  };
}

async function runAutocannon(spec: Case, seconds: number): Promise<LoadResult> {
  const r = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: seconds,
  });
  return {
    generator: 'autocannon',
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    bytesPerSec: r.throughput.average,
  };
}

async function main() {
  const spec = JSON.parse(process.argv[2] ?? '{}') as Case;
  if (hasWrk()) {
    const dir = mkdtempSync(join(tmpdir(), 'wallery-wrk-'));
    try {
      const script = join(dir, 'case.lua');
      writeFileSync(script, wrkScript(spec));
      if (spec.warmupSeconds > 0) runWrk(spec, spec.warmupSeconds, script);
      process.stdout.write(`${JSON.stringify(runWrk(spec, spec.seconds, script))}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  if (spec.warmupSeconds > 0) await runAutocannon(spec, spec.warmupSeconds);
  process.stdout.write(`${JSON.stringify(await runAutocannon(spec, spec.seconds))}\n`);
}

if (process.argv[1]?.endsWith('load.ts')) await main();
