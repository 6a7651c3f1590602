// A connection's trouble, end to end on both stores: a Mastodon instance that
// requires sign-in read with the connection's token; the token revoked → the
// poll fails, the feed is failing at once, the connection `revoked`, and a
// `connection.failed` webhook reaches a local receiver — fired by the store
// from the status change alone, so the OAuth helper's markConnectionFailed
// announces the same way; and the expiry check's `connection.expiring`, once
// per expiry.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { getConnection, updateConnection } from '../../src/manage/connections.js';
import { getFeed, updateFeed } from '../../src/manage/walls.js';
import { createWebhook } from '../../src/manage/webhooks.js';
import { findConnection, markConnectionFailed } from '../../src/store/connections.js';
import { WebhookRuntime } from '../../src/webhooks/runtime.js';
import { addConnection } from '../helpers/connections.js';
import { ACCOUNT, NOW, startHarness, storedPosts, type Harness } from '../ingest/harness.js';
import {
  INVALID_TOKEN,
  mastodonHtml,
  startMastodon,
  status,
  type MastodonFixture,
} from '../ingest/fixtures/mastodon.js';
import { Receiver } from '../webhooks/helpers.js';

const DAY = 86_400_000;
const KEY = randomBytes(32);
const TOKEN = `gts_${randomBytes(20).toString('base64url')}`;
const SIGNED_IN = 4101;
const VISITOR = 4102;

const CONFIG: WebhookConfig = {
  enabled: true,
  secretKey: null,
  tickMs: 50,
  retryMinS: 60,
  retryMaxS: 240,
  giveUpS: 3 * 86_400,
  timeoutMs: 5_000,
  leaseMs: 10_000,
  logRetentionDays: 30,
  allowPrivateNetworks: ['127.0.0.0/8'],
};

let fx: MastodonFixture;
let h: Harness;
let rx: Receiver;
let webhooks: WebhookRuntime;
let connectionId: number;

const op = () => ({ db: h.server.store.db, actor: CLI_ACTOR, now: h.clock.now });
const keyring = { secretKey: KEY };
const connectionEvents = () => rx.received.filter((r) => r.type.startsWith('connection.'));

beforeAll(async () => {
  fx = await startMastodon();
  fx.token = TOKEN;
  fx.statuses.push(
    status({
      id: '113800000000000001',
      createdAt: new Date(NOW - 30 * 60_000).toISOString(),
      html: mastodonHtml('Members-only sunrise', ['trails']),
      tags: ['trails'],
    }),
    status({
      id: '113800000000000002',
      createdAt: new Date(NOW - 20 * 60_000).toISOString(),
      html: mastodonHtml('Members-only descent', ['trails']),
      tags: ['trails'],
    }),
  );
  const connector = { kind: 'mastodon', instance: fx.origin, hashtag: 'trails' };
  h = await startHarness(
    [
      { id: SIGNED_IN, name: 'Signed in', connector },
      { id: VISITOR, name: 'As a visitor', connector },
    ],
    { runtime: { secretKey: KEY } },
  );
  connectionId = await addConnection(h.server.store.db, {
    accountId: ACCOUNT,
    network: 'mastodon',
    name: 'Our GoToSocial',
    secret: { accessToken: TOKEN },
    key: KEY,
    instance: fx.origin,
    now: NOW,
  });
  await updateFeed(op(), SIGNED_IN, { connector: { ...connector, connectionId } as never });
  rx = await new Receiver().start();
  const hook = await createWebhook(
    op(),
    { accountId: ACCOUNT, url: rx.url, events: ['connection.failed', 'connection.expiring', 'feed.failing'] },
    CONFIG,
  );
  rx.secret = hook.secret;
  webhooks = new WebhookRuntime({
    db: h.server.store.db,
    config: CONFIG,
    now: () => h.clock.now,
    connections: { expiryWarnDays: 7, expiryCheckMs: 3_600_000 },
  });
});
afterAll(async () => {
  await webhooks?.stop();
  await rx?.close();
  await h?.close();
  await fx?.close();
});

