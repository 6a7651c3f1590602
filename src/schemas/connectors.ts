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

// ---------- xsocial (issue 35): X, Reddit, Tumblr, Flickr ----------

/** A test or self-hosted server in place of the network's API. */
const ApiBaseUrl = (defaultUrl: string) =>
  Type.Optional(
    Type.String({
      pattern: HTTP_URL,
      maxLength: 2048,
      title: 'API base URL',
      description: `for a self-hosted or test server; default ${defaultUrl}`,
    }),
  );

export const XConnector = Type.Object(
  {
    kind: Type.Literal('x'),
    connectionId: { ...ConnectionId, title: 'Connection' },
    query: Type.String({
      minLength: 1,
      maxLength: 512,
      title: 'Search query',
      description:
        'an X recent-search query, e.g. "#harbourfest has:media -is:retweet" (reposts are never shown; leaving them out of the query saves their cost)',
    }),
    maxPostsPerPoll: Type.Optional(
      Type.Integer({
        minimum: 10,
        maximum: 1000,
        title: 'Posts per poll (at most)',
        description:
          'X bills every post it returns: one poll reads at most this many, the newest (default 100; a burst beyond it is not read)',
      }),
    ),
    deletionChecks: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        title: 'Deletion checks',
        description:
          'the newest stored posts looked up again on every poll, so posts deleted on X leave the wall (default 100; X bills each post found, once a day; 0: none)',
      }),
    ),
    apiBaseUrl: ApiBaseUrl('https://api.x.com'),
  },
  {
    title: 'X',
    description: 'posts of the last 7 days matching a search query (X API v2 recent search, bearer token)',
    'x-network': 'x',
    'x-docs': '/networks/x',
  },
);

export const RedditConnector = Type.Object(
  {
    kind: Type.Literal('reddit'),
    subreddit: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9][A-Za-z0-9_]{1,20}$',
        title: 'Subreddit',
        description: 'its name without r/, e.g. "trailrunning": its new posts, or the search within it',
      }),
    ),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        title: 'Search',
        description: 'a Reddit search (newest first), across Reddit or within the subreddit',
      }),
    ),
    connectionId: Type.Optional({
      ...ConnectionId,
      title: 'Connection',
      description: 'a Reddit app’s token (oauth.reddit.com, higher limits); without one, the public JSON is read',
    }),
    apiBaseUrl: ApiBaseUrl('https://www.reddit.com (https://oauth.reddit.com with a connection)'),
  },
  {
    title: 'Reddit',
    description: 'a subreddit’s new posts or a search (at least one of subreddit, search)',
    'x-docs': '/networks/reddit',
  },
);

export const TumblrConnector = Type.Object(
  {
    kind: Type.Literal('tumblr'),
    connectionId: { ...ConnectionId, title: 'Connection' },
    tag: Type.String({
      minLength: 1,
      maxLength: 200,
      title: 'Tag',
      description: 'the tag, without #, e.g. "harbourfest"',
    }),
    apiBaseUrl: ApiBaseUrl('https://api.tumblr.com'),
  },
  {
    title: 'Tumblr',
    description: 'public posts with a tag (needs an app’s consumer key)',
    'x-network': 'tumblr',
    'x-docs': '/networks/tumblr',
  },
);

export const FlickrConnector = Type.Object(
  {
    kind: Type.Literal('flickr'),
    connectionId: { ...ConnectionId, title: 'Connection' },
    tags: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        title: 'Tags',
        description: 'comma-separated tags, e.g. "harbourfest,harbourfest2026"',
      }),
    ),
    tagMode: Type.Optional(
      Type.Union([Type.Literal('any'), Type.Literal('all')], {
        title: 'Tag mode',
        description: 'any: photos with any of the tags (default); all: only photos with every tag',
      }),
    ),
    userId: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,20}@N[0-9]{2}$',
        title: 'User id',
        description: 'a member’s NSID, e.g. "12345678@N01": their photos (with the tags, when given)',
      }),
    ),
    apiBaseUrl: ApiBaseUrl('https://www.flickr.com/services/rest'),
  },
  {
    title: 'Flickr',
    description: 'public photos and videos with tags, or a member’s (at least one of tags, userId; needs an API key)',
    'x-network': 'flickr',
    'x-docs': '/networks/flickr',
  },
);

export const ConnectorSettings = Type.Union([
  RssConnector,
  MastodonConnector,
  BlueskyConnector,
  YoutubeConnector,
  LemmyConnector,
  XConnector,
  RedditConnector,
  TumblrConnector,
  FlickrConnector,
]);
export type ConnectorSettings = Static<typeof ConnectorSettings>;
export type ConnectorKind = ConnectorSettings['kind'];

const check = Compile(ConnectorSettings);
/** each kind's own schema: a bad setting is named against its kind's fields, not another kind's */
const checkOfKind = new Map(
  ConnectorSettings.anyOf.map((variant) => [String(variant.properties.kind.const), Compile(variant)] as const),
);

/** Null when valid, else a message naming what is wrong (schema first, then the one-of rules). */
export function connectorProblem(value: unknown): string | null {
  if (!check.Check(value)) {
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (!(CONNECTOR_KINDS as readonly string[]).includes(String(kind))) {
      return `kind must be one of ${CONNECTOR_KINDS.join(', ')}`;
    }
    const errors = [...(checkOfKind.get(String(kind)) ?? check).Errors(value)];
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
    case 'reddit':
      return v.subreddit === undefined && v.search === undefined
        ? 'at least one of subreddit, search is required'
        : null;
    case 'flickr':
      return v.tags === undefined && v.userId === undefined ? 'at least one of tags, userId is required' : null;
    default:
      return null;
  }
}
