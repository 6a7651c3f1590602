// PostgreSQL connections killed and Redis connections dropped under load:
// no 500s, no internals leaked, no acknowledged write lost, recovery by itself.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, TEST_PG_URL, TEST_REDIS_URL } from '../helpers/services.js';

const KEY = 'Demo-ent-key-0001';
let instances: Instance[] = [];
let db: { name: string; url: string };
const prefix = `wf-${randomBytes(4).toString('hex')}`;

async function killPostgresConnections() {
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  await admin.connect();
  const { rowCount } = await admin.query(
    `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'wallery'`,
    [db.name],
  );
  await admin.end();
  return rowCount ?? 0;
}

async function killRedisConnections() {
  const admin = new Redis(TEST_REDIS_URL);
  const list = (await admin.client('LIST')) as string;
  const ids = list
    .split('\n')
    .filter((line) => new RegExp(`name=${prefix}( |$)`).test(line))
    .map((line) => /id=(\d+)/.exec(line)![1]!);
  for (const id of ids) await admin.client('KILL', 'ID', id);
  admin.disconnect();
  return ids.length;
}

interface Outcome {
  status: number;
  body: string;
  created?: string;
}

/** Reads and writes from `workers` loops until `stop` resolves. */
async function load(workers: number, until: Promise<void>): Promise<Outcome[]> {
  let done = false;
  void until.finally(() => (done = true)).catch(() => undefined);
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let n = 0;
      while (!done) {
        const instance = instances[(w + n) % instances.length]!;
        n += 1;
        try {
          if (n % 3 === 0) {
            const content = `fault-${prefix}-${w}-${n}`;
            const res = await fetch(`${instance.url}/api/v2/widget/create-post?user_key=${KEY}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ wallId: 7011, content }),
              signal: AbortSignal.timeout(10_000),
            });
            outcomes.push({ status: res.status, body: await res.text(), created: content });
          } else {
            const res = await fetch(`${instance.url}/api/v2/widget/posts/7011?user_key=${KEY}&limit=20`, {
              signal: AbortSignal.timeout(10_000),
            });
            outcomes.push({ status: res.status, body: await res.text() });
          }
        } catch (err) {
          outcomes.push({ status: -1, body: String(err) });
        }
      }
    }),
  );
  return outcomes;
}

async function waitHealthy(instance: Instance) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${instance.url}/api/v2/widget/wallInfo/7011?user_key=${KEY}`).catch(() => null);
    if (res?.status === 200) return;
    await sleep(100);
  }
  throw new Error('instance did not recover');
}

describe.skipIf(!hasSampleData)(`faults under load (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`, () => {
  beforeAll(async () => {
    db = await createTestDatabase();
    expect((await runCli(['import', SAMPLE_DATA_PATH], { DATABASE_URL: db.url })).code).toBe(0);
    const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'warn' };
    instances = await Promise.all([
      startInstance({ ...env, LOG_LEVEL: 'info' }),
      startInstance({ ...env, LOG_LEVEL: 'info' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await dropTestDatabase(db.name);
  });

  it('survives PostgreSQL connections killed and Redis connections dropped, losing nothing', async () => {
    const faults = (async () => {
      await sleep(400);
      expect(await killPostgresConnections()).toBeGreaterThan(0);
      await sleep(400);
      expect(await killRedisConnections()).toBeGreaterThan(0);
      await sleep(400);
      await killPostgresConnections();
      await killRedisConnections();
      await sleep(600);
    })();
    const outcomes = await load(6, faults);
    await faults;
    for (const instance of instances) expect(instance.child.exitCode, instance.output().slice(-3000)).toBeNull();

    expect(outcomes.length).toBeGreaterThan(50);
    // never a 500, a hang or a dropped connection; 503s carry the envelope, naming Redis when it was Redis
    const odd = outcomes
      .filter((o) => o.status !== 200 && o.status !== 503)
      .map((o) => `${o.status} ${o.body.slice(0, 300)}`);
    expect(odd, odd.slice(0, 5).join('\n')).toEqual([]);
    for (const o of outcomes.filter((x) => x.status === 503)) {
      expect(JSON.parse(o.body)).toEqual({
        responseCode: 503,
        responseStatus: 'error',
        responseMessage: expect.stringMatching(
          /^Service unavailable(?:: the shared cache \(Redis\) does not answer; retry)?$/,
        ),
      });
    }

    // recovery by itself
    for (const instance of instances) await waitHealthy(instance);

    // every acknowledged create is stored
    const acknowledged = outcomes.filter((o) => o.created && o.status === 200).map((o) => o.created!);
    expect(acknowledged.length).toBeGreaterThan(5);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ content: string }>(`select content from posts where content like $1`, [
      `fault-${prefix}-%`,
    ]);
    await client.end();
    const stored = new Set(rows.map((r) => r.content));
    for (const content of acknowledged) expect(stored.has(content), content).toBe(true);
    // logs name the fault for operators but responses never did
    expect(outcomes.some((o) => /terminat|SQL|ECONN|stack/i.test(o.body))).toBe(false);
  });
});
