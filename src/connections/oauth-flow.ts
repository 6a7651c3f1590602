// The OAuth connect flow, as a service the management API's start route and
// the public callback route call:
//
//   start:    a random `state` (and PKCE verifier) is made; its SHA-256, the
//             account, network, redirect URI and the sealed verifier are kept
//             in `oauth_states` for 10 minutes (every instance sees them);
//             the answer is the network's authorization URL.
//   callback: GET <PUBLIC_URL>/connect/callback?code&state — the row of the
//             state's hash is taken (deleted: one use), compared in constant
//             time, checked for expiry; the code is exchanged with the
//             verifier, made long-lived where the network has that, who
//             signed in is read, and the connection is stored sealed (a new
//             one, or the tokens of the one being reconnected replaced),
//             audited as the operator token that started the sign-in (kept
//             with the state: the browser comes back without it).
//
// A forged, expired or reused state stores nothing; an authorization
// server's `error` (access_denied) comes back in words.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OAuthConfig, PrivateNetworks } from '../config.js';
import { conflict, invalid, invalidField, ManageError, type FieldError } from '../domain/errors.js';
import { NO_SECRET_KEY } from './secret-key.js';
import type { Fetcher } from '../net/fetcher.js';
import { findConnection } from '../store/connections.js';
import { insertOAuthState, pruneOAuthStates, takeOAuthState } from '../store/oauth.js';
import type { Database } from '../store/schema.js';
import { openSecret, sealSecret } from '../domain/secret-box.js';
import { sealConnectionSecret, type ConnectionSecret } from './secrets.js';
import { saveSignedInConnection } from '../manage/connections.js';
import type { Actor } from '../manage/op.js';
import { networkAuth, NETWORKS, OAUTH_APP_INFO, type PastedCredential } from './networks.js';
import {
  appTarget,
  authorizationUrl,
  codeOf,
  exchangeCode,
  fetchAccount,
  instanceTarget,
  makeLongLived,
  miauthCheck,
  miauthUrl,
  newState,
  newVerifier,
  OAuthFlowError,
  registerInstanceApp,
  type SignInTarget,
  type TokenSet,
} from './oauth.js';
import type { NetworkAccount } from './networks.js';

/** How long a sign-in may take, from the Connect button to the callback. */
export const STATE_TTL_MS = 10 * 60_000;
/** The redirect URI's path, on PUBLIC_URL (or the origin the console was opened at). */
export const CALLBACK_PATH = '/connect/callback';

/** What a server's connect routes are given (AppContext.oauth; openRuntime fills it from the configuration). */
export interface ConnectSettings {
  config: OAuthConfig;
  /** INGEST_ALLOW_PRIVATE_NETWORKS: the addresses token endpoints and federated servers may be at */
  allowPrivateNetworks: PrivateNetworks;
}

export interface ConnectContext {
  db: Kysely<Database>;
  oauth: OAuthConfig;
  /** the key connections are sealed with (AppContext.connectionKey); null: none, nothing can be stored */
  secretKey: Buffer | null;
  /** guarded outbound requests (src/net/fetcher.ts) */
  fetcher: Fetcher;
  now: () => number;
  /** this instance's base URL: PUBLIC_URL, else the origin the request came to */
  base: string;
}

export const redirectUriOf = (base: string): string => `${base}${CALLBACK_PATH}`;
const hashOf = (state: string): string => createHash('sha256').update(state, 'utf8').digest('hex');

// ---------- what the console is told ----------

export interface NetworkOffer {
  network: string;
  title: string;
  docs: string;
  /** `oauth`: a Connect button (the app is configured, or the network's servers register Wallery themselves) */
  oauth: 'app' | 'instance' | null;
  /** an OAuth network whose app is not configured: the settings that would give it a Connect button */
  oauthSettings: string | null;
  /** the server a federated sign-in asks for first */
  needsInstance: boolean;
  pasted: PastedCredential[];
}

/** Every network, and how this instance can connect it. */
export function networkOffers(config: OAuthConfig): NetworkOffer[] {
  return Object.values(NETWORKS).map((n) => {
    const app = n.oauth ? n.oauth.app : null;
    const configured = app !== null && config.apps[app] !== undefined;
    return {
      network: n.network,
      title: n.title,
      docs: n.docs,
      oauth: configured ? 'app' : n.instanceOAuth ? 'instance' : null,
      oauthSettings:
        app !== null && !configured
          ? `OAUTH_${app.toUpperCase()}_CLIENT_ID and OAUTH_${app.toUpperCase()}_CLIENT_SECRET (your ${OAUTH_APP_INFO[app].title} app)`
          : null,
      needsInstance: n.instanceOAuth !== undefined,
      pasted: n.pasted.map((p) => ({ ...p, fields: p.fields.map((f) => ({ ...f })) })),
    };
  });
}

