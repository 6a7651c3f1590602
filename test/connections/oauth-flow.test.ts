// The OAuth connect flow end to end against the local authorization server
// (fixtures/oauth-server.ts), on a real server and store (both stores): the
// start route's authorization URL, the callback (state hashed server-side,
// one use, 10 minutes; PKCE verifier checked by the fixture), who signed in,
// Meta's and Threads' long-lived exchanges, a Pixelfed server's app
// registration — and every refusal storing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConnectionSecret } from '../../src/connections/secrets.js';
import { listConnections } from '../../src/store/connections.js';
import type { OAuthAppName } from '../../src/connections/networks.js';
import { data, type ManageServer } from '../http/manage/helpers.js';
import type { OAuthServer, Profile } from './fixtures/oauth-server.js';
import { oauthServer } from './oauth-setup.js';

const ACCOUNT = 7001;
const KEY = Buffer.alloc(32, 7);

interface Started {
  authorizationUrl: string;
  expiresAt: string;
}

/** The server with the fixture configured as `app`'s endpoints (OAUTH_<APP>_BASE_URL). */
const setUp = (profile: Profile, app: OAuthAppName | null) => oauthServer(profile, app, KEY);

const start = async (m: ManageServer, body: Record<string, unknown>) =>
  data<Started>(await m.api('POST', `/accounts/${ACCOUNT}/connect`, body));

/** The browser coming back to the callback: the status and where it is sent (or the page's text). */
async function callback(url: string): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

const connections = (m: ManageServer) => listConnections(m.srv.store.db, ACCOUNT);