describe('a Mastodon instance that requires sign-in', () => {
  it('is read with the connection’s token, sent to its instance as a Bearer token', async () => {
    const [report] = await h.poll(SIGNED_IN);
    expect(report).toMatchObject({ status: 'ok', inserted: 2 });
    const timeline = fx.timelineRequests();
    expect(timeline.length).toBeGreaterThan(0);
    for (const r of timeline) expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect((await storedPosts(h, SIGNED_IN)).map((p) => p.external_id)).toEqual([
      '113800000000000001',
      '113800000000000002',
    ]);
  });

  it('without a connection, fails saying the instance requires sign-in', async () => {
    const [report] = await h.poll(VISITOR);
    expect(report!.status).toBe('failed');
    expect(report!.message).toBe(
      `127.0.0.1:${fx.port} requires sign-in to read this (HTTP 401 from 127.0.0.1:${fx.port} (${INVALID_TOKEN.error})): give the feed a Mastodon connection (connector.connectionId)`,
    );
  });

  it('a revoked token: the feed fails at once, the connection is revoked, and connection.failed is delivered', async () => {
    // the user revoked the app's access: the instance no longer knows the token
    fx.token = 'another-token-altogether';
    h.clock.now = NOW + 3_600_000;
    const [report] = await h.poll(SIGNED_IN);
    expect(report!.status).toBe('failed');
    expect(report!.message).toContain('reconnect the Mastodon connection with a new token');
    expect(report!.message).not.toContain(TOKEN);

    const feed = await getFeed(h.server.store.db, SIGNED_IN);
    expect(feed.ingest).toMatchObject({ failing: true, consecutiveFailures: 1 });
    const row = await findConnection(h.server.store.db, connectionId);
    expect(row).toMatchObject({ status: 'revoked', status_at: NOW + 3_600_000 });
    expect(row!.status_detail).toContain('The access token is invalid');

    const reports = await webhooks.runOnce();
    expect(reports.map((r) => r.status)).toEqual(['delivered']);
    const [failed] = connectionEvents();
    expect(failed).toMatchObject({ type: 'connection.failed', verified: true });
    expect(failed!.body).toMatchObject({
      type: 'connection.failed',
      data: {
        accountId: ACCOUNT,
        wallId: null,
        post: null,
        connection: {
          id: connectionId,
          accountId: ACCOUNT,
          network: 'mastodon',
          name: 'Our GoToSocial',
          status: 'revoked',
          statusText: 'revoked by the user on 15 Jan 2026',
        },
      },
    });
    expect(JSON.stringify(rx.received.map((r) => r.body))).not.toContain(TOKEN);
    // the feed's own event came with it
    expect(rx.received.map((r) => r.type).sort()).toEqual(['connection.failed', 'feed.failing']);

    // the next poll does not call the instance: the connection waits for a reconnect
    const before = fx.requests.length;
    const [again] = await h.poll(SIGNED_IN);
    expect(again!.message).toMatch(/^the mastodon connection “Our GoToSocial” is revoked \(.*\): reconnect it$/);
    expect(fx.requests.length).toBe(before);
    // failing again is no new event
    await webhooks.runOnce();
    expect(connectionEvents()).toHaveLength(1);
  });

  it('reconnected with the new token, reads again', async () => {
    const fresh = `gts_${randomBytes(20).toString('base64url')}`;
    fx.token = fresh;
    const rec = await updateConnection(op(), connectionId, { accessToken: fresh }, keyring);
    expect(rec).toMatchObject({ status: 'active', statusText: 'active, no expiry' });
    const [report] = await h.poll(SIGNED_IN);
    // nothing new since the last read: the instance answers 304 to the conditional request
    expect(report!.status).toBe('not_modified');
    expect(fx.timelineRequests().at(-1)!.headers.authorization).toBe(`Bearer ${fresh}`);
    expect((await getFeed(h.server.store.db, SIGNED_IN)).ingest).toMatchObject({ failing: false });
  });
});

describe('connection events from the store', () => {
  it('markConnectionFailed alone (the OAuth refresh job) delivers connection.failed, once', async () => {
    const id = await addConnection(h.server.store.db, {
      accountId: ACCOUNT,
      network: 'instagram',
      name: 'Brand Instagram',
      secret: { accessToken: 'IGQVJ-refresh-test' },
      key: KEY,
      expiresAt: NOW - 2 * DAY,
      now: NOW,
    });
    const seen = connectionEvents().length;
    const detail = 'the token could not be refreshed: it expired; sign in again';
    expect(await markConnectionFailed(h.server.store.db, id, 'expired', detail, h.clock.now)).toBe(true);
    expect(await markConnectionFailed(h.server.store.db, id, 'expired', detail, h.clock.now)).toBe(false);
    await webhooks.runOnce();
    const events = connectionEvents().slice(seen);
    expect(events.map((e) => e.type)).toEqual(['connection.failed']);
    expect((events[0]!.body.data as { connection: unknown }).connection).toMatchObject({
      id,
      network: 'instagram',
      status: 'expired',
      statusDetail: detail,
      statusText: 'expired 2 days ago',
    });
  });

  it('the expiry check warns once per expiry, within CONNECTION_EXPIRY_WARN_DAYS', async () => {
    const soon = await addConnection(h.server.store.db, {
      accountId: ACCOUNT,
      network: 'threads',
      name: 'Threads',
      secret: { accessToken: 'THREADS-expiry-test' },
      key: KEY,
      expiresAt: h.clock.now + 3 * DAY,
      now: NOW,
    });
    const later = await addConnection(h.server.store.db, {
      accountId: ACCOUNT,
      network: 'facebook',
      name: 'Page',
      secret: { accessToken: 'FB-expiry-test' },
      key: KEY,
      expiresAt: h.clock.now + 30 * DAY,
      now: NOW,
    });
    const seen = connectionEvents().length;
    expect(await webhooks.checkConnectionExpiry()).toEqual([soon]);
    expect(await webhooks.checkConnectionExpiry()).toEqual([]);
    await webhooks.runOnce();
    const events = connectionEvents().slice(seen);
    expect(events.map((e) => e.type)).toEqual(['connection.expiring']);
    expect((events[0]!.body.data as { connection: unknown }).connection).toMatchObject({
      id: soon,
      network: 'threads',
      status: 'active',
      statusText: 'expires in 3 days',
    });

    // a refreshed token expires later: it is warned of again when its own window opens
    await updateConnection(op(), soon, { expiresAt: new Date(h.clock.now + 60 * DAY).toISOString() }, keyring);
    expect(await webhooks.checkConnectionExpiry()).toEqual([]);
    h.clock.now += 25 * DAY;
    expect((await webhooks.checkConnectionExpiry()).sort()).toEqual([later]);
    h.clock.now += 30 * DAY;
    expect(await webhooks.checkConnectionExpiry()).toEqual([soon]);
    const record = await getConnection(h.server.store.db, soon, keyring, h.clock.now);
    expect(record.statusText).toBe('expires in 5 days');
  });
});
