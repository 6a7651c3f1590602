// Every connector by kind.
import { blueskyConnector } from './bluesky.js';
import type { Connector } from './connector.js';
import type { ConnectorKind, ConnectorSettings } from '../schemas/connectors.js';
import { lemmyConnector } from './lemmy.js';
import { mastodonConnector } from './mastodon.js';
import { rssConnector } from './rss.js';
import { youtubeConnector } from './youtube.js';
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
  x: xConnector,
  reddit: redditConnector,
  tumblr: tumblrConnector,
  flickr: flickrConnector,
};

export function connectorFor(settings: ConnectorSettings): Connector {
  return CONNECTORS[settings.kind] as unknown as Connector;
}
