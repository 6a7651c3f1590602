// The one allowlist for post HTML, shared by ingestion and by every write
// (contract §7, "Markup and URLs in writes"), and the rules for the plain-text
// and URL fields around it. sanitize-html does the sanitizing; parse5 (the
// WHATWG parser that browsers implement) decides whether a write's own bytes
// can be kept, because that decision is about what a browser will make of them.
import { defaultTreeAdapter, html as HTML, parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5';
import sanitizeHtml from 'sanitize-html';

/** Elements post content may carry (contract §7); `a` only with an http(s) `href`. */
export const CONTENT_TAGS = [
  'b',
  'i',
  'em',
  'strong',
  'u',
  's',
  'br',
  'p',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'span',
  'a',
];

/** What every kept link carries, whatever it said itself. */
export const LINK_REL = 'nofollow noopener noreferrer';

/** Elements removed together with their text: code, embedded documents, form values, metadata. */
export const REMOVED_WITH_TEXT = [
  'script',
  'style',
  'template',
  'textarea',
  'option',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'head',
  'title',
];

const hasScheme = (href: string, schemes: readonly string[]) => {
  try {
    // the WHATWG URL parser reads the scheme as browsers do: surrounding
    // blanks and controls trimmed, tabs and newlines inside removed
    return schemes.includes(new URL(href).protocol.slice(0, -1));
  } catch {
    return false;
  }
};

/**
 * A link with an allowed scheme keeps its `href` and gets `rel` (plus
 * `extra`); any other `a` becomes a `span`, which keeps its text. (Not a
 * removed tag name: sanitize-html 2.14 would then close the next sibling
 * with that name.) With a `base`, a relative `href` is first resolved
 * against it (ingested HTML written for the page it came from).
 */
const linkRule =
  (schemes: readonly string[], extra: Record<string, string> = {}, base?: string): sanitizeHtml.Transformer =>
  (tagName, attribs) => {
    const href = attribs.href === undefined || !base ? attribs.href : resolved(attribs.href, base);
    if (href === undefined || !hasScheme(href, schemes)) return { tagName: 'span', attribs: {} };
    return { tagName, attribs: { ...attribs, href, rel: LINK_REL, ...extra } };
  };

function resolved(href: string, base: string): string {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return href;
  }
}

