// YouTube Data API v3 (the `youtube_data` kind; the keyless `youtube` kind
// reads the public Atom feed). Three feed types:
//
// - `uploads`: a channel's videos. `channels.list` (part=snippet,contentDetails,
//   by id or handle) once a day gives the uploads playlist, the channel's name,
//   handle and picture (kept in the cursor); `playlistItems.list` pages the
//   playlist newest first — the first poll reads one page, later polls go on
//   while everything on a page is new, at most `maxPages` — and `videos.list`
//   reads the videos themselves (full description, thumbnails, age rating,
//   privacy). Deleted and private videos the playlist still lists, videos
//   `videos.list` no longer returns, and stored videos inside the listing's
//   time span that it no longer lists are reported `deleted`.
// - `search`: `search.list` (type=video, order=date, q=…) from an hour before
//   the newest video seen (`publishedAfter`), at most SEARCH_PAGES pages, then
//   `videos.list` for the videos and `channels.list` for their channels'
//   pictures; stored videos are re-checked with `videos.list` (1 unit). A
//   search costs 100 quota units a page: the next search waits
//   `searchEveryMinutes` (default 30).
// - `live_chat`: `videos.list` part=liveStreamingDetails gives the broadcast's
//   `activeLiveChatId` (kept in the cursor); each poll reads one page of
//   `liveChat/messages` from the cursor's `pageToken` and waits the
//   `pollingIntervalMillis` the API asks for. Text messages are text posts by
//   their authors; a `messageDeletedEvent` deletes the stored message.
//
// Quota (10,000 units a day per Google Cloud project by default): channels,
// playlistItems and videos cost 1 unit a call, search 100, liveChat/messages 5.
//
// Credentials: an OAuth access token (Bearer) or an API key, sent in the
// `x-goog-api-key` header (never in a URL, which would end up in stored
// validators or error messages). Google's error body names a reason
// (`error.errors[].reason`, `error.details[].reason`): quotaExceeded waits
// until the daily quota resets at midnight Pacific time; an invalid key or a
// refused token fails the feed and marks the connection.
import type { Static } from 'typebox';
import type { IngestedPost } from '../store/ingest.js';
import {
  ConnectorSetupError,
  CredentialError,
  UpstreamError,
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  requireCredential,
  type Connector,
  type ConnectorCredential,
  type DocumentParser,
  type HttpResult,
  type MetaOf,
  type PollInput,
  type PollOutput,
  type UpstreamPost,
  type Withheld,
} from './connector.js';
import type { YoutubeDataConnector } from '../schemas/connectors.js';
import { escapeHtml, hashtagsIn, httpUrl, parseInstant, plainText, str, textToHtml } from './normalize.js';
import { hostOf } from './url-parts.js';

type Settings = Static<typeof YoutubeDataConnector>;
type Json = Record<string, unknown>;

export const YOUTUBE_API_URL = 'https://www.googleapis.com/youtube/v3';
/** most items `playlistItems.list`, `search.list` and `videos.list` return at once */
export const PAGE_SIZE = 50;
/** most `search.list` pages one poll reads (100 quota units each) */
export const SEARCH_PAGES = 3;
/** a search reaches this far back before the newest video seen (the search index lags behind uploads) */
export const SEARCH_OVERLAP_MS = 3_600_000;
export const DEFAULT_SEARCH_EVERY_MINUTES = 30;
/** how long the channel's uploads playlist, name and picture are kept before they are read again */
const CHANNEL_TTL_MS = 86_400_000;
/** most chat messages one `liveChat/messages` call returns (the API's maximum) */
export const CHAT_PAGE_SIZE = 2000;
/** the least wait after a `rateLimitExceeded` (requests sent faster than YouTube allows) */
const RATE_LIMIT_WAIT_MS = 60_000;

interface Channel {
  id: string;
  title: string;
  /** `@handle` ('' when the channel has none) */
  handle: string;
  picture: string;
  uploads: string;
}

