// A rolling restart under load: two `wallery serve` processes on one
// PostgreSQL store, a client load loop (undici, keep-alive, several requests
// at once) spread round-robin across them by a balancer that does what a
// load balancer does — takes an instance out once its /readyz says 503 (it
// polls it), and out at once on any 503 answer, whose request it then sends
// to the other instance. It retries on 503 only: a connection reset or any
// other socket error is a failure. A is restarted (SIGTERM, wait for exit,
// start a new A), then B, while the load runs.
//
// Why no request can meet a reset (src/http/drain.ts, src/cli/shutdown.ts):
// from the signal on, /readyz answers 503 and every answer says
// `Connection: close`, so the client never reuses a connection the server
// will close; the instance keeps accepting and serving for SHUTDOWN_DELAY_MS,
// long enough for the balancer to stop sending; only then does it stop
// accepting and drop idle connections, which nobody will send on again.
// What still arrives on an open connection gets a 503 (retried elsewhere).
//
// Afterwards: every request answered 2xx in the end, every instance exited
// 0, every post acknowledged is in the store, and the quota count of the day
// is exactly the number of calls answered — the blocks each instance had
// reserved ahead were given back when it stopped.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { hasSampleData, loadSampleData, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase } from '../helpers/services.js';

const KEY = 'Demo-ent-key-0001';
const ACCOUNT = 7001;
const WALL = 7011;
/** requests in flight at once */
const CONCURRENCY = 6;
/**
 * How long a signalled instance keeps serving: the balancer's /readyz polls
 * (every 20 ms) must see the 503 within it. Generous, for a machine whose
 * cores the whole suite keeps busy.
 */
const SHUTDOWN_DELAY_MS = 6000;

interface Backend {
  instance: Instance;
  inRotation: boolean;
  /** requests it answered with a 2xx */
  served: number;
}

interface Failure {
  what: string;
  error: string;
}

/** The balancer and the load: round-robin over the backends in rotation, retry on 503 only. */
class LoadBalancedClient {
  readonly backends: Backend[] = [];
  readonly failures: Failure[] = [];
  readonly acknowledged: string[] = [];
  answered = 0;
  retriedOn503 = 0;
  private next = 0;
  private running = true;
  private readonly agent = new Agent({ connections: CONCURRENCY * 2 });
  private loops: Promise<void>[] = [];

  add(instance: Instance): Backend {
    const backend = { instance, inRotation: true, served: 0 };
    this.backends.push(backend);
    return backend;
  }

  private pick(exclude?: Backend): Backend | undefined {
    const live = this.backends.filter((b) => b.inRotation && b !== exclude);
    if (live.length === 0) return undefined;
    return live[this.next++ % live.length];
  }

  start(): void {
    this.loops = [this.healthChecks(), ...Array.from({ length: CONCURRENCY }, (_, i) => this.worker(i))];
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    await this.agent.close();
  }

