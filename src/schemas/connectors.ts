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

// ---------- shared by the connectors of issue 35 ----------

const Order = Type.Optional(
  Type.Union([Type.Literal('recent'), Type.Literal('top')], {
    title: 'Order',
    description: 'recent (default): the newest first; top: the most popular',
  }),
);
const MetaConnection = Type.Integer({
  minimum: 1,
  title: 'Connection',
  description: 'the account’s connection (its credentials for the network) this feed reads with',
});
const ApiBaseUrl = (defaultUrl: string) =>
  Type.Optional(
    Type.String({
      pattern: HTTP_URL,
      maxLength: 2048,
      title: 'API base URL',
      description: `for a self-hosted or test server; default ${defaultUrl}`,
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
        examples: ['@GoogleDevelopers'],
        'x-when': { mode: 'uploads' },
        'x-when-required': true,
      }),
    ),
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        title: 'Search',
        description: 'search: keywords or a #hashtag, as in YouTube’s search box (| for OR, - to exclude)',
        'x-when': { mode: 'search' },
        'x-when-required': true,
      }),
    ),
    videoId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{11}$',
        title: 'Live video',
        description: 'live_chat: the id of the live broadcast’s video (the v= of its watch URL)',
        examples: ['jfKfPfyJRdk'],
        'x-when': { mode: 'live_chat' },
        'x-when-required': true,
      }),
    ),
    searchEveryMinutes: Type.Optional(
      Type.Integer({
        minimum: 15,
        maximum: 1440,
        title: 'Search every (minutes)',
        'x-when': { mode: 'search' },
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

// ---------- Meta's Graph APIs: Instagram, Facebook Page posts, Threads (src/ingest/meta/) ----------

export const InstagramConnector = Type.Object(
  {
    kind: Type.Literal('instagram'),
    connectionId: MetaConnection,
    follow: Type.Union([Type.Literal('hashtag'), Type.Literal('media'), Type.Literal('tags')], {
      title: 'Follow',
      description:
        'hashtag: public media with a hashtag; media: the connected account’s own posts; tags: media the account is tagged in',
    }),
    hashtag: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^#?[^\\s#]+$',
        title: 'Hashtag',
        description: 'without or with its #; one account may search 30 different hashtags in 7 days',
        examples: ['harborfest'],
        'x-when': { follow: 'hashtag' },
        'x-when-required': true,
      }),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal('recent'), Type.Literal('top')], {
        title: 'Order',
        description: 'recent (default): the newest first; top: the most popular',
        'x-when': { follow: 'hashtag' },
      }),
    ),
    apiBaseUrl: ApiBaseUrl('https://graph.facebook.com/v26.0'),
  },
  {
    title: 'Instagram',
    description: 'a hashtag, an Instagram business or creator account’s own media, or the media it is tagged in',
    'x-network': 'instagram',
    'x-docs': '/networks/instagram',
  },
);

export const FacebookConnector = Type.Object(
  {
    kind: Type.Literal('facebook'),
    connectionId: MetaConnection,
    pageId: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,32}$',
        title: 'Page ID',
        description: 'the Facebook Page whose posts to show; default the Page the connection was made for',
      }),
    ),
    apiBaseUrl: ApiBaseUrl('https://graph.facebook.com/v26.0'),
  },
  {
    title: 'Facebook',
    description: 'the posts of a Facebook Page the connection manages',
    'x-network': 'facebook',
    'x-docs': '/networks/facebook',
  },
);

