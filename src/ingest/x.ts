// X: posts of the last 7 days matching a query, through the X API v2 recent
// search (`GET /2/tweets/search/recent`) with the connection's bearer token.
//
// Each poll asks for what came after the newest post read so far
// (`since_id`, from the cursor), newest first, following `meta.next_token`
// to the end — at most `maxPostsPerPoll` posts (X bills every post it
// returns) and `maxPages` pages. The authors and media come in the same
// answer (`expansions`): photos become images, videos and animated GIFs
// their best MP4 variant with the preview image as poster. Reposts are left
// out (a repost's text is a truncated copy); replies are marked as replies.
// Then the newest stored posts are looked up again (`GET /2/tweets?ids=`,
// 100 at most): the ids X answers with a "Not Found Error" were deleted on X,
// and leave the wall (X's terms ask for that).
//
// X's refusals: 401 — the bearer token is not valid (regenerated or
// revoked); 403 `client-not-enrolled` — the app is not in a Project with
// API v2 access; `usage-capped` / 402 — the app's credits or monthly cap
// ran out. Rate limits come as `x-rate-limit-*` headers (reset in epoch
// seconds) and 429s; PollHttp schedules the next poll after the reset.
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
  type HttpResult,
  type MetaOf,
  type PollHttp,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { XConnector } from '../schemas/connectors.js';
import { httpUrl, parseInstant, plainText, segmentsToHtml, str, type TextSegment } from './normalize.js';
import { errorJson, said, upstreamError } from './upstream-errors.js';
import { whereFrom } from './url-parts.js';

type XSettings = Static<typeof XConnector>;
type Json = Record<string, unknown>;

export const X_API = 'https://api.x.com';
export const DEFAULT_MAX_POSTS = 100;
export const DEFAULT_DELETION_CHECKS = 100;
const PAGE_MAX = 100;

export const TWEET_FIELDS = 'created_at,attachments,entities,author_id,possibly_sensitive,referenced_tweets';
export const EXPANSIONS = 'attachments.media_keys,author_id';
export const MEDIA_FIELDS = 'type,url,preview_image_url,variants,alt_text';
export const USER_FIELDS = 'name,username,profile_image_url';

interface XCursor {
  /** every post up to this id has been read */
  sinceId?: string;
}

/** X ids are decimal snowflakes: compared as numbers of any length. */
function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** X escapes `&`, `<` and `>` in post text. */
const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** A media object of `includes.media` → what the post shows of it. */
function mediaOf(m: Json): UpstreamMedia | null {
  const alt = str(m.alt_text);
  if (m.type === 'photo') {
    const url = httpUrl(m.url);
    return url ? { kind: 'image', url, thumb: '', alt } : null;
  }
  if (m.type === 'video' || m.type === 'animated_gif') {
    // the MP4 variant of the highest bit rate (an animated GIF has one, at 0)
    const mp4 = arr(m.variants)
      .filter((v) => v.content_type === 'video/mp4' && httpUrl(v.url) !== '')
      .sort((a, b) => Number(b.bit_rate ?? 0) - Number(a.bit_rate ?? 0))[0];
    const url = mp4 ? httpUrl(mp4.url) : '';
    return url ? { kind: 'video', url, thumb: httpUrl(m.preview_image_url), alt } : null;
  }
  return null;
}

const TOKEN_RE =
  /(https?:\/\/t\.co\/[A-Za-z0-9]+)|(?<![\p{L}\p{N}_&])#([\p{L}\p{N}_]+)|(?<![\p{L}\p{N}_])@([A-Za-z0-9_]{1,15})/gu;

/**
 * A post's text → safe HTML: its t.co links as the links they stand for
 * (the media's own link left out: the media are shown), hashtags and
 * mentions linked to X.
 */
function textHtml(text: string, entities: Json): string {
  const urls = new Map(arr(entities.urls).map((u) => [str(u.url), u]));
  const segments: TextSegment[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN_RE)) {
    segments.push({ text: text.slice(last, m.index) });
    last = m.index + m[0].length;
    if (m[1]) {
      const entity = urls.get(m[1]);
      if (entity && (entity.media_key !== undefined || /\/(photo|video)\/\d+$/.test(str(entity.expanded_url))))
        continue;
      const href = entity ? httpUrl(entity.expanded_url) || m[1] : m[1];
      segments.push({ text: entity ? str(entity.display_url) || href : m[1], href });
    } else if (m[2]) segments.push({ text: m[0], href: `https://x.com/hashtag/${encodeURIComponent(m[2])}` });
    else segments.push({ text: m[0], href: `https://x.com/${m[3]}` });
  }
  segments.push({ text: text.slice(last) });
  return segmentsToHtml(segments);
}