  /** Polls each backend in rotation: a 503 from /readyz takes it out (what balancers' health checks do). */
  private async healthChecks(): Promise<void> {
    while (this.running) {
      for (const b of this.backends.filter((x) => x.inRotation)) {
        try {
          const res = await request(`${b.instance.url}/readyz`, { dispatcher: this.agent });
          await res.body.dump();
          if (res.statusCode === 503) b.inRotation = false;
        } catch (err) {
          this.failures.push({ what: `readyz ${b.instance.url}`, error: String(err) });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async worker(n: number): Promise<void> {
    for (let i = 0; this.running; i++) {
      const write = i % 5 === 4;
      const content = write ? `rolling ${n}-${i} ${randomBytes(4).toString('hex')}` : null;
      await this.send(content);
    }
  }

  /** One logical request: to the next backend; on a 503, to the other one; done at the first 2xx. */
  private async send(content: string | null): Promise<void> {
    const what = content ? `create-post "${content}"` : `wallInfo ${WALL}`;
    let backend = this.pick();
    for (let attempt = 0; backend && attempt < 20; attempt++) {
      const target = backend;
      try {
        const res = content
          ? await request(`${target.instance.url}/api/v2/widget/create-post?user_key=${KEY}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ wallId: WALL, content }),
              dispatcher: this.agent,
            })
          : await request(`${target.instance.url}/api/v2/widget/wallInfo/${WALL}?user_key=${KEY}`, {
              dispatcher: this.agent,
            });
        const text = await res.body.text();
        if (res.statusCode >= 200 && res.statusCode < 300) {
          target.served++;
          this.answered++;
          if (content) this.acknowledged.push(content);
          return;
        }
        if (res.statusCode !== 503) {
          this.failures.push({ what, error: `${res.statusCode} ${text}` });
          return;
        }
        // refused by a stopping instance: out of rotation, the request to another
        target.inRotation = false;
        this.retriedOn503++;
        backend = this.pick(target);
      } catch (err) {
        const e = err as Error & { code?: string };
        this.failures.push({ what: `${what} → ${target.instance.url}`, error: `${e.code ?? e.name}: ${e.message}` });
        return;
      }
    }
    this.failures.push({ what, error: 'no instance in rotation answered' });
  }
}

describe.skipIf(!hasSampleData)(
  `a rolling restart of two instances under load (${hasSampleData ? 'PostgreSQL' : SKIP_NO_SAMPLE})`,
  () => {
    let db: { name: string; url: string };
    let dir: string;
    let store: Store;
    const everyInstance: Instance[] = [];
    const env = () => ({ SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS), SHUTDOWN_TIMEOUT_MS: '60000' });

    beforeAll(async () => {
      db = await createTestDatabase();
      dir = mkdtempSync(join(tmpdir(), 'wallery-rolling-'));
      const file = join(dir, 'data.json');
      writeFileSync(file, JSON.stringify(loadSampleData()));
      const imported = await runCli(['import', file], { DATABASE_URL: db.url });
      expect(imported.code, imported.stderr).toBe(0);
      store = openStore({ kind: 'postgres', url: db.url });
    });

    afterAll(async () => {
      for (const i of everyInstance) if (i.child.exitCode === null) i.child.kill('SIGKILL');
      await store?.close();
      if (db) await dropTestDatabase(db.name);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const start = async () => {
      const instance = await startInstance({ DATABASE_URL: db.url, ...env() });
      everyInstance.push(instance);
      return instance;
    };

    const callsCounted = async () => {
      const rows = await store.db.selectFrom('usage_daily').select('calls').where('account_id', '=', ACCOUNT).execute();
      return rows.reduce((n, r) => n + Number(r.calls), 0);
    };

    it('loses no request: no reset, every call answered 2xx in the end, exit 0, quota exact', async () => {
      const countedBefore = await callsCounted();
      const client = new LoadBalancedClient();
      const [a, b] = await Promise.all([start(), start()]);
      client.add(a!);
      client.add(b!);
      client.start();
      const exitCodes: (number | null)[] = [];
      const outOfRotationAtExit: boolean[] = [];
      try {
        const servedAtLeast = (backend: Backend, n: number) =>
          eventually(
            `${backend.instance.url} serving`,
            async () => backend.served,
            (s) => s >= n,
            90_000,
          );
        await servedAtLeast(client.backends[0]!, 30);
        await servedAtLeast(client.backends[1]!, 30);

        for (const index of [0, 1]) {
          const old = client.backends[index]!;
          const exit = once(old.instance.child, 'exit');
          old.instance.child.kill('SIGTERM');
          const [code] = (await exit) as [number | null];
          exitCodes.push(code);
          outOfRotationAtExit.push(!old.inRotation);
          const fresh = client.add(await start());
          await servedAtLeast(fresh, 30);
        }
      } finally {
        await client.stop();
      }
      for (const backend of client.backends.filter((x) => x.instance.child.exitCode === null)) {
        const exit = once(backend.instance.child, 'exit');
        backend.instance.child.kill('SIGTERM');
        exitCodes.push(((await exit) as [number | null])[0]);
      }

      expect(client.failures).toEqual([]);
      expect(exitCodes).toEqual([0, 0, 0, 0]);
      // the balancer saw /readyz turn 503 while the instance still served
      expect(outOfRotationAtExit).toEqual([true, true]);
      expect(client.answered).toBeGreaterThanOrEqual(120);
      // every post acknowledged is in the store
      const stored = new Set(
        (await store.db.selectFrom('posts').select('content').where('content', 'like', 'rolling %').execute()).map(
          (r) => r.content,
        ),
      );
      expect(client.acknowledged.filter((c) => !stored.has(c))).toEqual([]);
      // each answered call counted once; nothing reserved ahead left counted
      expect((await callsCounted()) - countedBefore).toBe(client.answered);
      for (const instance of everyInstance) expect(instance.output()).toMatch(/shutdown: done/);
      // four process starts and two drains: on a loaded machine more than the default test timeout
    }, 400_000);
  },
);
