// Reading a feed document as the web writes it: htmlparser2 in XML mode, a
// streaming tokenizer that never refuses a document for a stray `&`, an
// undeclared entity or a mismatched end tag, under a mapping of our own.
//
// - Namespaces are resolved from the document's own `xmlns` declarations, so
//   `<a:feed xmlns:a="…Atom">` and `<p0:entry>` are Atom wherever they
//   stand; every element gets a canonical name (`atom:entry`, `media:content`,
//   `title` for RSS, which has no namespace). Undeclared well-known prefixes
//   (`media:` without its `xmlns:media`, a common slip) fall back to their
//   usual namespace. Like feed readers, the root's name decides: an `rss` or
//   `feed` root in a namespace of its own (`<rss xmlns="http://blogs.law.
//   harvard.edu/tech/rss">`, Atom's pre-1.0 drafts) is RSS or Atom, and so
//   is everything in that namespace; a DOCTYPE (an XHTML one on an RSS
//   file) decides nothing.
// - Entities: character references and HTML's named entities are decoded
//   (entities' strict HTML decoder: `&name;` and `&#n;` only, so `a=1&b=2`
//   stays as written). A DTD is never read: its entity declarations are not
//   expanded and external entities never fetched, so there is nothing to
//   expand exponentially (billion laughs) and nothing to leak (XXE).
// - `xml:base` is resolved on every element that says it and inherited.
// - Memory follows the items kept, not the document: an item's tree is built
//   while it is read, then ranked by date, and only the newest `maxItems`
//   trees are held (at most twice that many between trims).
import { decodeHTMLStrict } from 'entities';
import { Parser } from 'htmlparser2';
import { UpstreamFormatError } from './connector.js';

export interface XElement {
  /** canonical, lower case: `prefix:local` for the namespaces below, `local` for none (RSS), `{uri}local` for others */
  name: string;
  /** canonical names as for elements (`url`, `rdf:about`, `xml:base`), values decoded */
  attrs: Record<string, string>;
  children: XChild[];
  /** the `xml:base` in scope, resolved ('' when the document declares none) */
  base: string;
}
export type XChild = XElement | string;

export type FeedFormat = 'rss' | 'rdf' | 'atom';

export interface FeedTree {
  format: FeedFormat;
  /** the root element with everything but its items */
  root: XElement;
  /** RSS `channel`, RDF `channel` (its `image` and `textinput` are the root's), Atom `feed` */
  channel: XElement;
  /** the newest `maxItems` items by date (undated ones after dated ones), in document order */
  items: XElement[];
}

const NAMESPACES: Record<string, string> = {
  'http://www.w3.org/2005/atom': 'atom',
  'http://purl.org/atom/ns#': 'atom', // Atom 0.3
  'http://purl.org/rss/1.0/': '',
  'http://my.netscape.com/rdf/simple/0.9/': '',
  'http://backend.userland.com/rss2': '',
  'http://backend.userland.com/rss': '',
  'http://blogs.law.harvard.edu/tech/rss': '',
  // names Atom had before 1.0 ("Echo", "Pie"), read as Atom as feedparser reads them
  'http://example.com/newformat#': 'atom',
  'http://example.com/necho': 'atom',
  'http://purl.org/echo/': 'atom',
  'uri/of/echo/namespace#': 'atom',
  'http://purl.org/pie/': 'atom',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://search.yahoo.com/mrss/': 'media',
  'http://search.yahoo.com/mrss': 'media',
  'http://tools.search.yahoo.com/mrss/': 'media',
  'http://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://www.georss.org/georss': 'georss',
  'http://www.w3.org/2003/01/geo/wgs84_pos#': 'geo',
  'http://www.w3.org/1999/xhtml': 'xhtml',
  'http://www.w3.org/2000/svg': 'svg',
  'http://www.w3.org/1998/math/mathml': 'math',
  'http://www.youtube.com/xml/schemas/2015': 'yt',
  'http://purl.oclc.org/net/rss_2.0/enc#': 'enc',
  'http://www.w3.org/xml/1998/namespace': 'xml',
};

/** Where a prefix is used without being declared: its usual namespace. */
const USUAL_PREFIXES: Record<string, string> = {
  atom: 'atom',
  atom10: 'atom',
  rdf: 'rdf',
  content: 'content',
  dc: 'dc',
  dcterms: 'dcterms',
  media: 'media',
  itunes: 'itunes',
  georss: 'georss',
  geo: 'geo',
  xhtml: 'xhtml',
  yt: 'yt',
  enc: 'enc',
  xml: 'xml',
};

const ATOM_URI = 'http://www.w3.org/2005/atom';
const RSS_URI = 'http://backend.userland.com/rss';

/** The canonical prefix of a namespace ('' for RSS's), or undefined for one of no vocabulary read here. */
function vocabularyOf(uri: string): string | undefined {
  const known = NAMESPACES[uri];
  if (known !== undefined) return known;
  // Atom 0.3 and its drafts: `http://purl.org/atom/ns#draft-ietf-atompub-format-08`
  if (uri.startsWith('http://purl.org/atom/ns#')) return 'atom';
  // RSS 2.0's own namespaces and their variants (`…/tech/rss2.1`, `…/rss2/`)
  if (/^https?:\/\/(?:backend\.userland\.com|blogs\.law\.harvard\.edu\/tech)\/rss/.test(uri)) return '';
  return undefined;
}

