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

// ---- open networks (issue 35): Pixelfed, Misskey/Sharkey, PeerTube ----

const Instance = (network: string, example: string) =>
  Type.String({
    pattern: HTTP_URL,
    maxLength: 2048,
    title: 'Instance',
    description: `the ${network} server, e.g. ${example}`,
  });

export const PixelfedConnector = Type.Object(
  {
    kind: Type.Literal('pixelfed', { title: 'Network', description: 'pixelfed' }),
    instance: Instance('Pixelfed', 'https://pixelfed.social'),
    hashtag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        title: 'Hashtag',
        description: 'its posts under this hashtag (without #)',
      }),
    ),
    account: Type.Optional(
      Type.String({ minLength: 1, maxLength: 300, title: 'Account', description: 'its posts by user or user@domain' }),
    ),
    reposts: Type.Optional(
      Type.Union([Type.Literal('skip'), Type.Literal('unwrap')], {
        title: 'Shares',
        description: 'shared posts: skip (default) or unwrap (show the shared post)',
      }),
    ),
    connectionId: Type.Optional({
      ...ConnectionId,
      title: 'Connection',
      description: 'a personal access token of the instance (most instances require sign-in for their API)',
    }),
  },
  {
    title: 'Pixelfed',
    description: 'a hashtag or an account’s photos on one Pixelfed instance (exactly one of hashtag, account)',
    'x-network': 'pixelfed',
    'x-docs': '/networks/pixelfed',
  },
);

export const MisskeyConnector = Type.Object(
  {
    kind: Type.Literal('misskey', { title: 'Network', description: 'misskey' }),
    instance: Instance('Misskey or Sharkey', 'https://misskey.io'),
    hashtag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        title: 'Hashtag',
        description: 'its notes under this hashtag (without #)',
      }),
    ),
    user: Type.Optional(
      Type.String({ minLength: 1, maxLength: 300, title: 'User', description: 'its notes by user or user@host' }),
    ),
    reposts: Type.Optional(
      Type.Union([Type.Literal('skip'), Type.Literal('unwrap')], {
        title: 'Renotes',
        description: 'renotes: skip (default) or unwrap (show the renoted note)',
      }),
    ),
    connectionId: Type.Optional({
      ...ConnectionId,
      title: 'Connection',
      description: 'an access token of the instance, for instances that require sign-in',
    }),
  },
  {
    title: 'Misskey',
    description: 'a hashtag or a user’s notes on one Misskey or Sharkey instance (exactly one of hashtag, user)',
    'x-network': 'misskey',
    'x-docs': '/networks/misskey',
  },
);

export const PeertubeConnector = Type.Object(
  {
    kind: Type.Literal('peertube', { title: 'Network', description: 'peertube' }),
    instance: Instance('PeerTube', 'https://framatube.org'),
    channel: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        title: 'Channel',
        description: 'its videos by channel handle: name or name@host',
      }),
    ),
    account: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        title: 'Account',
        description: 'its videos by account handle: name or name@host',
      }),
    ),
    tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, title: 'Tag', description: 'videos with this tag (without #)' }),
    ),
    search: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, title: 'Search', description: 'videos matching these words' }),
    ),
  },
  {
    title: 'PeerTube',
    description: 'a channel’s or an account’s videos, or videos by tag or search, on one PeerTube instance',
    'x-docs': '/networks/peertube',
  },
);

export const ConnectorSettings = Type.Union([
  RssConnector,
  MastodonConnector,
  BlueskyConnector,
  YoutubeConnector,
  LemmyConnector,
  PixelfedConnector,
  MisskeyConnector,
  PeertubeConnector,
]);
export type ConnectorSettings = Static<typeof ConnectorSettings>;
export type ConnectorKind = ConnectorSettings['kind'];

const check = Compile(ConnectorSettings);
/** Each kind's own schema: what is wrong is told against the kind the value names, not another union member. */
const kindChecks = new Map(
  (ConnectorSettings.anyOf as readonly { properties: { kind: { const: string } } }[]).map(
    (schema) => [schema.properties.kind.const, Compile(schema as unknown as typeof ConnectorSettings)] as const,
  ),
);

/** Null when valid, else a message naming what is wrong (schema first, then the one-of rules). */
export function connectorProblem(value: unknown): string | null {
  if (!check.Check(value)) {
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (!(CONNECTOR_KINDS as readonly string[]).includes(String(kind))) {
      return `kind must be one of ${CONNECTOR_KINDS.join(', ')}`;
    }
    const errors = [...(kindChecks.get(String(kind)) ?? check).Errors(value)];
    const first = errors.find((e) => e.instancePath !== '') ?? errors[0];
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
    case 'pixelfed':
      return exactlyOne(v.hashtag, v.account, 'hashtag, account');
    case 'misskey':
      return exactlyOne(v.hashtag, v.user, 'hashtag, user');
    case 'peertube':
      return [v.channel, v.account, v.tag ?? v.search].filter((x) => x !== undefined).length === 1
        ? null
        : 'exactly one of channel, account, tag/search is required';
    default:
      return null;
  }
}
