// Reddit: a subreddit's new posts (`/r/{sub}/new.json`) or a search, newest
// first (`/search.json?q=&sort=new`, or `/r/{sub}/search.json` with
// `restrict_sr=1`). Without a connection the public JSON of www.reddit.com
// is read, with a descriptive User-Agent as Reddit's API rules ask; with one
// (an OAuth app-only token) oauth.reddit.com, whose limits are higher.
//
// Each poll reads pages (`after=`) until it reaches the newest post read
// before (the cursor: its `created_utc`), the end, or `maxPages`. Then the
// newest stored posts are looked up again (`/api/info.json?id=t3_…`, 100 at
// most): those removed (`removed_by_category`), deleted (`[deleted]`) or gone
// leave the wall, as Reddit's Data API terms ask. Galleries (`gallery_data`
// + `media_metadata`) become carousels, Reddit-hosted videos
// (`secure_media.reddit_video`) their MP4 with the preview as poster, image
// posts their image; NSFW (`over_18`) and spoilers arrive hidden.
//
// Rate limits: `X-Ratelimit-Remaining` (a decimal, "0.0" when spent) and
// `X-Ratelimit-Reset` (seconds to the end of the window) on every answer;
// with nothing left the next poll waits for the reset. A 401 with a token is
// an expired or revoked token.
import type { Static } from 'typebox';
import type { IngestedPost } from '../store/ingest.js';
import {
  CredentialError,
  UpstreamError,
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type DocumentParser,
  type HttpResult,
  type MetaOf,
  type PollHttp,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { RedditConnector } from '../schemas/connectors.js';
import { sanitizeIngestedHtml } from '../domain/sanitize.js';
import { escapeHtml, hashtagsIn, httpUrl, linkHtml, plainText, shownMedia, str, textToHtml } from './normalize.js';
import { errorJson, said, upstreamError } from './upstream-errors.js';
import { pathOf, whereFrom } from './url-parts.js';

type RedditSettings = Static<typeof RedditConnector>;
type Json = Record<string, unknown>;

export const REDDIT_PUBLIC = 'https://www.reddit.com';
export const REDDIT_OAUTH = 'https://oauth.reddit.com';
export const PAGE_LIMIT = 100;
/** Reddit asks for `<platform>:<app id>:<version> (by /u/<username>)` */
export const REDDIT_USER_AGENT = 'server:org.wallery.ingest:0.1 (self-hosted social wall)';

interface RedditCursor {
  /** `created_utc` (seconds) of the newest post read so far */
  newest?: number;
}

const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const IMAGE_EXT = /\.(jpe?g|png|gif|webp|avif)$/i;
/** links to Reddit itself or its media hosts: the post's own page or media, not a page it links */
const REDDIT_HOSTED = /^https:\/\/((www|old|new)\.reddit\.com|[iv]\.redd\.it|preview\.redd\.it)\//;

/** The preview rendition closest to 640 px wide (Reddit's `resolutions`), else the source. */
function previewOf(post: Json): { source: string; thumb: string } {
  const preview = isObject(post.preview) ? post.preview : {};
  const image = arr(preview.images)[0];
  if (!image) return { source: '', thumb: '' };
  const source = httpUrl(isObject(image.source) ? image.source.url : '');
  const sizes = arr(image.resolutions).filter((r) => httpUrl(r.url) !== '');
  const fit = sizes.filter((r) => Number(r.width) <= 640).at(-1) ?? sizes[0];
  return { source, thumb: fit ? httpUrl(fit.url) : '' };
}

/** A gallery's items, in the gallery's order. */
function galleryOf(post: Json): UpstreamMedia[] {
  const data = isObject(post.gallery_data) ? post.gallery_data : {};
  const metadata = isObject(post.media_metadata) ? post.media_metadata : {};
  const out: UpstreamMedia[] = [];
  for (const item of arr(data.items)) {
    const meta = metadata[str(item.media_id)];
    if (!isObject(meta) || meta.status !== 'valid') continue;
    const s = isObject(meta.s) ? meta.s : {};
    const previews = arr(meta.p).filter((p) => httpUrl(p.u) !== '');
    const fit = previews.filter((p) => Number(p.x) <= 640).at(-1) ?? previews[0];
    const thumb = fit ? httpUrl(fit.u) : '';
    const alt = str(item.caption);
    if (meta.e === 'AnimatedImage' && httpUrl(s.mp4)) out.push({ kind: 'video', url: httpUrl(s.mp4), thumb, alt });
    else if (meta.e === 'AnimatedImage' && httpUrl(s.gif)) out.push({ kind: 'image', url: httpUrl(s.gif), thumb, alt });
    else if (meta.e === 'Image' && httpUrl(s.u)) out.push({ kind: 'image', url: httpUrl(s.u), thumb, alt });
  }
  return out;
}

/** A post's own media: its gallery, its Reddit video, its image. */
function mediaOf(post: Json): UpstreamMedia[] {
  if (post.is_gallery === true) return galleryOf(post);
  const preview = previewOf(post);
  const poster = preview.source || httpUrl(post.thumbnail);
  for (const holder of [post.secure_media, post.media]) {
    const video = isObject(holder) && isObject(holder.reddit_video) ? holder.reddit_video : null;
    if (video && httpUrl(video.fallback_url))
      return [{ kind: 'video', url: httpUrl(video.fallback_url), thumb: poster }];
  }
  const gif =
    isObject(post.preview) && isObject(post.preview.reddit_video_preview) ? post.preview.reddit_video_preview : null;
  if (gif && httpUrl(gif.fallback_url)) return [{ kind: 'video', url: httpUrl(gif.fallback_url), thumb: poster }];
  const link = httpUrl(post.url_overridden_by_dest) || httpUrl(post.url);
  if (link && (post.post_hint === 'image' || IMAGE_EXT.test(pathOf(link))))
    return [{ kind: 'image', url: link, thumb: preview.thumb }];
  return [];
}

/** Reddit's marks of a post that is no longer there: removed by moderators or Reddit, or deleted by its author. */
export function isGone(post: Json): boolean {
  return (
    (typeof post.removed_by_category === 'string' && post.removed_by_category !== '') ||
    post.author === '[deleted]' ||
    post.selftext === '[deleted]' ||
    post.selftext === '[removed]'
  );
}

/** `selftext_html` without Reddit's wrapper (`<!-- SC_OFF --><div class="md">…</div>`) and the line breaks between blocks. */
function mdBody(html: string): string {
  return html
    .replace(/<!-- SC_O(?:FF|N) -->/g, '')
    .trim()
    .replace(/^<div class="md">([\s\S]*)<\/div>$/, '$1')
    .replace(/>\n+</g, '><')
    .trim();
}

/** A `t3` (link) of a listing → a post. */
export function linkPost(post: Json): UpstreamPost | null {
  const id = str(post.id);
  if (!/^[a-z0-9]+$/.test(id)) return null;
  const title = plainText(str(post.title));
  const body = str(post.selftext_html);
  const own = mediaOf(post);
  const parent = arr(post.crosspost_parent_list)[0];
  const media = own.length > 0 ? own : parent ? mediaOf(parent) : [];
  const preview = previewOf(post);
  const link = httpUrl(post.url_overridden_by_dest) || (post.is_self === true ? '' : httpUrl(post.url));
  let content = title ? `<p><strong>${escapeHtml(title)}</strong></p>` : '';
  if (body !== '') content += sanitizeIngestedHtml(mdBody(body));
  else if (str(post.selftext).trim() !== '') content += textToHtml(str(post.selftext));
  // a link post: the page it links, unless it is the media shown
  if (link && media.every((m) => m.url !== link) && !REDDIT_HOSTED.test(link))
    content += `<p>${linkHtml(link, link)}</p>`;
  const shown = shownMedia(
    media,
    null,
    preview.source ? { kind: 'image', url: preview.source, thumb: preview.thumb } : null,
  );
  const author = str(post.author);
  const edited = typeof post.edited === 'number' ? post.edited * 1000 : null;
  const created = Number(post.created_utc);
  const score = Number(post.score);
  return {
    externalId: id,
    content,
    authorName: author,
    username: author ? `u/${author}` : '',
    userPicture: '',
    linkUrl: httpUrl(`https://www.reddit.com${str(post.permalink)}`),
    createdAt: Number.isFinite(created) ? Math.round(created * 1000) : null,
    updatedAt: edited,
    media: shown.media,
    tags: hashtagsIn(`${title}\n${str(post.selftext)}`),
    sensitive: post.over_18 === true || post.spoiler === true,
    score: Number.isFinite(score) ? score : null,
  };
}

function listingOf(doc: { url: string; text: string; status: number; headers: Record<string, string> }) {
  const data = parseJson(doc);
  if (!isObject(data) || data.kind !== 'Listing' || !isObject(data.data))
    throw new UpstreamFormatError(`expected a listing from ${whereFrom(doc.url)}`);
  return {
    after: str(data.data.after),
    links: arr(data.data.children)
      .filter((c) => c.kind === 't3' && isObject(c.data))
      .map((c) => c.data as Json),
  };
}

/** A listing page → its posts (removed and deleted ones left out and named), each post's time and the next page. */
const listingDocument = ((doc, _settings, limits) => {
  const { after, links } = listingOf(doc);
  const gone = links.filter(isGone).map((p) => str(p.id));
  const kept = links.filter((p) => !isGone(p)).slice(0, limits.maxItems);
  const times = links.map((p) => ({ created: Number(p.created_utc) || 0, stickied: p.stickied === true }));
  return { ...collectPosts(kept, linkPost), meta: { after, times, gone } };
}) satisfies DocumentParser<RedditSettings>;

/** `/api/info` → which of the asked posts are still there. */
const infoDocument = ((doc) => {
  const { links } = listingOf(doc);
  return {
    posts: [],
    skipped: 0,
    meta: { present: links.filter((p) => !isGone(p)).map((p) => str(p.id)) },
  };
}) satisfies DocumentParser<RedditSettings>;

function listingUrl(base: string, settings: RedditSettings): string {
  const q = new URLSearchParams({ limit: String(PAGE_LIMIT), raw_json: '1' });
  const sub = settings.subreddit ? `/r/${encodeURIComponent(settings.subreddit)}` : '';
  if (settings.search === undefined) return `${base}${sub}/new.json?${q.toString()}`;
  q.set('q', settings.search);
  q.set('sort', 'new');
  if (sub) q.set('restrict_sr', '1');
  return `${base}${sub}/search.json?${q.toString()}`;
}

/** Reddit's own rate-limit headers: with less than one request left, the next poll waits for the reset. */
function honourLimits(http: PollHttp, res: HttpResult, now: number): void {
  const remaining = Number.parseFloat(res.headers['x-ratelimit-remaining'] ?? '');
  const reset = Number.parseFloat(res.headers['x-ratelimit-reset'] ?? '');
  if (Number.isFinite(remaining) && remaining < 1 && Number.isFinite(reset) && reset >= 0)
    http.waitUntil(now + Math.ceil(reset) * 1000);
  if (res.status === 429 && Number.isFinite(reset) && reset >= 0) http.waitUntil(now + Math.ceil(reset) * 1000);
}

function refusal(res: HttpResult, settings: RedditSettings, withToken: boolean): Error {
  const body = errorJson(res) ?? {};
  const reason = said(body.reason);
  if (res.status === 401 && withToken)
    return new CredentialError(
      'expired',
      'Reddit refused the connection’s token (401 Unauthorized): Reddit access tokens are short-lived and this one expired or was revoked. Reconnect Reddit (a new app-only token).',
    );
  const where = settings.subreddit ? `r/${settings.subreddit}` : 'Reddit search';
  if (res.status === 403 && reason)
    return upstreamError(res, `${where} is ${reason === 'quarantined' ? 'quarantined' : reason}`);
  if (res.status === 404) return upstreamError(res, `${where} does not exist${reason ? ` (${reason})` : ''}`);
  if (res.status === 429)
    return new UpstreamError(
      429,
      `Reddit's rate limit is used up (HTTP 429 from ${whereFrom(res.url)}): the next poll waits for its reset`,
    );
  return upstreamError(res, said(body.message));
}

const REFUSED = [401, 403, 404, 429] as const;

export const redditConnector: Connector<RedditSettings> = {
  kind: 'reddit',
  network: 'Reddit',
  sourceType: (s) => (s.search !== undefined ? 'search' : 'subreddit'),
  async poll({
    settings,
    http,
    parse,
    cursor: raw,
    credential,
    storedIds,
    now,
    maxPages,
    maxItems,
  }): Promise<PollOutput> {
    const token = credential?.accessToken;
    const base = (settings.apiBaseUrl ?? (token ? REDDIT_OAUTH : REDDIT_PUBLIC)).replace(/\/+$/, '');
    const headers: Record<string, string> = {
      'user-agent': credential?.accountName
        ? `${REDDIT_USER_AGENT.replace(/\)$/, '')}; by /u/${credential.accountName})`
        : REDDIT_USER_AGENT,
      ...(token ? { authorization: `bearer ${token}` } : {}),
    };
    const get = async (url: string) => {
      const res = await http.request(url, { headers, returnErrors: REFUSED });
      honourLimits(http, res, now);
      if (res.status !== 200) throw refusal(res, settings, token !== undefined);
      return res;
    };
    const cursor: RedditCursor = isObject(raw) && typeof raw.newest === 'number' ? { newest: raw.newest } : {};

    const list = listingUrl(base, settings);
    const rows: IngestedPost[] = [];
    const gone = new Set<string>();
    let skipped = 0;
    let newest = cursor.newest;
    let after = '';
    for (let page = 0; page < maxPages && rows.length < maxItems; page++) {
      const res = await get(after ? `${list}&after=${encodeURIComponent(after)}` : list);
      const got = await parse<MetaOf<typeof listingDocument>>(res, 'listing');
      rows.push(...got.rows);
      skipped += got.skipped;
      for (const id of got.meta.gone) gone.add(id);
      const times = got.meta.times.filter((t) => !t.stickied).map((t) => t.created);
      for (const t of times) if (newest === undefined || t > newest) newest = t;
      after = got.meta.after;
      if (cursor.newest === undefined || !after || times.length === 0) break;
      if (times.some((t) => t <= cursor.newest!)) break;
    }

    // the newest stored posts, looked up again: those removed, deleted or gone leave
    const seen = new Set(rows.map((r) => r.external_id));
    const stored = (await storedIds(100))
      .map((s) => s.externalId)
      .filter((id) => /^[a-z0-9]+$/.test(id) && !seen.has(id));
    if (stored.length > 0) {
      const res = await get(`${base}/api/info.json?id=${stored.map((id) => `t3_${id}`).join(',')}&raw_json=1`);
      const present = new Set((await parse<MetaOf<typeof infoDocument>>(res, 'info')).meta.present);
      for (const id of stored) if (!present.has(id)) gone.add(id);
    }
    return {
      rows: rows.slice(0, maxItems),
      cursor: newest === undefined ? {} : { newest },
      notModified: false,
      skipped,
      deleted: [...gone],
    };
  },
  documents: { listing: listingDocument, info: infoDocument },
};
