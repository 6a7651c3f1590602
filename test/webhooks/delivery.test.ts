// The delivery worker against real receivers on 127.0.0.1: signed events in
// order, retries while the receiver is down, two workers without double
// delivery, the SSRF guard, and the give-up that disables an endpoint. The
// worker runs in-process with a clock the test moves (no sleeping for a
// backoff to pass).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config.js';
import { NO_ANSWER } from '../../src/domain/delivery-outcome.js';
import type { WorkerLogger } from '../../src/jobs/log.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import {
  createWebhook,
  getWebhook,
  listDeliveries,
  rotateWebhookSecret,
  updateWebhook,
} from '../../src/manage/webhooks.js';
import { WebhookRuntime } from '../../src/webhooks/runtime.js';
import { sample } from '../helpers/sample.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { eventually } from '../helpers/poll.js';
import { emit, Receiver, verifyLikeTheGuide } from './helpers.js';

const CONFIG: WebhookConfig = {
  enabled: true,
  secretKey: Buffer.alloc(32, 7),
  tickMs: 50,
  // long enough that no real pause between two ticks reaches a retry: the test moves the clock instead
  retryMinS: 60,
  retryMaxS: 240,
  giveUpS: 3 * 86_400,
  timeoutMs: 5_000,
  leaseMs: 10_000,
  logRetentionDays: 30,
  allowPrivateNetworks: ['127.0.0.0/8'],
};

let srv: TestServer;
let rx: Receiver;
/** the workers' clock: the real time plus what the test skips ahead */
const clock = { offset: 0, now: () => Date.now() + clock.offset };
const workers: WebhookRuntime[] = [];

function worker(config: Partial<WebhookConfig> = {}, log?: WorkerLogger): WebhookRuntime {
  const w = new WebhookRuntime({ db: srv.store.db, config: { ...CONFIG, ...config }, now: clock.now, log });
  workers.push(w);
  return w;
}

async function hook(events: string[], accountId = 7001) {
  const op = { db: srv.store.db, actor: CLI_ACTOR, now: Date.now() };
  const made = await createWebhook(op, { accountId, url: rx.url, events: events as never }, CONFIG);
  rx.secret = made.secret;
  return made;
}

beforeAll(async () => {
  srv = await startTestServer({ data: sample() });
});
afterAll(async () => srv?.close());
beforeEach(async () => {
  rx = await new Receiver().start();
  clock.offset = 0;
  // a fresh endpoint per test sees only the events after it
  await srv.store.db.deleteFrom('webhook_deliveries').execute();
  await srv.store.db.deleteFrom('webhooks').execute();
});
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  await rx.close();
});

