// RSS 2.0, RSS 1.0 (RDF) and Atom feeds, with Media RSS (`media:content`,
// `media:group`, `media:thumbnail`, `media:rating`), enclosures, Dublin Core
// and GeoRSS. The parser here is shared with the YouTube connector, whose
// feeds are Atom with Media RSS.
import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  ACCEPT_FEED,
  UpstreamFormatError,
  isObject,
  type Connector,
  type DocumentContent,
  type ParseLimits,
  type PollOutput,
  type UpstreamDocument,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { RssConnector } from './connector-settings.js';
import { sanitizeIngestedHtml } from '../domain/sanitize.js';
import { escapeHtml, hashtagsIn, httpUrl, parseInstant, plainText, textToHtml } from './normalize.js';
import type { Static } from 'typebox';

type Node = Record<string, unknown>;

const ARRAY_TAGS = new Set([
  'item',
  'entry',
  'link',
  'atom:link',
  'category',
  'enclosure',
  'media:content',
  'media:thumbnail',
  'media:group',
  'media:category',
  'dc:subject',
]);

const OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
  processEntities: { enabled: true, maxEntityCount: 50, maxTotalExpansions: 1000, maxExpandedLength: 100_000 },
  isArray: (name: string) => ARRAY_TAGS.has(name),
};

// The document is read in two steps so that memory follows the items a poll
// keeps, not the size of the feed: first the feed level, with every item kept
// as its raw XML (a stop node: a slice of the body, no tree), then each item
// on its own — all of them only to rank them by date when there are more
// than the poll keeps, then the kept ones for good.
const ITEM_PATHS = ['rss.channel.item', 'rdf:RDF.item', 'feed.entry'];
const feedParser = new XMLParser({ ...OPTIONS, stopNodes: ITEM_PATHS });
const itemParser = new XMLParser(OPTIONS);
// ranking reads only dates: without entity processing, which costs most of a small parse
const rankParser = new XMLParser({ ...OPTIONS, htmlEntities: false, processEntities: false });

export interface ParsedFeed {
  format: 'rss' | 'rdf' | 'atom';
  /** channel/feed level */
  title: string;
  link: string;
  image: string;
  author: string;
  /** the newest `maxItems` items (by date; undated ones after dated ones), in document order */
  items: Node[];
  /** items that could not be read and were left out */
  skipped: number;
}

/**
 * Parses an RSS/RDF/Atom document, keeping its newest `maxItems` items;
 * anything else (HTML, JSON, malformed XML) is an UpstreamFormatError.
 */
export function parseFeedXml(body: string, where: string, limits: ParseLimits): ParsedFeed {
  const text = body.replace(/^\uFEFF/, '').trim();
  if (!text.startsWith('<'))
    throw new UpstreamFormatError(`expected a feed from ${where}, got something that is not XML`);
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true) {
    if (/^<!doctype html|^<html/i.test(text))
      throw new UpstreamFormatError(`expected a feed from ${where}, got an HTML page`);
    throw new UpstreamFormatError(`malformed XML from ${where} (line ${valid.err.line}: ${valid.err.msg})`);
  }
  let doc: Node;
  try {
    doc = feedParser.parse(text) as Node;
  } catch (err) {
    throw new UpstreamFormatError(`unreadable XML from ${where}: ${(err as Error).message.slice(0, 200)}`);
  }
  const withItems = (
    format: ParsedFeed['format'],
    raw: unknown,
    head: Omit<ParsedFeed, 'format' | 'items' | 'skipped'>,
  ) => ({ format, ...head, ...newestItems(format, raw, limits.maxItems) }) satisfies ParsedFeed;
  if (isObject(doc.rss)) {
    const channel = isObject(doc.rss.channel) ? doc.rss.channel : {};
    return withItems('rss', channel.item, {
      title: plainText(textOf(channel.title)),
      link: rssLink(channel),
      image:
        httpUrl(textOf(isObject(channel.image) ? channel.image.url : undefined)) ||
        httpUrl(attr(channel['itunes:image'], 'href')),
      author: plainText(textOf(channel['dc:creator']) || textOf(channel.managingEditor)),
    });
  }
  if (isObject(doc['rdf:RDF'])) {
    const rdf = doc['rdf:RDF'];
    const channel = isObject(rdf.channel) ? rdf.channel : {};
    return withItems('rdf', rdf.item, {
      title: plainText(textOf(channel.title)),
      link: rssLink(channel),
      image: httpUrl(textOf(isObject(rdf.image) ? rdf.image.url : undefined)),
      author: plainText(textOf(channel['dc:creator']) || textOf(channel['dc:publisher'])),
    });
  }
  if (isObject(doc.feed)) {
    const feed = doc.feed;
    return withItems('atom', feed.entry, {
      title: plainText(textOf(feed.title)),
      link: atomLink(feed, ''),
      image: httpUrl(textOf(feed.icon)) || httpUrl(textOf(feed.logo)),
      author: plainText(textOf(first(feed.author)?.name)),
    });
  }
  if (isObject(doc.html)) throw new UpstreamFormatError(`expected a feed from ${where}, got an HTML page`);
  throw new UpstreamFormatError(
    `expected an RSS or Atom feed from ${where}, got <${Object.keys(doc).find((k) => !k.startsWith('?')) ?? '?'}>`,
  );
}

