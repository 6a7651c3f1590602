// The token refresh job (src/connections/refresh.ts) against the local
// authorization server, on both stores: a token near its expiry refreshed
// (the refresh token rotated, the expiry moved), one worker per connection
// (two refreshers at once spend the refresh token once), Threads'
// th_refresh_token, a network without refresh left alone, and a refused
// refresh marking the connection `expired` once, in words without a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionRefresher, isDue } from '../../src/connections/refresh.js';
import { openConnectionSecret, sealConnectionSecret } from '../../src/connections/secrets.js';
import { findConnection, updateConnection } from '../../src/store/connections.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addConnection } from '../helpers/connections.js';
import { sample } from '../helpers/sample.js';
import { startOAuthServer, type OAuthServer } from './fixtures/oauth-server.js';
import type { OAuthAppName } from '../../src/connections/networks.js';

const ACCOUNT = 7001;
const KEY = Buffer.alloc(32, 3);
const T0 = Date.UTC(2026, 10, 1, 9, 0, 0);
const HOUR = 3_600_000;

function refresher(srv: TestServer, app: OAuthAppName, fx: OAuthServer, now: () => number, owner = 'worker-a') {
  return new ConnectionRefresher({
    db: srv.store.db,
    oauth: { apps: { [app]: { clientId: fx.clientId, clientSecret: fx.clientSecret, baseUrl: fx.origin } } },
    secretKey: KEY,
    allowPrivateNetworks: ['127.0.0.0/8'],
    now,
    owner,
  });
}

/** An X connection made by OAuth at T0 with a token of the fixture, good for 2 hours. */
async function xConnection(srv: TestServer, fx: OAuthServer): Promise<number> {
  const accessToken = 'at_seed';
  const refreshToken = 'rt_seed_0001';
  fx.accessTokens.add(accessToken);
  fx.refreshTokens.add(refreshToken);
  return addConnection(srv.store.db, {
    accountId: ACCOUNT,
    network: 'x',
    authKind: 'oauth',
    key: KEY,
    secret: { accessToken, refreshToken },
    externalAccountName: '@lakefest',
    expiresAt: T0 + 2 * HOUR,
    now: T0,
  });
}

describe('refreshing X tokens before they expire (refresh_token grant)', () => {
  let srv: TestServer;
  let fx: OAuthServer;
  const jobs: ConnectionRefresher[] = [];
  beforeAll(async () => {
    srv = await startTestServer({ data: sample(), now: T0 });
    fx = await startOAuthServer({ profile: 'x' });
  });
  afterAll(async () => {
    await Promise.all(jobs.map((j) => j.stop()));
    await srv.close();
    await fx.close();
  });

  it('leaves a token alone until a quarter of its lifetime is left, then refreshes it once across two workers', async () => {
    const id = await xConnection(srv, fx);
    let now = T0 + HOUR;
    const a = refresher(srv, 'x', fx, () => now, 'worker-a');
    const b = refresher(srv, 'x', fx, () => now, 'worker-b');
    jobs.push(a, b);
    expect(await a.runOnce()).toEqual([]);
    expect(fx.tokenRequests).toHaveLength(0);

    now = T0 + 2 * HOUR - 29 * 60_000;
    const reports = [...(await a.runOnce()), ...(await b.runOnce())].filter((r) => r.status !== 'skipped');
    expect(reports).toEqual([{ connectionId: id, status: 'refreshed', message: null }]);
    expect(fx.tokenRequests).toEqual([
      { grantType: 'refresh_token', codeVerifier: null, pkceVerified: null, clientAuth: 'basic' },
    ]);
    const row = (await findConnection(srv.store.db, id))!;
    const secret = openConnectionSecret(row.secret, KEY);
    expect(secret.accessToken).not.toBe('at_seed');
    expect(fx.accessTokens.has(secret.accessToken!)).toBe(true);
    // rotated: the new refresh token is kept, the old one is spent
    expect(fx.refreshTokens.has(secret.refreshToken!)).toBe(true);
    expect(fx.refreshTokens.has('rt_seed_0001')).toBe(false);
    expect(row).toMatchObject({
      status: 'active',
      expires_at: now + 7200_000,
      refreshed_at: now,
      refresh_lease_owner: null,
      refresh_lease_until: null,
    });
    expect(row.secret).not.toContain(secret.accessToken!);
    expect(isDue(row, now)).toBe(false);
  });

  it('refreshes both at once from two refreshers started together: the token spent once', async () => {
    const id = await xConnection(srv, fx);
    const before = fx.tokenRequests.length;
    const now = T0 + 2 * HOUR - 60_000;
    const a = refresher(srv, 'x', fx, () => now, 'worker-c');
    const b = refresher(srv, 'x', fx, () => now, 'worker-d');
    jobs.push(a, b);
    const [ra, rb] = await Promise.all([a.refreshOne(id), b.refreshOne(id)]);
    expect([ra.status, rb.status].sort()).toEqual(['refreshed', 'skipped']);
    expect(fx.tokenRequests.length - before).toBe(1);
  });

  it('marks the connection expired once when the network refuses the refresh token, and tries no more', async () => {
    const id = await xConnection(srv, fx);
    fx.refreshTokens.delete('rt_seed_0001');
    // an expired connection with a working refresh token comes back: first prove the refusal
    const now = T0 + 2 * HOUR - 60_000;
    const job = refresher(srv, 'x', fx, () => now, 'worker-e');
    jobs.push(job);
    const [report] = (await job.runOnce()).filter((r) => r.connectionId === id);
    expect(report!.status).toBe('expired');
    const row = (await findConnection(srv.store.db, id))!;
    expect(row.status).toBe('expired');
    expect(row.status_detail).toBe(
      'X refused the token refresh (invalid_grant: Value passed for the token was invalid.): connect it again in the console (Connections).',
    );
    expect(row.status_detail).not.toContain('rt_seed');
    expect(row.refresh_expires_at).toBe(now);
    // no second try, even a tick later past the retry delay
    const later = refresher(srv, 'x', fx, () => now + HOUR, 'worker-f');
    jobs.push(later);
    expect((await later.runOnce()).filter((r) => r.connectionId === id)).toEqual([]);
  });

  it('brings an expired connection back when its refresh token still works', async () => {
    const id = await xConnection(srv, fx);
    const now = T0 + 3 * HOUR;
    await updateConnection(srv.store.db, id, { status: 'expired', status_detail: 'X said the token expired' });
    const job = refresher(srv, 'x', fx, () => now, 'worker-g');
    jobs.push(job);
    const reports = (await job.runOnce()).filter((r) => r.connectionId === id);
    expect(reports.map((r) => r.status)).toEqual(['refreshed']);
    expect(await findConnection(srv.store.db, id)).toMatchObject({ status: 'active', status_detail: null });
  });

  it('tries again later when the network cannot be reached, keeping the connection as it is', async () => {
    const down = await startOAuthServer({ profile: 'x' });
    await down.close();
    const id = await xConnection(srv, fx);
    const now = T0 + 2 * HOUR - 60_000;
    const job = refresher(srv, 'x', down, () => now, 'worker-h');
    jobs.push(job);
    const [report] = (await job.runOnce()).filter((r) => r.connectionId === id);
    expect(report).toMatchObject({ status: 'retry', message: 'X could not be reached (network)' });
    expect(await findConnection(srv.store.db, id)).toMatchObject({ status: 'active', refresh_attempt_at: now });
    // not again within the retry delay
    expect((await job.runOnce()).filter((r) => r.connectionId === id)).toEqual([]);
  });
});

