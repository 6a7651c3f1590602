// How each network's credentials are obtained and kept fresh: one entry per
// connection network (`instagram`, `x`, …). An OAuth network names the
// operator's app it signs in with (its client id and secret come from
// OAUTH_<APP>_CLIENT_ID / _CLIENT_SECRET, src/config.ts), its authorization
// and token endpoints, the scopes the feeds need, whether it takes PKCE, how
// the client authenticates at the token endpoint, how to learn who signed in,
// and how its tokens are made long-lived or refreshed. A network read with a
// pasted token or an API key names the fields the console's form asks for.
//
// Pure data and pure parsing (no I/O): src/connections/oauth.ts speaks the
// protocol with oauth4webapi from it, src/config.ts reads the apps' settings
// from it, and the management API hands its public part to the console.
//
// Sources (current official documentation, read 2026-11):
// - Meta: Facebook Login "Manually Build a Login Flow" (dialog/oauth, oauth/access_token),
//   "Long-Lived Access Tokens" (grant_type=fb_exchange_token → ~60 days, no refresh:
//   the user signs in again); Graph API v25.0. Instagram hashtag search, own and
//   tagged media need the Instagram API with Facebook Login (a business/creator
//   account linked to a Page), so Instagram signs in through Facebook Login too.
// - Threads: "Get Access Tokens and Permissions" (threads.net/oauth/authorize,
//   graph.threads.net/oauth/access_token: {access_token, user_id}, no token_type),
//   "Long-Lived Access Tokens" (th_exchange_token → 60 days; th_refresh_token once
//   at least 24 hours old).
// - TikTok: Login Kit for Web (v2/auth/authorize with `client_key`, comma-separated
//   scopes), "Manage User Access Tokens" (open.tiktokapis.com/v2/oauth/token/:
//   access 24 h, refresh 365 days, refresh_token grant with client_key).
// - Google: OAuth 2.0 for Web Server Applications (PKCE S256, access_type=offline
//   and prompt=consent for a refresh token; access tokens of 1 hour).
// - X: OAuth 2.0 Authorization Code with PKCE (x.com/i/oauth2/authorize,
//   api.x.com/2/oauth2/token, confidential clients authenticate with Basic,
//   offline.access for a refresh token; access tokens of 2 hours).
// - Reddit: OAuth2 wiki (api/v1/authorize with duration=permanent, api/v1/access_token
//   with Basic auth; access tokens of 1 hour; no PKCE).
// - Tumblr: API v2 OAuth 2 (oauth2/authorize, v2/oauth2/token; offline_access for a refresh token).
// - Pixelfed: the Mastodon-compatible API (POST /api/v1/apps registers an app on the
//   instance, /oauth/authorize, /oauth/token with PKCE; tokens with expires_in and a
//   refresh token: Laravel Passport).
// - Misskey: MiAuth (/miauth/{session}?name&callback&permission, then
//   POST /api/miauth/{session}/check → {ok, token, user}); tokens do not expire.
// - Bluesky: an app password (Settings → Privacy and security → App passwords) with
//   the handle signs in by com.atproto.server.createSession on the account's PDS or
//   the bsky.social entryway; no app to register. It may post (rights requests) but
//   not change the account's e-mail, password or app passwords.

/** The operator's OAuth apps: one client id and secret each, shared by the networks that sign in with it. */
export const OAUTH_APPS = ['meta', 'threads', 'tiktok', 'google', 'x', 'reddit', 'tumblr'] as const;
export type OAuthAppName = (typeof OAUTH_APPS)[number];

