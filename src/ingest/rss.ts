// RSS 0.9x, 1.0 (RDF) and 2.0 and Atom (0.3, 1.0) feeds, with Media RSS
// (`media:content`, `media:group`, `media:thumbnail`, `media:rating`),
// enclosures, iTunes podcast tags, Dublin Core and GeoRSS. The document is
// read by feed-xml.ts (namespaces, entities, `xml:base`, the newest items);
// this module maps it to posts. The reading is shared with the YouTube
// connector, whose feeds are Atom with Media RSS.
import { createHash } from 'node:crypto';
import { decodeHTMLStrict } from 'entities';
import { html } from 'parse5';
import type { Static } from 'typebox';
import { parseFeedInstant } from '../domain/dates.js';
import { sanitizeIngestedHtml } from '../domain/sanitize.js';
import {
  ACCEPT_FEED,
  type Connector,
  type DocumentContent,
  type ParseLimits,
  type PollOutput,
  type UpstreamDocument,
  type UpstreamPost,
} from './connector.js';
import type { RssConnector } from '../schemas/connectors.js';
import { decodeBytes, encodingOfLabel } from './charset.js';
import { itemMedia, itunesImage, urlAttr } from './feed-media.js';
import {
  attrOf,
  child,
  childText,
  childrenOf,
  isElement,
  readFeedXml,
  textIn,
  type FeedFormat,
  type XElement,
} from './feed-xml.js';
import { escapeHtml, hashtagsIn, httpUrl, plainText, textOfHtml, textToHtml } from './normalize.js';
import { hostOf } from './url-parts.js';

export interface ParsedFeed {
  format: FeedFormat;
  /** the URL the document was read from (after redirects): the base of relative URLs without `xml:base` */
  documentUrl: string;
  /** channel/feed level */
  title: string;
  link: string;
  /** the feed's icon: its authors' picture */
  image: string;
  /** the feed's artwork (`itunes:image`, else its image or logo): the picture of posts without one, when asked */
  artwork: string;
  author: string;
  /** the newest `maxItems` items (by date; undated ones after dated ones), in document order */
  items: XElement[];
}

// ---------- dates ----------

const PUBLISHED: Record<FeedFormat, string[]> = {
  rss: ['pubdate', 'dc:date', 'dcterms:issued', 'dcterms:created', 'atom:published'],
  rdf: ['dc:date', 'pubdate', 'dcterms:issued', 'dcterms:created'],
  atom: ['atom:published', 'atom:issued', 'atom:created', 'dc:date'],
};
const UPDATED: Record<FeedFormat, string[]> = {
  rss: ['atom:updated', 'dc:modified', 'dcterms:modified'],
  rdf: ['dcterms:modified', 'dc:modified'],
  atom: ['atom:updated', 'atom:modified', 'dcterms:modified'],
};

/** The text of the first of these child elements that has one. */
const firstText = (el: XElement, names: readonly string[]) => {
  for (const name of names) {
    const text = childText(el, name);
    if (text !== '') return text;
  }
  return '';
};

/** When an item was published and last updated, as written and as read (null: missing or unreadable). */
export function itemDates(format: FeedFormat, item: XElement) {
  const publishedText = firstText(item, PUBLISHED[format]);
  const updatedText = firstText(item, UPDATED[format]);
  const published = publishedText ? parseFeedInstant(publishedText) : null;
  const updated = updatedText ? parseFeedInstant(updatedText) : null;
  return { publishedText, updatedText, published, updated };
}

/** When an item was published (updated, if that is all it says); null if it does not say. */
function itemInstant(format: FeedFormat, item: XElement): number | null {
  const { published, updated } = itemDates(format, item);
  return published ?? updated;
}

// ---------- the document ----------

