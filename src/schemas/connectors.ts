// The connector setting of a feed: which network and what on it. The same
// object appears in the data file (`feeds[].connector`), the management API
// and the store (feeds.connector, JSON). Base URLs are settings so tests can
// point connectors at local fixture servers.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { CONNECTOR_KINDS } from '../domain/lists.js';
import { HTTP_URL } from './fields.js';

const HttpUrl = Type.String({ pattern: HTTP_URL, maxLength: 2048 });
/** The connection (the operator's credentials, src/connections/) a feed of a network that needs one reads with. */
export const ConnectionId = Type.Integer({
  minimum: 1,
  description: 'the account’s connection (its credentials for the network) this feed reads with',
});

const Reposts = Type.Optional(
  Type.Union([Type.Literal('skip'), Type.Literal('unwrap')], {
    description: 'boosts/reposts: skip (default) or unwrap',
  }),
);

export const RssConnector = Type.Object(
  {
    kind: Type.Literal('rss'),
    url: HttpUrl,
    channelImage: Type.Optional(
      Type.Boolean({
        description:
          'posts without a picture of their own show the feed’s artwork (a podcast’s itunes:image, else its image or logo); default false',
      }),
    ),
  },
  { description: 'any RSS 2.0 or Atom feed (Media RSS and enclosures included)' },
);

export const MastodonConnector = Type.Object(
  {
    kind: Type.Literal('mastodon'),
    instance: HttpUrl,
    hashtag: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    account: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'user or user@domain' })),
    reposts: Reposts,
  },
  { description: 'a hashtag timeline or an account’s statuses on one instance (exactly one of hashtag, account)' },
);

export const BlueskyConnector = Type.Object(
  {
    kind: Type.Literal('bluesky'),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'handle or DID' })),
    hashtag: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    appViewUrl: Type.Optional(HttpUrl),
    serviceUrl: Type.Optional(HttpUrl),
    reposts: Reposts,
  },
  {
    description:
      'an author feed (public AppView) or a hashtag search (needs an app password); exactly one of actor, hashtag',
  },
);

export const YoutubeConnector = Type.Object(
  {
    kind: Type.Literal('youtube'),
    channelId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' })),
    playlistId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' })),
    baseUrl: Type.Optional(HttpUrl),
  },
  { description: 'the public Atom feed of a channel or playlist (exactly one of channelId, playlistId)' },
);

export const LemmyConnector = Type.Object(
  {
    kind: Type.Literal('lemmy'),
    instance: HttpUrl,
    community: Type.String({ minLength: 1, maxLength: 300 }),
  },
  { description: 'a community on a Lemmy instance' },
);

// ---------- issue 35, google: YouTube Data API and TikTok Display API ----------

const ApiBaseUrl = (real: string) =>
  Type.Optional(
    Type.String({
      pattern: HTTP_URL,
      maxLength: 2048,
      title: 'API base URL',
      description: `for a self-hosted or test server; default ${real}`,
    }),
  );

export const YoutubeDataConnector = Type.Object(
  {
    kind: Type.Literal('youtube_data'),
    connectionId: Type.Integer({
      minimum: 1,
      title: 'Connection',
      description: 'the YouTube connection (a Google API key, or a Google account signed in) this feed reads with',
    }),
    mode: Type.Union([Type.Literal('uploads'), Type.Literal('search'), Type.Literal('live_chat')], {
      title: 'Feed type',
      description:
        'uploads: a channel’s videos; search: videos matching a keyword or #hashtag (100 quota units a page); live_chat: the chat messages of a live broadcast',
    }),
    channel: Type.Optional(
      Type.String({
        pattern: '^(UC[A-Za-z0-9_-]{22}|@[A-Za-z0-9._-]{3,100})$',
        title: 'Channel',
        description: 'uploads: the channel id (UC…) or handle (@name)',
      }),
    ),
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        title: 'Search',
        description: 'search: keywords or a #hashtag, as in YouTube’s search box (| for OR, - to exclude)',
      }),
    ),
    videoId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{11}$',
        title: 'Live video',
        description: 'live_chat: the id of the live broadcast’s video (the v= of its watch URL)',
      }),
    ),
    searchEveryMinutes: Type.Optional(
      Type.Integer({
        minimum: 15,
        maximum: 1440,
        title: 'Search every (minutes)',
        description:
          'search: the least time between two searches (each costs 100 of the project’s 10,000 daily units); default 30',
      }),
    ),
    apiBaseUrl: ApiBaseUrl('https://www.googleapis.com/youtube/v3'),
  },
  {
    title: 'YouTube',
    description: 'a channel’s uploads, a keyword or hashtag search, or a live broadcast’s chat (YouTube Data API v3)',
    'x-network': 'youtube',
    'x-docs': '/networks/youtube',
  },
);

