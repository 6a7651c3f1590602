// The OAuth sign-ins of TikTok, Google (YouTube), Tumblr and Misskey end to
// end against the local fixture (fixtures/oauth-server.ts, each network in
// its documented shapes), on a real server and store (both stores): the
// authorization URL each network expects, the code exchange (or MiAuth's
// check), who signed in as Wallery reads it, the connection stored sealed
// with its refresh token and lifetimes, its audit entry naming the operator
// token that pressed Connect (and no part of a token), and a refused or
// failed sign-in told in words with nothing stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionRefresher } from '../../src/connections/refresh.js';
import { openConnectionSecret } from '../../src/connections/secrets.js';
import { listConnections } from '../../src/store/connections.js';
import type { OAuthAppName } from '../../src/connections/networks.js';
import type { Page } from '../../src/manage/paging.js';
import type { AuditRecord } from '../../src/schemas/audit.js';
import { data, makeToken, type ManageServer } from '../http/manage/helpers.js';
import type { OAuthServer, Profile } from './fixtures/oauth-server.js';
import { oauthServer } from './oauth-setup.js';

const ACCOUNT = 7001;
const KEY = Buffer.alloc(32, 11);
const HOUR = 3_600_000;

/** The server with the fixture as `app`'s endpoints, and a second operator token that starts the sign-ins. */
async function setUp(profile: Profile, app: OAuthAppName | null) {
  const { m, fx } = await oauthServer(profile, app, KEY);
  const editor = await makeToken(m.srv, 'console-editor');
  return { m, fx, editor };
}

/** Starts a sign-in as the `console-editor` token: the network's authorization URL. */
async function start(m: ManageServer, editor: { token: string }, body: Record<string, unknown>): Promise<URL> {
  const started = data<{ authorizationUrl: string }>(
    await m.api('POST', `/accounts/${ACCOUNT}/connect`, body, editor.token),
  );
  return new URL(started.authorizationUrl);
}

/** The browser coming back to the callback: the status and where it is sent (or the page's text). */
async function callback(url: string): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

const connections = (m: ManageServer) => listConnections(m.srv.store.db, ACCOUNT);
const connectionOf = async (m: ManageServer, network: string) =>
  (await connections(m)).filter((r) => r.network === network);

/** The audit log's entries on connections, newest first. */
async function connectionAudit(m: ManageServer) {
  return data<Page<AuditRecord>>(await m.api('GET', '/audit?targetType=connection&limit=100')).data;
}

/** An audit entry holds none of the sign-in's secrets, nor a hint of them. */
function expectNoSecrets(entry: AuditRecord, secrets: (string | undefined)[]) {
  const text = JSON.stringify(entry);
  for (const s of secrets) if (s) expect(text).not.toContain(s);
  expect(text).not.toContain('tokenHint');
  expect(text).not.toContain('secret');
}

/** A refused sign-in: the page says why in words, nothing is stored and nothing audited. */
async function expectRefused(m: ManageServer, url: string, words: string[]) {
  const rows = await connections(m);
  const audit = await connectionAudit(m);
  const res = await callback(url);
  expect(res.status).toBe(400);
  for (const w of words) expect(res.text).toContain(w);
  expect(res.text).toContain('Nothing was stored.');
  expect(res.text).toContain(`#/connections/${ACCOUNT}`);
  expect(await connections(m)).toEqual(rows);
  expect(await connectionAudit(m)).toEqual(audit);
}