// ---------- items: raw XML → nodes, the newest kept ----------

/** The XML inside an item the feed parser kept raw. */
const rawXml = (raw: unknown) => (typeof raw === 'string' ? raw : isObject(raw) ? textOf(raw['#text']) : '');

/** One item kept raw by the feed parser (its XML, and the attributes of its element) → its node; null if empty. */
function itemNode(raw: unknown, parser = itemParser): Node | null {
  const xml = rawXml(raw);
  const attributes = isObject(raw) ? Object.fromEntries(Object.entries(raw).filter(([k]) => k.startsWith('@_'))) : {};
  const parsed = first((parser.parse(`<item>${xml}</item>`) as Node).item);
  if (!parsed) return Object.keys(attributes).length > 0 ? attributes : null;
  return { ...attributes, ...parsed };
}

/** When an item was published (updated, if that is all it says); null if it does not say. */
function itemInstant(format: ParsedFeed['format'], item: Node): number | null {
  if (format === 'atom') return parseInstant(textOf(item.published)) ?? parseInstant(textOf(item.updated));
  return (
    parseInstant(textOf(item.pubDate) || textOf(item['dc:date'])) ??
    parseInstant(textOf(item['atom:updated']) || textOf(item['dc:modified']))
  );
}

/** Items ranked by date read this many at a time: one small parse per item would cost more than the items. */
const RANK_BATCH = 256;

const UNREADABLE = Symbol('unreadable');

/** When each of these raw items was published, for ranking (no date: null; empty: undefined). */
function instantsOf(
  format: ParsedFeed['format'],
  raws: readonly unknown[],
): (number | null | undefined | typeof UNREADABLE)[] {
  const instant = (node: Node | null) => (node ? itemInstant(format, node) : undefined);
  try {
    const doc = rankParser.parse(`<items>${raws.map((raw) => `<item>${rawXml(raw)}</item>`).join('')}</items>`) as Node;
    const parsed = isObject(doc.items) && Array.isArray(doc.items.item) ? (doc.items.item as unknown[]) : [];
    if (parsed.length === raws.length) {
      // an item with attributes only is an (empty) item all the same
      return parsed.map((p, i) => instant(isObject(p) ? p : isObject(raws[i]) ? {} : null));
    }
  } catch {
    // one of them is unreadable: read them one by one below
  }
  return raws.map((raw) => {
    try {
      return instant(itemNode(raw, rankParser));
    } catch {
      return UNREADABLE;
    }
  });
}

