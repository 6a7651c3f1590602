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
  type PollOutput,
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

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
  processEntities: { enabled: true, maxEntityCount: 50, maxTotalExpansions: 1000, maxExpandedLength: 100_000 },
  isArray: (name) => ARRAY_TAGS.has(name),
});

export interface ParsedFeed {
  format: 'rss' | 'rdf' | 'atom';
  /** channel/feed level */
  title: string;
  link: string;
  image: string;
  author: string;
  items: Node[];
}

/** Parses an RSS/RDF/Atom document; anything else (HTML, JSON, malformed XML) is an UpstreamFormatError. */
export function parseFeedXml(body: string, where: string): ParsedFeed {
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
    doc = parser.parse(text) as Node;
  } catch (err) {
    throw new UpstreamFormatError(`unreadable XML from ${where}: ${(err as Error).message.slice(0, 200)}`);
  }
  if (isObject(doc.rss)) {
    const channel = isObject(doc.rss.channel) ? doc.rss.channel : {};
    return {
      format: 'rss',
      title: plainText(textOf(channel.title)),
      link: rssLink(channel),
      image:
        httpUrl(textOf(isObject(channel.image) ? channel.image.url : undefined)) ||
        httpUrl(attr(channel['itunes:image'], 'href')),
      author: plainText(textOf(channel['dc:creator']) || textOf(channel.managingEditor)),
      items: nodes(channel.item),
    };
  }
  if (isObject(doc['rdf:RDF'])) {
    const rdf = doc['rdf:RDF'];
    const channel = isObject(rdf.channel) ? rdf.channel : {};
    return {
      format: 'rdf',
      title: plainText(textOf(channel.title)),
      link: rssLink(channel),
      image: httpUrl(textOf(isObject(rdf.image) ? rdf.image.url : undefined)),
      author: plainText(textOf(channel['dc:creator']) || textOf(channel['dc:publisher'])),
      items: nodes(rdf.item),
    };
  }
  if (isObject(doc.feed)) {
    const feed = doc.feed;
    return {
      format: 'atom',
      title: plainText(textOf(feed.title)),
      link: atomLink(feed, ''),
      image: httpUrl(textOf(feed.icon)) || httpUrl(textOf(feed.logo)),
      author: plainText(textOf(first(feed.author)?.name)),
      items: nodes(feed.entry),
    };
  }
  if (isObject(doc.html)) throw new UpstreamFormatError(`expected a feed from ${where}, got an HTML page`);
  throw new UpstreamFormatError(
    `expected an RSS or Atom feed from ${where}, got <${Object.keys(doc).find((k) => !k.startsWith('?')) ?? '?'}>`,
  );
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
  let skipped = 0;
  for (const item of feed.items.slice(0, 500)) {
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

type RssSettings = Static<typeof RssConnector>;

export const rssConnector: Connector<RssSettings> = {
  kind: 'rss',
  network: 'RSS',
  sourceType: () => 'feed',
  async poll({ settings, http }): Promise<PollOutput> {
    const res = await http.request(settings.url, { accept: ACCEPT_FEED, conditional: true });
    if (res.notModified) return { posts: [], cursor: null, notModified: true, skipped: 0 };
    const feed = parseFeedXml(res.body, hostOf(res.url) || settings.url);
    const { posts, skipped } = feedPosts(feed, res.url);
    return { posts, cursor: null, notModified: false, skipped };
  },
};
