// A real Wallery server for tests: a fresh SQLite file, optionally loaded with
// the shared sample data, listening on a real port, with an injectable clock.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/http/server.js';
import type { EmbedOptions } from '../../src/http/embed/index.js';
import type { ManageOptions } from '../../src/http/manage/index.js';
import type { CdnOptions } from '../../src/http/cdn.js';
import { registerDocument, unregisterDocument, type OpenApiDocument } from './conformance.js';
import { importDataFile } from '../../src/store/datafile.js';
import { ChangeBus } from '../../src/store/changes.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { StoreUrl, TrustProxy, WebConfig } from '../../src/config.js';
import type { AppContext } from '../../src/http/context.js';
import { createTestDatabase, dropTestDatabase, testDatabaseUrl, testStoreKind } from './services.js';

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
  /** embed API settings (stream cap, rate limits, …) */
  embed?: EmbedOptions;
  /** management API settings (the per-token write rate limit; none by default) */
  manage?: ManageOptions;
  /** the pages and files for browsers (WEB_SOURCE_MAPS, LANDING_REDIRECT); defaults otherwise */
  web?: WebConfig;
  /** a Redis shared with other servers (as REDIS_URL gives every instance) */
  shared?: AppContext['shared'];
  /** Fastify's trustProxy (TRUST_PROXY) */
  trustProxy?: TrustProxy;
  /** where the instance is reached (PUBLIC_URL); default none: a request's origin */
  self?: AppContext['self'];
  /** the media pipeline (storage and processing); default none */
  media?: AppContext['media'];
  /** CDN caching and purge targets (CDN_*); default none */
  cdn?: CdnOptions;
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
  const { url, drop } = await testStoreUrl(dir, ownDir);
  const store = openStore(url);
  await store.migrate();
  const clock = { now: options.now ?? Date.now() };
  if (options.data !== undefined) await importDataFile(store, options.data, clock.now);
  const app = await buildServer(
    {
      store,
      now: () => clock.now,
      changes: new ChangeBus(),
      shared: options.shared ?? null,
      ...(options.self ? { self: options.self } : {}),
      ...(options.media ? { media: options.media } : {}),
    },
    {
      ...(options.embed ? { embed: options.embed } : {}),
      ...(options.manage ? { manage: options.manage } : {}),
      ...(options.web ? { web: options.web } : {}),
      ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
      ...(options.cdn ? { cdn: options.cdn } : {}),
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;
  registerDocument(baseUrl, 'buildServer', () => app.swagger() as OpenApiDocument);
  return {
    baseUrl,
    app,
    store,
    clock,
    dir,
    async close() {
      // A client whose request body was refused before it was read (401/429
      // on a large upload) can leave a keep-alive socket still draining when
      // close() runs; it is not idle then, and the graceful close would wait
      // out the keep-alive timeout. Tests have nothing in flight at close,
      // so cut such stragglers after a moment.
      unregisterDocument(baseUrl);
      const straggler = setTimeout(() => app.server.closeAllConnections(), 200);
      await app.close();
      clearTimeout(straggler);
      await store.close();
      await drop();
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The store of a test server: a SQLite file in `dir`, or — in the postgres
 * test project — a PostgreSQL database whose name is kept in `dir`, so that
 * reopening the same `dir` reopens the same database (a restart).
 */
async function testStoreUrl(dir: string, ownDir: boolean): Promise<{ url: StoreUrl; drop: () => Promise<void> }> {
  if (testStoreKind() === 'sqlite')
    return { url: { kind: 'sqlite', path: join(dir, 'wallery.db') }, drop: async () => {} };
  const marker = join(dir, 'postgres-database');
  let name: string;
  if (existsSync(marker)) {
    name = readFileSync(marker, 'utf8').trim();
  } else {
    name = (await createTestDatabase()).name;
    writeFileSync(marker, name);
  }
  return {
    url: { kind: 'postgres', url: testDatabaseUrl(name) },
    drop: async () => {
      if (ownDir) await dropTestDatabase(name);
    },
  };
}
