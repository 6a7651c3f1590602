// Bluesky: an actor's author feed from the public AppView
// (`app.bsky.feed.getAuthorFeed`, no login), or a hashtag search
// (`app.bsky.feed.searchPosts`, which needs a session: an app password from
// BLUESKY_IDENTIFIER / BLUESKY_APP_PASSWORD, `com.atproto.server.createSession`
// on the service URL; the session lives in memory for the runtime's life).
//
// Each poll reads the newest page; while every item on it is newer than what
// was read before, older pages follow through `cursor`, at most `maxPages`.
// Facets become links, image/video embeds media, labels (on the post, its
// record's self-labels, or its author) make a post arrive hidden.
import type { Static } from 'typebox';
import type { IngestedPost } from '../store/ingest.js';
import {
  ConnectorSetupError,
  UpstreamError,
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type DocumentParser,
  type MetaOf,
  type PollInput,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { BlueskyConnector } from './connector-settings.js';
import { httpUrl, linkHtml, parseInstant, plainText, segmentsToHtml, type TextSegment } from './normalize.js';

type BlueskySettings = Static<typeof BlueskyConnector>;
type Json = Record<string, unknown>;

export const BLUESKY_APPVIEW_URL = 'https://public.api.bsky.app';
export const BLUESKY_SERVICE_URL = 'https://bsky.social';
export const PAGE_LIMIT = 50;

const trimBase = (url: string) => url.replace(/\/+$/, '');

interface BlueskyCursor {
  /** newest sort instant (ms) read so far */
  newest?: number;
}

function readCursor(raw: unknown): BlueskyCursor {
  return isObject(raw) && typeof raw.newest === 'number' && Number.isFinite(raw.newest) ? { newest: raw.newest } : {};
}

// ---------- mapping ----------

/** UTF-8 byte ranges of facets → text segments with links. */
export function facetSegments(text: string, facets: unknown): { segments: TextSegment[]; tags: string[] } {
  const bytes = Buffer.from(text, 'utf8');
  const tags: string[] = [];
  const ranges: { start: number; end: number; href: string }[] = [];
  for (const f of Array.isArray(facets) ? facets : []) {
    if (!isObject(f) || !isObject(f.index)) continue;
    const start = Number(f.index.byteStart);
    const end = Number(f.index.byteEnd);
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > bytes.length || start >= end) continue;
    let href = '';
    for (const feature of Array.isArray(f.features) ? f.features : []) {
      if (!isObject(feature)) continue;
      const type = String(feature.$type ?? '');
      if (type === 'app.bsky.richtext.facet#link' && typeof feature.uri === 'string') href = feature.uri;
      else if (type === 'app.bsky.richtext.facet#mention' && typeof feature.did === 'string')
        href = `https://bsky.app/profile/${feature.did}`;
      else if (type === 'app.bsky.richtext.facet#tag' && typeof feature.tag === 'string') {
        tags.push(feature.tag);
        href = `https://bsky.app/hashtag/${encodeURIComponent(feature.tag)}`;
      }
    }
    if (href) ranges.push({ start, end, href });
  }
  ranges.sort((a, b) => a.start - b.start);
  const segments: TextSegment[] = [];
  let pos = 0;
  for (const r of ranges) {
    if (r.start < pos) continue; // overlapping facet: ignore
    segments.push({ text: bytes.subarray(pos, r.start).toString('utf8') });
    segments.push({ text: bytes.subarray(r.start, r.end).toString('utf8'), href: r.href });
    pos = r.end;
  }
  segments.push({ text: bytes.subarray(pos).toString('utf8') });
  return { segments, tags };
}

function embedMedia(embed: unknown): { media: UpstreamMedia[]; external: Json | null } {
  if (!isObject(embed)) return { media: [], external: null };
  const type = String(embed.$type ?? '');
  if (type === 'app.bsky.embed.images#view') {
    const media = (Array.isArray(embed.images) ? embed.images : [])
      .filter(isObject)
      .map((i) => ({ kind: 'image' as const, url: httpUrl(i.fullsize), thumb: httpUrl(i.thumb) }))
      .filter((m) => m.url !== '');
    return { media, external: null };
  }
  if (type === 'app.bsky.embed.video#view') {
    const url = httpUrl(embed.playlist);
    return { media: url ? [{ kind: 'video', url, thumb: httpUrl(embed.thumbnail) }] : [], external: null };
  }
  if (type === 'app.bsky.embed.external#view') {
    return { media: [], external: isObject(embed.external) ? embed.external : null };
  }
  if (type === 'app.bsky.embed.recordWithMedia#view') return embedMedia(embed.media);
  return { media: [], external: null };
}

/** Label values that do not say anything about the content itself. */
const NEUTRAL_LABEL = /^!no-/;

function labelValues(labels: unknown): string[] {
  return (Array.isArray(labels) ? labels : [])
    .filter((l): l is Json => isObject(l) && l.neg !== true)
    .map((l) => String(l.val ?? ''));
}

