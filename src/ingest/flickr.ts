// Flickr: public photos and videos with tags (`tags`, `tag_mode`) or a
// member's (`user_id`), through `flickr.photos.search` (REST, JSON without
// callback: `format=json&nojsoncallback=1`) with the connection's API key,
// newest uploads first, with the `extras` a post needs (upload date, owner
// name and buddy icon, sizes `url_l`/`url_c`/`url_m`/`url_q`, media, tags,
// description, path alias).
//
// Each poll asks from `min_upload_date`: the newest upload read before (the
// cursor) or, earlier, the oldest of the feed's newest stored posts, and
// follows `page` to `pages`. Having read the whole stretch, a stored post
// Flickr no longer lists in it was deleted, made private or untagged, and
// leaves the wall. A video's playable file comes from
// `flickr.photos.getSizes` (its "Site MP4"/"HD MP4"… size), asked once per
// video and kept in the cursor.
//
// Flickr answers errors with HTTP 200 and `{"stat":"fail","code":…,"message":…}`:
// code 100 (invalid API key) fails the connection. Its terms: the API key
// is for the operator's app; photos keep their owners' licences (see the
// docs page).
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
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { FlickrConnector } from '../schemas/connectors.js';
import { sanitizeIngestedHtml, withoutControls } from '../domain/sanitize.js';
import { escapeHtml, httpUrl, plainText, str } from './normalize.js';
import { withoutSecret } from './upstream-errors.js';
import { whereFrom } from './url-parts.js';

type FlickrSettings = Static<typeof FlickrConnector>;
type Json = Record<string, unknown>;

export const FLICKR_API = 'https://www.flickr.com/services/rest';
export const PER_PAGE = 100;
export const EXTRAS =
  'date_upload,date_taken,owner_name,icon_server,url_l,url_c,url_m,url_q,media,tags,description,path_alias';
/** the stored posts whose stretch each poll reads again (deletions) */
export const RECHECK = 100;
/** videos whose files one poll looks up at most (getSizes) */
const VIDEO_LOOKUPS = 10;
/** video files remembered in the cursor */
const VIDEO_MEMORY = 200;
/** the sizes of a video's getSizes answer, best first */
const VIDEO_SIZES = ['HD MP4', '1080p', '720p', 'Site MP4', '360p', 'Mobile MP4', 'Video Original'];

interface FlickrCursor {
  /** `dateupload` (seconds) of the newest upload read so far */
  newest?: number;
  /** video id → its file (from getSizes) */
  videos?: Record<string, string>;
}

/** The page of a photo on Flickr (also a video's stand-in until its file is known). */
export const photoPage = (p: Json) => `https://www.flickr.com/photos/${str(p.pathalias) || str(p.owner)}/${str(p.id)}/`;

/** A photo of `photos.photo[]` → a post. */
export function flickrPost(p: Json): UpstreamPost | null {
  const id = str(p.id);
  if (!/^\d+$/.test(id)) return null;
  const large = httpUrl(p.url_l) || httpUrl(p.url_c) || httpUrl(p.url_m);
  const thumb = httpUrl(p.url_q) || httpUrl(p.url_m);
  // a title is plain text (shown escaped); a description may carry a little HTML
  const title = withoutControls(str(p.title), 'single').trim();
  const description = isObject(p.description) ? str(p.description._content) : '';
  const body = sanitizeIngestedHtml(description.trim().replace(/\r?\n/g, '<br />')).trim();
  const media: UpstreamMedia[] =
    p.media === 'video'
      ? [{ kind: 'video', url: photoPage(p), thumb: large || thumb, alt: title }]
      : large
        ? [{ kind: 'image', url: large, thumb: thumb === large ? '' : thumb, alt: title }]
        : [];
  const owner = str(p.owner);
  const iconServer = Number(p.iconserver);
  const uploaded = Number(p.dateupload);
  return {
    externalId: id,
    content: (title ? `<p><strong>${escapeHtml(title)}</strong></p>` : '') + (body ? `<p>${body}</p>` : ''),
    authorName: plainText(str(p.ownername)) || owner,
    username: str(p.pathalias) || owner,
    userPicture:
      iconServer > 0
        ? `https://farm${str(p.iconfarm)}.staticflickr.com/${str(p.iconserver)}/buddyicons/${owner}.jpg`
        : 'https://www.flickr.com/images/buddyicon.gif',
    linkUrl: photoPage(p),
    createdAt: Number.isFinite(uploaded) && uploaded > 0 ? uploaded * 1000 : null,
    updatedAt: null,
    media,
    tags: str(p.tags).split(/\s+/).filter(Boolean),
    sensitive: false,
  };
}

