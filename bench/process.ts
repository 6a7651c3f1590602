// The bench's child processes: started from the package root, run to their
// end, or watched until they print what they are waiting for.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export const log = (s: string) => process.stderr.write(`${s}\n`);

// children still running when the bench ends (a case failed): stopped with it, not left behind
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

export function node(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export async function runToEnd(child: ChildProcess): Promise<string> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`process failed (${code}): ${err}`);
  return out;
}

export function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) resolve(m);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

/**
 * Pins a process and its threads (and whatever it starts later) to one CPU
 * with `taskset` (Linux, util-linux), so that a server and its load
 * generators do not trade cores from one run to the next. False where it
 * cannot (no taskset, one CPU): the run then goes on unpinned.
 */
export function pin(child: ChildProcess, cpu: number): boolean {
  if (child.pid === undefined) return false;
  const done = spawnSync('taskset', ['-a', '-cp', String(cpu), String(child.pid)], { stdio: 'ignore' });
  return done.status === 0;
}
