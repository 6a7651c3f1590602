// PeerTube: the videos of a channel (`GET /api/v1/video-channels/{handle}/videos`),
// of an account (`/api/v1/accounts/{handle}/videos`), or a search by tag or
// words (`/api/v1/search/videos?tagsOneOf=…&search=…`), newest first
// (`sort=-publishedAt`), paged by `start`/`count` against `total`. The first
// poll reads the newest page; later polls read on while a whole page is
// newer than the newest video read, at most `maxPages` pages. No credential:
// PeerTube's API is public for public videos.
//
// A video becomes a post whose media is the instance's embed player
// (`/videos/embed/{uuid}`) with its preview image as the poster (both made
// absolute against the instance), its name and description (Markdown) as
// its text with its duration — or "Live" for a live stream; `nsfw` videos
// arrive hidden. Rate limits: `X-RateLimit-Remaining`/`X-RateLimit-Reset`
// (a UNIX time) and 429 with `Retry-After`, honoured by the scheduler.
//
// Deleted videos: each poll re-checks a few stored videos of the last days
// (`GET /api/v1/videos/{uuid}`: 404 — or 403, no longer public → removed).
import type { Static } from 'typebox';
import type { IngestedPost } from '../store/ingest.js';
import {
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type DocumentParser,
  type MetaOf,
  type PollOutput,
  type UpstreamPost,
} from './connector.js';
import type { PeertubeConnector } from '../schemas/connectors.js';
import { escapeHtml, httpUrl, parseInstant, plainText, str } from './normalize.js';
import { markdownHtml } from './lemmy.js';
import { hostOf } from './url-parts.js';
import { baseOf, isGone, recheckStored } from './fedi.js';

type PeertubeSettings = Static<typeof PeertubeConnector>;
type Json = Record<string, unknown>;

/** Videos per page (the API allows up to 100). */
export const PAGE_LIMIT = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Seconds → `m:ss` or `h:mm:ss`. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The largest of an actor's `avatars[]` (or its older `avatar`), absolute against the instance. */
function avatarOf(actor: Json, base: string): string {
  const list = (Array.isArray(actor.avatars) ? actor.avatars : isObject(actor.avatar) ? [actor.avatar] : []).filter(
    isObject,
  );
  const best = list.sort((a, b) => (Number(b.width) || 0) - (Number(a.width) || 0))[0];
  return best ? httpUrl(best.fileUrl) || httpUrl(best.path, base) : '';
}

/** The poster: PeerTube 8.1's `thumbnails[]` (largest), else `previewPath`, else `thumbnailPath`. */
function posterOf(video: Json, base: string): string {
  const thumbs = (Array.isArray(video.thumbnails) ? video.thumbnails : []).filter(isObject);
  const best = thumbs.sort((a, b) => (Number(b.width) || 0) - (Number(a.width) || 0))[0];
  return (
    (best ? httpUrl(best.fileUrl, base) : '') || httpUrl(video.previewPath, base) || httpUrl(video.thumbnailPath, base)
  );
}

/** What a video shows of its kind: "Live" (now, upcoming or ended), else its duration. */
function lengthLine(video: Json): string {
  if (video.isLive === true) {
    const state = isObject(video.state) ? Number(video.state.id) : NaN;
    const label = state === 4 ? 'Live (not started yet)' : state === 5 ? 'Live (ended)' : 'Live';
    return `<p>${label}</p>`;
  }
  const duration = Number(video.duration);
  return Number.isFinite(duration) && duration > 0 ? `<p>Video · ${durationText(duration)}</p>` : '';
}

/** A video of a list → a post. */
export function videoPost(video: Json, base: string): UpstreamPost | null {
  const uuid = str(video.uuid).toLowerCase();
  if (!UUID.test(uuid)) return null;
  const channel = isObject(video.channel) ? video.channel : isObject(video.account) ? video.account : {};
  const title = plainText(str(video.name));
  const description = str(video.truncatedDescription) || str(video.description);
  let content = title ? `<p><strong>${escapeHtml(title)}</strong></p>` : '';
  content += lengthLine(video);
  if (description.trim() !== '') content += markdownHtml(description);
  const embed = httpUrl(video.embedPath, base) || `${base}/videos/embed/${uuid}`;
  const name = str(channel.name);
  const host = str(channel.host) || hostOf(base);
  const shortUuid = str(video.shortUUID);
  return {
    externalId: uuid,
    content,
    authorName: plainText(str(channel.displayName) || name),
    username: name ? `${name}@${host}` : '',
    userPicture: avatarOf(channel, base),
    linkUrl:
      httpUrl(video.url) ||
      (/^[0-9A-Za-z]{1,40}$/.test(shortUuid) ? `${base}/w/${shortUuid}` : `${base}/videos/watch/${uuid}`),
    createdAt: parseInstant(video.publishedAt) ?? parseInstant(video.createdAt),
    updatedAt: parseInstant(video.updatedAt),
    media: [{ kind: 'video', url: embed, thumb: posterOf(video, base), alt: title }],
    tags: (Array.isArray(video.tags) ? video.tags : []).filter((t): t is string => typeof t === 'string'),
    sensitive: video.nsfw === true,
  };
}

