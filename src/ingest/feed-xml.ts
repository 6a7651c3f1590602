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
  // The root element decides what a document is: an RSS file may well start
  // with an XHTML DOCTYPE. The DOCTYPE only names what a root that is no feed was.
  const htmlDoctype = /^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<!doctype\s+html/i.test(body);
  const reader = new FeedTreeReader(where, options, htmlDoctype);
  const parser = new Parser(
    {
      onopentag: (name, attrs) => reader.openTag(name, attrs),
      onclosetag: () => reader.closeTag(),
      ontext: (data) => reader.text(data),
      oncdatastart: () => reader.cdata(true),
      oncdataend: () => reader.cdata(false),
      oncomment: () => reader.flushText(),
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.write(body);
  reader.ending = true;
  parser.end();
  return reader.finish();
}

interface Ranked {
  index: number;
  at: number | null;
  el: XElement;
}

const byDate = (a: Ranked, b: Ranked) => (b.at ?? -Infinity) - (a.at ?? -Infinity) || a.index - b.index;

/** Builds a feed's tree from the parser's events, keeping the newest items as it goes. */
class FeedTreeReader {
  private format: FeedFormat | null = null;
  private root: XElement | null = null;
  private itemName = '';
  /** open elements, innermost last, with the namespace scope each opened */
  private readonly open: { el: XElement; scope: Scope }[] = [];
  private item: XElement | null = null;
  private readonly ranked: Ranked[] = [];
  private itemCount = 0;
  private pending = '';
  private inCdata = false;
  /** set once the whole document was written: a close tag after it is the parser closing what was left open */
  ending = false;
  private cutInside: string | null = null;
  private failure: Error | null = null;
  /** namespaces of no vocabulary read here that this document's root puts RSS or Atom in → RSS's or Atom's */
  private readonly aliases = new Map<string, string>();

  constructor(
    private readonly where: string,
    private readonly options: { documentUrl: string; maxItems: number; instantOf: ItemInstant },
    private readonly htmlDoctype: boolean,
  ) {}

  openTag(name: string, rawAttrs: Record<string, string>): void {
    if (this.failure) return;
    this.flushText();
    const parent = this.open[this.open.length - 1];
    const keys = Object.keys(rawAttrs);
    const declares = keys.some(isDeclaration);
    let scope = this.scopeOf(parent?.scope ?? ROOT_SCOPE, declares ? keys : [], rawAttrs);
    if (!parent && !this.root) scope = this.rootScope(name, scope);
    const attrs: Record<string, string> = {};
    for (const k of keys) if (!declares || !isDeclaration(k)) attrs[canonical(k, scope, true)] = decoded(rawAttrs[k]!);
    const el: XElement = { name: canonical(name, scope, false), attrs, children: [], base: parent?.el.base ?? '' };
    if (attrs['xml:base'] !== undefined) el.base = resolveBase(attrs['xml:base'], el.base, this.options.documentUrl);

    if (!parent) {
      if (this.root) return; // a second root (junk after the document): ignored
      if (this.acceptRoot(el, name)) this.open.push({ el, scope });
      return;
    }
    if (!this.item && el.name === this.itemName) this.item = el;
    else parent.el.children.push(el);
    this.open.push({ el, scope });
  }

  /** The scope an element opens: its parent's, plus the namespaces it declares. */
  private scopeOf(parent: Scope, keys: string[], rawAttrs: Record<string, string>): Scope {
    const declared = keys.filter(isDeclaration);
    if (declared.length === 0) return parent;
    const scope = new Map(parent);
    for (const k of declared) {
      const uri = rawAttrs[k]!.trim().toLowerCase();
      scope.set(k.length > 5 ? k.slice(6).toLowerCase() : '', this.aliases.get(uri) ?? uri);
    }
    return scope;
  }

  /**
   * The scope of the root element. Feed readers know a feed by its root's
   * name: an `rss` or `feed` root in a namespace of its own (a generator's
   * `<rss xmlns="…">`, an Atom draft's) puts RSS or Atom in that namespace,
   * for the whole document; a `feed` without a namespace is Atom.
   */
  private rootScope(qname: string, scope: Scope): Scope {
    const lower = qname.toLowerCase();
    const colon = lower.indexOf(':');
    const [prefix, local] = colon === -1 ? ['', lower] : [lower.slice(0, colon), lower.slice(colon + 1)];
    const vocabulary = local === 'rss' ? RSS_URI : local === 'feed' ? ATOM_URI : null;
    if (vocabulary === null) return scope;
    const uri = scope.get(prefix);
    if (uri === undefined) return prefix === '' && local === 'feed' ? new Map([...scope, ['', ATOM_URI]]) : scope;
    if (uri === '' || vocabularyOf(uri) !== undefined) return scope;
    this.aliases.set(uri, vocabulary);
    return new Map([...scope].map(([p, u]) => [p, u === uri ? vocabulary : u]));
  }

  /** The root names the document's format; a root that is no feed fails the read. */
  private acceptRoot(el: XElement, name: string): boolean {
    this.format =
      el.name === 'rss' || el.name === 'channel'
        ? 'rss'
        : el.name === 'rdf:rdf'
          ? 'rdf'
          : el.name === 'atom:feed'
            ? 'atom'
            : null;
    if (HTML_ROOTS.has(el.name) || (!this.format && this.htmlDoctype)) {
      this.failure = new UpstreamFormatError(`expected a feed from ${this.where}, got an HTML page`);
      return false;
    }
    if (!this.format) {
      this.failure = new UpstreamFormatError(
        `expected an RSS or Atom feed from ${this.where}, got <${name.slice(0, 100)}>`,
      );
      return false;
    }
    this.itemName = this.format === 'atom' ? 'atom:entry' : 'item';
    this.root = el;
    return true;
  }

  closeTag(): void {
    if (this.failure || this.open.length === 0) return;
    this.flushText();
    const closed = this.open.pop()!;
    if (this.ending && this.cutInside === null) this.cutInside = closed.el.name;
    if (closed.el === this.item) {
      this.ranked.push({ index: this.itemCount++, at: this.options.instantOf(this.format!, closed.el), el: closed.el });
      if (this.ranked.length >= 2 * this.options.maxItems) this.trim();
      this.item = null;
    }
  }

  text(data: string): void {
    if (this.open.length > 0) this.pending += data;
  }

  cdata(starts: boolean): void {
    this.flushText();
    this.inCdata = starts;
  }

  flushText(): void {
    if (this.pending === '') return;
    const top = this.open[this.open.length - 1];
    if (top) top.el.children.push(this.inCdata ? this.pending.replace(NOT_TEXT, '') : decoded(this.pending));
    this.pending = '';
  }

  private trim(): void {
    this.ranked.sort(byDate);
    this.ranked.length = Math.min(this.ranked.length, this.options.maxItems);
  }

  /** The tree, once the parser has ended: its newest items in document order. */
  finish(): FeedTree {
    const { where } = this;
    if (this.failure) throw this.failure;
    const root = this.root;
    const format = this.format;
    if (!root || !format)
      throw new UpstreamFormatError(`expected a feed from ${where}, got a document without elements`);
    if (this.cutInside !== null) {
      throw new UpstreamFormatError(`malformed XML from ${where}: the document ends inside <${this.cutInside}>`);
    }
    this.trim();
    const items = this.ranked.sort((a, b) => a.index - b.index).map((r) => r.el);
    const channel = format === 'atom' ? root : (child(root, 'channel') ?? root);
    return { format, root, channel, items };
  }
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