describe('connecting TikTok: Login Kit with client_key, comma-separated scopes', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  let editor: { id: number; token: string };
  const jobs: ConnectionRefresher[] = [];
  beforeAll(async () => ({ m, fx, editor } = await setUp('tiktok', 'tiktok')));
  afterAll(async () => {
    await Promise.all(jobs.map((j) => j.stop()));
    await m.close();
    await fx.close();
  });

  it('sends the browser to TikTok with client_key, the scopes joined by commas and no PKCE', async () => {
    const url = await start(m, editor, { network: 'tiktok' });
    expect(url.origin + url.pathname).toBe(`${fx.origin}/v2/auth/authorize/`);
    const q = url.searchParams;
    expect(q.get('client_key')).toBe(fx.clientId);
    expect(q.get('scope')).toBe('user.info.basic,user.info.profile,video.list');
    expect(q.get('response_type')).toBe('code');
    expect(q.get('redirect_uri')).toBe(`${m.srv.baseUrl}/connect/callback`);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.has('code_challenge')).toBe(false);
    // who started it is kept with the state
    const [state] = await m.srv.store.db.selectFrom('oauth_states').select(['token_id', 'token_name']).execute();
    expect(state).toEqual({ token_id: editor.id, token_name: 'console-editor' });
  });

  it('exchanges the code with client_key, stores the tokens sealed with both lifetimes, and audits it as the editor', async () => {
    const url = await start(m, editor, { network: 'tiktok' });
    const back = await fx.decide(url.href, 'allow');
    expect(new URL(back).searchParams.get('scopes')).toBe('user.info.basic,user.info.profile,video.list');
    const res = await callback(back);
    const [row] = await connectionOf(m, 'tiktok');
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${m.srv.baseUrl}/console/#/connections/${ACCOUNT}?connected=${row!.id}`);
    const form = fx.tokenForms.at(-1)!;
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('client_key')).toBe(fx.clientId);
    expect(form.get('redirect_uri')).toBe(`${m.srv.baseUrl}/connect/callback`);
    expect(fx.tokenRequests.at(-1)).toMatchObject({ clientAuth: 'post', codeVerifier: null });
    const now = m.srv.clock.now;
    expect(row).toMatchObject({
      network: 'tiktok',
      auth_kind: 'oauth',
      name: 'TikTok @lakefest',
      // tiktokAccount: the open_id, and the username (user.info.profile) before the display name
      external_account_id: `open-${fx.user.id}`,
      external_account_name: '@lakefest',
      // the grant's comma-separated scopes, stored as every connection's: space-separated
      scopes: 'user.info.basic user.info.profile video.list',
      status: 'active',
      expires_at: now + 24 * HOUR,
      refresh_expires_at: now + 365 * 24 * HOUR,
      refreshed_at: now,
    });
    const secret = openConnectionSecret(row!.secret, KEY);
    expect(fx.accessTokens.has(secret.accessToken!)).toBe(true);
    expect(fx.refreshTokens.has(secret.refreshToken!)).toBe(true);
    expect(row!.secret.startsWith('gcm1:')).toBe(true);
    expect(row!.secret).not.toContain(secret.accessToken!);
    expect(row!.secret).not.toContain(secret.refreshToken!);

    const [entry] = await connectionAudit(m);
    expect(entry).toMatchObject({
      action: 'connection.create',
      tokenName: 'console-editor',
      targetType: 'connection',
      targetId: row!.id,
      accountId: ACCOUNT,
    });
    expect(entry!.summary).toMatchObject({
      before: null,
      via: 'oauth',
      after: {
        id: row!.id,
        network: 'tiktok',
        authKind: 'oauth',
        externalAccountName: '@lakefest',
        scopes: ['user.info.basic', 'user.info.profile', 'video.list'],
        expiresAt: new Date(now + 24 * HOUR).toISOString(),
      },
    });
    expectNoSecrets(entry!, [secret.accessToken, secret.refreshToken, fx.clientSecret]);
    // the operator filter finds it by the token's name
    const byName = data<Page<AuditRecord>>(await m.api('GET', '/audit?tokenName=console-editor')).data;
    expect(byName.map((e) => e.id)).toEqual([entry!.id]);
  });

  it('refreshes the token with client_key before it expires, keeping the rotated refresh token', async () => {
    const [row] = await connectionOf(m, 'tiktok');
    const before = openConnectionSecret(row!.secret, KEY);
    const now = row!.expires_at! - HOUR;
    const job = new ConnectionRefresher({
      db: m.srv.store.db,
      oauth: { apps: { tiktok: { clientId: fx.clientId, clientSecret: fx.clientSecret, baseUrl: fx.origin } } },
      secretKey: KEY,
      allowPrivateNetworks: ['127.0.0.0/8'],
      now: () => now,
      owner: 'tiktok-test',
    });
    jobs.push(job);
    expect(await job.runOnce()).toEqual([{ connectionId: row!.id, status: 'refreshed', message: null }]);
    const form = fx.tokenForms.at(-1)!;
    expect(form.get('grant_type')).toBe('refresh_token');
    expect(form.get('client_key')).toBe(fx.clientId);
    const [after] = await connectionOf(m, 'tiktok');
    const secret = openConnectionSecret(after!.secret, KEY);
    expect(secret.refreshToken).not.toBe(before.refreshToken);
    expect(fx.refreshTokens.has(secret.refreshToken!)).toBe(true);
    expect(after).toMatchObject({
      expires_at: now + 24 * HOUR,
      refresh_expires_at: now + 365 * 24 * HOUR,
      scopes: 'user.info.basic user.info.profile video.list',
    });
  });

  it('reconnects: the tokens replaced, audited as connection.update (reconnected) without token material', async () => {
    const [row] = await connectionOf(m, 'tiktok');
    const old = openConnectionSecret(row!.secret, KEY);
    const url = await start(m, editor, { network: 'tiktok', connectionId: row!.id });
    expect((await callback(await fx.decide(url.href, 'allow'))).status).toBe(303);
    const rows = await connectionOf(m, 'tiktok');
    expect(rows.map((r) => r.id)).toEqual([row!.id]);
    const secret = openConnectionSecret(rows[0]!.secret, KEY);
    expect(secret.accessToken).not.toBe(old.accessToken);
    const [entry] = await connectionAudit(m);
    expect(entry).toMatchObject({
      action: 'connection.update',
      tokenName: 'console-editor',
      targetId: row!.id,
      accountId: ACCOUNT,
    });
    expect(entry!.summary).toMatchObject({ reconnected: true, via: 'oauth' });
    expectNoSecrets(entry!, [old.accessToken, old.refreshToken, secret.accessToken, secret.refreshToken]);
  });

  it("shows TikTok's refusals in words — the user's No, a code TikTok refuses with HTTP 200 — and stores nothing", async () => {
    const denied = await fx.decide((await start(m, editor, { network: 'tiktok' })).href, 'deny');
    await expectRefused(m, denied, [
      'signing in to TikTok was cancelled or not allowed: the person signing in said no',
      'The user denied the request',
    ]);
    const back = new URL(await fx.decide((await start(m, editor, { network: 'tiktok' })).href, 'allow'));
    back.searchParams.set('code', 'code_not-one-tiktok-gave');
    await expectRefused(m, back.href, [
      'TikTok refused the sign-in code (invalid_grant: the code is not valid or was used)',
    ]);
  });
});