// ---------- start ----------

export interface StartInput {
  accountId: number;
  /** the operator token starting the sign-in: the connection's audit entry names it */
  actor: Actor;
  network: string;
  /** what the console calls the connection; empty: the network and who signed in */
  name?: string;
  /** a federated network's server */
  instance?: string;
  /** reconnect: the connection whose tokens the sign-in replaces */
  connectionId?: number;
}

/** A federated server's address as an origin (https, or http for a test), or a field error. */
export function instanceOrigin(raw: string | undefined, field = 'instance'): string | FieldError {
  const text = (raw ?? '').trim();
  if (text === '') return { field, message: `${field} is required: the address of the server the account is on` };
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return { field, message: `${field} must be a server address such as https://pixelfed.social` };
  }
  if (!/^https?:$/.test(url.protocol) || url.username !== '' || url.password !== '')
    return { field, message: `${field} must be an https:// server address` };
  return url.origin;
}

export async function startConnect(
  ctx: ConnectContext,
  input: StartInput,
): Promise<{ authorizationUrl: string; expiresAt: number }> {
  const n = networkAuth(input.network);
  if (!ctx.secretKey) throw conflict(NO_SECRET_KEY);
  if (!n || (!n.oauth && !n.instanceOAuth))
    throw invalidField('network', `${input.network} does not sign in with OAuth: paste its token or key instead`);
  let connectionId: number | null = null;
  let instance: string | null = null;
  if (input.connectionId !== undefined) {
    const row = await findConnection(ctx.db, input.connectionId);
    if (!row || row.account_id !== input.accountId)
      throw new ManageError(404, `connection ${input.connectionId} not found`);
    if (row.network !== input.network)
      throw invalidField('network', `connection ${row.id} is a ${row.network} connection, not ${input.network}`);
    connectionId = row.id;
    instance = row.instance;
  }
  const redirectUri = redirectUriOf(ctx.base);
  const state = newState();
  const codeVerifier = newVerifier();
  const now = ctx.now();
  const sealed: Record<string, string> = { codeVerifier };
  let url: string;
  if (n.oauth) {
    const target = appTarget(n.network, ctx.oauth);
    if (!target)
      throw invalidField(
        'network',
        `${n.title} has no app configured on this instance: set OAUTH_${n.oauth.app.toUpperCase()}_CLIENT_ID and _CLIENT_SECRET`,
      );
    url = await authorizationUrl(target, { state, redirectUri, codeVerifier });
  } else {
    const origin = instance ?? instanceOrigin(input.instance);
    if (typeof origin !== 'string') throw invalid([origin]);
    instance = origin;
    if (n.instanceOAuth!.protocol === 'miauth') {
      // MiAuth sends back only the session id: it is the state
      url = miauthUrl({ network: n.network, instance, session: state, callback: redirectUri });
    } else {
      const app = await registerInstanceApp(ctx.fetcher, {
        network: n.network,
        instance,
        redirectUri,
        website: ctx.base,
      }).catch((err: unknown) => {
        throw err instanceof OAuthFlowError ? invalidField('instance', err.message) : err;
      });
      sealed.clientId = app.clientId;
      sealed.clientSecret = app.clientSecret;
      url = await authorizationUrl(instanceTarget(n.network, instance, app), { state, redirectUri, codeVerifier });
    }
  }
  await pruneOAuthStates(ctx.db, now);
  await insertOAuthState(ctx.db, {
    state_hash: hashOf(state),
    account_id: input.accountId,
    network: n.network,
    connection_id: connectionId,
    name: (input.name ?? '').trim().slice(0, 200),
    instance,
    secret: sealSecret(JSON.stringify(sealed), ctx.secretKey),
    redirect_uri: redirectUri,
    created_at: now,
    expires_at: now + STATE_TTL_MS,
    token_id: input.actor.tokenId,
    token_name: input.actor.name,
  });
  return { authorizationUrl: url, expiresAt: now + STATE_TTL_MS };
}

// ---------- callback ----------

/** Why a callback stored nothing, in words for the page the browser lands on. */
export class ConnectRefusal extends Error {
  override name = 'ConnectRefusal';
  constructor(
    message: string,
    /** the account whose console the page links back to, when the state was genuine */
    readonly accountId: number | null = null,
  ) {
    super(message);
  }
}