/** What the settings call each app, and where its developer console is. */
export const OAUTH_APP_INFO: Readonly<Record<OAuthAppName, { title: string; console: string; networks: string }>> = {
  meta: {
    title: 'Meta (Facebook Login)',
    console: 'https://developers.facebook.com/apps',
    networks: 'Instagram and Facebook',
  },
  threads: { title: 'Threads', console: 'https://developers.facebook.com/apps', networks: 'Threads' },
  tiktok: { title: 'TikTok (Login Kit)', console: 'https://developers.tiktok.com/apps', networks: 'TikTok' },
  google: { title: 'Google', console: 'https://console.cloud.google.com/apis/credentials', networks: 'YouTube' },
  x: { title: 'X', console: 'https://developer.x.com/en/portal/dashboard', networks: 'X' },
  reddit: { title: 'Reddit', console: 'https://www.reddit.com/prefs/apps', networks: 'Reddit' },
  tumblr: { title: 'Tumblr', console: 'https://www.tumblr.com/oauth/apps', networks: 'Tumblr' },
};

/** How a connection was made (the `auth_kind` column). */
export type AuthKind = 'oauth' | 'token' | 'api_key';

/** Who signed in, as the network names them. */
export interface NetworkAccount {
  id: string;
  name: string;
}

/** How a network's short-lived token becomes a long-lived one right after sign-in. */
export type LongLivedExchange =
  /** Meta: GET {token endpoint}?grant_type=fb_exchange_token&client_id&client_secret&fb_exchange_token */
  | 'fb_exchange_token'
  /** Threads: GET {api}/access_token?grant_type=th_exchange_token&client_secret&access_token */
  | 'th_exchange_token';

/** How a network's token is kept fresh before it expires; none: the user signs in again. */
export type RefreshMethod =
  /** the standard refresh_token grant at the token endpoint */
  | 'refresh_token'
  /** Threads: GET {api}/refresh_access_token?grant_type=th_refresh_token&access_token */
  | 'th_refresh_token';

/** A field of the console's form for a pasted token or an API key. */
export interface CredentialField {
  /** where it goes: the sealed secret's accessToken/apiKey/apiSecret, or the connection's instance or account name */
  key: 'accessToken' | 'apiKey' | 'apiSecret' | 'instance' | 'externalAccountName';
  label: string;
  hint: string;
  /** a secret: a password field, never shown again */
  secret: boolean;
  required: boolean;
}

/** A way to connect without OAuth. */
export interface PastedCredential {
  kind: Exclude<AuthKind, 'oauth'>;
  /** what the form's button and heading call it */
  title: string;
  fields: CredentialField[];
}

export interface OAuthEndpoints {
  authorization: string;
  token: string;
  /** the URL that tells who signed in (read with the new access token) */
  account: string;
  /** Threads' long-lived exchange and refresh live on the API host, not the token endpoint */
  exchange?: string;
  refresh?: string;
}

/** A network that signs in with the operator's app (`app`), on fixed endpoints. */
export interface AppOAuth {
  app: OAuthAppName;
  endpoints: OAuthEndpoints;
  /** the scopes the feed types need */
  scopes: readonly string[];
  /** how the authorization request joins them */
  scopeSeparator: ' ' | ',';
  /** PKCE (S256) is sent: the network documents it for web apps */
  pkce: boolean;
  /** how the client authenticates at the token endpoint */
  clientAuth: 'basic' | 'post';
  /** TikTok names the client id `client_key` in the authorization request and at the token endpoint */
  clientIdParam?: 'client_key';
  /** added to the authorization request (Google: offline access; Reddit: a permanent grant) */
  authorizationParams?: Readonly<Record<string, string>>;
  /** the code exchange answers without `token_type` (Threads): it is a bearer token */
  tokenTypeMissing?: boolean;
  longLived?: LongLivedExchange;
  refresh?: RefreshMethod;
  /** who signed in, from the account URL's JSON answer; null: the answer is not what the network documents */
  parseAccount(json: unknown): NetworkAccount | null;
  /** why no account could be read, in words (e.g. no Instagram business account on the Pages) */
  noAccount: string;
}