interface YoutubeCursor {
  /** uploads: the channel, as last read */
  channel?: Channel;
  channelAt?: number;
  /** uploads and search: the newest publish time seen (epoch ms) */
  newest?: number;
  /** live_chat */
  liveChatId?: string;
  pageToken?: string;
}

function readCursor(raw: unknown): YoutubeCursor {
  if (!isObject(raw)) return {};
  const out: YoutubeCursor = {};
  const ch = raw.channel;
  if (isObject(ch) && typeof ch.id === 'string' && typeof ch.uploads === 'string') {
    out.channel = {
      id: ch.id,
      uploads: ch.uploads,
      title: str(ch.title),
      handle: str(ch.handle),
      picture: str(ch.picture),
    };
  }
  if (typeof raw.channelAt === 'number') out.channelAt = raw.channelAt;
  if (typeof raw.newest === 'number' && Number.isFinite(raw.newest)) out.newest = raw.newest;
  if (typeof raw.liveChatId === 'string' && raw.liveChatId !== '') out.liveChatId = raw.liveChatId;
  if (typeof raw.pageToken === 'string' && raw.pageToken !== '') out.pageToken = raw.pageToken;
  return out;
}

export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
export const embedUrl = (videoId: string) => `https://www.youtube.com/embed/${encodeURIComponent(videoId)}`;

/** The next midnight in `timeZone` after `ms` (YouTube's daily quota resets at midnight Pacific time). */
export function nextMidnightIn(timeZone: string, ms: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  // the zone's wall clock read as if it were UTC, minus the instant: the zone's offset
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  const offset = wall - Math.floor(ms / 1000) * 1000;
  const midnightWall = Date.UTC(part('year'), part('month') - 1, part('day') + 1);
  const guess = midnightWall - offset;
  // a daylight-saving change between now and midnight moves the offset by an hour
  const check = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: 'numeric' }).format(guess);
  const hour = Number(check);
  return hour === 0 ? guess : hour === 23 ? guess + 3_600_000 : guess - 3_600_000;
}

// ---------- documents (parse worker) ----------

function itemsOf(data: unknown, what: string, where: string): Json[] {
  if (!isObject(data) || (data.items !== undefined && !Array.isArray(data.items)))
    throw new UpstreamFormatError(`expected ${what} from ${where}`);
  return ((data.items as unknown[] | undefined) ?? []).filter(isObject);
}

/** Google's error body: `{ error: { code, message, status, errors: [{ reason }], details: [{ reason }] } }`. */
export interface ApiErrorMeta {
  reasons: string[];
  message: string;
}

const errorDocument = ((doc) => {
  let data: unknown = null;
  try {
    data = parseJson(doc);
  } catch {
    data = null;
  }
  const error = isObject(data) && isObject(data.error) ? data.error : {};
  const reasons = [
    ...(Array.isArray(error.errors) ? error.errors : []),
    ...(Array.isArray(error.details) ? error.details : []),
  ]
    .filter(isObject)
    .map((e) => str(e.reason))
    .filter((r) => /^[A-Za-z_]{1,80}$/.test(r));
  if (typeof error.status === 'string' && /^[A-Z_]{1,80}$/.test(error.status)) reasons.push(error.status);
  // the quota message links the docs in HTML
  const message = plainText(str(error.message)).replace(/\s+/g, ' ').trim().slice(0, 200);
  return { posts: [], skipped: 0, meta: { reasons: [...new Set(reasons)], message } satisfies ApiErrorMeta };
}) satisfies DocumentParser<Settings>;

const bestThumb = (thumbnails: unknown): string => {
  if (!isObject(thumbnails)) return '';
  for (const size of ['maxres', 'standard', 'high', 'medium', 'default']) {
    const t = thumbnails[size];
    if (isObject(t) && httpUrl(t.url)) return httpUrl(t.url);
  }
  return '';
};

