// Tumblr: public posts with a tag (`GET /v2/tagged?tag=&api_key=&before=`),
// read with the connection's consumer key (`apiKey`). Tagged posts come in
// the legacy format (photo posts with `photos[]`, video posts with
// `video_url` or a player, text posts with an HTML `body` whose first
// picture is shown); posts in the Neue Post Format (`content[]` blocks) are
// read as well. Ids are `id_string` (they outgrow JavaScript numbers).
//
// Pages go back in time with `before` (the oldest `timestamp` of the page
// before). Each poll reads back to the newest post read before (the cursor)
// or, further, to the oldest of the feed's newest stored posts: within the
// stretch it read, a stored post Tumblr no longer lists was deleted (or its
// blog went private) and leaves the wall.
//
// Errors come as `{"meta":{"status":401,"msg":"Unauthorized"}}`; the
// per-hour and per-day limits as `X-Ratelimit-Perhour-*` and
// `X-Ratelimit-Perday-*` headers (reset in seconds), honoured when spent.
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
import type { TumblrConnector } from '../schemas/connectors.js';
import { sanitizeIngestedHtml } from '../domain/sanitize.js';
import { escapeHtml, httpUrl, plainText, str, textToHtml } from './normalize.js';
import { firstPictureIn } from './feed-media.js';
import { errorJson, said, upstreamError, withoutSecret } from './upstream-errors.js';
import { whereFrom } from './url-parts.js';

type TumblrSettings = Static<typeof TumblrConnector>;
type Json = Record<string, unknown>;

export const TUMBLR_API = 'https://api.tumblr.com';
export const PAGE_LIMIT = 20;
/** the stored posts whose stretch each poll reads again (deletions) */
export const RECHECK = 40;

const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

interface TumblrCursor {
  /** `timestamp` (seconds) of the newest post read so far */
  newest?: number;
}

/** Of an image's sizes, the one closest to 500 px wide (the thumbnail). */
function fitting(sizes: Json[]): string {
  const usable = sizes.filter((s) => httpUrl(s.url) !== '').sort((a, b) => Number(b.width) - Number(a.width));
  const fit = usable.find((s) => Number(s.width) <= 500) ?? usable.at(-1);
  return fit ? httpUrl(fit.url) : '';
}

/** A legacy photo post's photos. */
function photosOf(post: Json): UpstreamMedia[] {
  return arr(post.photos).flatMap((p) => {
    const original = isObject(p.original_size) ? p.original_size : {};
    const url = httpUrl(original.url);
    if (!url) return [];
    const thumb = fitting(arr(p.alt_sizes));
    return [{ kind: 'image' as const, url, thumb: thumb === url ? '' : thumb, alt: str(p.alt_text) || str(p.caption) }];
  });
}

/** A legacy video post's video: Tumblr's own file, else the player's page (YouTube, …). */
function videoOf(post: Json): UpstreamMedia[] {
  const url = httpUrl(post.video_url) || httpUrl(post.permalink_url);
  return url ? [{ kind: 'video', url, thumb: httpUrl(post.thumbnail_url) }] : [];
}

/** NPF content blocks → their HTML (text blocks) and media (image and video blocks). */
function npfOf(blocks: Json[]): { html: string; media: UpstreamMedia[] } {
  let html = '';
  const media: UpstreamMedia[] = [];
  for (const b of blocks) {
    if (b.type === 'text') {
      const text = str(b.text);
      html +=
        b.subtype === 'heading1' || b.subtype === 'heading2'
          ? `<p><strong>${escapeHtml(text)}</strong></p>`
          : textToHtml(text);
    } else if (b.type === 'image') {
      const sizes = arr(b.media);
      const largest = [...sizes].sort((a, c) => Number(c.width) - Number(a.width))[0];
      const url = largest ? httpUrl(largest.url) : '';
      if (url) {
        const thumb = fitting(sizes);
        media.push({ kind: 'image', url, thumb: thumb === url ? '' : thumb, alt: str(b.alt_text) });
      }
    } else if (b.type === 'video') {
      const file = isObject(b.media) ? httpUrl(b.media.url) : '';
      const url = file || httpUrl(b.url);
      const poster = fitting(arr(b.poster));
      if (url) media.push({ kind: 'video', url, thumb: poster });
    }
  }
  return { html, media };
}