/** Parses an RSS/RDF/Atom document, keeping its newest `maxItems` items; anything else is an UpstreamFormatError. */
export function parseFeedXml(
  body: string,
  where: string,
  options: { documentUrl: string; maxItems: number },
): ParsedFeed {
  const { format, root, channel, items } = readFeedXml(body, where, { ...options, instantOf: itemInstant });
  const base = options.documentUrl;
  const feed = {
    format,
    documentUrl: base,
    items,
    title: plainText(childText(channel, 'title') || childText(channel, 'atom:title') || childText(channel, 'dc:title')),
  };
  if (format === 'atom') {
    const image = urlText(child(channel, 'atom:icon'), base) || urlText(child(channel, 'atom:logo'), base);
    return {
      ...feed,
      link: atomLink(channel, base),
      image,
      artwork: urlText(child(channel, 'atom:logo'), base) || image,
      author: personName(childText(child(channel, 'atom:author'), 'atom:name')),
    };
  }
  const imageEl = child(channel, 'image') ?? child(root, 'image');
  const image = urlText(child(imageEl, 'url'), base) || itunesImage(channel, base);
  return {
    ...feed,
    link: rssLink(channel, base),
    image,
    artwork: itunesImage(channel, base) || image,
    author:
      personName(childText(channel, 'dc:creator')) ||
      personName(childText(channel, 'itunes:author')) ||
      personName(childText(child(channel, 'itunes:owner'), 'itunes:name')) ||
      personName(childText(channel, 'managingeditor')) ||
      personName(childText(channel, 'dc:publisher')),
  };
}

// ---------- text ----------

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

function startTag(name: string, attrs: Record<string, string>): string {
  const written = Object.entries(attrs)
    .filter(([k]) => /^[a-z][a-z0-9-]*$/.test(k))
    .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
    .join('');
  return `<${name}${written}>`;
}

/**
 * The content of an element whose text is HTML source (an RSS description,
 * Atom `type="html"`): the text as it is, and elements a feed left unescaped
 * in it written back as tags.
 */
export function htmlSourceOf(el: XElement | undefined): string {
  if (!el) return '';
  let out = '';
  for (const c of el.children) {
    if (!isElement(c)) out += c;
    else {
      const name = c.name.replace(/^xhtml:/, '');
      if (!/^[a-z][a-z0-9]*$/.test(name)) out += htmlSourceOf(c);
      else out += startTag(name, c.attrs) + (VOID.has(name) ? '' : `${htmlSourceOf(c)}</${name}>`);
    }
  }
  return out;
}

/**
 * Atom `type="xhtml"` content → HTML, order and markup kept: text escaped,
 * XHTML elements written as HTML (the wrapping `div` left out), elements of
 * other vocabularies unwrapped to their text (SVG and MathML left out).
 */
export function xhtmlToHtml(el: XElement): string {
  const parts = el.children.filter((c) => !(typeof c === 'string' && c.trim() === ''));
  const only = parts.length === 1 && isElement(parts[0]) && parts[0].name === 'xhtml:div' ? parts[0] : el;
  const walk = (node: XElement): string =>
    node.children
      .map((c) => {
        if (!isElement(c)) return escapeHtml(c);
        if (c.name.startsWith('svg:') || c.name.startsWith('math:')) return '';
        if (!c.name.startsWith('xhtml:')) return walk(c);
        const name = c.name.slice(6);
        return startTag(name, c.attrs) + (VOID.has(name) ? '' : `${walk(c)}</${name}>`);
      })
      .join('');
  return walk(only);
}

/** What the bytes of a MIME type (or an Atom `type` token) are read as; null for a binary. */
function textKindOf(type: string): 'html' | 'text' | null {
  if (['html', 'xhtml', 'text/html', 'application/xhtml+xml'].includes(type)) return 'html';
  if (type === '' || type === 'text' || type.startsWith('text/') || XML_TYPE.test(type) || JSON_TYPE.test(type))
    return 'text';
  return null;
}