describe('webhook delivery', () => {
  it('sends the subscribed events of its account, signed, in order, the post in the embed form', async () => {
    const h = await hook(['post.approved', 'post.hidden', 'post.created']);
    await emit(srv.store, 'approved', 17001);
    await emit(srv.store, 'rejected', 17004); // not subscribed
    await emit(srv.store, 'approved', 17061); // another account's
    await emit(srv.store, 'updated', 17007); // an edit: no event
    const hidden = await emit(srv.store, 'hidden', 17010);
    const w = worker();
    await w.runOnce();
    expect(rx.received.map((r) => r.type)).toEqual(['post.approved', 'post.hidden']);
    expect(rx.received.every((r) => r.verified)).toBe(true);
    const first = rx.received[0]!;
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['user-agent']).toMatch(/Wallery/);
    expect(first.body).toMatchObject({
      id: first.eventId,
      type: 'post.approved',
      data: { accountId: 7001, wallId: 7011, postId: '17001', post: { id: '17001' } },
    });
    expect(first.eventId).toMatch(/^evt_\d+$/);
    expect(new Date(first.body.createdAt as string).toISOString()).toBe(first.body.createdAt);
    // the cursor is past every row read, events or not
    const after = await getWebhook(srv.store.db, h.id);
    expect(after).toMatchObject({ lastEventId: `evt_${hidden}`, state: 'active', pendingEventId: null });
    // nothing more to send
    await w.runOnce();
    expect(rx.received).toHaveLength(2);
    const log = await listDeliveries(srv.store.db, h.id, {});
    expect(log.data.map((d) => [d.type, d.status, d.httpStatus, d.attempt])).toEqual([
      ['post.hidden', 'delivered', 204, 1],
      ['post.approved', 'delivered', 204, 1],
    ]);
  });

  it('a rotation with expireOldNow while an endpoint is being served: the next event is signed with the new secret only', async () => {
    const h = await hook(['post.approved']);
    const first = await emit(srv.store, 'approved', 17001);
    const second = await emit(srv.store, 'approved', 17004);
    rx.mode = 'hold';
    const serving = worker().runOnce();
    await eventually(
      'the first event is being sent',
      async () => rx.ids(),
      (ids) => ids.length === 1,
      30_000,
    );
    const op = { db: srv.store.db, actor: CLI_ACTOR, now: Date.now() };
    const fresh = await rotateWebhookSecret(op, h.id, CONFIG, { expireOldNow: true });
    rx.secret = fresh.secret;
    rx.mode = 'ok';
    rx.releaseHeld();
    await serving;
    expect(rx.ids()).toEqual([`evt_${first}`, `evt_${second}`]);
    const next = rx.received[1]!;
    const sig = String(next.headers['wallery-signature']);
    expect(sig.match(/v1=/g)).toHaveLength(1);
    expect(next.verified).toBe(true);
    expect(verifyLikeTheGuide(h.secret, sig, JSON.stringify(next.body))).toBe(false);
  });

  it("sends post.held with the rule's explained decision, which other events do not carry", async () => {
    await hook(['post.held', 'post.approved']);
    await emit(srv.store, 'held', 17001);
    await emit(srv.store, 'approved', 17001);
    await worker().runOnce();
    expect(rx.received.map((r) => r.type)).toEqual(['post.held', 'post.approved']);
    expect(rx.received[0]!.body).toMatchObject({
      type: 'post.held',
      data: {
        postId: '17001',
        post: { id: '17001' },
        decision: {
          by: 'rule:r9',
          reason: "held: image 0.91 'porn' ≥ 0.80 — nsfwjs test",
          detail: { rule: 'r9', kind: 'image', label: 'porn', score: 0.91, threshold: 0.8, model: 'nsfwjs test' },
        },
      },
    });
    expect(rx.received[1]!.body.data).not.toHaveProperty('decision');
  });

  it('a deleted post is sent with post: null', async () => {
    await hook(['post.deleted']);
    await emit(srv.store, 'deleted', 17013);
    await worker().runOnce();
    expect(rx.received[0]!.body).toMatchObject({ type: 'post.deleted', data: { postId: '17013', post: null } });
  });

  it('sends wall.deleted and the feed events with the ids they are about', async () => {
    await hook(['wall.deleted', 'feed.failing', 'feed.recovered']);
    const db = srv.store.db;
    const feed = await db.selectFrom('feeds').select('id').where('wall_id', '=', 7011).executeTakeFirstOrThrow();
    await db
      .insertInto('feed_ingest_state')
      .values({ feed_id: feed.id, interval_s: 300 })
      .onConflict((oc) => oc.column('feed_id').doNothing())
      .execute();
    await db.updateTable('feed_ingest_state').set({ failing: 1 }).where('feed_id', '=', feed.id).execute();
    await db.updateTable('feed_ingest_state').set({ failing: 0 }).where('feed_id', '=', feed.id).execute();
    await db.updateTable('walls').set({ deleted_at: Date.now() }).where('id', '=', 7012).execute();
    try {
      await worker().runOnce();
    } finally {
      await db.updateTable('walls').set({ deleted_at: null }).where('id', '=', 7012).execute();
    }
    expect(rx.received.map((r) => [r.type, r.verified])).toEqual([
      ['feed.failing', true],
      ['feed.recovered', true],
      ['wall.deleted', true],
    ]);
    expect(rx.received[0]!.body.data).toEqual({
      accountId: 7001,
      wallId: 7011,
      postId: null,
      post: null,
      feedId: feed.id,
    });
    expect(rx.received[2]!.body.data).toEqual({ accountId: 7001, wallId: 7012, postId: null, post: null });
  });

  it('while the receiver is down, retries with backoff; once back, every event arrives once, in order', async () => {
    const h = await hook(['post.approved']);
    const seqs: number[] = [];
    for (const id of [17016, 17019, 17022, 17025]) seqs.push(await emit(srv.store, 'approved', id));
    rx.mode = 'fail';
    const w = worker();
    for (let i = 0; i < 6; i++) {
      await w.runOnce();
      // the next attempt is not due yet: nothing is sent
      const before = rx.failed.length;
      await w.runOnce();
      expect(rx.failed.length).toBe(before);
      clock.offset += CONFIG.retryMaxS * 1000 + 1;
    }
    // only the head event was tried, every time
    expect(new Set(rx.failed.map((r) => r.eventId))).toEqual(new Set([`evt_${seqs[0]}`]));
    const failing = await getWebhook(srv.store.db, h.id);
    expect(failing).toMatchObject({ state: 'failing', pendingEventId: `evt_${seqs[0]}`, consecutiveFailures: 6 });
    expect(failing.lastError).toMatch(/503/);
    rx.mode = 'ok';
    await w.runOnce();
    expect(rx.ids()).toEqual(seqs.map((s) => `evt_${s}`));
    expect(rx.received.every((r) => r.verified)).toBe(true);
    expect(await getWebhook(srv.store.db, h.id)).toMatchObject({ state: 'active', consecutiveFailures: 0 });
    const attempts = (await listDeliveries(srv.store.db, h.id, { limit: 200 })).data;
    expect(attempts.filter((d) => d.eventId === `evt_${seqs[0]}`).map((d) => d.attempt)).toEqual([7, 6, 5, 4, 3, 2, 1]);
  });

  it('two workers at once deliver every event once, in order', async () => {
    await hook(['post.approved', 'post.hidden']);
    const posts = await srv.store.db
      .selectFrom('posts')
      .select('id')
      .where('wall_id', '=', 7011)
      .orderBy('id')
      .execute();
    const expected: string[] = [];
    for (let i = 0; i < 30; i++)
      expected.push(`evt_${await emit(srv.store, i % 2 ? 'hidden' : 'approved', posts[i]!.id)}`);
    const a = worker({ tickMs: 20 });
    const b = worker({ tickMs: 20 });
    const until = Date.now() + 60_000;
    while (rx.received.length < expected.length && Date.now() < until) await Promise.all([a.runOnce(), b.runOnce()]);
    expect(rx.ids()).toEqual(expected);
  });

  it('the SSRF guard refuses a private address unless allowed: the log says why, the delivery log only that no answer came', async () => {
    const h = await hook(['post.approved']);
    await emit(srv.store, 'approved', 17028);
    const warned: Record<string, unknown>[] = [];
    const log: WorkerLogger = {
      info() {},
      error() {},
      debug() {},
      warn: (fields) => warned.push(fields as Record<string, unknown>),
    };
    await worker({ allowPrivateNetworks: false }, log).runOnce();
    expect(rx.received).toHaveLength(0);
    const [attempt] = (await listDeliveries(srv.store.db, h.id, {})).data;
    expect(attempt).toMatchObject({ status: 'failed', httpStatus: null, error: NO_ANSWER });
    expect((await getWebhook(srv.store.db, h.id)).lastError).toBe(NO_ANSWER);
    // the operator's log has the cause
    expect(warned).toEqual([
      expect.objectContaining({ webhookId: h.id, cause: 'refused: 127.0.0.1 is a loopback address' }),
    ]);
  });

  it('an event failing for 3 days disables the endpoint; enabling it again resumes from the cursor', async () => {
    const h = await hook(['post.approved']);
    const seq = await emit(srv.store, 'approved', 17031);
    const later = await emit(srv.store, 'approved', 17034);
    rx.mode = 'fail';
    const w = worker();
    await w.runOnce();
    clock.offset += CONFIG.giveUpS * 1000;
    await w.runOnce();
    const disabled = await getWebhook(srv.store.db, h.id);
    expect(disabled).toMatchObject({ state: 'disabled', enabled: false, pendingEventId: `evt_${seq}` });
    expect((await listDeliveries(srv.store.db, h.id, {})).data[0]).toMatchObject({ status: 'gave_up', attempt: 2 });
    // disabled: nothing is tried any more
    clock.offset += CONFIG.retryMaxS * 1000 + 1;
    rx.mode = 'ok';
    await w.runOnce();
    expect(rx.received).toHaveLength(0);
    const op = { db: srv.store.db, actor: CLI_ACTOR, now: Date.now() };
    expect(await updateWebhook(op, h.id, { enabled: true }, CONFIG)).toMatchObject({ state: 'active', enabled: true });
    await w.runOnce();
    expect(rx.ids()).toEqual([`evt_${seq}`, `evt_${later}`]);
  });

  it('prunes delivery-log attempts older than WEBHOOK_LOG_RETENTION_DAYS on its tick', async () => {
    const h = await hook(['post.approved']);
    const at = (days: number) => clock.now() - days * 86_400_000;
    for (const days of [31, 29])
      await srv.store.db
        .insertInto('webhook_deliveries')
        .values({
          webhook_id: h.id,
          event_id: `evt_old_${days}`,
          seq: null,
          type: 'webhook.test',
          attempt: 1,
          status: 'delivered',
          http_status: 204,
          latency_ms: 1,
          error: null,
          at: at(days),
        })
        .execute();
    await worker().tick();
    const left = (await listDeliveries(srv.store.db, h.id, {})).data.map((d) => d.eventId);
    expect(left).toEqual(['evt_old_29']);
  });
});
