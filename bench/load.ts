// One load case, run in its own process so the load generator never shares
// an event loop with the server it measures. Prints one JSON line.
//
// The generator is wrk (Debian: `apt-get install wrk`), one thread: a C
// client that costs the machine far less than the server it drives, so the
// server, not the generator, is what saturates (the bench shows it: wrk's
// rate against Fastify hello-world must be at least twice any rate it
// reports for Wallery). Without wrk the case runs with autocannon, one Node
// process — that saturates first on a small machine, and the report says so.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface Case {
  /** the URL of every request; with `mix`, only its origin counts (the paths come from the mix) */
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** different requests, drawn per request (instead of `method`, `headers`, `body` and the URL's path) */
  mix?: Mix;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** each connection waits this long after an answer before its next request: a paced load, not a saturating one */
  delayMs?: number;
}

/** A value drawn afresh for each request: an integer uniform in [min, max], or one of a list (uniform). */
export type Draw = { int: [min: number, max: number] } | { oneOf: (string | number)[] };

/**
 * One kind of request in a mix. `{name}` in `path` or `body` stands for a
 * value of `vars[name]`, drawn once per request (so `{wall}` in the path and
 * in the body of one request is the same wall).
 */
export interface MixRequest {
  /** relative share of the requests (e.g. 99 and 1) */
  weight: number;
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  vars?: Record<string, Draw>;
}

/** Requests drawn at random from a fixed seed: every run sends the same sequence. */
export interface Mix {
  seed: number;
  requests: MixRequest[];
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
  /** the generator's own CPU time over the measured run, in cores (1 = one core busy all the time) */
  generatorCores: number;
}

export const hasWrk = (): boolean => spawnSync('wrk', ['--version']).error === undefined;

/** A Lua string literal for any text: every byte that is not plainly safe as a decimal escape. */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    // three digits always: a shorter escape would take a digit after it (`\34` then `9` reads as `\349`)
    out += /[A-Za-z0-9 _.,:;/{}=+-]/.test(c) ? c : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

type TemplatePart = { text: string } | { name: string };

/** `a{x}b` → text a, var x, text b; every var must be declared. */
function template(text: string, vars: Record<string, Draw>): TemplatePart[] {
  return text
    .split(/\{([A-Za-z_]\w*)\}/)
    .map((part, i) => {
      if (i % 2 === 0) return { text: part };
      if (!(part in vars)) throw new Error(`mix: {${part}} is not among the request's vars`);
      return { name: part };
    })
    .filter((p) => !('text' in p) || p.text !== '');
}

function checkMix(mix: Mix) {
  if (mix.requests.length === 0 || mix.requests.some((r) => !(r.weight > 0)))
    throw new Error('mix: at least one request, every weight > 0');
  for (const r of mix.requests) {
    template(r.path, r.vars ?? {});
    if (r.body !== undefined) template(r.body, r.vars ?? {});
    for (const [name, draw] of Object.entries(r.vars ?? {})) {
      if (!/^[A-Za-z_]\w*$/.test(name)) throw new Error(`mix: bad var name ${name}`);
      if ('int' in draw ? !(draw.int[0] <= draw.int[1]) : draw.oneOf.length === 0)
        throw new Error(`mix: var ${name} draws from nothing`);
    }
  }
}

/**
 * A mix as Lua: one function per kind of request (its vars drawn into locals,
 * then `wrk.format`), and `request` picking a kind by weight. The seed is
 * fixed in each thread's Lua state, so the sequence is the same every run.
 */
function mixLua(mix: Mix): string[] {
  checkMix(mix);
  const total = mix.requests.reduce((sum, r) => sum + r.weight, 0);
  const lines = [`math.randomseed(${Math.trunc(mix.seed)})`, 'local kinds = {}', 'local upto = {}'];
  let cumulative = 0;
  for (const [k, r] of mix.requests.entries()) {
    const vars = r.vars ?? {};
    const expr = (text: string) =>
      template(text, vars)
        .map((p) => ('text' in p ? luaString(p.text) : `v_${p.name}`))
        .join(' .. ') || '""';
    const headers = Object.entries(r.headers ?? {})
      .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
      .join(', ');
    lines.push(`local headers_${k} = { ${headers} }`);
    for (const [name, draw] of Object.entries(vars))
      if ('oneOf' in draw)
        lines.push(`local pool_${k}_${name} = { ${draw.oneOf.map((v) => luaString(String(v))).join(', ')} }`);
    lines.push(`kinds[${k + 1}] = function()`);
    for (const [name, draw] of Object.entries(vars))
      lines.push(
        'int' in draw
          ? `  local v_${name} = math.random(${Math.trunc(draw.int[0])}, ${Math.trunc(draw.int[1])})`
          : `  local v_${name} = pool_${k}_${name}[math.random(#pool_${k}_${name})]`,
      );
    const body = r.body === undefined ? 'nil' : expr(r.body);
    lines.push(`  return wrk.format(${luaString(r.method ?? 'GET')}, ${expr(r.path)}, headers_${k}, ${body})`, 'end');
    cumulative += r.weight;
    lines.push(`upto[${k + 1}] = ${cumulative / total}`);
  }
  lines.push(
    'request = function()',
    '  local r = math.random()',
    '  for k = 1, #upto - 1 do',
    '    if r < upto[k] then return kinds[k]() end',
    '  end',
    '  return kinds[#upto]()',
    'end',
  );
  return lines;
}

