// Bluesky: an actor's author feed from the public AppView
// (`app.bsky.feed.getAuthorFeed`, no login), or a hashtag search
// (`app.bsky.feed.searchPosts`, which needs a session: an app password from
// BLUESKY_IDENTIFIER / BLUESKY_APP_PASSWORD, `com.atproto.server.createSession`
// on the service URL; the session lives in memory for the runtime's life).
//
// Each poll reads the newest page; while every item on it is newer than what
// was read before, older pages follow through `cursor`, at most `maxPages`.
// Facets become links, image/video embeds media (with their alt text), a
// quoted record a quoted block, a link card a linked title (its thumbnail the
// picture of a post without media). Labels (on the post, its record's
// self-labels, or its author) make a post arrive hidden — or, for an opt-out
// such as `!no-unauthenticated`, keep it off the wall altogether.
import type { Static } from 'typebox';
import type { IngestedPost } from '../store/ingest.js';
import {
  ConnectorSetupError,
  UpstreamError,
  UpstreamFormatError,
  collectPosts,
  isObject,
  isWithheld,
  parseJson,
  type Connector,
  type DocumentParser,
  type MetaOf,
  type PollInput,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
  type Withheld,
} from './connector.js';
import type { BlueskyConnector } from '../schemas/connectors.js';
import {
  httpUrl,
  linkHtml,
  parseInstant,
  plainText,
  quoteHtml,
  segmentsToHtml,
  shownMedia,
  str,
  type QuotedPost,
  type TextSegment,
} from './normalize.js';

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

/** What an embed view (`app.bsky.embed.*#view`) holds: media, a link card, a quoted record. */
interface EmbedParts {
  media: UpstreamMedia[];
  external: Json | null;
  /** the quoted record's view (`#viewRecord`, `#viewNotFound`, a feed generator, list…) */
  record: Json | null;
}

function embedParts(embed: unknown): EmbedParts {
  const none: EmbedParts = { media: [], external: null, record: null };
  if (!isObject(embed)) return none;
  switch (String(embed.$type ?? '')) {
    case 'app.bsky.embed.images#view': {
      const media = (Array.isArray(embed.images) ? embed.images : [])
        .filter(isObject)
        .map((i) => ({ kind: 'image' as const, url: httpUrl(i.fullsize), thumb: httpUrl(i.thumb), alt: str(i.alt) }))
        .filter((m) => m.url !== '');
      return { ...none, media };
    }
    case 'app.bsky.embed.video#view': {
      const url = httpUrl(embed.playlist);
      return {
        ...none,
        media: url ? [{ kind: 'video', url, thumb: httpUrl(embed.thumbnail), alt: str(embed.alt) }] : [],
      };
    }
    case 'app.bsky.embed.external#view':
      return { ...none, external: isObject(embed.external) ? embed.external : null };
    case 'app.bsky.embed.record#view':
      return { ...none, record: isObject(embed.record) ? embed.record : null };
    case 'app.bsky.embed.recordWithMedia#view': {
      const quoted = isObject(embed.record) && isObject(embed.record.record) ? embed.record.record : null;
      return { ...embedParts(embed.media), record: quoted };
    }
    default:
      return none;
  }
}

/** A link card's title, linked, unless the text already holds its URL. */
function externalHtml(external: Json | null, text: string): string {
  if (!external || typeof external.uri !== 'string' || text.includes(external.uri)) return '';
  const link = linkHtml(external.uri, plainText(str(external.title)) || external.uri);
  return link.startsWith('<a') ? `<p>${link}</p>` : '';
}

/** A link card's thumbnail as an image (for a post with no media of its own). */
function externalImage(external: Json | null): UpstreamMedia | null {
  const thumb = external ? httpUrl(external.thumb) : '';
  return thumb ? { kind: 'image', url: thumb, thumb: '' } : null;
}

/**
 * Labels by which an author or a post is kept off public walls altogether:
 * `!no-unauthenticated` (the author asked not to be shown to logged-out
 * viewers — a wall is such a viewer), any other `!no-…` opt-out, and
 * `!takedown`/`!suspend`. Every other label (`!hide`, `!warn`, porn,
 * graphic-media, a labeler's own values…) makes a post arrive hidden.
 */