type Scope = Map<string, string>;
const ROOT_SCOPE: Scope = new Map();
const isDeclaration = (attribute: string) => /^xmlns(?::|$)/i.test(attribute);

/** Canonical names already worked out, per scope (elements share their parent's scope unless they declare one). */
const names = new WeakMap<Scope, Map<string, string>>();

/** `prefix:local` (or `local`) in this scope → canonical name. */
function canonical(qname: string, scope: Scope, isAttribute: boolean): string {
  let known = names.get(scope);
  if (!known) names.set(scope, (known = new Map()));
  const key = isAttribute ? `@${qname}` : qname;
  let name = known.get(key);
  if (name === undefined) known.set(key, (name = canonicalName(qname, scope, isAttribute)));
  return name;
}

function canonicalName(qname: string, scope: Scope, isAttribute: boolean): string {
  const lower = qname.toLowerCase();
  const colon = lower.indexOf(':');
  const prefix = colon === -1 ? '' : lower.slice(0, colon);
  const local = colon === -1 ? lower : lower.slice(colon + 1);
  // unprefixed attributes are in no namespace, whatever the default
  if (prefix === '' && isAttribute) return local;
  const uri = scope.get(prefix);
  if (uri === undefined) {
    if (prefix === '') return local;
    const usual = USUAL_PREFIXES[prefix];
    return usual === undefined ? lower : `${usual}:${local}`;
  }
  const known = vocabularyOf(uri);
  if (known === undefined) return uri === '' ? local : `{${uri}}${local}`;
  return known === '' ? local : `${known}:${local}`;
}

// C0 controls (but tab, LF, CR) and non-characters are not XML text: real feeds still carry them
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const decoded = (raw: string) => (raw.includes('&') ? decodeHTMLStrict(raw) : raw).replace(NOT_TEXT, '');

function resolveBase(value: string, parent: string, documentUrl: string): string {
  try {
    return new URL(value.trim(), parent || documentUrl).href;
  } catch {
    return parent;
  }
}

/** How a document's items are ranked: when each was published (null: it does not say). */
export type ItemInstant = (format: FeedFormat, item: XElement) => number | null;

const HTML_ROOTS = new Set(['html', 'head', 'body', 'xhtml:html']);

/**
 * Reads an RSS 0.9x/1.0/2.0 or Atom (0.3, 1.0) document, keeping its newest
 * `maxItems` items; anything else (an HTML page, JSON, a document cut off
 * before its end) is an UpstreamFormatError.
 */