export const ThreadsConnector = Type.Object(
  {
    kind: Type.Literal('threads'),
    connectionId: MetaConnection,
    keyword: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        title: 'Keyword',
        description: 'public posts with these words; a #tag searches the topic tag',
      }),
    ),
    username: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^@?[A-Za-z0-9._]+$',
        title: 'Profile',
        description: 'a profile’s posts: the connected account’s (its username, or me) or another public profile’s',
      }),
    ),
    order: Order,
    reposts: Type.Optional(
      Type.Union([Type.Literal('skip'), Type.Literal('unwrap')], {
        title: 'Reposts',
        description: 'a profile’s reposts: skip (default) or unwrap (show the reposted post)',
      }),
    ),
    apiBaseUrl: ApiBaseUrl('https://graph.threads.net/v1.0'),
  },
  {
    title: 'Threads',
    description: 'a keyword search or a profile’s posts on Threads (exactly one of keyword, username)',
    'x-network': 'threads',
    'x-docs': '/networks/threads',
    'x-one-of': [['keyword', 'username']],
  },
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
    'x-one-of': [['hashtag', 'account']],
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
    'x-one-of': [['hashtag', 'user']],
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
    'x-one-of': [['channel', 'account', 'tag', 'search']],
  },
);

// ---------- xsocial (issue 35): X, Reddit, Tumblr, Flickr ----------

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
      'x-network': 'reddit',
    }),
    apiBaseUrl: ApiBaseUrl('https://www.reddit.com (https://oauth.reddit.com with a connection)'),
  },
  {
    title: 'Reddit',
    description: 'a subreddit’s new posts or a search (at least one of subreddit, search)',
    'x-docs': '/networks/reddit',
    'x-any-of': [['subreddit', 'search']],
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
        examples: ['12345678@N01'],
      }),
    ),
    apiBaseUrl: ApiBaseUrl('https://www.flickr.com/services/rest'),
  },
  {
    title: 'Flickr',
    description: 'public photos and videos with tags, or a member’s (at least one of tags, userId; needs an API key)',
    'x-network': 'flickr',
    'x-docs': '/networks/flickr',
    'x-any-of': [['tags', 'userId']],
  },
);

export const ConnectorSettings = Type.Union([
  RssConnector,
  MastodonConnector,
  BlueskyConnector,
  YoutubeConnector,
  LemmyConnector,
  YoutubeDataConnector,
  TiktokConnector,
  InstagramConnector,
  FacebookConnector,
  ThreadsConnector,
  PixelfedConnector,
  MisskeyConnector,
  PeertubeConnector,
  XConnector,
  RedditConnector,
  TumblrConnector,
  FlickrConnector,
]);
export type ConnectorSettings = Static<typeof ConnectorSettings>;
export type ConnectorKind = ConnectorSettings['kind'];

const check = Compile(ConnectorSettings);
/** each kind's own schema, for a message about the kind the setting names (not another member of the union) */
const checkKind = new Map(
  ConnectorSettings.anyOf.map((schema) => [schema.properties.kind.const as string, Compile(schema)]),
);

/** Null when valid, else a message naming what is wrong (schema first, then the one-of rules). */
export function connectorProblem(value: unknown): string | null {
  if (!check.Check(value)) {
    const kind = (value as { kind?: unknown } | null)?.kind;
    if (!(CONNECTOR_KINDS as readonly string[]).includes(String(kind))) {
      return `kind must be one of ${CONNECTOR_KINDS.join(', ')}`;
    }
    const own = checkKind.get(String(kind)) ?? check;
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
    case 'instagram':
      if (v.follow === 'hashtag') return v.hashtag === undefined ? 'hashtag is required to follow a hashtag' : null;
      if (v.hashtag !== undefined || v.order !== undefined) return `hashtag and order are for follow: hashtag only`;
      return null;
    case 'threads':
      if (v.order !== undefined && v.keyword === undefined) return 'order is for a keyword search only';
      return exactlyOne(v.keyword, v.username, 'keyword, username');
    case 'pixelfed':
      return exactlyOne(v.hashtag, v.account, 'hashtag, account');
    case 'misskey':
      return exactlyOne(v.hashtag, v.user, 'hashtag, user');
    case 'peertube':
      return [v.channel, v.account, v.tag ?? v.search].filter((x) => x !== undefined).length === 1
        ? null
        : 'exactly one of channel, account, tag/search is required';
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