const XML_TYPE = /^[\w.-]+\/(?:[\w.-]+\+)?xml$/;
const JSON_TYPE = /^[\w.-]+\/(?:[\w.-]+\+)?json$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Atom content in Base64 (Atom 0.3's `mode="base64"`; in Atom 1.0 any `type`
 * that is a MIME type neither `text/*` nor XML, RFC 4287 §4.1.3.3) → HTML
 * source: decoded (in the type's `charset`, else UTF-8) and read as HTML or
 * text by its type; a binary (an image, a PDF) is not text to show: ''.
 */
function base64Source(el: XElement, type: string): string {
  const kind = textKindOf(type);
  const data = textIn(el).replace(/\s+/g, '');
  if (kind === null || !BASE64.test(data)) return '';
  const charset = /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(attrOf(el, 'type'))?.[1];
  const text = decodeBytes(Buffer.from(data, 'base64'), encodingOfLabel(charset) ?? 'utf-8');
  return kind === 'html' ? text : textToHtml(text.trim());
}

/** Whether Atom content is in Base64: `mode="base64"` (0.3), or a MIME type of no text (1.0). */
const isBase64 = (el: XElement, type: string) =>
  attrOf(el, 'mode').toLowerCase() === 'base64' ||
  (type.includes('/') && !type.startsWith('text/') && !XML_TYPE.test(type));

/**
 * An Atom text construct (`text`, `html`, `xhtml`; Atom 0.3's `mode="escaped"`
 * and `mode="base64"`; a MIME type) → HTML source.
 */
function atomTextSource(el: XElement | undefined): string {
  if (!el) return '';
  const type = attrOf(el, 'type').toLowerCase().split(';')[0]!.trim();
  if (isBase64(el, type)) return base64Source(el, type);
  if (type === 'xhtml' || type === 'application/xhtml+xml') return xhtmlToHtml(el);
  if (type === 'html' || type === 'text/html' || attrOf(el, 'mode') === 'escaped' || el.children.some(isElement))
    return htmlSourceOf(el);
  return textToHtml(textIn(el).trim());
}

// ---------- titles ----------

const HTML_ELEMENTS = new Set<string>(Object.values(html.TAG_NAMES));

/**
 * Whether text a feed gave without saying what it is (an RSS title) is HTML,
 * as feedparser decides it: it has an end tag or a character reference, and
 * every tag is an HTML element and every named reference an HTML entity. So
 * `History of the <blink> tag` is text, and `<b>Bold</b> news` or
 * `Q&amp;A` (escaped twice in the XML) is HTML.
 */
export function looksLikeHtml(text: string): boolean {
  if (!/<\/\w+>/.test(text) && !/&#?\w+;/.test(text)) return false;
  for (const [, tag] of text.matchAll(/<\/?(\w+)/g)) if (!HTML_ELEMENTS.has(tag!.toLowerCase())) return false;
  for (const [ref] of text.matchAll(/&\w+;/g)) if (decodeHTMLStrict(ref) === ref) return false;
  return true;
}

const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Text that may be HTML (RSS `title`, `dc:title`) → plain text: its words, markup read as looksLikeHtml decides. */
function looseText(el: XElement | undefined): string {
  const text = textIn(el);
  return looksLikeHtml(text) ? textOfHtml(text) : collapsed(text);
}

/** An Atom text construct → plain text: `type="text"` as written, HTML and XHTML as shown. */
function atomText(el: XElement | undefined): string {
  if (!el) return '';
  const type = attrOf(el, 'type').toLowerCase();
  const plain =
    (type === '' || type === 'text' || type === 'text/plain') &&
    attrOf(el, 'mode').toLowerCase() !== 'escaped' &&
    attrOf(el, 'mode').toLowerCase() !== 'base64' &&
    !el.children.some(isElement);
  return plain ? collapsed(textIn(el)) : textOfHtml(atomTextSource(el));
}

/** Media RSS `media:title` → plain text (`type="html"` as shown). */
function mediaTitle(item: XElement): string {
  const el = [item, ...childrenOf(item, 'media:group')]
    .flatMap((g) => [child(g, 'media:title'), ...childrenOf(g, 'media:content').map((c) => child(c, 'media:title'))])
    .find((t) => t && textIn(t).trim() !== '');
  if (!el) return '';
  return attrOf(el, 'type').toLowerCase() === 'html' ? textOfHtml(textIn(el)) : collapsed(textIn(el));
}

/**
 * An item's title, plain text (its post shows it escaped, so `<blink>` is
 * words): its own title, else `dc:title`, else Media RSS's `media:title`.
 */
function titleOf(format: FeedFormat, item: XElement): string {
  const own = format === 'atom' ? atomText(child(item, 'atom:title')) : looseText(child(item, 'title'));
  return own || looseText(child(item, 'dc:title')) || mediaTitle(item);
}

/** A URL as an element's text, resolved against its `xml:base`, else `base`. */
function urlText(el: XElement | undefined, base: string): string {
  return el ? httpUrl(textIn(el).trim(), el.base || base || undefined) : '';
}

/** An e-mail address as feeds write one (a `mailto:` link, a `?subject=` after it too). */
const EMAIL = /(?:mailto:)?[\w.%+-]+@[\w-]+(?:\.[\w-]+)+(?:\?\S*)?/gi;

/**
 * A person as feeds write one → a name, every e-mail address left out (as
 * feedparser does): `a@b.example (Ana)`, `Ana (a@b.example)` and `"Ana"
 * <a@b.example>` → `Ana`; an address alone, a `mailto:` link or a lone
 * `user@host` → ''.
 */
export function personName(value: string): string {
  const name = value
    .replace(EMAIL, '')
    .replace(/\(\s*\)|<\s*>|\[\s*\]|&lt;\s*&gt;/g, '')
    .trim()
    .replace(/^\((.*)\)$/s, '$1')
    .replace(/^"(.*)"$/s, '$1')
    .replace(/[\s,;:]+$/, '')
    .trim();
  if (/^\S+@\S+$/.test(name)) return '';
  return plainText(name);
}

// ---------- links ----------

const ABSOLUTE_HTTP = /^\s*https?:\/\//i;

/** The page an RSS/RDF channel or item links to: `link`, `atom:link`, a permalink `guid`, `rdf:about`. */
function rssLink(el: XElement, base: string): string {
  for (const l of childrenOf(el, 'link')) {
    const url = urlText(l, base) || urlAttr(l, 'href', base);
    if (url) return url;
  }
  const atom = atomLink(el, base, 'atom:link');
  if (atom) return atom;
  const guid = child(el, 'guid');
  if (guid && attrOf(guid, 'ispermalink').toLowerCase() !== 'false' && ABSOLUTE_HTTP.test(textIn(guid)))
    return httpUrl(textIn(guid).trim());
  const about = attrOf(el, 'rdf:about');
  return ABSOLUTE_HTTP.test(about) ? httpUrl(about.trim()) : '';
}

/** Atom `link rel=alternate` (or without rel): an HTML one first; resolved against its `xml:base`, else `base`. */
export function atomLink(el: XElement, base: string, name = 'atom:link'): string {
  const links = childrenOf(el, name);
  const alternates = links.filter((l) => (attrOf(l, 'rel') || 'alternate').toLowerCase() === 'alternate');
  const html = alternates.find((l) => /^(text\/html|application\/xhtml\+xml)?$/i.test(attrOf(l, 'type')));
  const chosen =
    html ?? alternates[0] ?? links.find((l) => !/^(self|edit|replies|hub|enclosure)$/i.test(attrOf(l, 'rel')));
  return urlAttr(chosen, 'href', base);
}

// ---------- items ----------

/** `<p><strong>title</strong></p>` then the body, unless the body already starts with the title. */
export function titleAndBody(title: string, bodyHtml: string): string {
  const t = title.trim();
  if (t === '') return bodyHtml;
  const bodyText = textOfHtml(bodyHtml);
  const t0 = t.replace(/(…|\.\.\.)$/, '');
  if (bodyText !== '' && bodyText.startsWith(t0)) return bodyHtml;
  return `<p><strong>${escapeHtml(t)}</strong></p>${bodyHtml}`;
}

function locationOf(item: XElement): string {
  const name = childText(item, 'georss:featurename');
  if (name) return name;
  const point = childText(item, 'georss:point').split(/\s+/);
  if (point.length === 2 && point.every((p) => /^-?\d+(\.\d+)?$/.test(p))) return `${point[0]}, ${point[1]}`;
  const [lat, long] = [childText(item, 'geo:lat'), childText(item, 'geo:long')];
  if (/^-?\d+(\.\d+)?$/.test(lat) && /^-?\d+(\.\d+)?$/.test(long)) return `${lat}, ${long}`;
  return '';
}

function sensitiveOf(item: XElement): boolean {
  const ratings = [item, ...childrenOf(item, 'media:group')].flatMap((el) =>
    childrenOf(el, 'media:rating').map((r) => textIn(r).trim().toLowerCase()),
  );
  // urn:simple `adult`, urn:mpaa `nc-17`/`x`, urn:v-chip `tv-ma`
  return ratings.some((r) => ['adult', 'nc-17', 'x', 'tv-ma'].includes(r));
}

function categoriesOf(item: XElement): string[] {
  return [
    ...childrenOf(item, 'category').map((c) => textIn(c)),
    ...childrenOf(item, 'atom:category').map((c) => attrOf(c, 'term') || attrOf(c, 'label')),
    ...childrenOf(item, 'dc:subject').map((c) => textIn(c)),
    ...[item, ...childrenOf(item, 'media:group')].flatMap((el) => childrenOf(el, 'media:category').map(textIn)),
  ]
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

function fallbackId(parts: string[]): string {
  return `sha1:${createHash('sha1').update(parts.join('\u0000')).digest('hex')}`;
}

/** What a feed's items are mapped with (the rss connector's settings that matter to them). */
export interface ItemOptions {
  /** posts without a picture of their own show the feed's artwork */
  channelImage?: boolean;
}

type Reader = (el: XElement) => string;
const plainSource: Reader = (el) => textToHtml(textIn(el).trim());

/**
 * Where an item's body may be, best first, and how each becomes HTML source;
 * the full text before a summary, as feedparser reads them: `xhtml:body`,
 * `body` and `fullitem` are full texts, `dc:description` a description.
 */
const RSS_BODIES: [string, Reader][] = [
  ['content:encoded', htmlSourceOf],
  ['xhtml:body', xhtmlToHtml],
  ['body', htmlSourceOf],
  ['fullitem', htmlSourceOf],
  ['description', htmlSourceOf],
  ['dc:description', htmlSourceOf],
  ['itunes:summary', plainSource],
];
const BODIES: Record<FeedFormat, [string, Reader][]> = {
  rss: RSS_BODIES,
  rdf: RSS_BODIES,
  atom: [
    ['atom:content', atomTextSource],
    ['atom:summary', atomTextSource],
    ['dc:description', htmlSourceOf],
  ],
};

/** The body of an item as HTML source, and the base its relative URLs resolve against. */
function bodyOf(feed: ParsedFeed, item: XElement, link: string) {
  for (const [name, read] of BODIES[feed.format]) {
    const el = child(item, name);
    // Atom content with `src` is elsewhere (not fetched)
    if (!el || attrOf(el, 'src') || textIn(el).trim() === '') continue;
    const source = read(el);
    // relative URLs in the HTML: its `xml:base`, else the page it was written for, else the feed
    if (source.trim() !== '') return { source, base: el.base || link || feed.documentUrl };
  }
  const description = [item, ...childrenOf(item, 'media:group')]
    .map((g) => child(g, 'media:description'))
    .find((d) => d);
  return { source: description ? plainSource(description) : '', base: link || feed.documentUrl };
}

/** One RSS/RDF item or Atom entry → a post (null when it has nothing to show). */
export function feedItemPost(feed: ParsedFeed, item: XElement, options: ItemOptions = {}): UpstreamPost | null {
  const base = item.base || feed.documentUrl;
  const atom = feed.format === 'atom';
  const link = atom ? atomLink(item, feed.documentUrl) : rssLink(item, feed.documentUrl);
  const title = titleOf(feed.format, item);
  const { source, base: htmlBase } = bodyOf(feed, item, link);
  const body = sanitizeIngestedHtml(source, { base: htmlBase });
  const { published, updated, publishedText, updatedText } = itemDates(feed.format, item);
  const content = titleAndBody(title, body);
  const media = itemMedia({ item, html: source, base, htmlBase });
  // a picture alone is a post (the most common one on a social wall); the feed's artwork is not the item's own
  if (content === '' && link === '' && media.length === 0) return null;
  const id = atom ? childText(item, 'atom:id') : childText(item, 'guid') || attrOf(item, 'rdf:about').trim();
  const idParts = [title, publishedText || updatedText, source];
  // a picture post without id or link is known by its pictures too (such items were left out before: no id changes)
  if (content === '' && link === '') idParts.push(...media.map((m) => m.url));
  const atomAuthor = child(item, 'atom:author');
  const authorName =
    personName(childText(atomAuthor, 'atom:name')) ||
    personName(childText(item, 'dc:creator')) ||
    personName(childText(item, 'author')) ||
    personName(childText(item, 'itunes:author')) ||
    feed.author ||
    feed.title;
  const authorUri = urlText(child(atomAuthor, 'atom:uri'), base);
  return {
    externalId: id || link || fallbackId(idParts),
    content,
    authorName,
    username: hostOf(atom ? authorUri || feed.link : feed.link || link),
    userPicture: feed.image,
    linkUrl: link,
    createdAt: published ?? updated,
    updatedAt: updated,
    media:
      media.length === 0 && options.channelImage && feed.artwork
        ? [{ kind: 'image', url: feed.artwork, thumb: '' }]
        : media,
    tags: [...categoriesOf(item), ...hashtagsIn(plainText(body))],
    location: locationOf(item),
    sensitive: sensitiveOf(item),
  };
}

/** A mapping of one item of a parsed feed to a post (the rss connector's, or YouTube's). */
export type ItemMapper = (feed: ParsedFeed, item: XElement, options: ItemOptions) => UpstreamPost | null;

/** Items of a parsed feed → posts; unreadable items are counted, never fatal. */
export function feedPosts(
  feed: ParsedFeed,
  map: ItemMapper = feedItemPost,
  options: ItemOptions = {},
): { posts: UpstreamPost[]; skipped: number } {
  const posts: UpstreamPost[] = [];
  let skipped = 0;
  for (const item of feed.items) {
    try {
      const post = map(feed, item, options);
      if (post) posts.push(post);
      else skipped++;
    } catch {
      skipped++;
    }
  }
  return { posts, skipped };
}

/** What an operator should know about a document that was read: items whose date could not be read. */
export function feedWarnings(feed: ParsedFeed): string[] {
  const unreadable = feed.items
    .map((item) => itemDates(feed.format, item))
    .flatMap((d) => [
      ...(d.publishedText && d.published === null ? [d.publishedText] : []),
      ...(d.updatedText && d.updated === null && !d.publishedText ? [d.updatedText] : []),
    ]);
  if (unreadable.length === 0) return [];
  const example = unreadable[0]!.slice(0, 80);
  return [
    `${unreadable.length} item${unreadable.length === 1 ? '' : 's'} with a date that could not be read (e.g. "${example}"): dated when first read`,
  ];
}

/** A feed document (RSS, RDF, Atom; YouTube's too, with its own item mapping) → its newest posts. */
export function feedDocument<S>(map: ItemMapper, optionsOf: (settings: S) => ItemOptions = () => ({})) {
  return (doc: UpstreamDocument, settings: S, limits: ParseLimits): DocumentContent<null> => {
    const feed = parseFeedXml(doc.text, hostOf(doc.url) || doc.url, {
      documentUrl: doc.url,
      maxItems: limits.maxItems,
    });
    return { ...feedPosts(feed, map, optionsOf(settings)), warnings: feedWarnings(feed), meta: null };
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
    const { rows, skipped, warnings } = await parse(res, 'feed');
    return { rows, cursor: null, notModified: false, skipped, warnings };
  },
  documents: { feed: feedDocument<RssSettings>(feedItemPost, (s) => ({ channelImage: s.channelImage === true })) },
};
