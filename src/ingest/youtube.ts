// YouTube: the public Atom feed of a channel or playlist
// (`/feeds/videos.xml?channel_id=…` / `?playlist_id=…`), Atom with the `yt:`
// and Media RSS namespaces. Every entry is a video post: the player (embed)
// URL is its media file, the watch page its file and link, the thumbnail its
// picture; the star rating, where the feed carries one, is its rating. The
// author is the entry's (else the feed's) name, the username the channel's
// handle when the feed links it, else that name — never the channel id.
import type { Static } from 'typebox';
import { ACCEPT_FEED, isObject, type Connector, type PollOutput, type UpstreamPost } from './connector.js';
import type { YoutubeConnector } from './connector-settings.js';
import { escapeHtml, hashtagsIn, httpUrl, parseInstant, plainText, textToHtml } from './normalize.js';
import { atomLink, attr, feedDocument, textOf, type ParsedFeed } from './rss.js';

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

function entryPost(feed: ParsedFeed, entry: Record<string, unknown>, base: string): UpstreamPost | null {
  const videoId = (textOf(entry['yt:videoId']) || textOf(entry.id).replace(/^yt:video:/, '')).trim();
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(videoId)) return null;
  const group =
    Array.isArray(entry['media:group']) && isObject(entry['media:group'][0])
      ? (entry['media:group'][0] as Record<string, unknown>)
      : {};
  const title = plainText(textOf(group['media:title']) || textOf(entry.title));
  const description = plainText(textOf(group['media:description']), true);
  const watch = atomLink(entry, base) || `https://www.youtube.com/watch?v=${videoId}`;
  const thumb = httpUrl(attr(group['media:thumbnail'], 'url')) || `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`;
  const community = isObject(group['media:community']) ? group['media:community'] : {};
  const stars = community['media:starRating'];
  const count = Number(attr(stars, 'count'));
  const average = Number(attr(stars, 'average'));
  const author = Array.isArray(entry.author) ? entry.author[0] : entry.author;
  const authorName = plainText(textOf(isObject(author) ? author.name : '')) || feed.author || feed.title;
  return {
    externalId: videoId,
    content: `${title ? `<p><strong>${escapeHtml(title)}</strong></p>` : ''}${description ? textToHtml(description) : ''}`,
    authorName,
    username: channelHandle(feed.link) || authorName,
    // the feed names no channel picture; a feed that has an icon or logo gives it
    userPicture: feed.image,
    linkUrl: watch,
    createdAt: parseInstant(textOf(entry.published)) ?? parseInstant(textOf(entry.updated)),
    updatedAt: parseInstant(textOf(entry.updated)),
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
    const { rows, skipped } = await parse(res, 'feed');
    return { rows, cursor: null, notModified: false, skipped };
  },
  documents: { feed: feedDocument(entryPost) },
};
