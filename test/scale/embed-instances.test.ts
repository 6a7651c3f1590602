// Two `wallery serve` processes on one PostgreSQL and one Redis: a post
// created through instance A reaches a stream open on instance B within
// 2 s, and a publishable key revoked with the CLI is refused by both at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { hasSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, TEST_REDIS_URL } from '../helpers/services.js';
import { openSse, type SseStream } from '../http/embed/sse-client.js';

const KEY = 'Demo-ent-key-0001';

describe.skipIf(!hasSampleData)(
  `the embed stream across instances on PostgreSQL + Redis (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    let a: Instance;
    let b: Instance;
    let db: { name: string; url: string };
    let dir: string;
    const streams: SseStream[] = [];
    beforeAll(async () => {
      db = await createTestDatabase();
      dir = mkdtempSync(join(tmpdir(), 'wallery-embed-scale-'));
      const imported = await runCli(['import', SAMPLE_DATA_PATH], { DATABASE_URL: db.url });
      expect(imported.code, imported.stderr).toBe(0);
      const env = {
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: `we-${randomBytes(4).toString('hex')}`,
      };
      [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
    });
    afterAll(async () => {
      for (const s of streams) s.close();
      await Promise.all([a?.stop(), b?.stop()]);
      if (db) await dropTestDatabase(db.name);
      rmSync(dir, { recursive: true, force: true });
    });

    it('a post created on A arrives on a stream from B within 2 s; a revoked key is refused by both', async () => {
      const made = await runCli(['walls', 'keys', 'create', '7011', '--json'], { DATABASE_URL: db.url });
      expect(made.code, made.stderr).toBe(0);
      const { key, id } = JSON.parse(made.stdout) as { key: string; id: number };
      const stream = await openSse(`${b.url}/api/embed/v1/walls/7011/stream?key=${key}`);
      streams.push(stream);
      expect(stream.status).toBe(200);
      // B holds the wall's snapshot once a first change after opening is diffed: make sure it has one
      await eventually(
        'the stream is open',
        async () => stream.text(),
        (t) => t.startsWith('retry:'),
        10_000,
      );
      const warm = await fetch(`${a.url}/api/v2/widget/create-post?user_key=${KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallId: 7011, content: 'warming up' }),
      });
      expect(warm.status).toBe(200);
      await stream.next((e) => e.event === 'upsert' && JSON.parse(e.data).html === 'warming up', 10_000);

      const started = performance.now();
      const created = await fetch(`${a.url}/api/v2/widget/create-post?user_key=${KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallId: 7011, content: 'created on A' }),
      });
      expect(created.status).toBe(200);
      const event = await stream.next(
        (e) => e.event === 'upsert' && JSON.parse(e.data).html === 'created on A',
        10_000,
      );
      const took = event.at - started;
      expect(took).toBeLessThan(2000);
      expect(JSON.parse(event.data)).toMatchObject({ type: 'text', network: 'custom' });

      for (const inst of [a, b])
        expect((await fetch(`${inst.url}/api/embed/v1/walls/7011?key=${key}`)).status).toBe(200);
      const revoked = await runCli(['walls', 'keys', 'revoke', '7011', String(id)], { DATABASE_URL: db.url });
      expect(revoked.code, revoked.stderr).toBe(0);
      for (const inst of [a, b]) {
        await eventually(
          `${inst.url} refuses the revoked key`,
          async () => (await fetch(`${inst.url}/api/embed/v1/walls/7011?key=${key}`)).status,
          (status) => status === 401,
          2000,
        );
      }
      await stream.body(); // B ends the stream opened with it
    });
  },
);
