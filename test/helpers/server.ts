// A real Wallery server for tests: a fresh SQLite file, optionally loaded with
// the shared sample data, listening on a real port, with an injectable clock.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/http/server.js';
import { importDataFile } from '../../src/store/datafile.js';
import { openStore, type Store } from '../../src/store/store.js';

export const SAMPLE_DATA_PATH = new URL('../../../shared/fixtures/sample-data.json', import.meta.url).pathname;
export const hasSampleData = existsSync(SAMPLE_DATA_PATH);
export const SKIP_NO_SAMPLE = 'skipped: ../shared/fixtures/sample-data.json is absent';

export function loadSampleData(): unknown {
  return JSON.parse(readFileSync(SAMPLE_DATA_PATH, 'utf8'));
}

export interface TestServer {
  baseUrl: string;
  app: FastifyInstance;
  store: Store;
  clock: { now: number };
  dir: string;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** data file to import (default: none) */
  data?: unknown;
  /** initial clock value (epoch ms); default the real time at start */
  now?: number;
  /**
   * Directory holding the SQLite file `wallery.db`. When given, it is used
   * (and created if absent) instead of a fresh temporary one, and close()
   * leaves it in place, so a second server can reopen the same store (a
   * restart). The caller removes it. Default: a fresh temporary directory
   * that close() removes.
   */
  dir?: string;
}

/** A fresh temporary directory for `startTestServer({ dir })`; remove it with `removeDir`. */
export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'wallery-test-'));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'wallery-test-'));
  mkdirSync(dir, { recursive: true });
  const store = openStore({ kind: 'sqlite', path: join(dir, 'wallery.db') });
  await store.migrate();
  const clock = { now: options.now ?? Date.now() };
  if (options.data !== undefined) await importDataFile(store, options.data, clock.now);
  const app = await buildServer({ store, now: () => clock.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    app,
    store,
    clock,
    dir,
    async close() {
      await app.close();
      await store.close();
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