export function readFeedXml(
  text: string,
  where: string,
  options: { documentUrl: string; maxItems: number; instantOf: ItemInstant },
): FeedTree {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!body.startsWith('<'))
    throw new UpstreamFormatError(`expected a feed from ${where}, got something that is not XML`);
  const htmlPage = () => new UpstreamFormatError(`expected a feed from ${where}, got an HTML page`);
  // The root element decides what a document is: an RSS file may well start
  // with an XHTML DOCTYPE. The DOCTYPE only names what a root that is no feed was.
  const htmlDoctype = /^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<!doctype\s+html/i.test(body);

  const { documentUrl, maxItems, instantOf } = options;
  let format: FeedFormat | null = null;
  let root: XElement | null = null;
  let itemName = '';
  /** open elements, innermost last, with the namespace scope each opened */
  const open: { el: XElement; scope: Scope }[] = [];
  let item: XElement | null = null;
  const ranked: { index: number; at: number | null; el: XElement }[] = [];
  let itemCount = 0;
  let pending = '';
  let inCdata = false;
  let ending = false;
  let cutInside: string | null = null;
  let failure: Error | null = null;

  const byDate = (a: { index: number; at: number | null }, b: { index: number; at: number | null }) =>
    (b.at ?? -Infinity) - (a.at ?? -Infinity) || a.index - b.index;
  const trim = () => {
    ranked.sort(byDate);
    ranked.length = Math.min(ranked.length, maxItems);
  };

  /** namespaces of no vocabulary read here that this document's root puts RSS or Atom in → RSS's or Atom's */
  const aliases = new Map<string, string>();
  /**
   * The scope of the root element. Feed readers know a feed by its root's
   * name: an `rss` or `feed` root in a namespace of its own (a generator's
   * `<rss xmlns="…">`, an Atom draft's) puts RSS or Atom in that namespace,
   * for the whole document; a `feed` without a namespace is Atom.
   */
  const rootScope = (qname: string, scope: Scope): Scope => {
    const lower = qname.toLowerCase();
    const colon = lower.indexOf(':');
    const [prefix, local] = colon === -1 ? ['', lower] : [lower.slice(0, colon), lower.slice(colon + 1)];
    const vocabulary = local === 'rss' ? RSS_URI : local === 'feed' ? ATOM_URI : null;
    if (vocabulary === null) return scope;
    const uri = scope.get(prefix);
    if (uri === undefined) return prefix === '' && local === 'feed' ? new Map([...scope, ['', ATOM_URI]]) : scope;
    if (uri === '' || vocabularyOf(uri) !== undefined) return scope;
    aliases.set(uri, vocabulary);
    return new Map([...scope].map(([p, u]) => [p, u === uri ? vocabulary : u]));
  };

  const flushText = () => {
    if (pending === '') return;
    const top = open[open.length - 1];
    if (top) top.el.children.push(inCdata ? pending.replace(NOT_TEXT, '') : decoded(pending));
    pending = '';
  };

  const parser = new Parser(
    {
      onopentag(name, rawAttrs) {
        if (failure) return;
        flushText();
        const parent = open[open.length - 1];
        let scope = parent?.scope ?? ROOT_SCOPE;
        const keys = Object.keys(rawAttrs);
        const declares = keys.some(isDeclaration);
        if (declares) {
          scope = new Map(scope);
          for (const k of keys.filter(isDeclaration)) {
            const uri = rawAttrs[k]!.trim().toLowerCase();
            scope.set(k.length > 5 ? k.slice(6).toLowerCase() : '', aliases.get(uri) ?? uri);
          }
        }
        if (!parent && !root) scope = rootScope(name, scope);
        const attrs: Record<string, string> = {};
        for (const k of keys)
          if (!declares || !isDeclaration(k)) attrs[canonical(k, scope, true)] = decoded(rawAttrs[k]!);
        const el: XElement = {
          name: canonical(name, scope, false),
          attrs,
          children: [],
          base: parent?.el.base ?? '',
        };
        if (attrs['xml:base'] !== undefined) el.base = resolveBase(attrs['xml:base'], el.base, documentUrl);

        if (!parent) {
          if (root) return; // a second root (junk after the document): ignored
          format =
            el.name === 'rss' || el.name === 'channel'
              ? 'rss'
              : el.name === 'rdf:rdf'
                ? 'rdf'
                : el.name === 'atom:feed'
                  ? 'atom'
                  : null;
          if (HTML_ROOTS.has(el.name) || (!format && htmlDoctype)) {
            failure = htmlPage();
            return;
          }
          if (!format) {
            failure = new UpstreamFormatError(
              `expected an RSS or Atom feed from ${where}, got <${name.slice(0, 100)}>`,
            );
            return;
          }
          itemName = format === 'atom' ? 'atom:entry' : 'item';
          root = el;
          open.push({ el, scope });
          return;
        }
        if (!item && el.name === itemName) {
          item = el;
          open.push({ el, scope });
          return;
        }
        parent.el.children.push(el);
        open.push({ el, scope });
      },
      onclosetag() {
        if (failure || open.length === 0) return;
        flushText();
        const closed = open.pop()!;
        if (ending && cutInside === null) cutInside = closed.el.name;
        if (closed.el === item) {
          ranked.push({ index: itemCount++, at: instantOf(format!, closed.el), el: closed.el });
          if (ranked.length >= 2 * maxItems) trim();
          item = null;
        }
      },
      ontext(data) {
        if (open.length > 0) pending += data;
      },
      oncdatastart() {
        flushText();
        inCdata = true;
      },
      oncdataend() {
        flushText();
        inCdata = false;
      },
      oncomment() {
        flushText();
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.write(body);
  ending = true;
  parser.end();
  if (failure) throw failure;
  if (!root || !format) throw new UpstreamFormatError(`expected a feed from ${where}, got a document without elements`);
  if (cutInside !== null) {
    throw new UpstreamFormatError(`malformed XML from ${where}: the document ends inside <${cutInside}>`);
  }
  trim();
  const items = ranked.sort((a, b) => a.index - b.index).map((r) => r.el);
  const rootEl: XElement = root;
  const channel = format === 'atom' ? rootEl : (child(rootEl, 'channel') ?? rootEl);
  return { format, root: rootEl, channel, items };
}

// ---------- reading the tree ----------

export const isElement = (c: XChild | undefined): c is XElement => typeof c === 'object' && c !== null;

/** The first child element with this canonical name. */
export function child(el: XElement | undefined, name: string): XElement | undefined {
  return el?.children.find((c): c is XElement => isElement(c) && c.name === name);
}

/** The child elements with this canonical name (all child elements without one). */
export function childrenOf(el: XElement | undefined, name?: string): XElement[] {
  if (!el) return [];
  return el.children.filter((c): c is XElement => isElement(c) && (name === undefined || c.name === name));
}

/** All text inside an element, markup left out. */
export function textIn(el: XElement | undefined): string {
  if (!el) return '';
  let out = '';
  for (const c of el.children) out += typeof c === 'string' ? c : textIn(c);
  return out;
}

/** The trimmed text of the first child element with this name. */
export function childText(el: XElement | undefined, name: string): string {
  return textIn(child(el, name)).trim();
}

export function attrOf(el: XElement | undefined, name: string): string {
  return el?.attrs[name] ?? '';
}
