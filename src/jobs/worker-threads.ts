// What the worker-thread pools (ingest/parse-pool.ts, media/media-pool.ts)
// share: where a worker's script is, and how bytes are moved to it.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The script of a pool's worker, `name` beside the module at `moduleUrl`,
 * and the flags to start it with. Run from src/ (vitest, tsx), the worker is
 * TypeScript too: it is loaded through tsx, a dev dependency, there whenever
 * src/ runs. From dist/ it is plain JavaScript next to the module, and
 * inherits this process's flags.
 */
export function workerScript(moduleUrl: string, name: string): { filename: string; execArgv: string[] | undefined } {
  const fromSource = moduleUrl.endsWith('.ts');
  const filename = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, moduleUrl).href;
  if (!fromSource) return { filename, execArgv: undefined };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename, execArgv: [...process.execArgv, '--import', tsx] };
}

/** A small Buffer may be a slice of Node's shared pool: moving that would take the pool away; copy it. */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return own && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
}