describe('refreshing Threads (th_refresh_token) and leaving Meta alone', () => {
  let srv: TestServer;
  let threads: OAuthServer;
  beforeAll(async () => {
    srv = await startTestServer({ data: sample(), now: T0 });
    threads = await startOAuthServer({ profile: 'threads' });
  });
  afterAll(async () => {
    await srv.close();
    await threads.close();
  });

  it('refreshes a 60-day Threads token a day before it expires', async () => {
    threads.longLived.add('THll_seed');
    const expires = T0 + 60 * 24 * HOUR;
    const id = await addConnection(srv.store.db, {
      accountId: ACCOUNT,
      network: 'threads',
      authKind: 'oauth',
      key: KEY,
      secret: { accessToken: 'THll_seed' },
      expiresAt: expires,
      now: T0,
    });
    // a Facebook connection about to expire: Meta has no refresh (the user signs in again)
    const fb = await addConnection(srv.store.db, {
      accountId: ACCOUNT,
      network: 'facebook',
      authKind: 'oauth',
      key: KEY,
      secret: { accessToken: 'EAAll_seed' },
      expiresAt: T0 + HOUR,
      now: T0,
    });
    let now = expires - 25 * HOUR;
    const job = refresher(srv, 'threads', threads, () => now);
    try {
      expect(await job.runOnce()).toEqual([]);
      now = expires - 23 * HOUR;
      expect(await job.runOnce()).toEqual([{ connectionId: id, status: 'refreshed', message: null }]);
      const row = (await findConnection(srv.store.db, id))!;
      const token = openConnectionSecret(row.secret, KEY).accessToken!;
      expect(threads.longLived.has(token)).toBe(true);
      expect(threads.longLived.has('THll_seed')).toBe(false);
      expect(row.expires_at).toBe(now + 5183944_000);
      expect(threads.requests.some((r) => r.url.startsWith('/refresh_access_token?grant_type=th_refresh_token'))).toBe(
        true,
      );
      expect((await findConnection(srv.store.db, fb))!.refreshed_at).toBeNull();
    } finally {
      await job.stop();
    }
  });

  it('never refreshes a pasted token', async () => {
    const id = await addConnection(srv.store.db, {
      accountId: ACCOUNT,
      network: 'x',
      authKind: 'token',
      secret: { accessToken: 'pasted' },
      expiresAt: T0 + HOUR,
      now: T0,
    });
    const job = refresher(srv, 'threads', threads, () => T0 + HOUR - 60_000);
    try {
      expect((await job.runOnce()).filter((r) => r.connectionId === id)).toEqual([]);
      // and sealed secrets of other kinds stay as they were
      expect(openConnectionSecret((await findConnection(srv.store.db, id))!.secret, null)).toEqual({
        accessToken: 'pasted',
      });
      expect(sealConnectionSecret({ accessToken: 'x' }, KEY)).toMatch(/^gcm1:/);
    } finally {
      await job.stop();
    }
  });
});