/** A federated network: the app is registered on the instance the operator names, at sign-in. */
export interface InstanceOAuth {
  /** Mastodon-compatible API (POST /api/v1/apps, /oauth/authorize, /oauth/token, PKCE) or MiAuth */
  protocol: 'mastodon' | 'miauth';
  scopes: readonly string[];
  refresh?: RefreshMethod;
}

export interface NetworkAuth {
  network: string;
  /** as shown (the posts' networkName) */
  title: string;
  oauth?: AppOAuth;
  instanceOAuth?: InstanceOAuth;
  pasted: readonly PastedCredential[];
  /** docs page of the network */
  docs: string;
}

// ---------- parsing who signed in ----------

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

function account(id: unknown, name: unknown): NetworkAccount | null {
  const i = str(id);
  const n = str(name);
  return i && n ? { id: i, name: n.slice(0, 200) } : null;
}

/** Graph `me?fields=id,name`. */
const graphMe = (json: unknown) => account(obj(json)?.id, obj(json)?.name);

/** Graph `me/accounts?fields=name,instagram_business_account{id,username}`: the first Page's linked Instagram account. */
function instagramAccount(json: unknown): NetworkAccount | null {
  const pages = obj(json)?.data;
  if (!Array.isArray(pages)) return null;
  for (const page of pages) {
    const ig = obj(obj(page)?.instagram_business_account);
    const found = ig && account(ig.id, ig.username);
    if (found) return { id: found.id, name: `@${found.name}` };
  }
  return null;
}

/** Threads `me?fields=id,username`. */
function threadsAccount(json: unknown): NetworkAccount | null {
  const me = account(obj(json)?.id, obj(json)?.username);
  return me && { id: me.id, name: `@${me.name}` };
}

/** TikTok `v2/user/info/?fields=open_id,display_name,username`: {data: {user}, error: {code: "ok"}}. */
function tiktokAccount(json: unknown): NetworkAccount | null {
  const user = obj(obj(obj(json)?.data)?.user);
  if (!user) return null;
  const username = str(user.username);
  return account(user.open_id, username ? `@${username}` : user.display_name);
}

/** YouTube `channels?part=snippet&mine=true`: the first channel. */
function youtubeAccount(json: unknown): NetworkAccount | null {
  const items = obj(json)?.items;
  const first = Array.isArray(items) ? obj(items[0]) : null;
  return first ? account(first.id, obj(first.snippet)?.title) : null;
}

/** X `2/users/me`: {data: {id, name, username}}. */
function xAccount(json: unknown): NetworkAccount | null {
  const data = obj(obj(json)?.data);
  const me = data && account(data.id, data.username);
  return me && { id: me.id, name: `@${me.name}` };
}

/** Reddit `api/v1/me`: {id, name}. */
function redditAccount(json: unknown): NetworkAccount | null {
  const me = account(obj(json)?.id, obj(json)?.name);
  return me && { id: me.id, name: `u/${me.name}` };
}

/** Tumblr `v2/user/info`: {response: {user: {name}}} (the user has no other id). */
function tumblrAccount(json: unknown): NetworkAccount | null {
  const user = obj(obj(obj(json)?.response)?.user);
  return user ? account(user.name, user.name) : null;
}

/** Mastodon-compatible `api/v1/accounts/verify_credentials`: {id, username, acct}. */
export function mastodonAccount(json: unknown, instanceHost: string): NetworkAccount | null {
  const me = account(obj(json)?.id, obj(json)?.username);
  return me && { id: me.id, name: `@${me.name}@${instanceHost}` };
}

/** MiAuth check: {ok: true, token, user: {id, username}}. */
export function miauthResult(json: unknown, instanceHost: string): { token: string; account: NetworkAccount } | null {
  const o = obj(json);
  const token = str(o?.token);
  const user = obj(o?.user);
  const me = user && account(user.id, user.username);
  if (o?.ok !== true || !token || !me) return null;
  return { token, account: { id: me.id, name: `@${me.name}@${instanceHost}` } };
}