export function isLabelled(view: Json): boolean {
  const record = isObject(view.record) ? view.record : {};
  const author = isObject(view.author) ? view.author : {};
  const self = isObject(record.labels) && Array.isArray(record.labels.values) ? record.labels.values : [];
  return [...labelValues(view.labels), ...labelValues(self), ...labelValues(author.labels)].some(
    (v) => v !== '' && !NEUTRAL_LABEL.test(v),
  );
}

/** A PostView (app.bsky.feed.defs#postView) → a post. */
export function postViewPost(view: Json): UpstreamPost | null {
  const uri = typeof view.uri === 'string' ? view.uri : '';
  const record = isObject(view.record) ? view.record : null;
  if (!uri.startsWith('at://') || !record) return null;
  const author = isObject(view.author) ? view.author : {};
  const handle = typeof author.handle === 'string' && author.handle !== 'handle.invalid' ? author.handle : '';
  const did = typeof author.did === 'string' ? author.did : '';
  const rkey = uri.split('/').pop() ?? '';
  const text = typeof record.text === 'string' ? record.text : '';
  const { segments, tags } = facetSegments(text, record.facets);
  const { media, external } = embedMedia(view.embed);
  let content = segmentsToHtml(segments);
  if (external && typeof external.uri === 'string' && !text.includes(external.uri)) {
    const title = plainText(typeof external.title === 'string' ? external.title : '') || external.uri;
    const link = linkHtml(external.uri, title);
    if (link.startsWith('<a')) content += `<p>${link}</p>`;
  }
  return {
    externalId: uri,
    content,
    authorName: plainText(
      typeof author.displayName === 'string' && author.displayName.trim() !== '' ? author.displayName : handle || did,
    ),
    username: handle || did,
    userPicture: httpUrl(author.avatar),
    linkUrl: `https://bsky.app/profile/${encodeURIComponent(handle || did)}/post/${encodeURIComponent(rkey)}`,
    createdAt: parseInstant(record.createdAt) ?? parseInstant(view.indexedAt),
    updatedAt: null,
    media,
    tags: [
      ...tags,
      ...(Array.isArray(record.tags) ? record.tags.filter((t): t is string => typeof t === 'string') : []),
    ],
    sensitive: isLabelled(view),
  };
}

// ---------- documents (parse worker) ----------

interface Item {
  view: Json;
  /** when it entered the feed (the repost time for reposts) */
  sortAt: number;
  repost: boolean;
  pinned: boolean;
}

function authorFeedItems(data: unknown, where: string): { items: Item[]; cursor: string | null } {
  if (!isObject(data) || !Array.isArray(data.feed))
    throw new UpstreamFormatError(`expected an author feed from ${where}`);
  const items: Item[] = [];
  for (const entry of data.feed) {
    if (!isObject(entry) || !isObject(entry.post)) continue;
    const reason = isObject(entry.reason) ? entry.reason : null;
    const reasonType = String(reason?.$type ?? '');
    const repost = reasonType === 'app.bsky.feed.defs#reasonRepost';
    const pinned = reasonType === 'app.bsky.feed.defs#reasonPin';
    const sortAt = (repost ? parseInstant(reason?.indexedAt) : null) ?? parseInstant(entry.post.indexedAt) ?? 0;
    items.push({ view: entry.post, sortAt, repost, pinned });
  }
  return { items, cursor: typeof data.cursor === 'string' && data.cursor !== '' ? data.cursor : null };
}

function searchItems(data: unknown, where: string): { items: Item[]; cursor: string | null } {
  if (!isObject(data) || !Array.isArray(data.posts))
    throw new UpstreamFormatError(`expected search results from ${where}`);
  const items = data.posts
    .filter(isObject)
    .map((view) => ({ view, sortAt: parseInstant(view.indexedAt) ?? 0, repost: false, pinned: false }));
  return { items, cursor: typeof data.cursor === 'string' && data.cursor !== '' ? data.cursor : null };
}

/** A page of posts → its posts (reposts unwrapped or left out), and for paging each item's time and the cursor. */
function pageDocument(read: (data: unknown, where: string) => { items: Item[]; cursor: string | null }) {
  return ((doc, settings, limits) => {
    const page = read(parseJson(doc), new URL(doc.url).host);
    const items = page.items.slice(0, limits.maxItems);
    const kept = settings.reposts === 'unwrap' ? items : items.filter((item) => !item.repost);
    return {
      ...collectPosts(kept, (item) => postViewPost(item.view)),
      meta: { times: items.map(({ sortAt, pinned }) => ({ sortAt, pinned })), cursor: page.cursor },
    };
  }) satisfies DocumentParser<BlueskySettings>;
}

const authorFeedDocument = pageDocument(authorFeedItems);
const searchDocument = pageDocument(searchItems);