/** A post of `data[]` → a post (null when it is unreadable). */
export function tweetPost(tweet: Json, users: Map<string, Json>, media: Map<string, Json>): UpstreamPost | null {
  const id = str(tweet.id);
  if (!/^\d+$/.test(id)) return null;
  const author = users.get(str(tweet.author_id)) ?? {};
  const username = str(author.username);
  const entities = isObject(tweet.entities) ? tweet.entities : {};
  const attachments = isObject(tweet.attachments) ? tweet.attachments : {};
  const keys = Array.isArray(attachments.media_keys) ? attachments.media_keys.map(str) : [];
  const referenced = arr(tweet.referenced_tweets);
  const text = unescape(str(tweet.text));
  return {
    externalId: id,
    content: textHtml(text, entities),
    authorName: plainText(str(author.name) || username),
    username,
    userPicture: httpUrl(author.profile_image_url),
    linkUrl: username ? `https://x.com/${username}/status/${id}` : `https://x.com/i/web/status/${id}`,
    createdAt: parseInstant(tweet.created_at),
    updatedAt: null,
    media: keys.map((k) => media.get(k)).flatMap((m) => (m ? [mediaOf(m)].filter((v) => v !== null) : [])),
    tags: arr(entities.hashtags).map((h) => str(h.tag)),
    sensitive: tweet.possibly_sensitive === true,
    reply: referenced.some((r) => r.type === 'replied_to'),
  };
}

/** A page of recent search → its posts, and for paging its newest id and next token. */
const searchDocument = ((doc, _settings, limits) => {
  const data = parseJson(doc);
  if (!isObject(data) || !isObject(data.meta))
    throw new UpstreamFormatError(`expected a search answer from ${whereFrom(doc.url)}`);
  const includes = isObject(data.includes) ? data.includes : {};
  const users = new Map(arr(includes.users).map((u) => [str(u.id), u]));
  const media = new Map(arr(includes.media).map((m) => [str(m.media_key), m]));
  const tweets = arr(data.data);
  const ids = tweets.map((t) => str(t.id)).filter((id) => /^\d+$/.test(id));
  // reposts are left out: their text is a truncated copy of another post
  const own = tweets.filter((t) => !arr(t.referenced_tweets).some((r) => r.type === 'retweeted'));
  const posts = collectPosts(own.slice(0, limits.maxItems), (t) => tweetPost(t, users, media));
  const nextToken = str(data.meta.next_token);
  return { ...posts, meta: { ids, newestId: str(data.meta.newest_id), nextToken } };
}) satisfies DocumentParser<XSettings>;

/** A post lookup (`GET /2/tweets?ids=`) → the ids X says are not found (deleted). */
const lookupDocument = ((doc) => {
  const data = parseJson(doc);
  if (!isObject(data)) throw new UpstreamFormatError(`expected a post lookup from ${whereFrom(doc.url)}`);
  const found = arr(data.data).map((t) => str(t.id));
  const missing = arr(data.errors)
    .filter((e) => e.title === 'Not Found Error' || str(e.type).endsWith('/resource-not-found'))
    .map((e) => str(e.resource_id) || str(e.value))
    .filter((id) => /^\d+$/.test(id) && !found.includes(id));
  return { posts: [], skipped: 0, meta: { missing } };
}) satisfies DocumentParser<XSettings>;

/** X's refusals of an answer, as errors that say what to do. */
function refusal(res: HttpResult): Error {
  const body = errorJson(res) ?? {};
  const type = str(body.type);
  const reason = str(body.reason);
  const title = said(body.title);
  const detail = said(body.detail);
  if (res.status === 401)
    return new CredentialError(
      'invalid',
      'X refused the bearer token (401 Unauthorized): it was regenerated or revoked in the X Developer Console. Put the current bearer token in the connection.',
    );
  if (type.endsWith('/usage-capped') || title === 'UsageCapped' || res.status === 402)
    return new CredentialError(
      'permission',
      `X stopped the app's reads (${title || 'usage capped'}${detail ? `: ${detail}` : ''}): its credits or monthly post cap ran out. Add credits or raise the spending limit in the X Developer Console.`,
    );
  if (reason === 'client-not-enrolled')
    return new CredentialError(
      'permission',
      'X refused the app (client-not-enrolled): its bearer token must come from an app in a Project with access to the X API v2. Attach the app to a Project in the X Developer Console.',
    );
  if (res.status === 429) {
    const reset = Number(res.headers['x-rate-limit-reset']);
    const when = Number.isFinite(reset) && reset > 1e9 ? ` until ${new Date(reset * 1000).toISOString()}` : '';
    return new UpstreamError(429, `X's rate limit for recent search is used up${when}: the next poll waits for it`);
  }
  return upstreamError(res, [title, detail || reason].filter(Boolean).join(': '));
}

