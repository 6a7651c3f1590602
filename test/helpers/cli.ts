// Runs the real `wallery` CLI (the compiled bin that `npm install` builds;
// test/global-setup.ts rebuilds it before every run) as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = 'dist/cli/main.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cliArgs(args: string[]): string[] {
  return [ENTRY, ...args];
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * How long a started process may take to say it is ready. A process start is
 * not a measurement: on a machine whose two cores the whole suite keeps busy,
 * a start that takes 1 s alone took over 20 s, so the deadline sits just under
 * the test timeout (vitest.config.ts) and only catches a process that hangs.
 */
export const READY_DEADLINE_MS = 100_000;

/** Starts a long-running CLI command and resolves once its stdout matches `ready`. */
export function startCli(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`CLI not ready in time:\n${out}`)), READY_DEADLINE_MS);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}:\n${out}`));
    });
  });
}