const channelsDocument = ((doc) => {
  const items = itemsOf(parseJson(doc), 'a channel list', hostOf(doc.url));
  const channels: Channel[] = items.map((c) => {
    const snippet = isObject(c.snippet) ? c.snippet : {};
    const related =
      isObject(c.contentDetails) && isObject(c.contentDetails.relatedPlaylists)
        ? c.contentDetails.relatedPlaylists
        : {};
    const custom = str(snippet.customUrl);
    const thumbs = isObject(snippet.thumbnails) ? snippet.thumbnails : {};
    const picture = ['medium', 'default', 'high']
      .map((k) => (isObject(thumbs[k]) ? httpUrl((thumbs[k] as Json).url) : ''))
      .find((u) => u !== '');
    return {
      id: str(c.id),
      title: plainText(str(snippet.title)),
      handle: custom.startsWith('@') ? custom : '',
      picture: picture ?? '',
      uploads: str(related.uploads),
    };
  });
  return { posts: [], skipped: 0, meta: { channels: channels.filter((c) => c.id !== '') } };
}) satisfies DocumentParser<Settings>;

/** Titles YouTube gives playlist items whose video is gone. */
const GONE_TITLES = new Set(['Deleted video', 'Private video']);

const playlistItemsDocument = ((doc) => {
  const data = parseJson(doc);
  const items = itemsOf(data, 'playlist items', hostOf(doc.url)).map((item) => {
    const snippet = isObject(item.snippet) ? item.snippet : {};
    const details = isObject(item.contentDetails) ? item.contentDetails : {};
    const status = isObject(item.status) ? item.status : {};
    const videoId = str(details.videoId) || (isObject(snippet.resourceId) ? str(snippet.resourceId.videoId) : '');
    const privacy = str(status.privacyStatus);
    return {
      videoId,
      publishedAt: parseInstant(details.videoPublishedAt) ?? parseInstant(snippet.publishedAt),
      gone:
        privacy === 'private' || privacy === 'privacyStatusUnspecified' || GONE_TITLES.has(str(snippet.title).trim()),
    };
  });
  return {
    posts: [],
    skipped: 0,
    meta: {
      items: items.filter((i) => /^[A-Za-z0-9_-]{1,64}$/.test(i.videoId)),
      nextPageToken: isObject(data) ? str(data.nextPageToken) : '',
    },
  };
}) satisfies DocumentParser<Settings>;

const searchDocument = ((doc) => {
  const data = parseJson(doc);
  const found = itemsOf(data, 'search results', hostOf(doc.url)).map((item) => ({
    videoId: isObject(item.id) ? str(item.id.videoId) : '',
    publishedAt: parseInstant(isObject(item.snippet) ? item.snippet.publishedAt : undefined),
  }));
  return {
    posts: [],
    skipped: 0,
    meta: {
      items: found.filter((i) => /^[A-Za-z0-9_-]{1,64}$/.test(i.videoId)),
      nextPageToken: isObject(data) ? str(data.nextPageToken) : '',
    },
  };
}) satisfies DocumentParser<Settings>;

/** A public video → a video post; a private or unlisted one is withheld. */
function videoPost(video: Json): UpstreamPost | Withheld | null {
  const id = str(video.id);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  const status = isObject(video.status) ? video.status : {};
  const privacy = str(status.privacyStatus);
  if (privacy !== '' && privacy !== 'public') return { withheld: id };
  const snippet = isObject(video.snippet) ? video.snippet : null;
  if (!snippet) return null;
  const title = plainText(str(snippet.title));
  const description = plainText(str(snippet.description), true);
  const rating =
    isObject(video.contentDetails) && isObject(video.contentDetails.contentRating)
      ? str(video.contentDetails.contentRating.ytRating)
      : '';
  const channelTitle = plainText(str(snippet.channelTitle));
  return {
    externalId: id,
    content: `${title ? `<p><strong>${escapeHtml(title)}</strong></p>` : ''}${description ? textToHtml(description) : ''}`,
    authorName: channelTitle,
    username: channelTitle,
    userPicture: '',
    linkUrl: watchUrl(id),
    createdAt: parseInstant(snippet.publishedAt),
    updatedAt: null,
    media: [
      {
        kind: 'video',
        url: embedUrl(id),
        thumb: bestThumb(snippet.thumbnails) || `https://i.ytimg.com/vi/${id}/hqdefault.jpg`,
        original: watchUrl(id),
      },
    ],
    tags: hashtagsIn(`${title}\n${description}`),
    // age-restricted videos arrive hidden
    sensitive: rating === 'ytAgeRestricted',
  };
}