const BASE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: CONTENT_TAGS,
  allowedAttributes: { a: ['href', 'title', 'rel'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: REMOVED_WITH_TEXT,
  transformTags: { a: linkRule(['http', 'https']) },
};

/**
 * Ingestion reads HTML written for other sites, so it keeps more of its
 * meaning than a write does, with the same elements: headings and blocks
 * become paragraphs, `del` becomes `s`, and links may also be `mailto:` and
 * open in a new tab (`target="_blank"`, safe with `noopener`). Writes follow
 * contract §7 to the letter: anything outside the list is removed.
 */
const INGEST_SCHEMES = ['http', 'https', 'mailto'];
const INGEST_TRANSFORMS: sanitizeHtml.IOptions['transformTags'] = {
  h1: 'p',
  h2: 'p',
  h3: 'p',
  h4: 'p',
  h5: 'p',
  h6: 'p',
  div: 'p',
  del: 's',
};
const INGEST_OPTIONS: sanitizeHtml.IOptions = {
  ...BASE_OPTIONS,
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: INGEST_SCHEMES,
  transformTags: { ...INGEST_TRANSFORMS, a: linkRule(INGEST_SCHEMES, { target: '_blank' }) },
  // a link whose only content was an image (removed: post media are not content) shows nothing
  exclusiveFilter: (frame) => frame.tag === 'a' && frame.text.trim() === '',
};

/**
 * sanitize-html with a private-use character the input does not hold put
 * after it, and taken out of the result again: htmlparser2 8 (the parser of
 * every sanitize-html that runs on Node 20) drops the last run of text when
 * the input ends in `&#x`. The character can only end that run (after an
 * unfinished tag or comment it is dropped with it).
 */
export function sanitize(html: string, options: sanitizeHtml.IOptions): string {
  let end = 0xe000;
  while (html.includes(String.fromCharCode(end))) end++;
  const mark = String.fromCharCode(end);
  return sanitizeHtml(html + mark, options).replaceAll(mark, '');
}

/** A custom emoji of the upstream network (Mastodon's `emojis[]`): `:shortcode:` in text shows its image. */
export interface CustomEmoji {
  shortcode: string;
  url: string;
}

export interface IngestExtras {
  /** `:shortcode:` in text (never in attribute values) becomes the emoji's image: see emojiImageHtml */
  emojis?: readonly CustomEmoji[];
  /** elements with one of these classes go with their content: what the network's own clients never show */
  hiddenClasses?: readonly string[];
  /** relative links resolve against this URL */
  base?: string;
}

/** Width and height of a custom emoji's image (CSS pixels): the size of a line of text. */
export const EMOJI_SIZE = 20;

const SHORTCODE = /^[A-Za-z0-9_]{1,100}$/;
const attrValue = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The one element beyond the allowlist that post content may hold, and only
 * content ingestion made: a custom emoji's image, built here from the
 * network's emoji list — an http(s) `src` in normalized form, `alt` and
 * `title` `:shortcode:`, class `emoji` and a small fixed size, nothing else.
 * Upstream HTML never brings an `img` (the allowlist removes it), and writes
 * never keep one (contract §7). Without a usable URL: the text `:shortcode:`.
 */
export function emojiImageHtml(emoji: CustomEmoji): string {
  const code = `:${emoji.shortcode}:`;
  const src = SHORTCODE.test(emoji.shortcode) ? normalizeHttpUrl(emoji.url) : null;
  if (src === null) return attrValue(code).replace(/>/g, '&gt;');
  return `<img src="${attrValue(src)}" alt="${code}" title="${code}" class="emoji" width="${EMOJI_SIZE}" height="${EMOJI_SIZE}" />`;
}

/** `:shortcode:` in (escaped) text → the emoji's image, for shortcodes in `emojis`. */
function emojiFilter(emojis: readonly CustomEmoji[]): ((text: string) => string) | undefined {
  const known = new Map(emojis.filter((e) => SHORTCODE.test(e.shortcode)).map((e) => [e.shortcode, e]));
  if (known.size === 0) return undefined;
  return (text) =>
    text.replace(/:([A-Za-z0-9_]{1,100}):/g, (match, code: string) => {
      const emoji = known.get(code);
      return emoji ? emojiImageHtml(emoji) : match;
    });
}

/**
 * Upstream HTML → HTML that keeps only the allowlist; empty links and
 * paragraphs dropped, trimmed. With `extras`, relative links resolve against
 * `base`, custom emoji in its text become their images, and elements the
 * network's clients hide are dropped.
 */
export function sanitizeIngestedHtml(html: string, extras: IngestExtras = {}): string {
  const hidden = extras.hiddenClasses ?? [];
  const textFilter = emojiFilter(extras.emojis ?? []);
  const dropped = INGEST_OPTIONS.exclusiveFilter;
  const options: sanitizeHtml.IOptions = {
    ...INGEST_OPTIONS,
    ...(extras.base
      ? { transformTags: { ...INGEST_TRANSFORMS, a: linkRule(INGEST_SCHEMES, { target: '_blank' }, extras.base) } }
      : {}),
    ...(textFilter ? { textFilter } : {}),
    ...(hidden.length > 0
      ? {
          // on top of whatever the ingestion options drop already
          exclusiveFilter: (frame: sanitizeHtml.IFrame) =>
            dropped?.(frame) === true || (frame.attribs.class ?? '').split(/\s+/).some((c) => hidden.includes(c)),
        }
      : {}),
  };
  return sanitize(html, options)
    .replace(/<p>\s*<\/p>/g, '')
    .trim();
}

/**
 * Written post content → what is stored (contract §7). When the allowlist
 * removes nothing, the bytes as sent; links without the exact `rel` get it
 * set in their start tag and are otherwise kept as sent too. When it removes
 * something, sanitize-html's serialization of what is left.
 *
 * "Removes nothing" is decided by what a browser makes of the bytes (see
 * `keptTree`): they are kept only if parse5 builds from them exactly the tree
 * it builds from the sanitized serialization, and every byte of them is in
 * that tree, so that no other context (a table cell, whatever a page puts
 * after them) can read more into them.
 */
export function sanitizeWrittenHtml(html: string): string {
  const clean = sanitize(html, BASE_OPTIONS);
  if (clean === html) return html;
  const target = parseFragment(context(), clean, {});
  const sent = keptTree(html);
  if (sent === null) return clean;
  if (sameChildren(sent, target)) return html;
  const withRel = withLinkRel(html, sent);
  if (withRel === html) return clean;
  const fixed = keptTree(withRel);
  return fixed !== null && sameChildren(fixed, target) ? withRel : clean;
}

// ---------- what a browser makes of HTML ----------

const context = () => defaultTreeAdapter.createElement('div', HTML.NS.HTML, []);

/**
 * A `<` that starts markup: in HTML's data state only `<` followed by a
 * letter, `!`, `/` or `?` leaves it (tag, comment, declaration, bogus
 * comment); any other `<` is text.
 */
const MARKUP = /<[A-Za-z!/?]/;

/**
 * The tree a browser builds from `html` as a div's content, when `html`
 * stands on its own: nothing left open at its end (a tag, an attribute
 * value, a comment would take in what follows), no repeated attribute, and
 * every byte is a start tag, an end tag or text of an element in the tree,
 * none a token the tree builder ignored here (a stray end tag, a `<tr>`
 * outside a table, a doctype) but might not in another context. Else null.
 */
function keptTree(html: string): T.DocumentFragment | null {
  let standsAlone = true;
  const fragment = parseFragment(context(), html, {
    sourceCodeLocationInfo: true,
    onParseError: (e) => {
      if (e.code.startsWith('eof-') || e.code === 'duplicate-attribute') standsAlone = false;
    },
  });
  const spans: [number, number][] = [];
  const visit = (node: T.ParentNode) => {
    for (const child of node.childNodes) {
      const at = child.sourceCodeLocation;
      if (!at) standsAlone = false;
      else if (child.nodeName === '#text') {
        // text merged across an ignored token holds that token's markup
        if (MARKUP.test(html.slice(at.startOffset, at.endOffset))) standsAlone = false;
        spans.push([at.startOffset, at.endOffset]);
      } else if ('tagName' in child) {
        const { startTag, endTag } = child.sourceCodeLocation!;
        if (!startTag) standsAlone = false;
        else spans.push([startTag.startOffset, startTag.endOffset]);
        if (endTag) spans.push([endTag.startOffset, endTag.endOffset]);
        visit(child);
      } else standsAlone = false; // comments, doctypes
    }
  };
  visit(fragment);
  let covered = 0;
  for (const [start, end] of spans.sort((a, b) => a[0] - b[0])) {
    if (start !== covered) return null;
    covered = end;
  }
  return standsAlone && covered === html.length ? fragment : null;
}

const sortedAttrs = (el: T.Element) =>
  el.attrs
    .map((a) => `${a.namespace ?? ''}|${a.name}=${a.value}`)
    .sort()
    .join('\u0000');

// Line breaks count as one: a CR written as `&#13;` reaches the tree as CR,
// but as a raw byte in the sanitized form (which turns it and a following LF
// into one LF). No difference in what runs or shows.
const lines = (text: string) => text.replace(/[\r\n]+/g, '\n');

function sameNode(a: T.ChildNode, b: T.ChildNode): boolean {
  if (a.nodeName !== b.nodeName) return false;
  if (a.nodeName === '#text') return lines((a as T.TextNode).value) === lines((b as T.TextNode).value);
  if (!('tagName' in a) || !('tagName' in b)) return false;
  return a.namespaceURI === b.namespaceURI && sortedAttrs(a) === sortedAttrs(b) && sameChildren(a, b);
}

function sameChildren(a: T.ParentNode, b: T.ParentNode): boolean {
  const x = a.childNodes;
  const y = b.childNodes;
  return x.length === y.length && x.every((node, i) => sameNode(node, y[i]!));
}

/**
 * `html` with `rel="nofollow noopener noreferrer"` in the start tag of every
 * link (positions from `tree`): in place of its own `rel`, else after its
 * last attribute.
 */
function withLinkRel(html: string, tree: T.DocumentFragment): string {
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: T.ParentNode) => {
    for (const child of node.childNodes) {
      if (!('tagName' in child)) continue;
      const at = child.sourceCodeLocation;
      if (child.tagName === 'a' && at?.startTag && child.attrs.find((a) => a.name === 'rel')?.value !== LINK_REL) {
        const attr = `rel="${LINK_REL}"`;
        const ends = Object.values(at.attrs ?? {}).map((a) => a.endOffset);
        if (at.attrs?.rel) edits.push({ start: at.attrs.rel.startOffset, end: at.attrs.rel.endOffset, text: attr });
        else {
          const after = Math.max(at.startTag.startOffset + 2, ...ends);
          edits.push({ start: after, end: after, text: ` ${attr}` });
        }
      }
      visit(child);
    }
  };
  visit(tree);
  let out = html;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

// ---------- plain text ----------

const TEXTLESS = new Set(['script', 'style', 'template']);

function textOf(node: T.ParentNode): string {
  let out = '';
  for (const child of node.childNodes) {
    if (child.nodeName === '#text') out += (child as T.TextNode).value;
    else if ('tagName' in child && !TEXTLESS.has(child.tagName)) out += textOf(child);
  }
  return out;
}

/**
 * A name or other plain-text field as written → what is stored: the text
 * exactly as sent when it holds no markup; otherwise the text a browser
 * shows of it (tags and comments removed, character references decoded,
 * script and style code left out), again until no markup is left.
 */
export function plainTextOf(text: string): string {
  let out = text;
  while (MARKUP.test(out)) {
    const next = textOf(parseFragment(context(), out, {}));
    // a "</" at the very end is shown as text: drop the "<" then (always progress)
    out = next.length < out.length ? next : out.replace(/<(?=[A-Za-z!/?])/g, '');
  }
  return out;
}

// ---------- control characters ----------

/**
 * C0 and C1 control characters and DEL. A terminal reads them as commands
 * (ESC starts ANSI sequences, `ESC [8m` hides text, OSC 52 writes the
 * clipboard, U+009B is a one-character CSI); no one means them as text.
 */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;
const LINE_SPACE = /^[\t\n\r]$/;

/**
 * `text` without control characters. Where text has lines (`multiline`:
 * post content, alt text) tab, LF and CR are kept; in a one-line text (a
 * name) they become a space, so words on either side stay apart. Every other
 * control character is removed.
 */
export function withoutControls(text: string, lines: 'multiline' | 'single'): string {
  return text.replace(CONTROL, (c) => (LINE_SPACE.test(c) ? (lines === 'multiline' ? c : ' ') : ''));
}

// ---------- URLs ----------

/** A host as DNS or an IP literal writes it: nothing that could end an HTML attribute value. */
const PLAIN_HOST = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])$/;

/**
 * An http(s) URL in the form the WHATWG URL parser serializes it (`"`, `<`,
 * `>`, spaces and controls percent-encoded), or null when it is not one: not
 * http(s), not a URL, or a host with characters no real host has (the parser
 * keeps `"` or `'` in a host).
 */
export function normalizeHttpUrl(value: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return PLAIN_HOST.test(url.hostname) ? url.href : null;
}