const REFUSED = [400, 401, 402, 403, 429] as const;

async function get(http: PollHttp, url: string, token: string): Promise<HttpResult> {
  return http.request(url, { headers: { authorization: `Bearer ${token}` }, returnErrors: REFUSED });
}

function searchUrl(base: string, settings: XSettings, pageSize: number, sinceId?: string, nextToken?: string) {
  const q = new URLSearchParams({
    query: settings.query,
    max_results: String(pageSize),
    'tweet.fields': TWEET_FIELDS,
    expansions: EXPANSIONS,
    'media.fields': MEDIA_FIELDS,
    'user.fields': USER_FIELDS,
  });
  if (sinceId) q.set('since_id', sinceId);
  if (nextToken) q.set('next_token', nextToken);
  return `${base}/2/tweets/search/recent?${q.toString()}`;
}

export const xConnector: Connector<XSettings> = {
  kind: 'x',
  network: 'X',
  sourceType: () => 'search',
  async poll({ settings, http, parse, cursor: raw, credential, storedIds, maxPages, maxItems }): Promise<PollOutput> {
    const token = requireCredential(credential, 'X').accessToken;
    if (!token) throw new ConnectorSetupError('the X connection has no bearer token: add it to the connection');
    const base = (settings.apiBaseUrl ?? X_API).replace(/\/+$/, '');
    const cursor: XCursor =
      isObject(raw) && typeof raw.sinceId === 'string' && /^\d+$/.test(raw.sinceId) ? { sinceId: raw.sinceId } : {};
    const most = Math.min(settings.maxPostsPerPoll ?? DEFAULT_MAX_POSTS, maxItems);

    const rows: IngestedPost[] = [];
    let skipped = 0;
    let read = 0;
    let newest = cursor.sinceId;
    let sinceId = cursor.sinceId;
    let nextToken: string | undefined;
    for (let page = 0; page < maxPages && read < most; page++) {
      const size = Math.max(10, Math.min(PAGE_MAX, most - read));
      let res = await get(http, searchUrl(base, settings, size, sinceId, nextToken), token);
      // a since_id older than the 7 days recent search covers: read the newest instead
      if (res.status === 400 && sinceId && page === 0) {
        sinceId = undefined;
        res = await get(http, searchUrl(base, settings, size), token);
      }
      if (res.status !== 200) throw refusal(res);
      const got = await parse<MetaOf<typeof searchDocument>>(res, 'search');
      rows.push(...got.rows);
      skipped += got.skipped;
      read += got.meta.ids.length;
      for (const id of [got.meta.newestId, ...got.meta.ids])
        if (/^\d+$/.test(id) && (newest === undefined || compareIds(id, newest) > 0)) newest = id;
      nextToken = got.meta.nextToken || undefined;
      if (!nextToken) break;
    }

    const deleted: string[] = [];
    const checks = settings.deletionChecks ?? DEFAULT_DELETION_CHECKS;
    if (checks > 0) {
      const seen = new Set(rows.map((r) => r.external_id));
      const ids = (await storedIds(Math.min(checks, 100)))
        .map((s) => s.externalId)
        .filter((id) => /^\d+$/.test(id) && !seen.has(id));
      if (ids.length > 0) {
        const res = await get(http, `${base}/2/tweets?ids=${ids.join(',')}`, token);
        if (res.status !== 200) throw refusal(res);
        deleted.push(...(await parse<MetaOf<typeof lookupDocument>>(res, 'lookup')).meta.missing);
      }
    }
    return {
      rows: rows.slice(0, maxItems),
      cursor: newest === undefined ? {} : { sinceId: newest },
      notModified: false,
      skipped,
      deleted,
    };
  },
  documents: { search: searchDocument, lookup: lookupDocument },
};