interface LiveDetails {
  activeLiveChatId: string;
  actualEndTime: number | null;
}

const videosDocument = ((doc) => {
  const videos = itemsOf(parseJson(doc), 'a video list', hostOf(doc.url));
  const { posts, skipped, withheld } = collectPosts(videos, videoPost);
  const channelOf: Record<string, string> = {};
  const live: Record<string, LiveDetails | null> = {};
  for (const v of videos) {
    const id = str(v.id);
    if (isObject(v.snippet)) channelOf[id] = str(v.snippet.channelId);
    const details = isObject(v.liveStreamingDetails) ? v.liveStreamingDetails : null;
    live[id] = details
      ? { activeLiveChatId: str(details.activeLiveChatId), actualEndTime: parseInstant(details.actualEndTime) }
      : null;
  }
  return {
    posts,
    skipped,
    withheld,
    meta: { ids: videos.map((v) => str(v.id)).filter((id) => id !== ''), channelOf, live },
  };
}) satisfies DocumentParser<Settings>;

/** A chat's text message → a text post by its author. */
function chatPost(message: Json, videoId: string): UpstreamPost | null {
  const snippet = isObject(message.snippet) ? message.snippet : {};
  const author = isObject(message.authorDetails) ? message.authorDetails : {};
  const id = str(message.id);
  const details = isObject(snippet.textMessageDetails) ? snippet.textMessageDetails : {};
  const text = plainText(str(details.messageText) || str(snippet.displayMessage), true);
  if (id === '' || text.trim() === '') return null;
  const name = plainText(str(author.displayName));
  return {
    externalId: id,
    content: textToHtml(text),
    authorName: name.replace(/^@/, ''),
    username: name,
    userPicture: httpUrl(author.profileImageUrl),
    linkUrl: watchUrl(videoId),
    createdAt: parseInstant(snippet.publishedAt),
    updatedAt: null,
    media: [],
    tags: hashtagsIn(text),
    sensitive: false,
  };
}

const liveChatDocument = ((doc, settings) => {
  const data = parseJson(doc);
  const messages = itemsOf(data, 'live chat messages', hostOf(doc.url));
  const deleted: string[] = [];
  const texts: Json[] = [];
  for (const m of messages) {
    const snippet = isObject(m.snippet) ? m.snippet : {};
    const type = str(snippet.type);
    if (type === 'textMessageEvent') texts.push(m);
    else if (type === 'messageDeletedEvent' && isObject(snippet.messageDeletedDetails)) {
      const gone = str(snippet.messageDeletedDetails.deletedMessageId);
      if (gone !== '') deleted.push(gone);
    }
    // Super Chats, memberships, polls, bans and the rest are not posts
  }
  const { posts, skipped } = collectPosts(texts, (m) => chatPost(m, settings.videoId ?? ''));
  const interval = isObject(data) ? Number(data.pollingIntervalMillis) : NaN;
  return {
    posts,
    skipped,
    meta: {
      nextPageToken: isObject(data) ? str(data.nextPageToken) : '',
      pollingIntervalMillis: Number.isFinite(interval) && interval > 0 ? interval : 0,
      offlineAt: isObject(data) ? parseInstant(data.offlineAt) : null,
      deleted,
    },
  };
}) satisfies DocumentParser<Settings>;

// ---------- the poll (serving thread) ----------

