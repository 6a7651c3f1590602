// Redis going away under a running server, for real: `wallery serve` reaches
// the test Redis through a TCP relay on 127.0.0.1; closing the relay leaves a
// closed port (every reconnection is refused), listening again brings Redis
// back. The server says so in one log line naming Redis each way — not an
// ioredis stack per reconnection attempt, not "store unavailable" — and its
// answers name the shared cache, while the store stays fine.
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { TEST_REDIS_URL } from '../helpers/services.js';
import { importSmallWall, SMALL_WALL } from '../helpers/wall-data.js';

/** A relay from a port of 127.0.0.1 to the test Redis that can be closed and opened again. */
class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async open(): Promise<void> {
    const target = new URL(TEST_REDIS_URL);
    this.server = createServer((client) => {
      const upstream = createConnection(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => this.sockets.delete(s));
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Closes the port and every connection through it. */
  async close(): Promise<void> {
    const server = this.server!;
    this.server = null;
    server.close();
    for (const s of this.sockets) s.destroy();
    await once(server, 'close');
  }
}

/** Lines of the server's output since `from` that name Redis. */
const redisLines = (output: string, from: number) =>
  output
    .slice(from)
    .split('\n')
    .filter((line) => /redis/i.test(line));

describe('Redis going away under a running server', () => {
  const relay = new Relay();
  let dir: string;
  let instance: Instance;
  const v2 = () =>
    call(instance.url, `/api/v2/widget/posts/${SMALL_WALL.wall}`, { query: { user_key: SMALL_WALL.key } });
  const ready = () => call(instance.url, '/readyz');

  beforeAll(async () => {
    dir = makeTempDir();
    const db = await importSmallWall(dir, 3);
    await relay.open();
    instance = await startInstance({
      DATABASE_URL: db,
      REDIS_URL: `redis://127.0.0.1:${relay.port}`,
      REDIS_KEY_PREFIX: `wallery-test-${process.pid}-${Date.now()}`,
    });
  });
  afterAll(async () => {
    await instance?.stop();
    await relay.close().catch(() => undefined);
    if (dir) removeDir(dir);
  });

  it('one line naming Redis when it goes, answers that name the shared cache, one line when it is back', async () => {
    expect((await v2()).status).toBe(200);
    const before = instance.output().length;
    await relay.close();

    // the calls that need Redis are 503s that say so; the store is fine
    await eventually('a v2 call answered 503', v2, (r) => r.status === 503, 20_000);
    for (let i = 0; i < 5; i++) {
      const res = await v2();
      expect(res.status).toBe(503);
      expect(res.json()).toEqual({
        responseCode: 503,
        responseStatus: 'error',
        responseMessage: 'Service unavailable: the shared cache (Redis) does not answer; retry',
      });
    }
    const readiness = await ready();
    expect([readiness.status, readiness.json()]).toEqual([503, { status: 'unavailable', store: 'ok', redis: 'down' }]);

    await eventually(
      'the outage logged',
      async () => redisLines(instance.output(), before),
      (l) => l.length > 0,
      20_000,
    );
    const down = redisLines(instance.output(), before);
    expect(down, instance.output().slice(before)).toHaveLength(1);
    expect(JSON.parse(down[0]!)).toMatchObject({
      level: 40,
      redis: `127.0.0.1:${relay.port}`,
      msg: expect.stringMatching(
        /^Redis at 127\.0\.0\.1:\d+ does not answer \(.+\): calls that need it are answered 503/,
      ),
    });
    const back = instance.output().length;

    await relay.open();
    await eventually('ready again', ready, (r) => r.status === 200, 20_000);
    expect((await v2()).status).toBe(200);
    await eventually(
      'the return logged',
      async () => redisLines(instance.output(), back),
      (l) => l.length > 0,
      20_000,
    );
    const up = redisLines(instance.output(), back);
    expect(up).toHaveLength(1);
    expect(JSON.parse(up[0]!)).toMatchObject({ level: 30, msg: `Redis at 127.0.0.1:${relay.port} answers again` });

    // never the store blamed, never a stack, never ioredis's own report
    const all = instance.output().slice(before);
    expect(all).not.toMatch(/store unavailable|Unhandled error event|\n\s+at /);
    expect(all).not.toContain('"stack"');
  });
});
