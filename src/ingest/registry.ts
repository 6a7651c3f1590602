// Every connector by kind.
import { blueskyConnector } from './bluesky.js';
import type { Connector } from './connector.js';
import type { ConnectorKind, ConnectorSettings } from '../schemas/connectors.js';
import { lemmyConnector } from './lemmy.js';
import { mastodonConnector } from './mastodon.js';
import { rssConnector } from './rss.js';
import { tiktokConnector } from './tiktok.js';
import { youtubeConnector } from './youtube.js';
import { youtubeDataConnector } from './youtube-data.js';
import { facebookConnector } from './meta/facebook.js';
import { instagramConnector } from './meta/instagram.js';
import { threadsConnector } from './meta/threads.js';
import { pixelfedConnector } from './pixelfed.js';
import { misskeyConnector } from './misskey.js';
import { peertubeConnector } from './peertube.js';
import { xConnector } from './x.js';
import { redditConnector } from './reddit.js';
import { tumblrConnector } from './tumblr.js';
import { flickrConnector } from './flickr.js';

export const CONNECTORS: { [K in ConnectorKind]: Connector<Extract<ConnectorSettings, { kind: K }>> } = {
  rss: rssConnector,
  mastodon: mastodonConnector,
  bluesky: blueskyConnector,
  youtube: youtubeConnector,
  lemmy: lemmyConnector,
  // issue 35, google
  youtube_data: youtubeDataConnector,
  tiktok: tiktokConnector,
  instagram: instagramConnector,
  facebook: facebookConnector,
  threads: threadsConnector,
  pixelfed: pixelfedConnector,
  misskey: misskeyConnector,
  peertube: peertubeConnector,
  x: xConnector,
  reddit: redditConnector,
  tumblr: tumblrConnector,
  flickr: flickrConnector,
};

export function connectorFor(settings: ConnectorSettings): Connector {
  return CONNECTORS[settings.kind] as unknown as Connector;
}