function newestItems(
  format: ParsedFeed['format'],
  value: unknown,
  maxItems: number,
): { items: Node[]; skipped: number } {
  const raws = value === undefined ? [] : Array.isArray(value) ? value : [value];
  let chosen: unknown[] = raws;
  let skipped = 0;
  if (raws.length > maxItems) {
    // rank all by date (none kept), keep the newest
    const ranked: { index: number; at: number | null }[] = [];
    for (let start = 0; start < raws.length; start += RANK_BATCH) {
      instantsOf(format, raws.slice(start, start + RANK_BATCH)).forEach((at, i) => {
        if (at === UNREADABLE) skipped++;
        else if (at !== undefined) ranked.push({ index: start + i, at });
      });
    }
    ranked.sort((a, b) => (b.at ?? -Infinity) - (a.at ?? -Infinity) || a.index - b.index);
    chosen = ranked
      .slice(0, maxItems)
      .map((r) => r.index)
      .sort((a, b) => a - b)
      .map((i) => raws[i]);
  }
  const items: Node[] = [];
  for (const raw of chosen) {
    try {
      const node = itemNode(raw);
      if (node) items.push(node);
    } catch {
      skipped++;
    }
  }
  return { items, skipped };
}

// ---------- node helpers ----------

function nodes(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter(isObject);
  return isObject(value) ? [value] : [];
}

function first(value: unknown): Node | undefined {
  return nodes(value)[0];
}

/** The text of an element (string, `#text` of an element with attributes, first of a list). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return textOf(value[0]);
  if (isObject(value))
    return typeof value['#text'] === 'string' || typeof value['#text'] === 'number' ? String(value['#text']) : '';
  return '';
}

/** All text inside an element, for XHTML content that the parser turned into objects. */
function deepText(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(deepText).join(' ');
  if (isObject(value)) {
    return Object.entries(value)
      .filter(([k]) => !k.startsWith('@_'))
      .map(([, v]) => deepText(v))
      .join(' ');
  }
  return '';
}

export function attr(value: unknown, name: string): string {
  const node = Array.isArray(value) ? value[0] : value;
  return isObject(node) && typeof node[`@_${name}`] === 'string' ? (node[`@_${name}`] as string) : '';
}

function rssLink(node: Node): string {
  for (const l of Array.isArray(node.link) ? node.link : [node.link]) {
    const url = httpUrl(textOf(l));
    if (url) return url;
  }
  return atomLink(node, '', 'atom:link');
}

/** Atom `link rel=alternate` (or without rel) href, resolved against the feed URL. */
export function atomLink(node: Node, base: string, tag = 'link'): string {
  const links = nodes(node[tag]);
  const alt = links.find((l) => (attr(l, 'rel') || 'alternate') === 'alternate') ?? links[0];
  return alt ? httpUrl(attr(alt, 'href'), base || undefined) : '';
}

/** Atom text construct (text/html/xhtml) → safe HTML. */
function atomHtml(value: unknown): string {
  if (value === undefined || value === null) return '';
  const type = attr(value, 'type').toLowerCase();
  if (type === 'xhtml') return textToHtml(plainText(deepText(value)));
  const raw = textOf(value);
  if (type === 'html' || type === 'text/html') return sanitizeIngestedHtml(raw);
  return textToHtml(raw);
}

// ---------- items ----------

const IMAGE_EXT = /\.(jpe?g|png|gif|webp|avif|bmp|heic)$/i;
const VIDEO_EXT = /\.(mp4|mov|webm|m4v|m3u8)$/i;

function kindOf(url: string, type: string, medium: string): 'image' | 'video' | null {
  const m = medium.toLowerCase();
  const t = type.toLowerCase();
  if (m === 'image' || t.startsWith('image/')) return 'image';
  if (m === 'video' || t.startsWith('video/') || t === 'application/x-mpegurl') return 'video';
  if (m !== '' || t !== '') return null; // audio, documents, …
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    /* keep as is */
  }
  if (VIDEO_EXT.test(path)) return 'video';
  if (IMAGE_EXT.test(path)) return 'image';
  return 'image';
}