/** What a call sends: the token as Bearer, else the API key in its header. */
function authHeaders(credential: ConnectorCredential): Record<string, string> {
  if (credential.accessToken) return { authorization: `Bearer ${credential.accessToken}` };
  if (credential.apiKey) return { 'x-goog-api-key': credential.apiKey };
  throw new ConnectorSetupError('the YouTube connection has neither an API key nor an access token');
}

const has = (reasons: string[], ...wanted: string[]) => wanted.some((w) => reasons.includes(w));

/** Google's error answer → what the runtime should do with it (the secret is never in the message). */
function apiError(input: PollInput<Settings>, res: HttpResult, e: ApiErrorMeta): Error {
  const { http, now } = input;
  const why = `${e.reasons.length > 0 ? e.reasons.join(', ') : `HTTP ${res.status}`}${e.message ? `: ${e.message}` : ''}`;
  const keyed = !input.credential?.accessToken;
  if (has(e.reasons, 'quotaExceeded', 'dailyLimitExceeded')) {
    const reset = nextMidnightIn('America/Los_Angeles', now);
    http.waitUntil(reset);
    return new UpstreamError(
      res.status,
      `the Google Cloud project's YouTube Data API quota for today is used up (${why}); polling resumes after it resets at midnight Pacific time (${new Date(reset).toISOString()})`,
      reset - now,
    );
  }
  if (res.status === 429 || has(e.reasons, 'rateLimitExceeded', 'userRateLimitExceeded', 'RATE_LIMIT_EXCEEDED')) {
    http.waitUntil(now + RATE_LIMIT_WAIT_MS);
    return new UpstreamError(res.status, `YouTube asks for fewer requests (${why})`, RATE_LIMIT_WAIT_MS);
  }
  if (has(e.reasons, 'keyInvalid', 'API_KEY_INVALID', 'keyExpired', 'API_KEY_EXPIRED'))
    return new CredentialError(
      'invalid',
      `YouTube says the connection's API key is not valid (${why}): create a key in the Google Cloud console and update the connection`,
    );
  if (res.status === 401)
    return new CredentialError(
      'expired',
      `YouTube refused the connection's ${keyed ? 'API key' : 'access token'} (${why}): it expired or was revoked; reconnect the YouTube connection`,
    );
  if (has(e.reasons, 'accessNotConfigured', 'SERVICE_DISABLED'))
    return new CredentialError(
      'permission',
      `the YouTube Data API v3 is not enabled in the connection's Google Cloud project (${why}): enable it in the console's API library`,
    );
  if (
    has(
      e.reasons,
      'insufficientPermissions',
      'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      'ipRefererBlocked',
      'API_KEY_HTTP_REFERRER_BLOCKED',
      'API_KEY_IP_ADDRESS_BLOCKED',
      'API_KEY_SERVICE_BLOCKED',
    )
  )
    return new CredentialError(
      'permission',
      `YouTube refused the connection (${why}): ${keyed ? 'the API key’s restrictions must allow the YouTube Data API v3 from this server' : 'reconnect granting the youtube.readonly scope'}`,
    );
  if (has(e.reasons, 'liveChatEnded'))
    return new UpstreamError(
      res.status,
      `the live chat of video ${input.settings.videoId ?? ''} has ended (${why}): no more messages will come; disable this feed`,
    );
  if (has(e.reasons, 'liveChatDisabled'))
    return new UpstreamError(res.status, `live chat is turned off for video ${input.settings.videoId ?? ''} (${why})`);
  if (has(e.reasons, 'liveChatNotFound'))
    return new UpstreamError(
      res.status,
      `the live chat of video ${input.settings.videoId ?? ''} is gone (${why}): the broadcast may have ended`,
    );
  if (has(e.reasons, 'playlistNotFound'))
    return new UpstreamError(
      res.status,
      `the uploads playlist of channel ${input.settings.channel ?? ''} is not found (${why}); check the feed's channel`,
    );
  if (has(e.reasons, 'videoNotFound'))
    return new UpstreamError(res.status, `the video is not found (${why}); check the feed's videoId`);
  return new UpstreamError(res.status, `HTTP ${res.status} from ${hostOf(res.url)} (${why})`);
}