const sessionDocument = ((doc) => {
  const data = parseJson(doc);
  if (!isObject(data) || typeof data.accessJwt !== 'string')
    throw new UpstreamFormatError(`createSession on ${new URL(doc.url).host} returned no token`);
  return { posts: [], skipped: 0, meta: { accessJwt: data.accessJwt } };
}) satisfies DocumentParser<BlueskySettings>;

type Page = MetaOf<typeof authorFeedDocument> & { rows: IngestedPost[]; skipped: number };

// ---------- the poll (serving thread) ----------

async function session(input: PollInput<BlueskySettings>, serviceUrl: string, fresh: boolean): Promise<string> {
  const creds = input.env.bluesky;
  if (!creds) throw new ConnectorSetupError('a Bluesky hashtag feed needs BLUESKY_IDENTIFIER and BLUESKY_APP_PASSWORD');
  const key = `bluesky-session:${serviceUrl}:${creds.identifier}`;
  const cached = input.env.memory.get(key);
  if (!fresh && typeof cached === 'string') return cached;
  const res = await input.http.request(`${serviceUrl}/xrpc/com.atproto.server.createSession`, {
    method: 'POST',
    json: { identifier: creds.identifier, password: creds.appPassword },
  });
  const { accessJwt } = (await input.parse<MetaOf<typeof sessionDocument>>(res, 'session')).meta;
  input.env.memory.set(key, accessJwt);
  return accessJwt;
}

const isExpiredToken = (err: unknown) =>
  err instanceof UpstreamError &&
  (err.status === 401 || (err.status === 400 && /ExpiredToken|InvalidToken/.test(err.message)));

export const blueskyConnector: Connector<BlueskySettings> = {
  kind: 'bluesky',
  network: 'Bluesky',
  sourceType: (s) => (s.hashtag !== undefined ? 'hashtag' : 'handle'),
  async poll(input): Promise<PollOutput> {
    const { settings, http } = input;
    const cursor = readCursor(input.cursor);
    let fetchPage: (apiCursor: string | null) => Promise<Page>;
    const read = async (res: Parameters<typeof input.parse>[0], document: string): Promise<Page> => {
      const page = await input.parse<MetaOf<typeof authorFeedDocument>>(res, document);
      return { ...page.meta, rows: page.rows, skipped: page.skipped };
    };

    if (settings.hashtag !== undefined) {
      const serviceUrl = trimBase(settings.serviceUrl ?? BLUESKY_SERVICE_URL);
      const tag = settings.hashtag.replace(/^#/, '');
      fetchPage = async (apiCursor) => {
        const url = `${serviceUrl}/xrpc/app.bsky.feed.searchPosts?q=${encodeURIComponent(`#${tag}`)}&sort=latest&limit=${PAGE_LIMIT}${apiCursor ? `&cursor=${encodeURIComponent(apiCursor)}` : ''}`;
        const get = async (fresh: boolean) =>
          http.request(url, { headers: { authorization: `Bearer ${await session(input, serviceUrl, fresh)}` } });
        let res;
        try {
          res = await get(false);
        } catch (err) {
          if (!isExpiredToken(err)) throw err;
          res = await get(true);
        }
        return read(res, 'search');
      };
    } else {
      const appView = trimBase(settings.appViewUrl ?? BLUESKY_APPVIEW_URL);
      const actor = encodeURIComponent((settings.actor ?? '').replace(/^@/, ''));
      fetchPage = async (apiCursor) => {
        const url = `${appView}/xrpc/app.bsky.feed.getAuthorFeed?actor=${actor}&limit=${PAGE_LIMIT}&filter=posts_no_replies&includePins=false${apiCursor ? `&cursor=${encodeURIComponent(apiCursor)}` : ''}`;
        return read(await http.request(url), 'authorFeed');
      };
    }

    const rows: IngestedPost[] = [];
    let skipped = 0;
    let newest = cursor.newest;
    let apiCursor: string | null = null;
    for (let page = 0; page < input.maxPages && rows.length < input.maxItems; page++) {
      const got = await fetchPage(apiCursor);
      rows.push(...got.rows);
      skipped += got.skipped;
      apiCursor = got.cursor;
      const timed = got.times.filter((i) => !i.pinned);
      for (const { sortAt } of timed) if (newest === undefined || sortAt > newest) newest = sortAt;
      // first poll: the newest page is enough; later: go on while all is new
      if (cursor.newest === undefined || apiCursor === null || timed.length === 0) break;
      if (timed.some((i) => i.sortAt <= cursor.newest!)) break;
    }
    // pages come newest first: what is over the cap is the oldest
    return {
      rows: rows.slice(0, input.maxItems),
      cursor: newest === undefined ? {} : { newest },
      notModified: false,
      skipped,
    };
  },
  documents: { authorFeed: authorFeedDocument, search: searchDocument, session: sessionDocument },
};
