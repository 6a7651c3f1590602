// TikTok Display API v2: the public videos of the account the connection
// signed in as (Login Kit; scopes user.info.basic and video.list).
//
// Each poll reads the account's profile (`GET /v2/user/info/`: display name
// and avatar, the author of every video) and its videos newest first
// (`POST /v2/video/list/?fields=…` with `{max_count, cursor}`, paging by the
// answer's `cursor` while `has_more`): the first poll reads one page, later
// polls go on while everything on a page is new, at most `maxPages`. A video
// is a video post: its `embed_link` the player, its cover the thumbnail, its
// `share_url` the link.
//
// Cover (and avatar) URLs are signed and expire after about 6 hours: every
// poll re-reads the newest page, so its videos are stored with fresh covers;
// stored videos this poll did not list again are asked for with
// `POST /v2/video/query/` (20 ids a call) — which brings their fresh covers,
// and leaves out the ones deleted or made private: those are `deleted`.
//
// Errors come as `{"error": {"code", "message", "log_id"}}`:
// access_token_invalid and scope_not_authorized fail the feed and mark the
// connection; rate_limit_exceeded (HTTP 429, a one-minute sliding window of
// 600 requests per endpoint) waits.
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
  type DocumentParser,
  type MetaOf,
  type PollInput,
  type PollOutput,
  type UpstreamPost,
} from './connector.js';
import type { TiktokConnector } from '../schemas/connectors.js';
import { escapeHtml, hashtagsIn, httpUrl, plainText, str, textToHtml } from './normalize.js';
import { hostOf } from './url-parts.js';

type Settings = Static<typeof TiktokConnector>;
type Json = Record<string, unknown>;

export const TIKTOK_API_URL = 'https://open.tiktokapis.com';
/** the most videos `video/list` returns a page, and `video/query` takes ids */
export const PAGE_SIZE = 20;
/** stored videos a poll re-checks with `video/query` (fresh covers, deletions) */
export const RECHECK = 40;
/** the rate limit's sliding window */
const RATE_WINDOW_MS = 60_000;

export const VIDEO_FIELDS = [
  'id',
  'create_time',
  'cover_image_url',
  'share_url',
  'video_description',
  'duration',
  'height',
  'width',
  'title',
  'embed_link',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
].join(',');
export const USER_FIELDS = 'open_id,avatar_url,display_name';

interface TiktokCursor {
  /** the newest video's create_time seen (epoch ms) */
  newest?: number;
}

function readCursor(raw: unknown): TiktokCursor {
  return isObject(raw) && typeof raw.newest === 'number' && Number.isFinite(raw.newest) ? { newest: raw.newest } : {};
}

// ---------- documents (parse worker) ----------

/** `error` of an answer: `ok` on success. */
function errorOf(data: unknown) {
  const error = isObject(data) && isObject(data.error) ? data.error : {};
  return {
    code: str(error.code).slice(0, 80),
    message: plainText(str(error.message)).replace(/\s+/g, ' ').trim().slice(0, 200),
    logId: str(error.log_id)
      .replace(/[^\w-]/g, '')
      .slice(0, 80),
  };
}

export type TiktokError = ReturnType<typeof errorOf>;

const errorDocument = ((doc) => {
  let data: unknown = null;
  try {
    data = parseJson(doc);
  } catch {
    data = null;
  }
  return { posts: [], skipped: 0, meta: errorOf(data) };
}) satisfies DocumentParser<Settings>;

export interface TiktokUser {
  displayName: string;
  avatar: string;
}

const userDocument = ((doc) => {
  const data = parseJson(doc);
  const user = isObject(data) && isObject(data.data) && isObject(data.data.user) ? data.data.user : null;
  if (!user) throw new UpstreamFormatError(`expected a user from ${hostOf(doc.url)}`);
  return {
    posts: [],
    skipped: 0,
    meta: {
      displayName: plainText(str(user.display_name)),
      avatar: httpUrl(user.avatar_url),
    } satisfies TiktokUser,
  };
}) satisfies DocumentParser<Settings>;

function videoPost(video: Json): UpstreamPost | null {
  const id = str(video.id);
  if (!/^\d{1,40}$/.test(id)) return null;
  const title = plainText(str(video.title)).trim();
  const description = plainText(str(video.video_description), true).trim();
  const share = httpUrl(video.share_url);
  const created = Number(video.create_time);
  const likes = Number(video.like_count);
  return {
    externalId: id,
    // a title is shown above the description when it says something else
    content:
      (title && !description.startsWith(title) ? `<p><strong>${escapeHtml(title)}</strong></p>` : '') +
      (description ? textToHtml(description) : ''),
    authorName: '',
    username: '',
    userPicture: '',
    linkUrl: share,
    createdAt: Number.isFinite(created) && created > 0 ? created * 1000 : null,
    updatedAt: null,
    media: [
      {
        kind: 'video',
        url: httpUrl(video.embed_link) || `https://www.tiktok.com/player/v1/${id}`,
        thumb: httpUrl(video.cover_image_url),
        ...(share ? { original: share } : {}),
      },
    ],
    tags: hashtagsIn(`${title}\n${description}`),
    sensitive: false,
    score: Number.isFinite(likes) && likes >= 0 ? likes : null,
  };
}

