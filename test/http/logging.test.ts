// Secrets stay out of logs, and internal failures never leak to clients.
import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/http/server.js';
import { loggerOptions } from '../../src/http/logger.js';
import { importDataFile } from '../../src/store/datafile.js';
import { ChangeBus } from '../../src/store/changes.js';
import { openStore } from '../../src/store/store.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { hasSampleData, loadSampleData, SKIP_NO_SAMPLE } from '../helpers/server.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function serverWithLog() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-log-'));
  dirs.push(dir);
  const store = openStore({ kind: 'sqlite', path: join(dir, 'w.db') });
  await store.migrate();
  await importDataFile(store, loadSampleData(), Date.now());
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  const logger = { ...(loggerOptions('trace') as object), stream };
  const app = await buildServer({ store, now: Date.now, changes: new ChangeBus() }, { logger: logger as never });
  return { app, store, lines };
}

describe.skipIf(!hasSampleData)(`logs and failures (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`, () => {
  it('never writes a user key to the log', async () => {
    const { app, store, lines } = await serverWithLog();
    for (const url of [
      '/api/v2/widget/posts/7011?user_key=Demo-ent-key-0001&limit=1',
      '/api/v2/widget/posts/7011?format=xml&user_key=Demo-ent-key-0001',
      '/api/v2/widget/posts/7011?user_key=Wrong-secret-key',
      '/api/v2/nothing?user_key=Demo-ent-key-0001',
    ]) {
      await app.inject(url);
    }
    await app.inject({
      method: 'POST',
      url: '/api/v2/widget/create-post?user_key=Demo-ent-key-0001',
      payload: { wallId: 7011, content: 'x' },
    });
    await app.close();
    await store.close();
    const log = lines.join('');
    expect(log).toContain('[REDACTED]');
    expect(log).not.toContain('Demo-ent-key-0001');
    expect(log).not.toContain('Wrong-secret-key');
  });

  it('answers a broken store with a generic envelope, never internals', async () => {
    const { app, store, lines } = await serverWithLog();
    await store.db.schema.dropTable('post_products').execute();
    await store.db.schema.dropTable('posts').execute();
    for (const format of ['json', 'xml']) {
      const res = await app.inject(`/api/v2/widget/posts/7011?user_key=Demo-ent-key-0001&format=${format}`);
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain('Internal server error');
      expect(res.body).not.toMatch(/posts|SQL|sqlite|at .*\.ts|\/work\//i);
    }
    // the fault is in the log for the operator
    expect(lines.join('')).toContain('no such table');
    await app.close();
    await store.close();
  });
});

describe.skipIf(!hasSampleData)(
  `analytics beacons in the log (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    it('log no client address or user agent of a beacon, accepted or refused', async () => {
      const { app, store, lines } = await serverWithLog();
      const made = await createPublishableKey({ db: store.db, actor: CLI_ACTOR, now: Date.now() }, 7011, {});
      const ua = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36 beacon-log-test';
      for (const payload of ['{"events":[{"type":"wall_load"}]}', '{"events":[]}', 'not json']) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/embed/v1/events?key=${made.key}`,
          headers: { 'content-type': 'text/plain', 'user-agent': ua },
          remoteAddress: '203.0.113.77',
          payload,
        });
        expect(res.statusCode).toBeGreaterThanOrEqual(200);
      }
      // a read on the same server is logged as usual (the log works)
      await app.inject({ url: `/api/embed/v1/walls/7011?key=${made.key}`, remoteAddress: '203.0.113.77' });
      await app.close();
      await store.close();
      const log = lines.join('');
      expect(log).toContain('/api/embed/v1/walls/7011');
      expect(log).not.toContain('/api/embed/v1/events');
      expect(log).not.toContain('beacon-log-test');
      expect(log.split('203.0.113.77').length - 1).toBe(1); // the read's "incoming request" line only
    });
  },
);