/** Media RSS, enclosures, and (as a last resort) the first image of the HTML. */
export function mediaOfItem(item: Node, html: string, base: string): UpstreamMedia[] {
  const out: UpstreamMedia[] = [];
  const thumbOf = (n: Node | undefined) => httpUrl(attr(n?.['media:thumbnail'], 'url'), base || undefined);
  const itemThumb = thumbOf(item);
  const groups = nodes(item['media:group']);
  const contents: { node: Node; groupThumb: string }[] = [
    ...groups.flatMap((g) => nodes(g['media:content']).map((node) => ({ node, groupThumb: thumbOf(g) }))),
    ...nodes(item['media:content']).map((node) => ({ node, groupThumb: '' })),
  ];
  for (const { node, groupThumb } of contents) {
    const url = httpUrl(attr(node, 'url'), base || undefined);
    if (!url) continue;
    const kind = kindOf(url, attr(node, 'type'), attr(node, 'medium'));
    if (!kind) continue;
    const thumb = thumbOf(node) || groupThumb || itemThumb;
    out.push({ kind, url, thumb: kind === 'image' ? thumb || '' : thumb });
  }
  for (const enc of nodes(item.enclosure)) {
    const url = httpUrl(attr(enc, 'url'), base || undefined);
    const kind = url ? kindOf(url, attr(enc, 'type'), '') : null;
    if (url && kind) out.push({ kind, url, thumb: kind === 'video' ? itemThumb : '' });
  }
  if (out.length === 0 && itemThumb) out.push({ kind: 'image', url: itemThumb, thumb: '' });
  if (out.length === 0 && html) {
    const src = /<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/i.exec(html)?.[1];
    const url = src ? httpUrl(src.replace(/&amp;/g, '&'), base || undefined) : '';
    if (url) out.push({ kind: 'image', url, thumb: '' });
  }
  return out;
}

/** `<p><strong>title</strong></p>` then the body, unless the body already starts with the title. */
export function titleAndBody(title: string, bodyHtml: string): string {
  const t = title.trim();
  if (t === '') return bodyHtml;
  const bodyText = plainText(bodyHtml);
  const t0 = t.replace(/(…|\.\.\.)$/, '');
  if (bodyText !== '' && bodyText.startsWith(t0)) return bodyHtml;
  return `<p><strong>${escapeHtml(t)}</strong></p>${bodyHtml}`;
}

/** `a@b.c (Name)` → `Name` (RSS 2.0 `author` is an e-mail address with an optional name). */
function rssAuthor(value: string): string {
  const m = /\(([^)]+)\)\s*$/.exec(value);
  if (m) return m[1]!;
  return value.includes('@') && !value.includes(' ') ? '' : value;
}

function locationOf(item: Node): string {
  const name = textOf(item['georss:featurename']) || textOf(item['georss:featureName']);
  if (name) return name;
  const point = textOf(item['georss:point']).trim().split(/\s+/);
  if (point.length === 2 && point.every((p) => /^-?\d+(\.\d+)?$/.test(p))) return `${point[0]}, ${point[1]}`;
  return '';
}

function sensitiveOf(item: Node): boolean {
  const ratings = [item['media:rating'], ...nodes(item['media:group']).map((g) => g['media:rating'])].map((r) =>
    textOf(r).trim().toLowerCase(),
  );
  // urn:simple `adult`, urn:mpaa `nc-17`/`x`, urn:v-chip `tv-ma`
  return ratings.some((r) => ['adult', 'nc-17', 'x', 'tv-ma'].includes(r));
}

function fallbackId(parts: string[]): string {
  return `sha1:${createHash('sha1').update(parts.join('\u0000')).digest('hex')}`;
}