/** `video/list` and `video/query` answers: `{data: {videos, cursor, has_more}, error}`. */
const videosDocument = ((doc) => {
  const data = parseJson(doc);
  const body = isObject(data) && isObject(data.data) ? data.data : null;
  if (!body || (body.videos !== undefined && !Array.isArray(body.videos)))
    throw new UpstreamFormatError(`expected a video list from ${hostOf(doc.url)}`);
  const videos = ((body.videos as unknown[] | undefined) ?? []).filter(isObject);
  const { posts, skipped } = collectPosts(videos, videoPost);
  const cursor = Number(body.cursor);
  return {
    posts,
    skipped,
    meta: {
      ids: videos.map((v) => str(v.id)).filter((id) => id !== ''),
      times: posts.map((p) => p.createdAt).filter((t): t is number => t !== null),
      cursor: Number.isFinite(cursor) && cursor > 0 ? cursor : null,
      hasMore: body.has_more === true,
    },
  };
}) satisfies DocumentParser<Settings>;

// ---------- the poll (serving thread) ----------

function apiError(input: PollInput<Settings>, status: number, e: TiktokError): Error {
  const why = `${e.code || `HTTP ${status}`}${e.message ? `: ${e.message}` : ''}${e.logId ? `; log_id ${e.logId}` : ''}`;
  switch (e.code) {
    case 'access_token_invalid':
      return new CredentialError(
        'expired',
        `TikTok refused the connection's access token (${why}): it expired (access tokens last 24 hours and must be refreshed) or the user took the app's access back; reconnect the TikTok connection`,
      );
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return new CredentialError(
        'permission',
        `the TikTok account did not grant what this feed needs (${why}): reconnect it granting user.info.basic and video.list`,
      );
    case 'rate_limit_exceeded': {
      input.http.waitUntil(input.now + RATE_WINDOW_MS);
      const wait = Math.max(RATE_WINDOW_MS, (input.http.notBefore ?? 0) - input.now);
      return new UpstreamError(status, `TikTok's rate limit is reached (${why}); polling waits`, wait);
    }
    default:
      if (status === 401) return new CredentialError('invalid', `TikTok refused the connection (${why}); reconnect it`);
      return new UpstreamError(
        status,
        `HTTP ${status} from ${hostOf(input.settings.apiBaseUrl ?? TIKTOK_API_URL)} (${why})`,
      );
  }
}

class TiktokApi {
  private readonly base: string;
  private readonly headers: Record<string, string>;

  constructor(private readonly input: PollInput<Settings>) {
    this.base = (input.settings.apiBaseUrl ?? TIKTOK_API_URL).replace(/\/+$/, '');
    const token = requireCredential(input.credential, 'TikTok').accessToken;
    if (!token) throw new ConnectorSetupError('the TikTok connection has no access token: reconnect it');
    this.headers = { authorization: `Bearer ${token}` };
  }

  async call<M>(path: string, document: string, json?: unknown) {
    const res = await this.input.http.request(`${this.base}${path}`, {
      headers: this.headers,
      returnErrors: true,
      ...(json !== undefined ? { method: 'POST' as const, json } : {}),
    });
    if (res.status < 200 || res.status > 299) {
      const { meta } = await this.input.parse<TiktokError>(res, 'error');
      throw apiError(this.input, res.status, meta);
    }
    return this.input.parse<M>(res, document);
  }

  user() {
    return this.call<TiktokUser>(`/v2/user/info/?fields=${USER_FIELDS}`, 'user');
  }

  list(cursor: number | null) {
    return this.call<MetaOf<typeof videosDocument>>(`/v2/video/list/?fields=${VIDEO_FIELDS}`, 'videos', {
      max_count: PAGE_SIZE,
      ...(cursor !== null ? { cursor } : {}),
    });
  }

  query(ids: string[]) {
    return this.call<MetaOf<typeof videosDocument>>(`/v2/video/query/?fields=${VIDEO_FIELDS}`, 'videos', {
      filters: { video_ids: ids },
    });
  }
}

/** The account's name and picture on its videos (the video object names no author). */
function byAuthor(rows: IngestedPost[], user: TiktokUser, username: string): IngestedPost[] {
  return rows.map((row) => ({
    ...row,
    author_name: user.displayName || username,
    username: username || user.displayName,
    user_picture: user.avatar,
  }));
}

export const tiktokConnector: Connector<Settings> = {
  kind: 'tiktok',
  network: 'TikTok',
  sourceType: () => 'account',
  async poll(input): Promise<PollOutput> {
    const api = new TiktokApi(input);
    const cursor = readCursor(input.cursor);
    const user = (await api.user()).meta;
    const username = input.credential?.accountName ?? '';

    const rows: IngestedPost[] = [];
    let skipped = 0;
    let newest = cursor.newest;
    let page: number | null = null;
    for (let n = 0; n < input.maxPages && rows.length < input.maxItems; n++) {
      const got = await api.list(page);
      rows.push(...got.rows);
      skipped += got.skipped;
      for (const t of got.meta.times) if (newest === undefined || t > newest) newest = t;
      page = got.meta.cursor;
      if (!got.meta.hasMore || page === null || cursor.newest === undefined) break;
      if (got.meta.times.some((t) => t <= cursor.newest!)) break;
    }

    // stored videos not listed again: fresh covers for the ones still there, the rest are gone
    const listed = new Set(rows.map((r) => r.external_id));
    const recheck = (await input.storedIds(RECHECK)).map((s) => s.externalId).filter((id) => !listed.has(id));
    const deleted: string[] = [];
    for (let i = 0; i < recheck.length; i += PAGE_SIZE) {
      const ids = recheck.slice(i, i + PAGE_SIZE);
      const got = await api.query(ids);
      const found = new Set(got.meta.ids);
      rows.push(...got.rows);
      deleted.push(...ids.filter((id) => !found.has(id)));
    }
    return {
      rows: byAuthor(rows, user, username),
      cursor: (newest !== undefined ? { newest } : {}) satisfies TiktokCursor,
      notModified: false,
      skipped,
      deleted,
    };
  },
  documents: { error: errorDocument, user: userDocument, videos: videosDocument },
};