export const TiktokConnector = Type.Object(
  {
    kind: Type.Literal('tiktok'),
    connectionId: Type.Integer({
      minimum: 1,
      title: 'Connection',
      description:
        'the TikTok account signed in (Login Kit, scopes user.info.basic and video.list) whose videos to show',
    }),
    apiBaseUrl: ApiBaseUrl('https://open.tiktokapis.com'),
  },
  {
    title: 'TikTok',
    description: 'the public videos of the TikTok account the connection signed in as (Display API)',
    'x-network': 'tiktok',
    'x-docs': '/networks/tiktok',
  },
);

// ---------- end of issue 35, google ----------

export const ConnectorSettings = Type.Union([
  RssConnector,
  MastodonConnector,
  BlueskyConnector,
  YoutubeConnector,
  LemmyConnector,
  YoutubeDataConnector,
  TiktokConnector,
]);
export type ConnectorSettings = Static<typeof ConnectorSettings>;
export type ConnectorKind = ConnectorSettings['kind'];

const check = Compile(ConnectorSettings);
/** Each kind's own schema: its errors name the field at fault, not the other kinds' `kind` constants. */
const checkKind = new Map(ConnectorSettings.anyOf.map((schema) => [schema.properties.kind.const, Compile(schema)]));

/** Null when valid, else a message naming what is wrong (schema first, then the one-of rules). */
export function connectorProblem(value: unknown): string | null {
  if (!check.Check(value)) {
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (!(CONNECTOR_KINDS as readonly string[]).includes(String(kind))) {
      return `kind must be one of ${CONNECTOR_KINDS.join(', ')}`;
    }
    const own = checkKind.get(kind as ConnectorKind) ?? check;
    const first = [...own.Errors(value)].find((e) => e.instancePath !== '') ?? [...own.Errors(value)][0];
    return `${first?.instancePath.replace(/^\//, '') || 'connector'} ${first?.message ?? 'is invalid'}`;
  }
  const v = value as ConnectorSettings;
  const exactlyOne = (a: unknown, b: unknown, names: string) =>
    (a === undefined) === (b === undefined) ? `exactly one of ${names} is required` : null;
  switch (v.kind) {
    case 'mastodon':
      return exactlyOne(v.hashtag, v.account, 'hashtag, account');
    case 'bluesky':
      return exactlyOne(v.actor, v.hashtag, 'actor, hashtag');
    case 'youtube':
      return exactlyOne(v.channelId, v.playlistId, 'channelId, playlistId');
    case 'youtube_data':
      return youtubeDataProblem(v);
    default:
      return null;
  }
}

/** The one field each YouTube feed type needs, and none of the others'. */
function youtubeDataProblem(v: Static<typeof YoutubeDataConnector>): string | null {
  const needs = { uploads: 'channel', search: 'query', live_chat: 'videoId' } as const;
  const needed = needs[v.mode];
  if (v[needed] === undefined) return `${needed} is required for mode ${v.mode}`;
  for (const [mode, field] of Object.entries(needs)) {
    if (field !== needed && v[field] !== undefined) return `${field} is only for mode ${mode}`;
  }
  if (v.searchEveryMinutes !== undefined && v.mode !== 'search') return 'searchEveryMinutes is only for mode search';
  return null;
}