describe('connecting X: authorization code with PKCE (S256), Basic client authentication', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  beforeAll(async () => ({ m, fx } = await setUp('x', 'x')));
  afterAll(async () => {
    await m.close();
    await fx.close();
  });

  it('sends the browser to the network with state, PKCE, the scopes and the redirect URI on this instance', async () => {
    const { authorizationUrl, expiresAt } = await start(m, { network: 'x' });
    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${fx.origin}/i/oauth2/authorize`);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(fx.clientId);
    expect(q.get('redirect_uri')).toBe(`${m.srv.baseUrl}/connect/callback`);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('tweet.read tweet.write users.read offline.access');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expiresAt) - m.srv.clock.now).toBe(10 * 60_000);
    // the state is kept hashed, never as sent
    const kept = await m.srv.store.db.selectFrom('oauth_states').selectAll().execute();
    expect(kept.some((r) => r.state_hash.includes(q.get('state')!))).toBe(false);
    expect(JSON.stringify(kept)).not.toContain(q.get('state')!);
  });

  it('stores the connection sealed once the network approves, and sends the browser to the Connections screen', async () => {
    const before = fx.tokenRequests.length;
    const { authorizationUrl } = await start(m, { network: 'x' });
    const back = await fx.decide(authorizationUrl, 'allow');
    expect(back.startsWith(`${m.srv.baseUrl}/connect/callback?code=`)).toBe(true);
    const res = await callback(back);
    const rows = await connections(m);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${m.srv.baseUrl}/console/#/connections/${ACCOUNT}?connected=${row.id}`);
    // the token request carried the verifier of the challenge, with Basic authentication
    const tokenRequest = fx.tokenRequests[before]!;
    expect(tokenRequest).toMatchObject({ grantType: 'authorization_code', pkceVerified: true, clientAuth: 'basic' });
    expect(tokenRequest.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(row).toMatchObject({
      network: 'x',
      auth_kind: 'oauth',
      name: 'X @lakefest',
      external_account_id: fx.user.id,
      external_account_name: '@lakefest',
      status: 'active',
      scopes: 'tweet.read tweet.write users.read offline.access',
      expires_at: m.srv.clock.now + 7200_000,
      instance: null,
    });
    const secret = openConnectionSecret(row.secret, KEY);
    expect(fx.accessTokens.has(secret.accessToken!)).toBe(true);
    expect(fx.refreshTokens.has(secret.refreshToken!)).toBe(true);
    // sealed: neither token is readable in the row
    expect(row.secret).not.toContain(secret.accessToken!);
    expect(row.secret).not.toContain(secret.refreshToken!);
    expect(row.secret.startsWith('gcm1:')).toBe(true);

    // the same callback again: the state was spent, nothing more is stored
    const again = await callback(back);
    expect(again.status).toBe(400);
    expect(again.text).toContain('it was used already');
    expect(await connections(m)).toHaveLength(1);
  });

  it('refuses a forged state with a page in words and stores nothing', async () => {
    const { authorizationUrl } = await start(m, { network: 'x' });
    const back = new URL(await fx.decide(authorizationUrl, 'allow'));
    const states = await m.srv.store.db.selectFrom('oauth_states').select('id').execute();
    back.searchParams.set('state', 'forged-state-forged-state-forged-state-0001');
    const res = await callback(back.href);
    expect(res.status).toBe(400);
    expect(res.text).toContain('not one this Wallery started');
    expect(res.text).not.toContain('forged-state');
    expect(await connections(m)).toHaveLength(1);
    // the genuine sign-in is still waiting (a forged state spends nothing)
    expect(await m.srv.store.db.selectFrom('oauth_states').select('id').execute()).toEqual(states);
    // no state at all
    expect((await callback(`${m.srv.baseUrl}/connect/callback?code=abc`)).status).toBe(400);
  });

  it('refuses a sign-in that took longer than 10 minutes', async () => {
    const { authorizationUrl } = await start(m, { network: 'x' });
    const back = await fx.decide(authorizationUrl, 'allow');
    const tokenCalls = fx.tokenRequests.length;
    m.srv.clock.now += 10 * 60_000 + 1;
    try {
      const res = await callback(back);
      expect(res.status).toBe(400);
      expect(res.text).toContain('took longer than 10 minutes and expired');
      expect(res.text).toContain(`#/connections/${ACCOUNT}`);
    } finally {
      m.srv.clock.now -= 10 * 60_000 + 1;
    }
    expect(fx.tokenRequests.length).toBe(tokenCalls);
    expect(await connections(m)).toHaveLength(1);
  });

  it("shows the network's access_denied in words, and stores nothing", async () => {
    const { authorizationUrl } = await start(m, { network: 'x' });
    const res = await callback(await fx.decide(authorizationUrl, 'deny'));
    expect(res.status).toBe(400);
    expect(res.text).toContain('signing in to X was cancelled or not allowed: the person signing in said no');
    expect(res.text).toContain('The user denied the request');
    expect(await connections(m)).toHaveLength(1);
  });

  it('reconnects a connection: its tokens replaced, no second connection', async () => {
    const [row] = await connections(m);
    const old = openConnectionSecret(row!.secret, KEY);
    const { authorizationUrl } = await start(m, { network: 'x', connectionId: row!.id });
    const res = await callback(await fx.decide(authorizationUrl, 'allow'));
    expect(res.status).toBe(303);
    const rows = await connections(m);
    expect(rows.map((r) => r.id)).toEqual([row!.id]);
    expect(openConnectionSecret(rows[0]!.secret, KEY).accessToken).not.toBe(old.accessToken);
  });

  it('refuses to start for a network without OAuth, an unconfigured app, another account’s connection', async () => {
    const flickr = await m.api('POST', `/accounts/${ACCOUNT}/connect`, { network: 'flickr' });
    expect(flickr.status).toBe(400);
    expect(flickr.json().fieldErrors).toEqual([
      { field: 'network', message: 'flickr does not sign in with OAuth: paste its token or key instead' },
    ]);
    const tiktok = await m.api('POST', `/accounts/${ACCOUNT}/connect`, { network: 'tiktok' });
    expect(tiktok.status).toBe(400);
    expect(tiktok.text).toContain('OAUTH_TIKTOK_CLIENT_ID');
    const bad = await m.api('POST', `/accounts/${ACCOUNT}/connect`, { network: 'X!', extra: 1 });
    expect(bad.status).toBe(400);
    const [row] = await connections(m);
    const other = await m.api('POST', `/accounts/7002/connect`, { network: 'x', connectionId: row!.id });
    expect(other.status).toBe(404);
  });

  it('tells the console which networks have a Connect button and which ask for a token or key', async () => {
    const offers = data<{ network: string; oauth: string | null; oauthSettings: string | null; pasted: unknown[] }[]>(
      await m.api('GET', `/accounts/${ACCOUNT}/connect/networks`),
    );
    const by = Object.fromEntries(offers.map((o) => [o.network, o]));
    expect(by.x).toMatchObject({ oauth: 'app', oauthSettings: null });
    expect(by.x!.pasted).toEqual([expect.objectContaining({ kind: 'token', title: 'Bearer token' })]);
    expect(by.instagram).toMatchObject({ oauth: null });
    expect(by.instagram!.oauthSettings).toContain('OAUTH_META_CLIENT_ID');
    expect(by.pixelfed).toMatchObject({ oauth: 'instance', needsInstance: true });
    expect(by.flickr).toMatchObject({ oauth: null, oauthSettings: null });
    expect((await m.api('GET', `/accounts/999999/connect/networks`)).status).toBe(404);
  });
});