const WITHHOLDING_LABEL = /^!(no-|takedown$|suspend$)/;

function labelValues(labels: unknown): string[] {
  return (Array.isArray(labels) ? labels : [])
    .filter((l): l is Json => isObject(l) && l.neg !== true)
    .map((l) => String(l.val ?? ''))
    .filter((v) => v !== '');
}

/** The labels on a post view (or a quoted record's view), its record's self-labels, and its author's. */
function labelsOf(view: Json, record: Json): { withheld: boolean; sensitive: boolean } {
  const author = isObject(view.author) ? view.author : {};
  const self = isObject(record.labels) && Array.isArray(record.labels.values) ? record.labels.values : [];
  const values = [...labelValues(view.labels), ...labelValues(self), ...labelValues(author.labels)];
  return {
    withheld: values.some((v) => WITHHOLDING_LABEL.test(v)),
    sensitive: values.some((v) => !WITHHOLDING_LABEL.test(v)),
  };
}

/** Rich text (a post's text and facets) → safe HTML, and its tags. */
function richText(record: Json): { html: string; text: string; tags: string[] } {
  const text = str(record.text);
  const { segments, tags } = facetSegments(text, record.facets);
  return {
    html: segmentsToHtml(segments),
    text,
    tags: [
      ...tags,
      ...(Array.isArray(record.tags) ? record.tags.filter((t): t is string => typeof t === 'string') : []),
    ],
  };
}

const rkeyOf = (uri: string) => uri.split('/').pop() ?? '';

function actorOf(author: unknown): { name: string; handle: string; id: string } {
  const a = isObject(author) ? author : {};
  const handle = typeof a.handle === 'string' && a.handle !== 'handle.invalid' ? a.handle : '';
  const id = handle || str(a.did);
  return { name: plainText(str(a.displayName).trim() !== '' ? str(a.displayName) : id), handle: id, id };
}

const postUrl = (actor: string, uri: string) =>
  `https://bsky.app/profile/${encodeURIComponent(actor)}/post/${encodeURIComponent(rkeyOf(uri))}`;

/** Quotes inside quotes are shown to this depth (the AppView sends the embeds of two levels). */
const QUOTE_DEPTH = 2;

/**
 * A quoted record's view → the quoted post (null when it cannot be shown:
 * not found, blocked, detached by its author, or its author opted out of
 * public display); undefined for a record that is not a post and has no page.
 * Feeds, lists and starter packs are quoted as their name, linked.
 */
function quotedPost(view: Json, depth: number): QuotedPost | null | undefined {
  const type = String(view.$type ?? '');
  const creator = actorOf(view.creator);
  const uri = str(view.uri);
  const named = (name: string, link: string): QuotedPost => ({
    authorName: plainText(name) || creator.name,
    handle: creator.handle,
    link,
    bodyHtml: '',
    media: [],
    sensitive: labelsOf({ ...view, author: view.creator }, {}).sensitive,
  });
  switch (type) {
    case 'app.bsky.embed.record#viewRecord': {
      const value = isObject(view.value) ? view.value : {};
      const labels = labelsOf(view, value);
      if (labels.withheld) return null;
      const author = actorOf(view.author);
      const text = richText(value);
      const parts = embedParts(Array.isArray(view.embeds) ? view.embeds[0] : undefined);
      const nested = parts.record && depth < QUOTE_DEPTH ? quotedPost(parts.record, depth + 1) : undefined;
      return {
        authorName: author.name,
        handle: author.handle,
        link: postUrl(author.id, uri),
        bodyHtml:
          text.html + externalHtml(parts.external, text.text) + (nested !== undefined ? quoteHtml(nested, false) : ''),
        media: parts.media,
        sensitive: labels.sensitive || nested?.sensitive === true,
      };
    }
    case 'app.bsky.embed.record#viewNotFound':
    case 'app.bsky.embed.record#viewBlocked':
    case 'app.bsky.embed.record#viewDetached':
      return null;
    case 'app.bsky.feed.defs#generatorView':
      return named(
        str(view.displayName),
        `https://bsky.app/profile/${encodeURIComponent(creator.id)}/feed/${encodeURIComponent(rkeyOf(uri))}`,
      );
    case 'app.bsky.graph.defs#listView':
      return named(
        str(view.name),
        `https://bsky.app/profile/${encodeURIComponent(creator.id)}/lists/${encodeURIComponent(rkeyOf(uri))}`,
      );
    case 'app.bsky.graph.defs#starterPackViewBasic':
    case 'app.bsky.graph.defs#starterPackView': {
      const record = isObject(view.record) ? view.record : {};
      return named(
        str(record.name),
        `https://bsky.app/starter-pack/${encodeURIComponent(creator.id)}/${encodeURIComponent(rkeyOf(uri))}`,
      );
    }
    default:
      return undefined;
  }
}

