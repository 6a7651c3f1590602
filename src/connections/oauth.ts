// The client side of OAuth 2.0 for the networks of networks.ts, spoken with
// oauth4webapi: the authorization URL (state, PKCE S256), the code exchange,
// who signed in, the long-lived exchange (Meta, Threads), the refresh, and a
// federated server's app registration (Pixelfed: the Mastodon API) or MiAuth
// (Misskey). Every request goes through the SSRF guard (src/net/fetcher.ts):
// a federated server's address is an editor's input.
//
// Nothing secret leaves here in a message: errors say which network and
// what it answered (its `error` code and description), never a token, a
// secret or a URL that carries one.
import * as oauth from 'oauth4webapi';
import type { OAuthAppConfig, OAuthConfig } from '../config.js';
import type { Fetcher } from '../net/fetcher.js';
import { FetchError } from '../net/errors.js';
import {
  mastodonAccount,
  miauthResult,
  networkAuth,
  type AppOAuth,
  type LongLivedExchange,
  type NetworkAccount,
  type RefreshMethod,
} from './networks.js';

/** Why a step of the flow failed: the network refused (`refused`), could not be reached, or answered nonsense. */
export class OAuthFlowError extends Error {
  override name = 'OAuthFlowError';
  constructor(
    readonly kind: 'refused' | 'unavailable' | 'invalid' | 'not_configured',
    message: string,
  ) {
    super(message);
  }
}

/** What a token endpoint gave, with its lifetimes as instants. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** epoch ms; null: the network gave no expiry (it does not expire, or does not say) */
  expiresAt: number | null;
  refreshExpiresAt: number | null;
  /** as granted (space-separated), when the network says */
  scope: string | null;
}

/** Everything a step of the flow needs about one network signed in to from this instance. */
export interface SignInTarget {
  network: string;
  title: string;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  clientSecret: string;
  clientAuth: 'basic' | 'post';
  scopes: readonly string[];
  scopeSeparator: ' ' | ',';
  pkce: boolean;
  clientIdParam?: 'client_key';
  authorizationParams?: Readonly<Record<string, string>>;
  tokenTypeMissing?: boolean;
  longLived?: LongLivedExchange;
  refresh?: RefreshMethod;
  accountUrl: string;
  exchangeUrl?: string;
  refreshUrl?: string;
  parseAccount(json: unknown): NetworkAccount | null;
  noAccount: string;
}

/** `url` on `base` (an origin, maybe with a path): same path and query. */
function rebase(url: string, base: string | null): string {
  if (!base) return url;
  const u = new URL(url);
  return `${base}${u.pathname}${u.search}`;
}

/** The network's sign-in through the operator's app, or null when the app is not configured. */
export function appTarget(network: string, config: OAuthConfig): SignInTarget | null {
  const spec = networkAuth(network)?.oauth;
  const app = spec ? config.apps[spec.app] : undefined;
  if (!spec || !app) return null;
  return targetOf(network, networkAuth(network)!.title, spec, app);
}

function targetOf(network: string, title: string, spec: AppOAuth, app: OAuthAppConfig): SignInTarget {
  const at = (url: string) => rebase(url, app.baseUrl);
  const e = spec.endpoints;
  const authorization = at(e.authorization);
  return {
    network,
    title,
    as: { issuer: new URL(authorization).origin, authorization_endpoint: authorization, token_endpoint: at(e.token) },
    client: { client_id: app.clientId },
    clientSecret: app.clientSecret,
    clientAuth: spec.clientAuth,
    scopes: spec.scopes,
    scopeSeparator: spec.scopeSeparator,
    pkce: spec.pkce,
    ...(spec.clientIdParam ? { clientIdParam: spec.clientIdParam } : {}),
    ...(spec.authorizationParams ? { authorizationParams: spec.authorizationParams } : {}),
    ...(spec.tokenTypeMissing ? { tokenTypeMissing: true } : {}),
    ...(spec.longLived ? { longLived: spec.longLived } : {}),
    ...(spec.refresh ? { refresh: spec.refresh } : {}),
    accountUrl: at(e.account),
    ...(e.exchange ? { exchangeUrl: at(e.exchange) } : {}),
    ...(e.refresh ? { refreshUrl: at(e.refresh) } : {}),
    parseAccount: spec.parseAccount,
    noAccount: spec.noAccount,
  };
}