describe('connecting Instagram and Facebook: Facebook Login and the long-lived token exchange', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  beforeAll(async () => ({ m, fx } = await setUp('meta', 'meta')));
  afterAll(async () => {
    await m.close();
    await fx.close();
  });

  it('exchanges the short-lived token for a 60-day one and finds the Instagram business account', async () => {
    const { authorizationUrl } = await start(m, { network: 'instagram', name: 'Festival Instagram' });
    const q = new URL(authorizationUrl).searchParams;
    expect(new URL(authorizationUrl).pathname).toBe('/v25.0/dialog/oauth');
    expect(q.get('scope')).toBe(
      'instagram_basic,instagram_manage_comments,pages_show_list,pages_read_engagement,business_management',
    );
    expect(q.has('code_challenge')).toBe(false);
    const res = await callback(await fx.decide(authorizationUrl, 'allow'));
    expect(res.status).toBe(303);
    const [row] = await connections(m);
    expect(row).toMatchObject({
      network: 'instagram',
      name: 'Festival Instagram',
      external_account_id: `178414${fx.user.id}`,
      external_account_name: '@lakefest',
      expires_at: m.srv.clock.now + 5183944_000,
    });
    expect(fx.tokenRequests[0]).toMatchObject({ grantType: 'authorization_code', clientAuth: 'post' });
    // the stored token is the long-lived one
    expect(fx.longLived.has(openConnectionSecret(row!.secret, KEY).accessToken!)).toBe(true);
    expect(fx.requests.some((r) => r.method === 'GET' && r.url.includes('grant_type=fb_exchange_token'))).toBe(true);
  });

  it('connects a Facebook user the same way', async () => {
    const { authorizationUrl } = await start(m, { network: 'facebook' });
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe(
      'pages_show_list,pages_read_engagement,pages_read_user_content',
    );
    expect((await callback(await fx.decide(authorizationUrl, 'allow'))).status).toBe(303);
    const row = (await connections(m)).find((r) => r.network === 'facebook');
    expect(row).toMatchObject({ external_account_id: fx.user.id, external_account_name: 'Lake Festival' });
  });
});

describe('connecting Threads: no token_type in the code exchange, th_exchange_token', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  beforeAll(async () => ({ m, fx } = await setUp('threads', 'threads')));
  afterAll(async () => {
    await m.close();
    await fx.close();
  });

  it('stores the long-lived token and who signed in', async () => {
    const { authorizationUrl } = await start(m, { network: 'threads' });
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe(
      'threads_basic,threads_keyword_search,threads_content_publish,threads_manage_replies,threads_read_replies',
    );
    const res = await callback(await fx.decide(authorizationUrl, 'allow'));
    expect(res.status).toBe(303);
    const [row] = await connections(m);
    expect(row).toMatchObject({ network: 'threads', external_account_name: '@lakefest' });
    expect(row!.expires_at).toBe(m.srv.clock.now + 5183944_000);
    expect(fx.longLived.has(openConnectionSecret(row!.secret, KEY).accessToken!)).toBe(true);
  });
});

describe('connecting a Pixelfed server: the app registered on the instance at sign-in', () => {
  let m: ManageServer;
  let fx: OAuthServer;
  beforeAll(async () => ({ m, fx } = await setUp('pixelfed', null)));
  afterAll(async () => {
    await m.close();
    await fx.close();
  });

  it('registers Wallery on the server, signs in with PKCE and stores the instance', async () => {
    const { authorizationUrl } = await start(m, { network: 'pixelfed', instance: fx.origin });
    expect(fx.requests.filter((r) => r.url === '/api/v1/apps')).toHaveLength(1);
    const url = new URL(authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${fx.origin}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(fx.clientId);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const res = await callback(await fx.decide(authorizationUrl, 'allow'));
    expect(res.status).toBe(303);
    const [row] = await connections(m);
    const host = new URL(fx.origin).host;
    expect(row).toMatchObject({
      network: 'pixelfed',
      instance: fx.origin,
      external_account_name: `@lakefest@${host}`,
      expires_at: m.srv.clock.now + 7200_000,
    });
    expect(fx.tokenRequests.at(-1)).toMatchObject({ pkceVerified: true, clientAuth: 'post' });
    // the app's client is kept (sealed) for the refresh
    const secret = openConnectionSecret(row!.secret, KEY);
    expect(secret).toMatchObject({ clientId: fx.clientId, clientSecret: fx.clientSecret });
  });

  it('refuses a server address that is not one, or a server that cannot be reached', async () => {
    const bad = await m.api('POST', `/accounts/${ACCOUNT}/connect`, { network: 'pixelfed', instance: 'not a url' });
    expect(bad.status).toBe(400);
    expect(bad.json().fieldErrors).toEqual([expect.objectContaining({ field: 'instance' })]);
    const missing = await m.api('POST', `/accounts/${ACCOUNT}/connect`, { network: 'pixelfed' });
    expect(missing.status).toBe(400);
    const closed = await m.api('POST', `/accounts/${ACCOUNT}/connect`, {
      network: 'pixelfed',
      instance: 'http://127.0.0.1:9',
    });
    expect(closed.status).toBe(400);
    expect(closed.text).toContain('127.0.0.1:9 could not be reached');
  });
});