/** A tagged post (legacy or NPF) → a post. */
export function tumblrPost(post: Json, apiBase: string): UpstreamPost | null {
  const id = str(post.id_string) || (typeof post.id === 'number' ? String(post.id) : '');
  if (!/^\d+$/.test(id)) return null;
  const blog = isObject(post.blog) ? post.blog : {};
  const blogName = str(post.blog_name) || str(blog.name);
  const ts = Number(post.timestamp);
  let html = '';
  let media: UpstreamMedia[] = [];
  const title = plainText(str(post.title));
  if (title) html += `<p><strong>${escapeHtml(title)}</strong></p>`;
  if (Array.isArray(post.content)) {
    const npf = npfOf(arr(post.content));
    html += npf.html;
    media = npf.media;
  } else if (post.type === 'photo') {
    media = photosOf(post);
    html += sanitizeIngestedHtml(str(post.caption));
  } else if (post.type === 'video') {
    media = videoOf(post);
    html += sanitizeIngestedHtml(str(post.caption));
  } else {
    const body = str(post.body) || str(post.caption) || str(post.description);
    const picture = body ? firstPictureIn(body, str(post.post_url) || 'https://www.tumblr.com/') : null;
    if (picture) media = [{ kind: 'image', url: picture.url, thumb: '', alt: picture.alt ?? '' }];
    html += sanitizeIngestedHtml(body);
    if (post.type === 'link' && httpUrl(post.url)) html += `<p>${textToHtml(httpUrl(post.url))}</p>`;
  }
  const avatar = arr(blog.avatar);
  return {
    externalId: id,
    content: html.replace(/>\s*\n+\s*</g, '><').trim(),
    authorName: plainText(str(blog.title)) || blogName,
    username: blogName,
    userPicture: fitting(avatar) || (blogName ? `${apiBase}/v2/blog/${encodeURIComponent(blogName)}/avatar/64` : ''),
    linkUrl: httpUrl(post.post_url) || httpUrl(post.short_url),
    createdAt: Number.isFinite(ts) && ts > 0 ? ts * 1000 : null,
    updatedAt: null,
    media,
    tags: Array.isArray(post.tags) ? post.tags.map(str) : [],
    sensitive: post.is_nsfw === true,
    repost: typeof post.reblogged_from_id === 'string' || typeof post.reblogged_from_id === 'number',
  };
}

/** A page of `/v2/tagged` → its posts, and every post's id and timestamp. */
const taggedDocument = ((doc, settings, limits) => {
  const data = parseJson(doc);
  if (!isObject(data) || !Array.isArray(data.response))
    throw new UpstreamFormatError(`expected tagged posts from ${whereFrom(doc.url)}`);
  const items = arr(data.response);
  const base = (settings.apiBaseUrl ?? TUMBLR_API).replace(/\/+$/, '');
  const seen = items.map((p) => ({ id: str(p.id_string) || str(p.id), ts: Number(p.timestamp) || 0 }));
  return { ...collectPosts(items.slice(0, limits.maxItems), (p) => tumblrPost(p, base)), meta: { seen } };
}) satisfies DocumentParser<TumblrSettings>;

/** Tumblr's per-hour and per-day limits: when one is spent, the next poll waits for its reset. */
function honourLimits(http: PollHttp, res: HttpResult, now: number): number | null {
  let until: number | null = null;
  for (const window of ['perhour', 'perday']) {
    const remaining = Number(res.headers[`x-ratelimit-${window}-remaining`]);
    const reset = Number(res.headers[`x-ratelimit-${window}-reset`]);
    if (Number.isFinite(reset) && reset >= 0 && (remaining === 0 || (res.status === 429 && window === 'perhour'))) {
      const at = now + Math.ceil(reset) * 1000;
      http.waitUntil(at);
      until = Math.max(until ?? 0, at);
    }
  }
  return until;
}