/** A Mastodon-compatible server's sign-in (Pixelfed), with the app registered there. */
export function instanceTarget(
  network: string,
  instance: string,
  app: { clientId: string; clientSecret: string },
): SignInTarget {
  const n = networkAuth(network)!;
  const host = new URL(instance).host;
  return {
    network,
    title: n.title,
    as: {
      issuer: instance,
      authorization_endpoint: `${instance}/oauth/authorize`,
      token_endpoint: `${instance}/oauth/token`,
    },
    client: { client_id: app.clientId },
    clientSecret: app.clientSecret,
    clientAuth: 'post',
    scopes: n.instanceOAuth?.scopes ?? ['read'],
    scopeSeparator: ' ',
    pkce: true,
    ...(n.instanceOAuth?.refresh ? { refresh: n.instanceOAuth.refresh } : {}),
    accountUrl: `${instance}/api/v1/accounts/verify_credentials`,
    parseAccount: (json) => mastodonAccount(json, host),
    noAccount: `${host} did not say who signed in`,
  };
}

// ---------- transport ----------

/** The guarded fetcher as oauth4webapi's fetch, with the networks' token answers made standard (tokenAnswer). */
function fetchVia(fetcher: Fetcher, target: SignInTarget, signal?: AbortSignal) {
  return async (url: string, options: oauth.CustomFetchOptions<string, URLSearchParams | undefined>) => {
    const res = await send(fetcher, target, {
      url,
      method: options.method === 'GET' ? 'GET' : 'POST',
      headers: options.headers,
      ...(options.body !== undefined ? { body: options.body.toString() } : {}),
      ...(signal ? { signal } : {}),
    });
    const answer =
      url === target.as.token_endpoint && res.status === 200 ? tokenAnswer(target, parseJson(res.bytes)) : null;
    return answer
      ? new Response(JSON.stringify(answer.json), { status: answer.status, headers: res.headers })
      : new Response(res.bytes, { status: res.status, headers: res.headers });
  };
}

/**
 * A token endpoint's 200 answer as RFC 6749 has it, or null when it is so
 * already: Threads sends no `token_type` (it is a bearer token); Tumblr
 * sends `"id_token": false`, which oauth4webapi would refuse as a malformed
 * ID token — and Wallery reads who signed in from the network's account
 * URL, never from an ID token (no network is asked for `openid`), so an
 * `id_token` is dropped; TikTok answers a refused code with HTTP 200 and an
 * `error`: it is the 400 it means, so the network's words reach the page.
 */
function tokenAnswer(target: SignInTarget, json: unknown): { status: number; json: Record<string, unknown> } | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const body = { ...(json as Record<string, unknown>) };
  if (typeof body.error === 'string' && body.access_token === undefined) return { status: 400, json: body };
  let changed = false;
  if ('id_token' in body) {
    delete body.id_token;
    changed = true;
  }
  if (target.tokenTypeMissing && !('token_type' in body)) {
    body.token_type = 'bearer';
    changed = true;
  }
  return changed ? { status: 200, json: body } : null;
}

