// The connector setting of a feed: which network and what on it. The same
// object appears in the data file (`feeds[].connector`), the management API
// and the store (feeds.connector, JSON). Base URLs are settings so tests can
// point connectors at local fixture servers.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { CONNECTOR_KINDS } from '../domain/lists.js';
import { HTTP_URL } from './fields.js';

const URL_RULES = { pattern: HTTP_URL, maxLength: 2048 } as const;
/** An http(s) URL (a base URL override without its own label: prefer HttpUrlField). */
export const HttpUrl = Type.String(URL_RULES);
/** An http(s) URL setting with its label and hint (and a placeholder). */
const HttpUrlField = (meta: { title: string; description: string; examples?: string[] }) =>
  Type.String({ ...URL_RULES, ...meta });
// The console's feed form is generated from these schemas (scripts/console-api.ts
// makes web/console/src/api/connectors.gen.ts): a connector object has `title`
// (the network as the form's Network list shows it), `description`, `'x-docs'`
// (its page in the documentation, below /guide), `'x-network'` when it reads with
// a connection of that network, and `'x-one-of'` naming each group of fields of
// which exactly one is set (the form asks which, connectorProblem refuses
// none or two); every field has `title` (its label) and `description` (its
// hint), `examples` for a placeholder.
/** The page of the five first connectors in the documentation. */
const DOCS = '/guides/feeds-and-connectors#connectors';
const INSTANCE = { title: 'Instance URL', description: 'the server’s address' } as const;
const HASHTAG = { title: 'Hashtag', description: 'without the #', examples: ['harbourfest'] } as const;
/** The connection (the operator's credentials, src/connections/) a feed of a network that needs one reads with. */
export const ConnectionId = Type.Integer({
  minimum: 1,
  title: 'Connection',
  description: 'the account’s connection (its credentials for the network) this feed reads with',
});

const Reposts = Type.Optional(
  Type.Union(
    [Type.Literal('skip', { title: 'Leave them out' }), Type.Literal('unwrap', { title: 'Show the post reposted' })],
    {
      title: 'Reposts',
      description: 'boosts/reposts: skip (default) or unwrap',
    },
  ),
);

export const RssConnector = Type.Object(
  {
    kind: Type.Literal('rss'),
    url: HttpUrlField({
      title: 'Feed URL',
      description: 'the address of the RSS or Atom feed',
      examples: ['https://example.com/feed.xml'],
    }),
    channelImage: Type.Optional(
      Type.Boolean({
        title: 'Use the feed’s artwork for posts without a picture',
        description:
          'posts without a picture of their own show the feed’s artwork (a podcast’s itunes:image, else its image or logo); default false',
      }),
    ),
  },
  {
    title: 'RSS or Atom feed',
    description: 'any RSS 2.0 or Atom feed (Media RSS and enclosures included)',
    'x-docs': DOCS,
  },
);

export const MastodonConnector = Type.Object(
  {
    kind: Type.Literal('mastodon'),
    instance: HttpUrlField({ ...INSTANCE, examples: ['https://mastodon.social'] }),
    hashtag: Type.Optional(Type.String({ ...HASHTAG, minLength: 1, maxLength: 200 })),
    account: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        title: 'Account',
        description: 'user or user@domain',
        examples: ['user@mastodon.social'],
      }),
    ),
    reposts: Reposts,
    connectionId: Type.Optional({
      ...ConnectionId,
      title: 'Connection',
      description:
        'a Mastodon connection (an access token of an account on this instance), for instances that require sign-in (GoToSocial, private timelines); absent: read as a visitor',
      'x-network': 'mastodon',
    }),
  },
  {
    title: 'Mastodon',
    description: 'a hashtag timeline or an account’s statuses on one instance (exactly one of hashtag, account)',
    'x-docs': DOCS,
    'x-one-of': [['hashtag', 'account']],
  },
);

export const BlueskyConnector = Type.Object(
  {
    kind: Type.Literal('bluesky'),
    actor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        title: 'Handle or DID',
        description: 'the account’s handle (name.bsky.social) or its DID (did:plc:…)',
        examples: ['name.bsky.social'],
      }),
    ),
    hashtag: Type.Optional(
      Type.String({
        ...HASHTAG,
        minLength: 1,
        maxLength: 200,
        description: 'without the #; a hashtag search needs the instance’s Bluesky app password',
      }),
    ),
    appViewUrl: Type.Optional(
      HttpUrlField({ title: 'App view URL', description: 'default https://public.api.bsky.app' }),
    ),
    serviceUrl: Type.Optional(HttpUrlField({ title: 'Service URL', description: 'default https://bsky.social' })),
    reposts: Reposts,
  },
  {
    title: 'Bluesky',
    description:
      'an author feed (public AppView) or a hashtag search (needs an app password); exactly one of actor, hashtag',
    'x-docs': DOCS,
    'x-one-of': [['actor', 'hashtag']],
  },
);

export const YoutubeConnector = Type.Object(
  {
    kind: Type.Literal('youtube'),
    channelId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        title: 'Channel id',
        description: 'the id in the channel’s address (youtube.com/channel/UC…)',
        examples: ['UCxxxxxxxxxxxxxxxxxxxxxx'],
      }),
    ),
    playlistId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{1,64}$',
        title: 'Playlist id',
        description: 'the list= part of the playlist’s address',
        examples: ['PLxxxxxxxxxxxxxxxx'],
      }),
    ),
    baseUrl: Type.Optional(
      HttpUrlField({ title: 'Base URL', description: 'for a test server; default https://www.youtube.com' }),
    ),
  },
  {
    title: 'YouTube',
    description: 'the public Atom feed of a channel or playlist (exactly one of channelId, playlistId)',
    'x-docs': DOCS,
    'x-one-of': [['channelId', 'playlistId']],
  },
);

export const LemmyConnector = Type.Object(
  {
    kind: Type.Literal('lemmy'),
    instance: HttpUrlField({ ...INSTANCE, examples: ['https://lemmy.world'] }),
    community: Type.String({
      minLength: 1,
      maxLength: 300,
      title: 'Community',
      description: 'its name, or name@instance for a community of another instance',
      examples: ['technology'],
    }),
  },
  { title: 'Lemmy', description: 'a community on a Lemmy instance', 'x-docs': DOCS },
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