export interface Connected {
  accountId: number;
  connectionId: number;
  network: string;
  accountName: string;
  reconnected: boolean;
}

/** Who a sign-in's audit entry names: the token that started it; one started before Wallery kept that, no one known. */
const actorOf = (row: { token_id: number | null; token_name: string | null }): Actor => ({
  tokenId: row.token_id,
  name: row.token_name ?? 'unknown',
});

const UNKNOWN_STATE =
  'This sign-in is not one this Wallery started, or it was used already: nothing was stored. Start again with the Connect button in the console.';

/** Finishes a sign-in from the callback's query; throws ConnectRefusal (nothing stored) when it cannot. */
export async function finishConnect(ctx: ConnectContext, params: URLSearchParams): Promise<Connected> {
  // MiAuth comes back with `session` (the state it was started with)
  const state = params.get('state') ?? params.get('session');
  if (!ctx.secretKey) throw new ConnectRefusal(NO_SECRET_KEY);
  if (!state || state.length > 512) throw new ConnectRefusal(UNKNOWN_STATE);
  const hash = hashOf(state);
  const row = await takeOAuthState(ctx.db, hash);
  // the row was found by its hash; compared again in constant time all the same
  if (!row || !timingSafeEqual(Buffer.from(row.state_hash, 'utf8'), Buffer.from(hash, 'utf8')))
    throw new ConnectRefusal(UNKNOWN_STATE);
  const now = ctx.now();
  if (row.expires_at < now)
    throw new ConnectRefusal(
      'This sign-in took longer than 10 minutes and expired: nothing was stored. Start again with the Connect button.',
      row.account_id,
    );
  const n = networkAuth(row.network);
  if (!n) throw new ConnectRefusal(UNKNOWN_STATE, row.account_id);
  let sealed: Record<string, string>;
  try {
    sealed = JSON.parse(openSecret(row.secret, ctx.secretKey, 'sign-in state')) as Record<string, string>;
  } catch {
    throw new ConnectRefusal(
      'This sign-in cannot be read with the secret key of this instance: start again.',
      row.account_id,
    );
  }
  try {
    let tokens: TokenSet;
    let account: NetworkAccount;
    let target: SignInTarget | null = null;
    if (n.instanceOAuth?.protocol === 'miauth') {
      const result = await miauthCheck(ctx.fetcher, { instance: row.instance!, session: state });
      tokens = { accessToken: result.token, expiresAt: null, refreshExpiresAt: null, scope: null };
      account = result.account;
    } else {
      target = n.oauth
        ? appTarget(n.network, ctx.oauth)
        : instanceTarget(n.network, row.instance!, { clientId: sealed.clientId!, clientSecret: sealed.clientSecret! });
      if (!target)
        throw new OAuthFlowError('not_configured', `${n.title} has no app configured on this instance any more`);
      const code = codeOf(target, params);
      tokens = await exchangeCode(ctx.fetcher, target, {
        params: code,
        redirectUri: row.redirect_uri,
        codeVerifier: sealed.codeVerifier!,
        now,
      });
      tokens = await makeLongLived(ctx.fetcher, target, tokens, now);
      account = await fetchAccount(ctx.fetcher, target, tokens.accessToken);
    }
    const secret: ConnectionSecret = {
      accessToken: tokens.accessToken,
      ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
      ...(sealed.clientId ? { clientId: sealed.clientId, clientSecret: sealed.clientSecret } : {}),
    };
    const saved = await saveSignedInConnection(
      { db: ctx.db, actor: actorOf(row), now },
      {
        accountId: row.account_id,
        network: n.network,
        name: row.name || `${n.title} ${account.name}`,
        instance: row.instance,
        connectionId: row.connection_id,
      },
      {
        sealedSecret: sealConnectionSecret(secret, ctx.secretKey),
        externalAccountId: account.id,
        externalAccountName: account.name,
        scopes: tokens.scope ?? (target ? target.scopes.join(' ') : (n.instanceOAuth?.scopes ?? []).join(' ')),
        expiresAt: tokens.expiresAt,
        refreshExpiresAt: tokens.refreshExpiresAt,
      },
      { secretKey: ctx.secretKey },
    );
    return { accountId: row.account_id, network: n.network, accountName: account.name, ...saved };
  } catch (err) {
    if (err instanceof OAuthFlowError) throw new ConnectRefusal(`${err.message}. Nothing was stored.`, row.account_id);
    throw err;
  }
}