/** One request through the guard; a failure to reach the network in words naming it only. */
async function send(fetcher: Fetcher, target: { title: string }, req: Parameters<Fetcher['fetch']>[0]) {
  try {
    return await fetcher.fetch(req);
  } catch (err) {
    const why = err instanceof FetchError ? err.kind : 'network';
    throw new OAuthFlowError('unavailable', `${target.title} could not be reached (${why})`);
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

function options(fetcher: Fetcher, target: SignInTarget, signal?: AbortSignal) {
  return {
    [oauth.customFetch]: fetchVia(fetcher, target, signal),
    // http:// only for a test or self-hosted server named by OAUTH_<APP>_BASE_URL or an editor
    [oauth.allowInsecureRequests]: new URL(target.as.token_endpoint!).protocol === 'http:',
  };
}

function clientAuth(target: SignInTarget): oauth.ClientAuth {
  return target.clientAuth === 'basic'
    ? oauth.ClientSecretBasic(target.clientSecret)
    : oauth.ClientSecretPost(target.clientSecret);
}

/** TikTok's client_key beside the standard client_id. */
const extraClientParams = (target: SignInTarget): Record<string, string> =>
  target.clientIdParam ? { [target.clientIdParam]: target.client.client_id } : {};

/** An error of oauth4webapi (or ours) as an OAuthFlowError: the network's own error code and words. */
function flowError(target: SignInTarget, step: string, err: unknown): OAuthFlowError {
  if (err instanceof OAuthFlowError) return err;
  if (err instanceof oauth.ResponseBodyError) {
    const text = err.error_description ? `: ${err.error_description}` : '';
    return new OAuthFlowError(
      err.status >= 500 ? 'unavailable' : 'refused',
      `${target.title} refused ${step} (${err.error}${text})`.slice(0, 500),
    );
  }
  if (err instanceof oauth.OperationProcessingError || err instanceof oauth.UnsupportedOperationError) {
    return new OAuthFlowError('invalid', `${target.title} answered ${step} in a form Wallery does not understand`);
  }
  return new OAuthFlowError('invalid', `${step} with ${target.title} failed`);
}

/** The scopes granted, space-separated as stored: TikTok lists them with commas ("user.info.basic,video.list"). */
const scopeList = (granted: string): string =>
  granted
    .split(/[\s,]+/)
    .filter((s) => s !== '')
    .join(' ');

function tokenSetOf(res: oauth.TokenEndpointResponse, now: number, previousRefresh?: string): TokenSet {
  const refresh = typeof res.refresh_token === 'string' ? res.refresh_token : previousRefresh;
  const refreshIn = typeof res.refresh_expires_in === 'number' ? res.refresh_expires_in : null;
  return {
    accessToken: res.access_token,
    ...(refresh ? { refreshToken: refresh } : {}),
    expiresAt: typeof res.expires_in === 'number' && res.expires_in > 0 ? now + res.expires_in * 1000 : null,
    refreshExpiresAt: refreshIn !== null && refreshIn > 0 ? now + refreshIn * 1000 : null,
    scope: typeof res.scope === 'string' ? scopeList(res.scope) : null,
  };
}

// ---------- the steps ----------

/** A fresh PKCE verifier and state (oauth4webapi's generators: 32 random bytes each). */
export const newVerifier = (): string => oauth.generateRandomCodeVerifier();
export const newState = (): string => oauth.generateRandomState();

/** Where the operator's browser is sent to sign in. */
export async function authorizationUrl(
  target: SignInTarget,
  p: { state: string; redirectUri: string; codeVerifier: string },
): Promise<string> {
  const url = new URL(target.as.authorization_endpoint!);
  url.searchParams.set('client_id', target.client.client_id);
  for (const [k, v] of Object.entries(extraClientParams(target))) url.searchParams.set(k, v);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', target.scopes.join(target.scopeSeparator));
  url.searchParams.set('state', p.state);
  if (target.pkce) {
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(p.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  for (const [k, v] of Object.entries(target.authorizationParams ?? {})) url.searchParams.set(k, v);
  return url.href;
}

/**
 * The authorization response's code, or the network's refusal in words
 * (`error=access_denied` → "… was not allowed: the person signing in said no").
 * The state was checked by the caller (hashed, server-side), hence skipStateCheck.
 */
export function codeOf(target: SignInTarget, params: URLSearchParams): URLSearchParams {
  try {
    return oauth.validateAuthResponse(target.as, target.client, params, oauth.skipStateCheck);
  } catch (err) {
    if (err instanceof oauth.AuthorizationResponseError) {
      const said = err.error_description ? ` (${err.error_description})` : '';
      const words =
        err.error === 'access_denied'
          ? `signing in to ${target.title} was cancelled or not allowed: the person signing in said no${said}`
          : `${target.title} did not sign in: ${err.error}${said}`;
      throw new OAuthFlowError('refused', words.slice(0, 500));
    }
    throw new OAuthFlowError('invalid', `${target.title} sent back no authorization code`);
  }
}

/** The code exchanged for tokens (with the PKCE verifier when the network takes PKCE). */
export async function exchangeCode(
  fetcher: Fetcher,
  target: SignInTarget,
  p: { params: URLSearchParams; redirectUri: string; codeVerifier: string; now: number },
): Promise<TokenSet> {
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      target.as,
      target.client,
      clientAuth(target),
      p.params,
      p.redirectUri,
      target.pkce ? p.codeVerifier : oauth.nopkce,
      { ...options(fetcher, target), additionalParameters: extraClientParams(target) },
    );
    const res = await oauth.processAuthorizationCodeResponse(target.as, target.client, response);
    return tokenSetOf(res, p.now);
  } catch (err) {
    throw flowError(target, 'the sign-in code', err);
  }
}

/** A GET of a Meta-style token URL (query parameters), its JSON answer as a token set. */
async function getToken(
  fetcher: Fetcher,
  target: SignInTarget,
  url: string,
  query: Record<string, string>,
  step: string,
  now: number,
  previousRefresh?: string,
): Promise<TokenSet> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  const res = await send(fetcher, target, { url: u.href, headers: { accept: 'application/json' } });
  const json = parseJson(res.bytes) as Record<string, unknown> | null;
  if (res.status >= 500) throw new OAuthFlowError('unavailable', `${target.title} failed ${step} (HTTP ${res.status})`);
  if (res.status !== 200 || !json || typeof json.access_token !== 'string' || json.access_token === '') {
    const error = json && typeof json.error === 'object' && json.error !== null ? json.error : json;
    const message = error && typeof (error as Record<string, unknown>).message === 'string';
    const said = message ? `: ${String((error as Record<string, unknown>).message).slice(0, 300)}` : '';
    throw new OAuthFlowError('refused', `${target.title} refused ${step} (HTTP ${res.status}${said})`);
  }
  return tokenSetOf(
    {
      access_token: json.access_token,
      token_type: 'bearer',
      ...(typeof json.expires_in === 'number' ? { expires_in: json.expires_in } : {}),
    },
    now,
    previousRefresh,
  );
}

/** The short-lived token of a sign-in made long-lived where the network has that (Meta: ~60 days; Threads: 60 days). */
export async function makeLongLived(
  fetcher: Fetcher,
  target: SignInTarget,
  tokens: TokenSet,
  now: number,
): Promise<TokenSet> {
  if (target.longLived === 'fb_exchange_token') {
    return getToken(
      fetcher,
      target,
      target.as.token_endpoint!,
      {
        grant_type: 'fb_exchange_token',
        client_id: target.client.client_id,
        client_secret: target.clientSecret,
        fb_exchange_token: tokens.accessToken,
      },
      'the long-lived token exchange',
      now,
    );
  }
  if (target.longLived === 'th_exchange_token') {
    return getToken(
      fetcher,
      target,
      target.exchangeUrl!,
      { grant_type: 'th_exchange_token', client_secret: target.clientSecret, access_token: tokens.accessToken },
      'the long-lived token exchange',
      now,
    );
  }
  return tokens;
}

/** Fresh tokens for a connection, by the network's refresh method. */
export async function refreshTokens(
  fetcher: Fetcher,
  target: SignInTarget,
  secret: { accessToken?: string; refreshToken?: string },
  now: number,
): Promise<TokenSet> {
  if (target.refresh === 'th_refresh_token') {
    if (!secret.accessToken) throw new OAuthFlowError('refused', `the ${target.title} connection has no token`);
    return getToken(
      fetcher,
      target,
      target.refreshUrl!,
      { grant_type: 'th_refresh_token', access_token: secret.accessToken },
      'the token refresh',
      now,
    );
  }
  if (target.refresh !== 'refresh_token' || !secret.refreshToken)
    throw new OAuthFlowError('refused', `${target.title} gave no refresh token: connect again`);
  try {
    const response = await oauth.refreshTokenGrantRequest(
      target.as,
      target.client,
      clientAuth(target),
      secret.refreshToken,
      { ...options(fetcher, target), additionalParameters: extraClientParams(target) },
    );
    const res = await oauth.processRefreshTokenResponse(target.as, target.client, response);
    return tokenSetOf(res, now, secret.refreshToken);
  } catch (err) {
    throw flowError(target, 'the token refresh', err);
  }
}

/** Who signed in, read with the new access token. */
export async function fetchAccount(
  fetcher: Fetcher,
  target: SignInTarget,
  accessToken: string,
): Promise<NetworkAccount> {
  const res = await send(fetcher, target, {
    url: target.accountUrl,
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  });
  if (res.status >= 500) throw new OAuthFlowError('unavailable', `${target.title} failed to say who signed in`);
  if (res.status !== 200)
    throw new OAuthFlowError('refused', `${target.title} refused to say who signed in (HTTP ${res.status})`);
  const account = target.parseAccount(parseJson(res.bytes));
  if (!account) throw new OAuthFlowError('invalid', target.noAccount);
  return account;
}

// ---------- federated servers ----------

/** Registers Wallery as an app on a Mastodon-compatible server (POST /api/v1/apps). */
export async function registerInstanceApp(
  fetcher: Fetcher,
  p: { network: string; instance: string; redirectUri: string; website: string },
): Promise<{ clientId: string; clientSecret: string }> {
  const n = networkAuth(p.network)!;
  const host = new URL(p.instance).host;
  const res = await send(
    fetcher,
    { title: host },
    {
      url: `${p.instance}/api/v1/apps`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_name: 'Wallery',
        redirect_uris: p.redirectUri,
        scopes: (n.instanceOAuth?.scopes ?? ['read']).join(' '),
        website: p.website,
      }),
    },
  );
  const json = parseJson(res.bytes) as Record<string, unknown> | null;
  if (res.status !== 200 || typeof json?.client_id !== 'string' || typeof json.client_secret !== 'string')
    throw new OAuthFlowError(
      res.status >= 500 ? 'unavailable' : 'refused',
      `${host} did not register Wallery as an app (HTTP ${res.status}): is it a ${n.title} server?`,
    );
  return { clientId: json.client_id, clientSecret: json.client_secret };
}

/** Misskey's MiAuth page for a session (the session id plays the state's part). */
export function miauthUrl(p: { network: string; instance: string; session: string; callback: string }): string {
  const n = networkAuth(p.network)!;
  const url = new URL(`${p.instance}/miauth/${encodeURIComponent(p.session)}`);
  url.searchParams.set('name', 'Wallery');
  url.searchParams.set('callback', p.callback);
  url.searchParams.set('permission', (n.instanceOAuth?.scopes ?? []).join(','));
  return url.href;
}

/** The token and account of an approved MiAuth session (POST /api/miauth/{session}/check). */
export async function miauthCheck(
  fetcher: Fetcher,
  p: { instance: string; session: string },
): Promise<{ token: string; account: NetworkAccount }> {
  const host = new URL(p.instance).host;
  const res = await send(
    fetcher,
    { title: host },
    {
      url: `${p.instance}/api/miauth/${encodeURIComponent(p.session)}/check`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    },
  );
  const result = res.status === 200 ? miauthResult(parseJson(res.bytes), host) : null;
  if (!result) throw new OAuthFlowError('refused', `${host} did not grant access: approve Wallery there and try again`);
  return result;
}
