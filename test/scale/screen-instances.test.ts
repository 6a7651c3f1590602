// Live screen control across two `wallery serve` processes on one
// PostgreSQL and one Redis: a spotlight and a pause issued through instance A
// reach a screen's stream held by instance B within 2 s (each latency
// measured from the request to the event), and a screen that reconnects to B
// gets the current state as its first event.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, TEST_REDIS_URL } from '../helpers/services.js';
import { openSse, type SseEvent, type SseStream } from '../http/embed/sse-client.js';

const LIVE_MS = 2000;

describe.skipIf(!hasSampleData)(
  `live screen control across instances on PostgreSQL + Redis (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    let a: Instance;
    let b: Instance;
    let db: { name: string; url: string };
    let token: string;
    let key: string;
    const streams: SseStream[] = [];
    const control = (body: unknown) =>
      fetch(`${a.url}/api/manage/v1/walls/7011/screen`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const state = (e: SseEvent) =>
      JSON.parse(e.data) as { version: number; paused: boolean; spotlight: { post: { id: string } } | null };

    beforeAll(async () => {
      db = await createTestDatabase();
      const imported = await runCli(['import', SAMPLE_DATA_PATH], { DATABASE_URL: db.url });
      expect(imported.code, imported.stderr).toBe(0);
      const made = await runCli(['tokens', 'create', '--name', 'host', '--role', 'moderator', '--json'], {
        DATABASE_URL: db.url,
      });
      expect(made.code, made.stderr).toBe(0);
      token = (JSON.parse(made.stdout) as { token: string }).token;
      const pk = await runCli(['walls', 'keys', 'create', '7011', '--json'], { DATABASE_URL: db.url });
      expect(pk.code, pk.stderr).toBe(0);
      key = (JSON.parse(pk.stdout) as { key: string }).key;
      const env = {
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: `ws-${randomBytes(4).toString('hex')}`,
      };
      [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
    });
    afterAll(async () => {
      for (const s of streams) s.close();
      await Promise.all([a?.stop(), b?.stop()]);
      if (db) await dropTestDatabase(db.name);
    });

    it('spotlight and pause through A reach a stream on B within 2 s; a reconnecting stream gets the state first', async () => {
      const page = await fetch(`${b.url}/api/embed/v1/walls/7011/posts?key=${key}&limit=3`);
      const postId = ((await page.json()) as { posts: { id: string }[] }).posts[1]!.id;
      const url = `${b.url}/api/embed/v1/walls/7011/stream?key=${key}`;
      const stream = await openSse(url);
      streams.push(stream);
      expect(stream.status).toBe(200);
      // B has read the wall (its first screen event) before the change is made
      const initial = state(await stream.next((e) => e.event === 'screen', 10_000));
      expect(initial).toMatchObject({ paused: false, spotlight: null });

      const latencies: number[] = [];
      let started = performance.now();
      expect((await control({ spotlight: { postId: Number(postId), seconds: 30 } })).status).toBe(200);
      const spot = await stream.next((e) => e.event === 'screen' && state(e).spotlight !== null, 10_000);
      latencies.push(spot.at - started);
      expect(state(spot).spotlight!.post.id).toBe(postId);

      started = performance.now();
      expect((await control({ paused: true })).status).toBe(200);
      const paused = await stream.next((e) => e.event === 'screen' && state(e).paused, 10_000);
      latencies.push(paused.at - started);
      expect(state(paused).version).toBeGreaterThan(state(spot).version);
      console.info(`screen control A → B: ${latencies.map((ms) => `${Math.round(ms)} ms`).join(', ')}`);
      for (const ms of latencies) expect(ms).toBeLessThan(LIVE_MS);

      // the screen goes away and comes back (to B, with the id of the last event it had): the current state first
      stream.close();
      const again = await openSse(url, { 'last-event-id': paused.id ?? '0' });
      streams.push(again);
      const first = await again.next(() => true, 10_000);
      expect(first.event).toBe('screen');
      expect(state(first)).toMatchObject({ paused: true, spotlight: { post: { id: postId } } });
      expect(state(first).version).toBe(state(paused).version);
    });
  },
);