describe('connecting YouTube: Google OAuth 2.0 for web servers (PKCE, offline access) and the channel', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  let editor: { id: number; token: string };
  beforeAll(async () => ({ m, fx, editor } = await setUp('google', 'google')));
  afterAll(async () => {
    await m.close();
    await fx.close();
  });

  it('asks for offline access with consent and PKCE S256', async () => {
    const url = await start(m, editor, { network: 'youtube' });
    expect(url.origin + url.pathname).toBe(`${fx.origin}/o/oauth2/v2/auth`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(fx.clientId);
    expect(q.get('scope')).toBe(
      'https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
    );
    expect(q.get('access_type')).toBe('offline');
    expect(q.get('prompt')).toBe('consent');
    expect(q.get('include_granted_scopes')).toBe('true');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('stores the channel that signed in, with the refresh token of an answer without id_token', async () => {
    const url = await start(m, editor, { network: 'youtube', name: 'Festival channel' });
    const back = await fx.decide(url.href, 'allow');
    // Google's callback names its issuer and the scopes granted
    expect(new URL(back).searchParams.get('iss')).toBe(fx.origin);
    expect((await callback(back)).status).toBe(303);
    expect(fx.tokenRequests.at(-1)).toMatchObject({ pkceVerified: true, clientAuth: 'post' });
    const channels = fx.requests.filter((r) => r.url.startsWith('/youtube/v3/channels'));
    expect(channels.map((r) => r.url)).toEqual(['/youtube/v3/channels?part=snippet&mine=true']);
    const [row] = await connectionOf(m, 'youtube');
    const now = m.srv.clock.now;
    expect(row).toMatchObject({
      name: 'Festival channel',
      auth_kind: 'oauth',
      external_account_id: `UC${fx.user.id}`,
      external_account_name: 'Lake Festival',
      scopes: 'https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
      expires_at: now + 3599_000,
      refresh_expires_at: null,
    });
    const secret = openConnectionSecret(row!.secret, KEY);
    expect(fx.accessTokens.has(secret.accessToken!)).toBe(true);
    expect(fx.refreshTokens.has(secret.refreshToken!)).toBe(true);
    const [entry] = await connectionAudit(m);
    expect(entry).toMatchObject({ action: 'connection.create', tokenName: 'console-editor', targetId: row!.id });
    expect(entry!.summary).toMatchObject({ via: 'oauth', after: { network: 'youtube', name: 'Festival channel' } });
    expectNoSecrets(entry!, [secret.accessToken, secret.refreshToken, fx.clientSecret]);
  });

  it('refuses a Google account without a YouTube channel, a denial, and an answer from another issuer', async () => {
    fx.hasChannel = false;
    try {
      const back = await fx.decide((await start(m, editor, { network: 'youtube' })).href, 'allow');
      await expectRefused(m, back, ['this Google account has no YouTube channel']);
    } finally {
      fx.hasChannel = true;
    }
    const denied = await fx.decide((await start(m, editor, { network: 'youtube' })).href, 'deny');
    await expectRefused(m, denied, [
      'signing in to YouTube was cancelled or not allowed: the person signing in said no',
    ]);
    // a code from another authorization server (RFC 9207 mix-up): never sent to Google's token endpoint
    const tokenCalls = fx.tokenRequests.length;
    const mixed = new URL(await fx.decide((await start(m, editor, { network: 'youtube' })).href, 'allow'));
    mixed.searchParams.set('iss', 'https://accounts.example.net');
    await expectRefused(m, mixed.href, ['YouTube sent back no authorization code']);
    expect(fx.tokenRequests.length).toBe(tokenCalls);
  });
});

describe('connecting Tumblr: OAuth 2 with offline_access', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  let editor: { id: number; token: string };
  beforeAll(async () => ({ m, fx, editor } = await setUp('tumblr', 'tumblr')));
  afterAll(async () => {
    await m.close();
    await fx.close();
  });

  it('signs in with the scopes space-separated, reads the user by name, and keeps the refresh token', async () => {
    const url = await start(m, editor, { network: 'tumblr' });
    expect(url.origin + url.pathname).toBe(`${fx.origin}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(fx.clientId);
    expect(url.searchParams.get('scope')).toBe('basic offline_access');
    expect(url.searchParams.has('code_challenge')).toBe(false);
    // Tumblr's token answer carries "id_token": false
    const res = await callback(await fx.decide(url.href, 'allow'));
    expect(res.text).toBe('');
    expect(res.status).toBe(303);
    const [row] = await connectionOf(m, 'tumblr');
    const now = m.srv.clock.now;
    expect(row).toMatchObject({
      name: 'Tumblr lakefest',
      external_account_id: 'lakefest',
      external_account_name: 'lakefest',
      scopes: 'basic offline_access',
      expires_at: now + 2520_000,
    });
    const secret = openConnectionSecret(row!.secret, KEY);
    expect(fx.refreshTokens.has(secret.refreshToken!)).toBe(true);
    const [entry] = await connectionAudit(m);
    expect(entry).toMatchObject({ action: 'connection.create', tokenName: 'console-editor', targetId: row!.id });
    expectNoSecrets(entry!, [secret.accessToken, secret.refreshToken, fx.clientSecret]);
  });

  it('says so when the person signing in says no', async () => {
    const denied = await fx.decide((await start(m, editor, { network: 'tumblr' })).href, 'deny');
    await expectRefused(m, denied, [
      'signing in to Tumblr was cancelled or not allowed',
      'The user denied the request',
    ]);
  });
});

describe('connecting a Misskey server: MiAuth', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  let editor: { id: number; token: string };
  beforeAll(async () => ({ m, fx, editor } = await setUp('misskey', null)));
  afterAll(async () => {
    await m.close();
    await fx.close();
  });

  it('sends the browser to the MiAuth page of a session, with name, callback and permission', async () => {
    const url = await start(m, editor, { network: 'misskey', instance: fx.origin });
    expect(url.origin).toBe(fx.origin);
    expect(url.pathname).toMatch(/^\/miauth\/[A-Za-z0-9_-]{43}$/);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      name: 'Wallery',
      callback: `${m.srv.baseUrl}/connect/callback`,
      permission: 'read:account',
    });
    // no app to register: MiAuth needs none
    expect(fx.requests).toEqual([]);
  });

  it('checks the approved session, stores its token (no expiry, no refresh) and audits it', async () => {
    const url = await start(m, editor, { network: 'misskey', instance: fx.origin });
    const session = url.pathname.slice('/miauth/'.length);
    const back = await fx.decide(url.href, 'allow');
    expect(back).toBe(`${m.srv.baseUrl}/connect/callback?session=${session}`);
    expect((await callback(back)).status).toBe(303);
    expect(fx.requests.filter((r) => r.method === 'POST')).toEqual([
      { method: 'POST', url: `/api/miauth/${session}/check` },
    ]);
    const [row] = await connectionOf(m, 'misskey');
    const host = new URL(fx.origin).host;
    expect(row).toMatchObject({
      name: `Misskey @lakefest@${host}`,
      instance: fx.origin,
      external_account_id: `9${fx.user.id}`,
      external_account_name: `@lakefest@${host}`,
      scopes: 'read:account',
      expires_at: null,
      refresh_expires_at: null,
    });
    const secret = openConnectionSecret(row!.secret, KEY);
    expect(fx.accessTokens.has(secret.accessToken!)).toBe(true);
    expect(secret.refreshToken).toBeUndefined();
    const [entry] = await connectionAudit(m);
    expect(entry).toMatchObject({ action: 'connection.create', tokenName: 'console-editor', targetId: row!.id });
    expect(entry!.summary).toMatchObject({ via: 'oauth', after: { network: 'misskey', instance: fx.origin } });
    expectNoSecrets(entry!, [secret.accessToken]);
  });

  it('refuses a session the person did not approve, in words', async () => {
    const back = await fx.decide((await start(m, editor, { network: 'misskey', instance: fx.origin })).href, 'deny');
    await expectRefused(m, back, [
      `${new URL(fx.origin).host} did not grant access: approve Wallery there and try again`,
    ]);
  });
});
