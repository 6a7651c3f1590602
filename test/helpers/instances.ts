// Real `wallery serve` processes for multi-instance tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cliArgs, READY_DEADLINE_MS, ROOT } from './cli.js';

export interface Instance {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export function startInstance(env: Record<string, string>, args: string[] = ['serve']): Promise<Instance> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', INGEST: 'off', ...env },
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`instance not ready:\n${out}`)), READY_DEADLINE_MS);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.on('data', (more: Buffer) => (out += more.toString()));
        resolve({
          url: m[1]!,
          child,
          output: () => out,
          async stop() {
            if (child.exitCode !== null) return;
            child.kill('SIGTERM');
            await once(child, 'exit');
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code}:\n${out}`));
    });
  });
}
