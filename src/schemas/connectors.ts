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
    connectionId: Type.Optional({
      ...ConnectionId,
      title: 'Connection',
      description:
        'a Mastodon connection (an access token of an account on this instance), for instances that require sign-in (GoToSocial, private timelines); absent: read as a visitor',
      'x-network': 'mastodon',
    }),
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

export const ConnectorSettings = Type.Union([
  RssConnector,
  MastodonConnector,
  BlueskyConnector,
  YoutubeConnector,
  LemmyConnector,
]);
export type ConnectorSettings = Static<typeof ConnectorSettings>;
export type ConnectorKind = ConnectorSettings['kind'];

const check = Compile(ConnectorSettings);

/** Null when valid, else a message naming what is wrong (schema first, then the one-of rules). */
export function connectorProblem(value: unknown): string | null {
  if (!check.Check(value)) {
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (!(CONNECTOR_KINDS as readonly string[]).includes(String(kind))) {
      return `kind must be one of ${CONNECTOR_KINDS.join(', ')}`;
    }
    const first = [...check.Errors(value)].find((e) => e.instancePath !== '') ?? [...check.Errors(value)][0];
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
    default:
      return null;
  }
}