class YoutubeApi {
  readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(private readonly input: PollInput<Settings>) {
    this.base = (input.settings.apiBaseUrl ?? YOUTUBE_API_URL).replace(/\/+$/, '');
    this.headers = authHeaders(requireCredential(input.credential, 'YouTube'));
  }

  /** GET `path?params`, parsed by `document`; an error answer becomes the error its reason says. */
  async get<M>(path: string, params: Record<string, string | undefined>, document: string) {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, v);
    const res = await this.input.http.request(`${this.base}/${path}?${query.toString()}`, {
      headers: this.headers,
      returnErrors: true,
    });
    if (res.status < 200 || res.status > 299) {
      const { meta } = await this.input.parse<ApiErrorMeta>(res, 'error');
      throw apiError(this.input, res, meta);
    }
    return this.input.parse<M>(res, document);
  }

  /** `videos.list` for up to 50 ids a call (1 unit each). */
  async videos(ids: string[], part = 'snippet,contentDetails,status') {
    const rows: IngestedPost[] = [];
    const withheld: string[] = [];
    const found = new Set<string>();
    const channelOf: Record<string, string> = {};
    let skipped = 0;
    for (let i = 0; i < ids.length; i += PAGE_SIZE) {
      const chunk = ids.slice(i, i + PAGE_SIZE);
      const page = await this.get<MetaOf<typeof videosDocument>>(
        'videos',
        { part, id: chunk.join(','), maxResults: String(PAGE_SIZE) },
        'videos',
      );
      rows.push(...page.rows);
      withheld.push(...page.withheld);
      skipped += page.skipped;
      for (const id of page.meta.ids) found.add(id);
      Object.assign(channelOf, page.meta.channelOf);
    }
    // a listed video that videos.list no longer returns was deleted (or made private)
    const missing = ids.filter((id) => !found.has(id));
    return { rows, withheld, skipped, missing, channelOf };
  }

  async channels(params: Record<string, string>): Promise<Channel[]> {
    const page = await this.get<MetaOf<typeof channelsDocument>>(
      'channels',
      { part: 'snippet,contentDetails', ...params },
      'channels',
    );
    return page.meta.channels;
  }
}

/** The author picture (and for a channel's uploads its handle) the video resource does not carry. */
function withChannels(rows: IngestedPost[], channelOf: Record<string, string>, channels: Channel[]): IngestedPost[] {
  const byId = new Map(channels.map((c) => [c.id, c]));
  return rows.map((row) => {
    const channel = byId.get(channelOf[row.external_id] ?? '');
    if (!channel) return row;
    return {
      ...row,
      user_picture: row.user_picture || channel.picture,
      username: channel.handle || row.username,
    };
  });
}