// ---------- the registry ----------

const GRAPH = 'https://graph.facebook.com/v25.0';
/** Where a Bluesky account signs in when its connection names no server (the entryway in front of Bluesky's PDSes). */
export const BLUESKY_ENTRYWAY = 'https://bsky.social';
const META_AUTHORIZE = 'https://www.facebook.com/v25.0/dialog/oauth';

const INSTANCE: CredentialField = {
  key: 'instance',
  label: 'Server',
  hint: 'the address of the server the account is on, e.g. https://pixelfed.social',
  secret: false,
  required: true,
};

const token = (label: string, hint: string, instance = false): PastedCredential => ({
  kind: 'token',
  title: label,
  fields: [
    ...(instance ? [INSTANCE] : []),
    { key: 'accessToken', label, hint, secret: true, required: true } satisfies CredentialField,
  ],
});

const apiKey = (label: string, hint: string): PastedCredential => ({
  kind: 'api_key',
  title: label,
  fields: [{ key: 'apiKey', label, hint, secret: true, required: true }],
});

export const NETWORKS: Readonly<Record<string, NetworkAuth>> = {
  instagram: {
    network: 'instagram',
    title: 'Instagram',
    docs: '/networks/instagram',
    pasted: [],
    oauth: {
      app: 'meta',
      endpoints: {
        authorization: META_AUTHORIZE,
        token: `${GRAPH}/oauth/access_token`,
        account: `${GRAPH}/me/accounts?fields=name,instagram_business_account{id,username}`,
      },
      // hashtag search and own media: instagram_basic; tagged and mentioned media: instagram_manage_comments;
      // the business account is found through the Pages the user manages
      scopes: [
        'instagram_basic',
        'instagram_manage_comments',
        'pages_show_list',
        'pages_read_engagement',
        'business_management',
      ],
      scopeSeparator: ',',
      pkce: false,
      clientAuth: 'post',
      longLived: 'fb_exchange_token',
      parseAccount: instagramAccount,
      noAccount:
        'no Instagram business or creator account is linked to a Facebook Page this user manages: link one in the Instagram app (Settings → Account type and tools) and connect again',
    },
  },
  facebook: {
    network: 'facebook',
    title: 'Facebook',
    docs: '/networks/facebook',
    pasted: [],
    oauth: {
      app: 'meta',
      endpoints: {
        authorization: META_AUTHORIZE,
        token: `${GRAPH}/oauth/access_token`,
        account: `${GRAPH}/me?fields=id,name`,
      },
      scopes: ['pages_show_list', 'pages_read_engagement', 'pages_read_user_content'],
      scopeSeparator: ',',
      pkce: false,
      clientAuth: 'post',
      longLived: 'fb_exchange_token',
      parseAccount: graphMe,
      noAccount: 'Facebook did not say who signed in',
    },
  },
  threads: {
    network: 'threads',
    title: 'Threads',
    docs: '/networks/threads',
    pasted: [],
    oauth: {
      app: 'threads',
      endpoints: {
        authorization: 'https://threads.net/oauth/authorize',
        token: 'https://graph.threads.net/oauth/access_token',
        account: 'https://graph.threads.net/v1.0/me?fields=id,username',
        exchange: 'https://graph.threads.net/access_token',
        refresh: 'https://graph.threads.net/refresh_access_token',
      },
      // keyword search (also what lets a reply reach another account's post); publishing, replying
      // and reading replies: the rights requests (src/rights/channels/threads.ts)
      scopes: [
        'threads_basic',
        'threads_keyword_search',
        'threads_content_publish',
        'threads_manage_replies',
        'threads_read_replies',
      ],
      scopeSeparator: ',',
      pkce: false,
      clientAuth: 'post',
      tokenTypeMissing: true,
      longLived: 'th_exchange_token',
      refresh: 'th_refresh_token',
      parseAccount: threadsAccount,
      noAccount: 'Threads did not say who signed in',
    },
  },
  tiktok: {
    network: 'tiktok',
    title: 'TikTok',
    docs: '/networks/tiktok',
    pasted: [],
    oauth: {
      app: 'tiktok',
      endpoints: {
        authorization: 'https://www.tiktok.com/v2/auth/authorize/',
        token: 'https://open.tiktokapis.com/v2/oauth/token/',
        account: 'https://open.tiktokapis.com/v2/user/info/?fields=open_id,display_name,username',
      },
      scopes: ['user.info.basic', 'user.info.profile', 'video.list'],
      scopeSeparator: ',',
      pkce: false,
      clientAuth: 'post',
      clientIdParam: 'client_key',
      refresh: 'refresh_token',
      parseAccount: tiktokAccount,
      noAccount: 'TikTok did not say who signed in',
    },
  },
  youtube: {
    network: 'youtube',
    title: 'YouTube',
    docs: '/networks/youtube',
    pasted: [apiKey('API key', 'a YouTube Data API v3 key from the Google Cloud console (public videos and search)')],
    oauth: {
      app: 'google',
      endpoints: {
        authorization: 'https://accounts.google.com/o/oauth2/v2/auth',
        token: 'https://oauth2.googleapis.com/token',
        account: 'https://www.googleapis.com/youtube/v3/channels?part=snippet&mine=true',
      },
      // readonly for the feeds; force-ssl to comment a rights request and read its answers
      scopes: ['https://www.googleapis.com/auth/youtube.readonly', 'https://www.googleapis.com/auth/youtube.force-ssl'],
      scopeSeparator: ' ',
      pkce: true,
      clientAuth: 'post',
      authorizationParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
      refresh: 'refresh_token',
      parseAccount: youtubeAccount,
      noAccount: 'this Google account has no YouTube channel',
    },
  },
  x: {
    network: 'x',
    title: 'X',
    docs: '/networks/x',
    pasted: [token('Bearer token', 'the app-only bearer token of your X app (Keys and tokens); reads recent search')],
    oauth: {
      app: 'x',
      endpoints: {
        authorization: 'https://x.com/i/oauth2/authorize',
        token: 'https://api.x.com/2/oauth2/token',
        account: 'https://api.x.com/2/users/me',
      },
      // tweet.write: a rights request is a reply (src/rights/channels/x.ts)
      scopes: ['tweet.read', 'tweet.write', 'users.read', 'offline.access'],
      scopeSeparator: ' ',
      pkce: true,
      clientAuth: 'basic',
      refresh: 'refresh_token',
      parseAccount: xAccount,
      noAccount: 'X did not say who signed in',
    },
  },
  reddit: {
    network: 'reddit',
    title: 'Reddit',
    docs: '/networks/reddit',
    pasted: [],
    oauth: {
      app: 'reddit',
      endpoints: {
        authorization: 'https://www.reddit.com/api/v1/authorize',
        token: 'https://www.reddit.com/api/v1/access_token',
        account: 'https://oauth.reddit.com/api/v1/me',
      },
      // submit: a rights request is a comment (src/rights/channels/reddit.ts)
      scopes: ['identity', 'read', 'submit'],
      scopeSeparator: ' ',
      pkce: false,
      clientAuth: 'basic',
      authorizationParams: { duration: 'permanent' },
      refresh: 'refresh_token',
      parseAccount: redditAccount,
      noAccount: 'Reddit did not say who signed in',
    },
  },
  tumblr: {
    network: 'tumblr',
    title: 'Tumblr',
    docs: '/networks/tumblr',
    pasted: [apiKey('Consumer key', 'the OAuth consumer key of your Tumblr app (public tag reads)')],
    oauth: {
      app: 'tumblr',
      endpoints: {
        authorization: 'https://www.tumblr.com/oauth2/authorize',
        token: 'https://api.tumblr.com/v2/oauth2/token',
        account: 'https://api.tumblr.com/v2/user/info',
      },
      scopes: ['basic', 'offline_access'],
      scopeSeparator: ' ',
      pkce: false,
      clientAuth: 'post',
      refresh: 'refresh_token',
      parseAccount: tumblrAccount,
      noAccount: 'Tumblr did not say who signed in',
    },
  },
  pixelfed: {
    network: 'pixelfed',
    title: 'Pixelfed',
    docs: '/networks/pixelfed',
    // write: a rights request is a comment (src/rights/channels/pixelfed.ts)
    instanceOAuth: { protocol: 'mastodon', scopes: ['read', 'write'], refresh: 'refresh_token' },
    pasted: [
      token(
        'Personal access token',
        'Settings → Applications → Personal access tokens on your Pixelfed server (scope read; add write to ask for rights by reply)',
        true,
      ),
    ],
  },
  misskey: {
    network: 'misskey',
    title: 'Misskey',
    docs: '/networks/misskey',
    instanceOAuth: { protocol: 'miauth', scopes: ['read:account'] },
    pasted: [token('Access token', 'Settings → API → Generate access token on your Misskey or Sharkey server', true)],
  },
  mastodon: {
    network: 'mastodon',
    title: 'Mastodon',
    docs: '/networks/mastodon',
    pasted: [
      token(
        'Access token',
        'Preferences → Development → New application on your server: scope read (a server that requires sign-in), write:statuses to ask authors for rights',
        true,
      ),
    ],
  },
  bluesky: {
    network: 'bluesky',
    title: 'Bluesky',
    docs: '/networks/bluesky',
    pasted: [
      {
        kind: 'token',
        title: 'App password',
        fields: [
          {
            key: 'externalAccountName',
            label: 'Handle',
            hint: 'the account’s handle, e.g. brand.bsky.social',
            secret: false,
            required: true,
          },
          {
            key: 'accessToken',
            label: 'App password',
            hint: 'Settings → Privacy and security → App passwords → Add App Password (xxxx-xxxx-xxxx-xxxx)',
            secret: true,
            required: true,
          },
          {
            key: 'instance',
            label: 'Server',
            hint: `the account’s PDS or entryway; empty: ${BLUESKY_ENTRYWAY}`,
            secret: false,
            required: false,
          },
        ],
      },
    ],
  },
  flickr: {
    network: 'flickr',
    title: 'Flickr',
    docs: '/networks/flickr',
    pasted: [apiKey('API key', 'a non-commercial or commercial key from https://www.flickr.com/services/apps/create/')],
  },
};

/** The network's entry, or undefined for a network Wallery does not connect. */
export const networkAuth = (network: string): NetworkAuth | undefined =>
  Object.hasOwn(NETWORKS, network) ? NETWORKS[network] : undefined;

/** How a stored connection's token is refreshed, or null when it cannot be (a pasted token, no refresh method). */
export function refreshMethodOf(network: string, authKind: string): RefreshMethod | null {
  if (authKind !== 'oauth') return null;
  const n = networkAuth(network);
  return n?.oauth?.refresh ?? n?.instanceOAuth?.refresh ?? null;
}

/** The networks whose OAuth tokens are refreshed before they expire. */
export const REFRESHABLE_NETWORKS: readonly string[] = Object.values(NETWORKS)
  .filter((n) => refreshMethodOf(n.network, 'oauth') !== null)
  .map((n) => n.network);

/**
 * How long before expiry a token is refreshed: a quarter of its lifetime,
 * at most a day (a 2-hour X token: 30 minutes before; a 60-day Threads
 * token: a day before, when it is well over the 24 hours Threads requires).
 */
export function refreshLeadMs(issuedAt: number, expiresAt: number): number {
  return Math.max(60_000, Math.min(86_400_000, Math.floor((expiresAt - issuedAt) / 4)));
}
