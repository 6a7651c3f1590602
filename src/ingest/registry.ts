// Every connector by kind.
import { blueskyConnector } from './bluesky.js';
import type { Connector } from './connector.js';
import type { ConnectorKind, ConnectorSettings } from '../schemas/connectors.js';
import { lemmyConnector } from './lemmy.js';
import { mastodonConnector } from './mastodon.js';
import { rssConnector } from './rss.js';
import { youtubeConnector } from './youtube.js';
import { pixelfedConnector } from './pixelfed.js';
import { misskeyConnector } from './misskey.js';
import { peertubeConnector } from './peertube.js';

export const CONNECTORS: { [K in ConnectorKind]: Connector<Extract<ConnectorSettings, { kind: K }>> } = {
  rss: rssConnector,
  mastodon: mastodonConnector,
  bluesky: blueskyConnector,
  youtube: youtubeConnector,
  lemmy: lemmyConnector,
  pixelfed: pixelfedConnector,
  misskey: misskeyConnector,
  peertube: peertubeConnector,
};

export function connectorFor(settings: ConnectorSettings): Connector {
  return CONNECTORS[settings.kind] as unknown as Connector;
}