function refusal(res: HttpResult, until: number | null): Error {
  const body = errorJson(res) ?? {};
  const meta = isObject(body.meta) ? body.meta : {};
  const msg = said(meta.msg) || said(body.message);
  if (res.status === 401)
    return new CredentialError(
      'invalid',
      `Tumblr refused the consumer key (401 ${msg || 'Unauthorized'}): check the connection’s API key (your app’s OAuth consumer key at tumblr.com/oauth/apps).`,
    );
  if (res.status === 429)
    return new UpstreamError(
      429,
      `Tumblr's rate limit for the consumer key is used up (${msg || 'Limit Exceeded'})${until ? `: the next poll waits until ${new Date(until).toISOString()}` : ''}`,
    );
  return upstreamError(res, msg);
}

export const tumblrConnector: Connector<TumblrSettings> = {
  kind: 'tumblr',
  network: 'Tumblr',
  sourceType: () => 'tag',
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
    const key = requireCredential(credential, 'Tumblr').apiKey;
    if (!key) throw new ConnectorSetupError('the Tumblr connection has no API key (the app’s OAuth consumer key)');
    const base = (settings.apiBaseUrl ?? TUMBLR_API).replace(/\/+$/, '');
    const cursor: TumblrCursor = isObject(raw) && typeof raw.newest === 'number' ? { newest: raw.newest } : {};
    const stored = (await storedIds(RECHECK)).filter((s) => /^\d+$/.test(s.externalId));
    // read back to here (seconds): the newest read before, or the oldest of the stored posts rechecked
    const oldestStored = stored.length > 0 ? Math.floor(Math.min(...stored.map((s) => s.createdAt)) / 1000) : undefined;
    const back = [cursor.newest, oldestStored].filter((v) => v !== undefined);
    const readBackTo = back.length > 0 ? Math.min(...back) : undefined;

    const rows: IngestedPost[] = [];
    const seen = new Set<string>();
    let skipped = 0;
    let newest = cursor.newest;
    let before: number | undefined;
    let covered = false;
    for (let page = 0; page < maxPages && rows.length < maxItems; page++) {
      const q = new URLSearchParams({ tag: settings.tag, api_key: key, limit: String(PAGE_LIMIT) });
      if (before !== undefined) q.set('before', String(before));
      const res = await withoutSecret(key, () =>
        http.request(`${base}/v2/tagged?${q.toString()}`, { returnErrors: [401, 403, 404, 429] }),
      );
      const until = honourLimits(http, res, now);
      if (res.status !== 200) throw refusal(res, until);
      const got = await parse<MetaOf<typeof taggedDocument>>(res, 'tagged');
      rows.push(...got.rows);
      skipped += got.skipped;
      const times = got.meta.seen.filter((s) => s.ts > 0);
      for (const s of got.meta.seen) seen.add(s.id);
      if (times.length === 0) {
        covered = true; // the end of the tag
        before = 0;
        break;
      }
      for (const { ts } of times) if (newest === undefined || ts > newest) newest = ts;
      before = Math.min(...times.map((s) => s.ts));
      if (readBackTo === undefined || before <= readBackTo) {
        covered = readBackTo !== undefined;
        break;
      }
    }
    // within the stretch read, a stored post Tumblr no longer lists is gone
    const deleted =
      covered && before !== undefined
        ? stored.filter((s) => s.createdAt / 1000 > before && !seen.has(s.externalId)).map((s) => s.externalId)
        : [];
    return {
      rows: rows.slice(0, maxItems),
      cursor: newest === undefined ? {} : { newest },
      notModified: false,
      skipped,
      deleted,
    };
  },
  documents: { tagged: taggedDocument },
};