/** The script: the request(s) to send, and a `done` hook that prints the summary as one line of numbers. */
function wrkScript(spec: Case): string {
  const lines: string[] = [];
  if (spec.mix) lines.push(...mixLua(spec.mix));
  else {
    lines.push(`wrk.method = ${luaString(spec.method ?? 'GET')}`);
    if (spec.body !== undefined) lines.push(`wrk.body = ${luaString(spec.body)}`);
    for (const [name, value] of Object.entries(spec.headers ?? {}))
      lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  }
  if (spec.delayMs !== undefined) lines.push(`delay = function() return ${Math.trunc(spec.delayMs)} end`);
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("WALLERY %d %d %d %d %d %f %f\\n", summary.requests, summary.duration, summary.bytes,',
    '    e.connect + e.read + e.write + e.timeout, e.status, latency:percentile(50), latency:percentile(99)))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

async function runWrk(spec: Case, seconds: number, script: string): Promise<LoadResult> {
  // through bash, whose `times` then prints the CPU time its child (wrk) used
  const out = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
    execFile(
      'bash',
      [
        '-c',
        'wrk "$@"; times',
        'bash',
        '-t1',
        `-c${spec.connections}`,
        `-d${seconds}s`,
        '--timeout',
        '10s',
        '-s',
        script,
        spec.url,
      ],
      (_err, stdout, stderr) => resolve({ stdout, stderr }),
    ),
  );
  // `times`: the shell's user and system time, then its children's (`0m1.234s 0m0.567s`)
  const times = [...out.stdout.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)].pop();
  const childSeconds = times
    ? Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])
    : NaN;
  const m = /WALLERY (\d+) (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(out.stdout);
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
    generatorCores: childSeconds / s,
  };
}

/** A small seeded PRNG (mulberry32) in [0, 1): autocannon's mix is deterministic too. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mix for autocannon: a function giving the next request (method, path, headers, body). */
export function mixRequests(mix: Mix) {
  checkMix(mix);
  const random = seeded(mix.seed);
  const total = mix.requests.reduce((sum, r) => sum + r.weight, 0);
  return () => {
    let pick = random() * total;
    const r = mix.requests.find((x) => (pick -= x.weight) < 0) ?? mix.requests.at(-1)!;
    const vars = r.vars ?? {};
    const values = new Map<string, string>();
    for (const [name, draw] of Object.entries(vars))
      values.set(
        name,
        'int' in draw
          ? String(draw.int[0] + Math.floor(random() * (draw.int[1] - draw.int[0] + 1)))
          : String(draw.oneOf[Math.floor(random() * draw.oneOf.length)]),
      );
    const fill = (text: string) =>
      template(text, vars)
        .map((p) => ('text' in p ? p.text : values.get(p.name)!))
        .join('');
    return {
      method: r.method ?? 'GET',
      path: fill(r.path),
      headers: r.headers ?? {},
      body: r.body === undefined ? undefined : fill(r.body),
    };
  };
}

async function runAutocannon(spec: Case, seconds: number): Promise<LoadResult> {
  const next = spec.mix ? mixRequests(spec.mix) : undefined;
  const cpuBefore = process.cpuUsage();
  const r = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: seconds,
    ...(spec.delayMs !== undefined && { connectionRate: 1000 / spec.delayMs }),
    ...(next && { requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }] }),
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
    generatorCores: cpuSeconds(process.cpuUsage(cpuBefore)) / seconds,
  };
}

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;

/**
 * Warm-up, then the measured run: with wrk, or with autocannon when wrk is
 * missing (or `generator` says so). A mix warms up with the next seed, so the
 * measured run does not start by repeating the warm-up's requests (cache hits).
 */
export async function runCase(spec: Case, generator: LoadResult['generator'] = hasWrk() ? 'wrk' : 'autocannon') {
  const warmup: Case = spec.mix ? { ...spec, mix: { ...spec.mix, seed: spec.mix.seed + 1 } } : spec;
  if (generator === 'autocannon') {
    if (spec.warmupSeconds > 0) await runAutocannon(warmup, spec.warmupSeconds);
    return runAutocannon(spec, spec.seconds);
  }
  const dir = mkdtempSync(join(tmpdir(), 'wallery-wrk-'));
  try {
    const script = join(dir, 'case.lua');
    if (spec.warmupSeconds > 0) {
      writeFileSync(script, wrkScript(warmup));
      await runWrk(spec, spec.warmupSeconds, script);
    }
    writeFileSync(script, wrkScript(spec));
    return await runWrk(spec, spec.seconds, script);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('load.ts')) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as Case;
  process.stdout.write(`${JSON.stringify(await runCase(spec))}\n`);
}
