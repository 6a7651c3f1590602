// The media worker's tests' harness: a fresh store (SQLite, or PostgreSQL in
// the postgres project) with two accounts and their walls, a local upstream
// serving pictures (node:http on 127.0.0.1), a media runtime on an injected
// clock and randomness, and — unless a test brings the real ones — an
// in-process processor (processPicture, no worker threads) and a storage in
// memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaConfig } from '../../src/config.js';
import { MediaRuntime, type MediaRuntimeOptions } from '../../src/media/runtime.js';
import { processPicture, renderRendition } from '../../src/media/process.js';
import type { MediaProcessor, MediaServices, MediaStorage, StoredObject } from '../../src/media/types.js';
import { ChangeBus } from '../../src/store/changes.js';
import { importDataFile } from '../../src/store/datafile.js';
import { postDefaults } from '../../src/store/post-columns.js';
import type { Store } from '../../src/store/store.js';
import { startFixture, type Fixture, type Reply } from '../ingest/fixtures/server.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

export const NOW = Date.UTC(2026, 0, 15, 12);
const T = '2026-01-01T00:00:00.000Z';

export function testMediaConfig(over: Partial<MediaConfig> = {}): MediaConfig {
  return {
    enabled: true,
    storage: { kind: 'folder', dir: null },
    threads: 1,
    concurrency: 4,
    maxBytes: 5 * 1024 * 1024,
    maxPixels: 50_000_000,
    maxFrames: 200,
    timeoutMs: 10_000,
    hostConcurrency: 4,
    maxAttempts: 6,
    retryMinS: 60,
    retryMaxS: 3600,
    accountQuotaBytes: 0,
    tickMs: 1000,
    ...over,
  };
}

/** A storage in memory: what the runtime wrote, readable by the tests. */
export class MemoryStorage implements MediaStorage {
  readonly kind = 'folder' as const;
  readonly files = new Map<string, StoredObject>();
  puts = 0;
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    this.puts++;
    const b = Buffer.from(bytes);
    this.files.set(key, { bytes: b, size: b.byteLength, contentType });
  }
  async get(key: string) {
    return this.files.get(key) ?? null;
  }
  async has(key: string) {
    return this.files.has(key);
  }
  async delete(keys: readonly string[]) {
    for (const k of keys) this.files.delete(k);
  }
  async *list(prefix = '') {
    for (const [key, f] of this.files) if (key.startsWith(prefix)) yield { key, size: f.size };
  }
  async close() {}
}

/** processPicture in this thread (the pool's workers run the same function). */
export const inlineProcessor: MediaProcessor = {
  process: (bytes, options) => processPicture(bytes, options),
  render: (master, width, format, animated) => renderRendition(master, width, format, animated),
  async close() {},
};

export interface QueueHarness {
  store: Store;
  clock: { now: number };
  upstream: Fixture;
  /** path → what the upstream answers (a list: one reply per request, the last one repeated) */
  replies: Map<string, Reply | Reply[]>;
  services: MediaServices;
  changes: ChangeBus;
  changed: number[];
  runtime: MediaRuntime;
  /** a new runtime on the same store (replacing `runtime`) */
  restart(options?: Partial<MediaRuntimeOptions>): MediaRuntime;
  url(path: string): string;
  /** a post of wall 10 (account 1) or 20 (account 2), written as a path that does not sync would, media_state null */
  post(wallId: 10 | 11 | 20, columns: Partial<ReturnType<typeof postDefaults>>): Promise<number>;
  close(): Promise<void>;
}

export interface QueueHarnessOptions {
  config?: Partial<MediaConfig>;
  services?: MediaServices;
  runtime?: Partial<MediaRuntimeOptions>;
}

export async function startQueueHarness(options: QueueHarnessOptions = {}): Promise<QueueHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-media-'));
  const ts: TestStore = await openTestStore(dir);
  const store = ts.store;
  await importDataFile(
    store,
    {
      version: 1,
      accounts: [
        { id: 1, name: 'One', plan: 'enterprise' },
        { id: 2, name: 'Two', plan: 'enterprise' },
      ],
      walls: [
        { id: 10, accountId: 1, name: 'W10', url: 'w10', createdAt: T, feeds: [feed(100)] },
        { id: 11, accountId: 1, name: 'W11', url: 'w11', createdAt: T, feeds: [feed(110)] },
        { id: 20, accountId: 2, name: 'W20', url: 'w20', createdAt: T, feeds: [feed(200)] },
      ],
    },
    NOW,
  );
  const replies = new Map<string, Reply | Reply[]>();
  const upstream = await startFixture((_req, url) => {
    const r = replies.get(url.pathname);
    if (r === undefined) return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
    if (!Array.isArray(r)) return r;
    return r.length > 1 ? r.shift()! : r[0]!;
  });
  const clock = { now: NOW };
  const changes = new ChangeBus();
  const changed: number[] = [];
  changes.subscribe((c) => {
    if (c.kind === 'wall') changed.push(c.wallId);
  });
  const services = options.services ?? { storage: new MemoryStorage(), processor: inlineProcessor };
  const make = (over: Partial<MediaRuntimeOptions> = {}) =>
    new MediaRuntime({
      db: store.db,
      changes,
      config: testMediaConfig(options.config),
      services,
      allowPrivateNetworks: ['127.0.0.0/8'],
      now: () => clock.now,
      random: () => 0.5,
      owner: 'test-media',
      ...options.runtime,
      ...over,
    });
  const h: QueueHarness = {
    store,
    clock,
    upstream,
    replies,
    services,
    changes,
    changed,
    runtime: make(),
    restart(over) {
      h.runtime = make(over);
      return h.runtime;
    },
    url: (path) => `${upstream.origin}${path}`,
    async post(wallId, columns) {
      const row = await store.db
        .insertInto('posts')
        .values({
          ...postDefaults(),
          wall_id: wallId,
          feed_id: wallId * 10,
          created_at: NOW,
          updated_at: NOW,
          ...columns,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async close() {
      await h.runtime.stop();
      await upstream.close();
      await ts.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

function feed(id: number) {
  return { id, name: `Feed ${id}`, source: 'RSS', sourceType: 'feed', posts: [] };
}

export const picture = (body: Buffer, type = 'image/png'): Reply => ({
  status: 200,
  headers: { 'content-type': type, 'content-length': String(body.byteLength) },
  body,
});