/** One RSS/RDF item or Atom entry → a post (null when it has nothing to show). */
export function feedItemPost(feed: ParsedFeed, item: Node, base: string): UpstreamPost | null {
  const categories = [
    ...nodes(item.category).map((c) => attr(c, 'term') || textOf(c)),
    ...(Array.isArray(item.category) ? item.category : [item.category]).filter(
      (c): c is string => typeof c === 'string',
    ),
    ...nodes(item['media:category']).map(textOf),
    ...(Array.isArray(item['dc:subject']) ? item['dc:subject'] : []).map(textOf),
  ];
  if (feed.format === 'atom') {
    const title = plainText(textOf(item.title));
    const bodyNode = item.content ?? item.summary ?? first(item['media:group'])?.['media:description'];
    const body = atomHtml(bodyNode);
    const link = atomLink(item, base);
    const published = parseInstant(textOf(item.published));
    const updated = parseInstant(textOf(item.updated));
    const id = textOf(item.id).trim() || link || fallbackId([title, textOf(item.updated)]);
    const content = titleAndBody(title, body);
    if (content === '' && link === '') return null;
    const author = first(item.author);
    return {
      externalId: id,
      content,
      authorName: plainText(textOf(author?.name)) || feed.author || feed.title,
      username: hostOf(textOf(author?.uri) || feed.link),
      userPicture: feed.image,
      linkUrl: link,
      createdAt: published ?? updated,
      updatedAt: updated,
      media: mediaOfItem(item, attr(bodyNode, 'type').toLowerCase().includes('html') ? textOf(bodyNode) : '', base),
      tags: [...categories, ...hashtagsIn(plainText(body))],
      location: locationOf(item),
      sensitive: sensitiveOf(item),
    };
  }
  const title = plainText(textOf(item.title));
  const rawBody = textOf(item['content:encoded']) || textOf(item.description);
  const body = sanitizeIngestedHtml(rawBody);
  const link = rssLink(item);
  const guid = textOf(item.guid).trim() || attr(item, 'rdf:about');
  const dateText = textOf(item.pubDate) || textOf(item['dc:date']);
  const created = parseInstant(dateText);
  const updated = parseInstant(textOf(item['atom:updated']) || textOf(item['dc:modified']));
  const content = titleAndBody(title, body);
  if (content === '' && link === '') return null;
  return {
    externalId: guid || link || fallbackId([title, dateText, rawBody]),
    content,
    authorName: plainText(textOf(item['dc:creator']) || rssAuthor(textOf(item.author))) || feed.author || feed.title,
    username: hostOf(feed.link || link),
    userPicture: feed.image,
    linkUrl: link,
    createdAt: created,
    updatedAt: updated,
    media: mediaOfItem(item, rawBody, base),
    tags: [...categories, ...hashtagsIn(plainText(body))],
    location: locationOf(item),
    sensitive: sensitiveOf(item),
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** Items of a parsed feed → posts; unreadable items are counted, never fatal. */
export function feedPosts(
  feed: ParsedFeed,
  base: string,
  map = feedItemPost,
): { posts: UpstreamPost[]; skipped: number } {
  const posts: UpstreamPost[] = [];
  let skipped = feed.skipped;
  for (const item of feed.items) {
    try {
      const post = map(feed, item, base);
      if (post) posts.push(post);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { posts, skipped };
}

/** A feed document (RSS, RDF, Atom; YouTube's too, with its own item mapping) → its newest posts. */
export function feedDocument(map = feedItemPost) {
  return (doc: UpstreamDocument, _settings: unknown, limits: ParseLimits): DocumentContent<null> => {
    const feed = parseFeedXml(doc.text, hostOf(doc.url) || doc.url, limits);
    return { ...feedPosts(feed, doc.url, map), meta: null };
  };
}

type RssSettings = Static<typeof RssConnector>;

export const rssConnector: Connector<RssSettings> = {
  kind: 'rss',
  network: 'RSS',
  sourceType: () => 'feed',
  async poll({ settings, http, parse }): Promise<PollOutput> {
    const res = await http.request(settings.url, { accept: ACCEPT_FEED, conditional: true });
    if (res.notModified) return { rows: [], cursor: null, notModified: true, skipped: 0 };
    const { rows, skipped } = await parse(res, 'feed');
    return { rows, cursor: null, notModified: false, skipped };
  },
  documents: { feed: feedDocument() },
};