async function pollUploads(input: PollInput<Settings>, api: YoutubeApi): Promise<PollOutput> {
  const cursor = readCursor(input.cursor);
  const channelSetting = input.settings.channel ?? '';
  let channel = cursor.channel;
  let channelAt = cursor.channelAt ?? 0;
  if (!channel || input.now - channelAt >= CHANNEL_TTL_MS) {
    const found = await api.channels(
      channelSetting.startsWith('@') ? { forHandle: channelSetting } : { id: channelSetting },
    );
    const first = found[0];
    if (!first || first.uploads === '')
      throw new UpstreamError(
        404,
        `YouTube has no channel ${channelSetting} (channelNotFound); check the feed's channel`,
      );
    channel = first;
    channelAt = input.now;
  }

  const listed: { videoId: string; publishedAt: number | null; gone: boolean }[] = [];
  let pageToken = '';
  for (let page = 0; page < input.maxPages && listed.length < input.maxItems; page++) {
    const got = await api.get<MetaOf<typeof playlistItemsDocument>>(
      'playlistItems',
      {
        part: 'snippet,contentDetails,status',
        playlistId: channel.uploads,
        maxResults: String(PAGE_SIZE),
        pageToken,
      },
      'playlistItems',
    );
    listed.push(...got.meta.items);
    pageToken = got.meta.nextPageToken;
    // the first poll reads the newest page; later ones go on while all of a page is new
    if (cursor.newest === undefined || pageToken === '') break;
    if (got.meta.items.some((i) => i.publishedAt !== null && i.publishedAt <= cursor.newest!)) break;
  }

  const gone = listed.filter((i) => i.gone).map((i) => i.videoId);
  const shown = [...new Set(listed.filter((i) => !i.gone).map((i) => i.videoId))].slice(0, input.maxItems);
  const videos = await api.videos(shown);
  const times = listed.map((i) => i.publishedAt).filter((t): t is number => t !== null);
  const oldestListed = times.length > 0 ? Math.min(...times) : null;
  // stored videos within the listing's time span that it no longer lists were deleted
  const listedIds = new Set(listed.map((i) => i.videoId));
  // (when the whole playlist was read, every stored video should be in it)
  const since = pageToken === '' ? -Infinity : oldestListed;
  const unlisted =
    since === null
      ? []
      : (await input.storedIds(500)).filter((s) => s.createdAt >= since && !listedIds.has(s.externalId));
  const newest = times.length > 0 ? Math.max(...times, cursor.newest ?? 0) : cursor.newest;
  return {
    rows: withChannels(videos.rows, videos.channelOf, [channel]),
    cursor: { channel, channelAt, ...(newest !== undefined ? { newest } : {}) } satisfies YoutubeCursor,
    notModified: false,
    skipped: videos.skipped,
    withheld: videos.withheld,
    deleted: [...new Set([...gone, ...videos.missing, ...unlisted.map((s) => s.externalId)])],
  };
}

async function pollSearch(input: PollInput<Settings>, api: YoutubeApi): Promise<PollOutput> {
  const cursor = readCursor(input.cursor);
  const everyMs = (input.settings.searchEveryMinutes ?? DEFAULT_SEARCH_EVERY_MINUTES) * 60_000;
  // whatever happens next, the next search waits its interval: each costs 100 units
  input.http.waitUntil(input.now + everyMs);
  const publishedAfter =
    cursor.newest !== undefined ? new Date(cursor.newest - SEARCH_OVERLAP_MS).toISOString() : undefined;
  const found: { videoId: string; publishedAt: number | null }[] = [];
  let pageToken = '';
  const pages = Math.min(input.maxPages, SEARCH_PAGES);
  for (let page = 0; page < pages && found.length < input.maxItems; page++) {
    const got = await api.get<MetaOf<typeof searchDocument>>(
      'search',
      {
        part: 'snippet',
        type: 'video',
        order: 'date',
        q: input.settings.query,
        maxResults: String(PAGE_SIZE),
        publishedAfter,
        pageToken,
      },
      'search',
    );
    found.push(...got.meta.items);
    pageToken = got.meta.nextPageToken;
    // the first search reads one page; later ones page on through what is new
    if (cursor.newest === undefined || pageToken === '') break;
  }
  const ids = [...new Set(found.map((f) => f.videoId))].slice(0, input.maxItems);
  const videos = await api.videos(ids);
  const channelIds = [...new Set(Object.values(videos.channelOf).filter((c) => c !== ''))].slice(0, PAGE_SIZE);
  const channels = channelIds.length > 0 ? await api.channels({ id: channelIds.join(',') }) : [];
  // stored videos the search did not bring again: still there? (1 unit for 50)
  const seen = new Set(ids);
  const recheck = (await input.storedIds(PAGE_SIZE)).map((s) => s.externalId).filter((id) => !seen.has(id));
  const rechecked = recheck.length > 0 ? await api.videos(recheck, 'status') : null;
  const times = found.map((f) => f.publishedAt).filter((t): t is number => t !== null);
  const newest = times.length > 0 ? Math.max(...times, cursor.newest ?? 0) : cursor.newest;
  const warnings =
    pageToken !== '' && cursor.newest !== undefined
      ? [
          `more videos matched than ${pages} search pages hold: the older ones were left out (search more often with a lower searchEveryMinutes)`,
        ]
      : [];
  return {
    rows: withChannels(videos.rows, videos.channelOf, channels),
    cursor: (newest !== undefined ? { newest } : {}) satisfies YoutubeCursor,
    notModified: false,
    skipped: videos.skipped,
    warnings,
    withheld: [...videos.withheld, ...(rechecked?.withheld ?? [])],
    deleted: [...new Set([...videos.missing, ...(rechecked?.missing ?? [])])],
  };
}