// ---------- documents (parse worker) ----------

/** A page of `{total, data}` → its posts, and for paging each video's time and the total. */
const videosDocument = ((doc, settings, limits) => {
  const base = baseOf(settings.instance);
  const data = parseJson(doc);
  if (!isObject(data) || !Array.isArray(data.data))
    throw new UpstreamFormatError(`expected a video list from ${hostOf(base)}`);
  const videos = data.data.filter(isObject);
  const times = videos.map((v) => parseInstant(v.publishedAt) ?? 0);
  const total = typeof data.total === 'number' && Number.isFinite(data.total) ? data.total : null;
  return {
    ...collectPosts(videos.slice(0, limits.maxItems), (v) => videoPost(v, base)),
    meta: { times, count: videos.length, total },
  };
}) satisfies DocumentParser<PeertubeSettings>;

// ---------- the poll (serving thread) ----------

interface PeertubeCursor {
  /** newest `publishedAt` (ms) read so far */
  newest?: number;
  /** where the next re-check of stored videos starts */
  recheck?: number;
}

/** The list URL of the feed's setting, without `start`/`count`. */
export function listUrl(settings: PeertubeSettings): string {
  const base = baseOf(settings.instance);
  const common = 'sort=-publishedAt&nsfw=both';
  if (settings.channel !== undefined)
    return `${base}/api/v1/video-channels/${encodeURIComponent(settings.channel.replace(/^@/, ''))}/videos?${common}`;
  if (settings.account !== undefined)
    return `${base}/api/v1/accounts/${encodeURIComponent(settings.account.replace(/^@/, ''))}/videos?${common}`;
  const q = new URLSearchParams();
  if (settings.search !== undefined) q.set('search', settings.search);
  if (settings.tag !== undefined) q.set('tagsOneOf', settings.tag.replace(/^#/, ''));
  return `${base}/api/v1/search/videos?${q.toString()}&${common}`;
}

export const peertubeConnector: Connector<PeertubeSettings> = {
  kind: 'peertube',
  network: 'PeerTube',
  sourceType: (s) =>
    s.channel !== undefined ? 'channel' : s.account !== undefined ? 'account' : s.tag !== undefined ? 'tag' : 'search',
  async poll(input): Promise<PollOutput> {
    const { settings, http, parse } = input;
    const base = baseOf(settings.instance);
    const raw = input.cursor;
    const cursor: PeertubeCursor = isObject(raw)
      ? {
          ...(typeof raw.newest === 'number' ? { newest: raw.newest } : {}),
          ...(typeof raw.recheck === 'number' ? { recheck: raw.recheck } : {}),
        }
      : {};
    const list = listUrl(settings);
    const rows: IngestedPost[] = [];
    let skipped = 0;
    let newest = cursor.newest;
    let start = 0;
    let notModified = false;
    for (let page = 0; page < input.maxPages && rows.length < input.maxItems; page++) {
      const count = Math.min(PAGE_LIMIT, input.maxItems - rows.length);
      const res = await http.request(`${list}&start=${start}&count=${count}`, { conditional: page === 0 });
      if (res.notModified) {
        notModified = true;
        break;
      }
      const got = await parse<MetaOf<typeof videosDocument>>(res, 'videos');
      rows.push(...got.rows);
      skipped += got.skipped;
      for (const t of got.meta.times) if (t > 0 && (newest === undefined || t > newest)) newest = t;
      start += got.meta.count;
      const atEnd = got.meta.count < count || (got.meta.total !== null && start >= got.meta.total);
      // the first poll reads the newest page only; later ones on while a whole page is new
      if (cursor.newest === undefined || atEnd) break;
      if (got.meta.times.some((t) => t <= cursor.newest!)) break;
    }

    const seen = new Set(rows.map((r) => r.external_id));
    const { deleted, next } = await recheckStored(input, cursor.recheck ?? 0, seen, async (uuid) => {
      try {
        await http.request(`${base}/api/v1/videos/${encodeURIComponent(uuid)}`);
        return true;
      } catch (err) {
        // gone, or no longer public (private or internal now)
        if (isGone(err, [403, 404, 410])) return false;
        throw err;
      }
    });
    return {
      rows: rows.slice(0, input.maxItems),
      cursor: { ...(newest !== undefined ? { newest } : {}), recheck: next },
      notModified: notModified && deleted.length === 0,
      skipped,
      ...(deleted.length > 0 ? { deleted } : {}),
    };
  },
  documents: { videos: videosDocument },
};
