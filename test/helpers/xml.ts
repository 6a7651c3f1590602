// XML helpers for the contract tests: parse a response body into an ordered
// tree with fast-xml-parser, and build the tree the contract (§1) predicts
// from a JSON-shaped value. Both sides use the same small shape, so one
// `toEqual` checks element names, element order, repetition and text.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One element: its name → its text ('' when empty) or its child elements in order. */
export type XEl = { [name: string]: XVal };
export type XVal = string | XEl[];

export const XML_DECLARATION_LINE = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * Characters XML 1.0 cannot carry at all: C0 controls other than tab, LF and
 * CR, U+FFFE, U+FFFF and unpaired surrogates.
 */
export const XML_FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripXmlForbidden(text: string): string {
  return text.replace(XML_FORBIDDEN, '');
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Strict XML 1.0 entity decoding in one pass: the five predefined entities and
 * numeric character references. Anything else (an HTML name such as &nbsp;, a
 * bare '&') is not well-formed XML from this server, so it throws.
 */
function decodeXmlText(text: string): string {
  return text.replace(
    /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z][A-Za-z0-9._-]*))?;?/g,
    (m, hex?: string, dec?: string, name?: string) => {
      if (!m.endsWith(';') || m === '&;') throw new Error(`bare '&' in XML text: ${JSON.stringify(text)}`);
      if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
      if (dec !== undefined) return String.fromCodePoint(parseInt(dec, 10));
      const named = NAMED[name ?? ''];
      if (named === undefined) throw new Error(`unknown entity &${name}; in XML text`);
      return named;
    },
  );
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  // values exactly as written: no trimming, no number/boolean parsing
  trimValues: false,
  parseTagValue: false,
  // entities on, decoded strictly by XML 1.0's rules (no HTML names)
  processEntities: true,
  entityDecoder: {
    setExternalEntities: () => undefined,
    addInputEntities: () => undefined,
    reset: () => undefined,
    setXmlVersion: () => undefined,
    decode: decodeXmlText,
  },
});

type RawNode = Record<string, unknown>;

function normalise(children: RawNode[]): XVal {
  const elements: XEl[] = [];
  let text = '';
  let hasText = false;
  for (const node of children) {
    if ('#text' in node) {
      text += String(node['#text']);
      hasText = true;
      continue;
    }
    const name = Object.keys(node).find((k) => k !== ':@');
    if (name === undefined) continue;
    elements.push({ [name]: normalise(node[name] as RawNode[]) });
  }
  if (elements.length === 0) return hasText ? text : '';
  // Indentation between elements is allowed (contract §1); other text next to
  // elements (mixed content) is kept so that a comparison fails on it.
  if (hasText && text.trim() !== '') elements.push({ '#mixed-text': text });
  return elements;
}

export interface XmlDoc {
  /** the root element's name */
  root: string;
  /** the root element's children */
  children: XEl[];
  /** root as a tree: `{ xml: [...] }` */
  tree: XEl;
}

/**
 * Parses a whole XML response body. Throws (so the test fails) unless the
 * body is well-formed, starts with the XML declaration line, contains no
 * character XML 1.0 forbids, and has exactly one root element.
 */
export function parseXmlDoc(body: string): XmlDoc {
  const firstLine = body.split('\n', 1)[0];
  if (firstLine !== XML_DECLARATION_LINE) throw new Error(`first line is not the XML declaration: ${firstLine}`);
  const forbidden = body.match(XML_FORBIDDEN);
  if (forbidden) throw new Error(`body holds characters XML 1.0 forbids: ${JSON.stringify(forbidden)}`);
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new Error(`not well-formed XML: ${JSON.stringify(valid.err)}`);
  const nodes = (parser.parse(body) as RawNode[]).filter((n) => !('#text' in n));
  if (nodes.length !== 1) throw new Error(`expected one root element, found ${nodes.length}`);
  const root = Object.keys(nodes[0] as RawNode).find((k) => k !== ':@') as string;
  const value = normalise((nodes[0] as RawNode)[root] as RawNode[]);
  const children = typeof value === 'string' ? [] : value;
  return { root, children, tree: { [root]: value } };
}

/** Text of the first element with this name among `children`; throws when absent. */
export function childText(children: XEl[], name: string): string {
  const el = children.find((c) => name in c);
  if (!el) throw new Error(`no <${name}> element`);
  const v = el[name] as XVal;
  if (typeof v !== 'string') throw new Error(`<${name}> holds elements, not text`);
  return v;
}

/** Children of every element with this name among `children`, in order. */
export function childElements(children: XEl[], name: string): XVal[] {
  return children.filter((c) => name in c).map((c) => c[name] as XVal);
}

// ---------- the contract's XML form, predicted from a JSON-shaped value ----------

function scalarText(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  throw new Error(`not a scalar: ${JSON.stringify(value)}`);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The elements one field becomes (contract §1). */
export function fieldToXml(name: string, value: unknown): XEl[] {
  if (Array.isArray(value)) {
    if (name === 'childNode') {
      // ONE childNode element holding image, video, image, video, … (empty list → one empty element)
      const inner: XEl[] = [];
      for (const item of value as Record<string, unknown>[]) {
        inner.push({ image: scalarText(item.image) }, { video: scalarText(item.video) });
      }
      return [{ childNode: inner.length === 0 ? '' : inner }];
    }
    // repeated siblings named after the field; an empty list is no element
    return value.map((item) => ({ [name]: isPlainObject(item) ? objectToXml(item) : scalarText(item) }));
  }
  if (isPlainObject(value)) return [{ [name]: objectToXml(value) }];
  return [{ [name]: scalarText(value) }];
}

export function objectToXml(obj: Record<string, unknown>): XVal {
  const out: XEl[] = [];
  for (const [k, v] of Object.entries(obj)) out.push(...fieldToXml(k, v));
  return out.length === 0 ? '' : out;
}

/** The whole predicted document tree for an envelope: `{ xml: [...] }`. */
export function envelopeToXml(envelope: Record<string, unknown>): XEl {
  return { xml: objectToXml(envelope) };
}
