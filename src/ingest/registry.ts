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

export const CONNECTORS: { [K in ConnectorKind]: Connector<Extract<ConnectorSettings, { kind: K }>> } = {
  rss: rssConnector,
  mastodon: mastodonConnector,
  bluesky: blueskyConnector,
  youtube: youtubeConnector,
  lemmy: lemmyConnector,
  // issue 35, google
  youtube_data: youtubeDataConnector,
  tiktok: tiktokConnector,
};

export function connectorFor(settings: ConnectorSettings): Connector {
  return CONNECTORS[settings.kind] as unknown as Connector;
}