/** Flickr's `{"stat":"fail"}` answer, for the poll to throw (error classes do not cross the worker). */
function failOf(data: Json): { code: number; message: string } | null {
  if (data.stat !== 'fail') return null;
  return { code: Number(data.code) || 0, message: plainText(str(data.message)).slice(0, 200) };
}

/** A page of `flickr.photos.search` → its posts, every photo's id and upload, its videos, and the page count. */
const searchDocument = ((doc, _settings, limits) => {
  const data = parseJson(doc);
  if (!isObject(data)) throw new UpstreamFormatError(`expected a Flickr answer from ${whereFrom(doc.url)}`);
  const fail = failOf(data);
  if (fail) return { posts: [], skipped: 0, meta: { fail, seen: [], pages: 0, videos: [] } };
  const photos = isObject(data.photos) ? data.photos : null;
  if (!photos || !Array.isArray(photos.photo))
    throw new UpstreamFormatError(`expected photos from ${whereFrom(doc.url)}`);
  const items = photos.photo.filter(isObject);
  const seen = items.map((p) => ({ id: str(p.id), uploaded: Number(p.dateupload) || 0 }));
  const videos = items.filter((p) => p.media === 'video').map((p) => ({ id: str(p.id), page: photoPage(p) }));
  return {
    ...collectPosts(items.slice(0, limits.maxItems), flickrPost),
    meta: { fail: null, seen, pages: Number(photos.pages) || 0, videos },
  };
}) satisfies DocumentParser<FlickrSettings>;

/** `flickr.photos.getSizes` of a video → its best video file. */
const sizesDocument = ((doc) => {
  const data = parseJson(doc);
  if (!isObject(data)) throw new UpstreamFormatError(`expected a Flickr answer from ${whereFrom(doc.url)}`);
  const fail = failOf(data);
  const sizes = isObject(data.sizes) && Array.isArray(data.sizes.size) ? data.sizes.size.filter(isObject) : [];
  const videos = sizes.filter((s) => s.media === 'video' && httpUrl(s.source) !== '');
  const best =
    VIDEO_SIZES.map((label) => videos.find((s) => s.label === label)).find((s) => s !== undefined) ?? videos[0];
  return { posts: [], skipped: 0, meta: { fail, file: best ? httpUrl(best.source) : '' } };
}) satisfies DocumentParser<FlickrSettings>;

function refusal(fail: { code: number; message: string }): Error {
  if (fail.code === 100)
    return new CredentialError(
      'invalid',
      `Flickr refused the API key (code 100: ${fail.message || 'Invalid API Key'}): check the connection’s key at flickr.com/services/apps (it may have been deleted or disabled).`,
    );
  if (fail.code === 105 || fail.code === 106)
    return new UpstreamError(503, `Flickr is unavailable (code ${fail.code}: ${fail.message})`);
  return new UpstreamError(200, `Flickr refused the search (code ${fail.code}: ${fail.message})`);
}

/** A video's stand-in (its page) replaced by its file in a stored row's media fields. */
function withVideoFile(row: IngestedPost, page: string, file: string): IngestedPost {
  const swap = (v: string) => (v === page ? file : v);
  const children = (JSON.parse(row.children) as { image: string; video: string }[]).map((c) => ({
    ...c,
    video: swap(c.video),
  }));
  return { ...row, file: swap(row.file), media_file: swap(row.media_file), children: JSON.stringify(children) };
}