async function pollLiveChat(input: PollInput<Settings>, api: YoutubeApi): Promise<PollOutput> {
  const cursor = readCursor(input.cursor);
  const videoId = input.settings.videoId ?? '';
  let liveChatId = cursor.liveChatId;
  if (!liveChatId) {
    const page = await api.get<MetaOf<typeof videosDocument>>(
      'videos',
      { part: 'liveStreamingDetails', id: videoId },
      'videos',
    );
    if (!page.meta.ids.includes(videoId))
      throw new UpstreamError(404, `YouTube has no video ${videoId} (videoNotFound); check the feed's videoId`);
    const live = page.meta.live[videoId];
    if (!live) throw new ConnectorSetupError(`video ${videoId} is not a live broadcast: it has no live chat`);
    if (live.activeLiveChatId === '') {
      if (live.actualEndTime !== null)
        throw new UpstreamError(
          410,
          `the live broadcast of video ${videoId} ended at ${new Date(live.actualEndTime).toISOString()}: its chat can no longer be read; disable this feed`,
        );
      return {
        rows: [],
        cursor: {},
        notModified: false,
        skipped: 0,
        warnings: [`the broadcast of video ${videoId} has no live chat open (not started yet, or chat turned off)`],
      };
    }
    liveChatId = live.activeLiveChatId;
  }
  const got = await api.get<MetaOf<typeof liveChatDocument>>(
    'liveChat/messages',
    {
      liveChatId,
      part: 'snippet,authorDetails',
      maxResults: String(CHAT_PAGE_SIZE),
      pageToken: cursor.pageToken,
    },
    'liveChat',
  );
  const { nextPageToken, pollingIntervalMillis, offlineAt, deleted } = got.meta;
  if (pollingIntervalMillis > 0) input.http.waitUntil(input.now + pollingIntervalMillis);
  const warnings =
    offlineAt !== null
      ? [
          `the live chat of video ${videoId} went offline at ${new Date(offlineAt).toISOString()}: no more messages will come; disable this feed`,
        ]
      : [];
  return {
    rows: got.rows.slice(0, input.maxItems),
    cursor: { liveChatId, ...(nextPageToken ? { pageToken: nextPageToken } : {}) } satisfies YoutubeCursor,
    notModified: false,
    skipped: got.skipped,
    warnings,
    deleted,
  };
}

export const youtubeDataConnector: Connector<Settings> = {
  kind: 'youtube_data',
  network: 'YouTube',
  sourceType: (s) => (s.mode === 'uploads' ? 'channel' : s.mode === 'search' ? 'search' : 'live_chat'),
  async poll(input): Promise<PollOutput> {
    const api = new YoutubeApi(input);
    if (input.settings.mode === 'uploads') return pollUploads(input, api);
    if (input.settings.mode === 'search') return pollSearch(input, api);
    return pollLiveChat(input, api);
  },
  documents: {
    error: errorDocument,
    channels: channelsDocument,
    playlistItems: playlistItemsDocument,
    search: searchDocument,
    videos: videosDocument,
    liveChat: liveChatDocument,
  },
};
