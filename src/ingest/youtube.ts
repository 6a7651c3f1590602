// YouTube: the public Atom feed of a channel or playlist
// (`/feeds/videos.xml?channel_id=…` / `?playlist_id=…`), Atom with the `yt:`
// and Media RSS namespaces. Every entry is a video post: the player (embed)
// URL is its media file, the watch page its file and link, the thumbnail its
// picture; the star rating, where the feed carries one, is its rating. The
// author is the entry's (else the feed's) name, the username the channel's
// handle when the feed links it, else that name — never the channel id.
import type { Static } from 'typebox';
import { ACCEPT_FEED, type Connector, type PollOutput, type UpstreamPost } from './connector.js';
import type { YoutubeConnector } from '../schemas/connectors.js';
import { attrOf, child, childText, textIn, type XElement } from './feed-xml.js';
import { escapeHtml, hashtagsIn, httpUrl, plainText, textToHtml } from './normalize.js';
import { atomLink, feedDocument, itemDates, type ParsedFeed } from './rss.js';

type YoutubeSettings = Static<typeof YoutubeConnector>;

export const YOUTUBE_BASE_URL = 'https://www.youtube.com';

export function youtubeFeedUrl(settings: YoutubeSettings): string {
  const base = (settings.baseUrl ?? YOUTUBE_BASE_URL).replace(/\/+$/, '');
  const query =
    settings.channelId !== undefined
      ? `channel_id=${encodeURIComponent(settings.channelId)}`
      : `playlist_id=${encodeURIComponent(settings.playlistId ?? '')}`;
  return `${base}/feeds/videos.xml?${query}`;
}

/**
 * The channel's handle or legacy user name, from the feed's link to the
 * channel page (`/@handle`, `/user/name`, `/c/name`); '' for a
 * `/channel/UC…` link, which names only the channel id.
 */
export function channelHandle(link: string): string {
  let path: string;
  try {
    path = decodeURIComponent(new URL(link).pathname);
  } catch {
    return '';
  }
  const m = /^\/(?:@|user\/|c\/)([^/]+)\/?$/.exec(path);
  return m ? m[1]! : '';
}

function entryPost(feed: ParsedFeed, entry: XElement): UpstreamPost | null {
  const videoId = (childText(entry, 'yt:videoid') || childText(entry, 'atom:id').replace(/^yt:video:/, '')).trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(videoId)) return null;
  const group = child(entry, 'media:group');
  const title = plainText(childText(group, 'media:title') || childText(entry, 'atom:title'));
  const description = plainText(textIn(child(group, 'media:description')), true);
  const watch = atomLink(entry, feed.documentUrl) || `https://www.youtube.com/watch?v=${videoId}`;
  const thumb =
    httpUrl(attrOf(child(group, 'media:thumbnail'), 'url')) || `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`;
  const stars = child(child(group, 'media:community'), 'media:starrating');
  const count = Number(attrOf(stars, 'count'));
  const average = Number(attrOf(stars, 'average'));
  const authorName = plainText(childText(child(entry, 'atom:author'), 'atom:name')) || feed.author || feed.title;
  const { published, updated } = itemDates('atom', entry);
  return {
    externalId: videoId,
    content: `${title ? `<p><strong>${escapeHtml(title)}</strong></p>` : ''}${description ? textToHtml(description) : ''}`,
    authorName,
    username: channelHandle(feed.link) || authorName,
    // the feed names no channel picture; a feed that has an icon or logo gives it
    userPicture: feed.image,
    linkUrl: watch,
    createdAt: published ?? updated,
    updatedAt: updated,
    // the feed links the legacy /v/ player; the embed player is what plays today
    media: [{ kind: 'video', url: `https://www.youtube.com/embed/${videoId}`, thumb, original: watch }],
    tags: hashtagsIn(`${title}\n${description}`),
    sensitive: false,
    rating: Number.isFinite(count) && count > 0 && Number.isFinite(average) ? average : null,
  };
}

export const youtubeConnector: Connector<YoutubeSettings> = {
  kind: 'youtube',
  network: 'YouTube',
  sourceType: (s) => (s.channelId !== undefined ? 'channel' : 'playlist'),
  async poll({ settings, http, parse }): Promise<PollOutput> {
    const url = youtubeFeedUrl(settings);
    const res = await http.request(url, { accept: ACCEPT_FEED, conditional: true });
    if (res.notModified) return { rows: [], cursor: null, notModified: true, skipped: 0 };
    const { rows, skipped, warnings } = await parse(res, 'feed');
    return { rows, cursor: null, notModified: false, skipped, warnings };
  },
  documents: { feed: feedDocument(entryPost) },
};