/**
 * A PostView (app.bsky.feed.defs#postView) → a post; withheld when it or
 * its author carries an opt-out label (see WITHHOLDING_LABEL).
 */
export function postViewPost(view: Json): UpstreamPost | Withheld | null {
  const uri = typeof view.uri === 'string' ? view.uri : '';
  const record = isObject(view.record) ? view.record : null;
  if (!uri.startsWith('at://') || !record) return null;
  const labels = labelsOf(view, record);
  if (labels.withheld) return { withheld: uri };
  const author = isObject(view.author) ? view.author : {};
  const actor = actorOf(author);
  const text = richText(record);
  const parts = embedParts(view.embed);
  const quote = parts.record ? quotedPost(parts.record, 1) : undefined;
  const { media, fromQuote } = shownMedia(parts.media, quote ?? null, externalImage(parts.external));
  return {
    externalId: uri,
    content:
      text.html + externalHtml(parts.external, text.text) + (quote !== undefined ? quoteHtml(quote, fromQuote) : ''),
    authorName: actor.name,
    username: actor.id,
    userPicture: httpUrl(author.avatar),
    linkUrl: postUrl(actor.id, uri),
    createdAt: parseInstant(record.createdAt) ?? parseInstant(view.indexedAt),
    updatedAt: null,
    media,
    tags: text.tags,
    sensitive: labels.sensitive || quote?.sensitive === true,
    reply: isObject(record.reply),
    // Bluesky has no bot flag; the profile's creation time is in the author view
    authorCreatedAt: parseInstant(author.createdAt),
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

/**
 * A page of posts → its posts (reposts unwrapped or left out), and for paging
 * each item's time and the cursor. An unwrapped repost is the reposted post
 * flagged `repost`, unless the page also holds that post itself (then it is
 * read as itself, as when reposts are left out).
 */
function pageDocument(read: (data: unknown, where: string) => { items: Item[]; cursor: string | null }) {
  return ((doc, settings, limits) => {
    const page = read(parseJson(doc), new URL(doc.url).host);
    const items = page.items.slice(0, limits.maxItems);
    const kept = settings.reposts === 'unwrap' ? items : items.filter((item) => !item.repost);
    const itself = new Set(kept.filter((item) => !item.repost).map((item) => item.view.uri));
    return {
      ...collectPosts(kept, (item) => {
        const post = postViewPost(item.view);
        return post && item.repost && !isWithheld(post) ? { ...post, repost: !itself.has(item.view.uri) } : post;
      }),
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

type Page = MetaOf<typeof authorFeedDocument> & { rows: IngestedPost[]; skipped: number; withheld: string[] };

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
      return { ...page.meta, rows: page.rows, skipped: page.skipped, withheld: page.withheld };
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
    const withheld: string[] = [];
    let skipped = 0;
    let newest = cursor.newest;
    let apiCursor: string | null = null;
    for (let page = 0; page < input.maxPages && rows.length < input.maxItems; page++) {
      const got = await fetchPage(apiCursor);
      rows.push(...got.rows);
      withheld.push(...got.withheld);
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
      withheld,
    };
  },
  documents: { authorFeed: authorFeedDocument, search: searchDocument, session: sessionDocument },
};