export const flickrConnector: Connector<FlickrSettings> = {
  kind: 'flickr',
  network: 'Flickr',
  sourceType: (s) => (s.userId !== undefined && s.tags === undefined ? 'user' : 'tags'),
  async poll({ settings, http, parse, cursor: raw, credential, storedIds, maxPages, maxItems }): Promise<PollOutput> {
    const key = requireCredential(credential, 'Flickr').apiKey;
    if (!key) throw new ConnectorSetupError('the Flickr connection has no API key');
    const base = (settings.apiBaseUrl ?? FLICKR_API).replace(/\/+$/, '');
    const cursor: FlickrCursor = {};
    if (isObject(raw) && typeof raw.newest === 'number') cursor.newest = raw.newest;
    if (isObject(raw) && isObject(raw.videos))
      cursor.videos = Object.fromEntries(
        Object.entries(raw.videos).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
    const stored = (await storedIds(RECHECK)).filter((s) => /^\d+$/.test(s.externalId));
    const oldestStored = stored.length > 0 ? Math.floor(Math.min(...stored.map((s) => s.createdAt)) / 1000) : undefined;
    const back = [cursor.newest, oldestStored].filter((v) => v !== undefined);
    const from = back.length > 0 ? Math.min(...back) : undefined;
    const call = (method: string, params: Record<string, string>) =>
      withoutSecret(key, () =>
        http.request(
          `${base}/?${new URLSearchParams({ method, api_key: key, ...params, format: 'json', nojsoncallback: '1' }).toString()}`,
        ),
      );

    const rows: IngestedPost[] = [];
    const seen = new Set<string>();
    const videos: { id: string; page: string }[] = [];
    let skipped = 0;
    let newest = cursor.newest;
    let covered = false;
    for (let page = 1; page <= maxPages && rows.length < maxItems; page++) {
      const params: Record<string, string> = {
        sort: 'date-posted-desc',
        extras: EXTRAS,
        per_page: String(PER_PAGE),
        page: String(page),
      };
      if (settings.tags) params.tags = settings.tags;
      if (settings.tags) params.tag_mode = settings.tagMode ?? 'any';
      if (settings.userId) params.user_id = settings.userId;
      if (from !== undefined) params.min_upload_date = String(from);
      const res = await call('flickr.photos.search', params);
      const got = await parse<MetaOf<typeof searchDocument>>(res, 'search');
      if (got.meta.fail) throw refusal(got.meta.fail);
      rows.push(...got.rows);
      skipped += got.skipped;
      videos.push(...got.meta.videos);
      for (const s of got.meta.seen) {
        seen.add(s.id);
        if (newest === undefined || s.uploaded > newest) newest = s.uploaded;
      }
      if (page >= got.meta.pages || got.meta.seen.length === 0) {
        covered = true;
        break;
      }
      if (from === undefined) break; // the first poll: the newest page
    }

    // videos: their files, looked up once each
    const known: Record<string, string> = { ...(cursor.videos ?? {}) };
    let lookups = 0;
    for (const video of videos) {
      if (known[video.id] === undefined && lookups < VIDEO_LOOKUPS) {
        lookups++;
        const res = await call('flickr.photos.getSizes', { photo_id: video.id });
        const got = await parse<MetaOf<typeof sizesDocument>>(res, 'sizes');
        if (got.meta.fail?.code === 100) throw refusal(got.meta.fail);
        if (got.meta.file) known[video.id] = got.meta.file;
      }
    }
    const patched = rows.map((row) => {
      const video = videos.find((v) => v.id === row.external_id);
      return video && known[video.id] ? withVideoFile(row, video.page, known[video.id]!) : row;
    });
    const remembered = Object.entries(known).slice(-VIDEO_MEMORY);

    const deleted =
      covered && from !== undefined
        ? stored.filter((s) => s.createdAt / 1000 >= from && !seen.has(s.externalId)).map((s) => s.externalId)
        : [];
    return {
      rows: patched.slice(0, maxItems),
      cursor: {
        ...(newest !== undefined ? { newest } : {}),
        ...(remembered.length > 0 ? { videos: Object.fromEntries(remembered) } : {}),
      },
      notModified: false,
      skipped,
      deleted,
    };
  },
  documents: { search: searchDocument, sizes: sizesDocument },
};
