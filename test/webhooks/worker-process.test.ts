// `wallery worker` processes delivering webhooks: a worker killed with
// SIGKILL mid-delivery (the receiver holds the request) leaves its lease; a
// second worker takes the endpoint once the lease has run out and delivers
// the same event, with the same event id (at least once). One stopped with
// SIGTERM gives the lease back as it exits: the next worker goes on at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createWebhook, getWebhook } from '../../src/manage/webhooks.js';
import { importDataFile } from '../../src/store/datafile.js';
import { startCli } from '../helpers/cli.js';
import { eventually } from '../helpers/poll.js';
import { sample } from '../helpers/sample.js';
import { hasSampleData, makeTempDir, removeDir } from '../helpers/server.js';
import { openTestStore, type TestStore } from '../helpers/store.js';
import { emit, Receiver } from './helpers.js';

const KEY = Buffer.alloc(32, 5);
// the held request must outlive the moment the test kills the worker, even on a loaded machine
const ENV = {
  WEBHOOK_SECRET_KEY: KEY.toString('base64'),
  WEBHOOK_TICK_MS: '100',
  WEBHOOK_TIMEOUT_MS: '5000',
  WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_RETRY_MIN_S: '1',
  WEBHOOK_RETRY_MAX_S: '1',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
  LOG_LEVEL: 'warn',
};

let dir: string;
let ts: TestStore;
let rx: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = makeTempDir();
  ts = await openTestStore(dir);
  if (hasSampleData) await importDataFile(ts.store, sample(), Date.now());
  rx = await new Receiver().start();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rx?.close();
  await ts?.close();
  removeDir(dir);
});

const worker = async () => {
  const { child } = await startCli(['worker', '--database', ts.database], ENV, /wallery worker/);
  children.push(child);
  return child;
};

it.skipIf(!hasSampleData)(
  'a worker killed mid-delivery: the next one delivers the same event id after the lease',
  async () => {
    const op = { db: ts.store.db, actor: CLI_ACTOR, now: Date.now() };
    const hook = await createWebhook(
      op,
      { accountId: 7001, url: rx.url, events: ['post.approved'] },
      { secretKey: KEY, allowPrivateNetworks: ['127.0.0.0/8'] },
    );
    rx.secret = hook.secret;
    rx.mode = 'hold';
    const first = await worker();
    const seq = await emit(ts.store, 'approved', 17001);
    await eventually(
      'the first worker sends the event',
      async () => rx.received.length,
      (n) => n >= 1,
      60_000,
    );
    // the receiver holds the request: the worker dies mid-delivery, its lease left behind
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const leased = await ts.store.db
      .selectFrom('webhooks')
      .select(['lease_owner', 'last_seq'])
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(leased.lease_owner).not.toBeNull();
    expect(leased.last_seq).toBeLessThan(seq);
    rx.mode = 'ok';
    const second = await worker();
    await eventually(
      'the second worker sends it again',
      async () => rx.received.length,
      (n) => n >= 2,
      60_000,
    );
    expect(rx.ids()).toEqual([`evt_${seq}`, `evt_${seq}`]);
    expect(rx.received.every((r) => r.verified)).toBe(true);
    await eventually(
      'the cursor moves past the event',
      () => getWebhook(ts.store.db, hook.id),
      (h) => h.lastEventId === `evt_${seq}`,
      60_000,
    );
    // and the second worker keeps delivering: the next event once
    const next = await emit(ts.store, 'approved', 17004);
    await eventually(
      'the next event',
      async () => rx.ids(),
      (ids) => ids.includes(`evt_${next}`),
      60_000,
    );
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
    expect(rx.ids()).toEqual([`evt_${seq}`, `evt_${seq}`, `evt_${next}`]);
  },
);

it.skipIf(!hasSampleData)(
  'a worker stopped with SIGTERM mid-delivery gives its lease back: the next one delivers at once, not after the lease',
  async () => {
    const rx2 = await new Receiver().start();
    try {
      const op = { db: ts.store.db, actor: CLI_ACTOR, now: Date.now() };
      const hook = await createWebhook(
        op,
        { accountId: 7001, url: rx2.url, events: ['post.approved'] },
        { secretKey: KEY, allowPrivateNetworks: ['127.0.0.0/8'] },
      );
      rx2.secret = hook.secret;
      rx2.mode = 'hold';
      // a lease of an hour: only a lease given back lets another worker in within the test
      const env = { ...ENV, WEBHOOK_TIMEOUT_MS: '120000', WEBHOOK_LEASE_MS: '3600000', LOG_LEVEL: 'info' };
      const start = async () => {
        const { child, output } = await startCli(['worker', '--database', ts.database], env, /wallery worker/);
        children.push(child);
        return { child, output };
      };
      const first = await start();
      const seq = await emit(ts.store, 'approved', 17007);
      await eventually(
        'the first worker sends the event',
        async () => rx2.received.length,
        (n) => n >= 1,
        60_000,
      );
      first.child.kill('SIGTERM');
      const [code] = (await once(first.child, 'exit')) as [number | null];
      expect(code, first.output()).toBe(0);
      const row = await ts.store.db
        .selectFrom('webhooks')
        .select(['lease_owner', 'lease_until', 'last_seq'])
        .where('id', '=', hook.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ lease_owner: null, lease_until: null });
      expect(row.last_seq).toBeLessThan(seq);
      expect(first.output()).toMatch(/shutdown: ingestion and webhook delivery stopped, their leases released/);
      rx2.mode = 'ok';
      const second = await start();
      await eventually(
        'the second worker sends it again',
        async () => rx2.ids(),
        (ids) => ids.length >= 2,
        60_000,
      );
      expect(rx2.ids()).toEqual([`evt_${seq}`, `evt_${seq}`]);
      second.child.kill('SIGTERM');
      expect((await once(second.child, 'exit'))[0]).toBe(0);
    } finally {
      await rx2.close();
    }
  },
);
