// The XML form of the envelope (contract §1). A small purpose-built writer:
// the shape is fixed (objects of scalars, arrays of objects, one special
// element), so walking the same object the JSON form prints keeps the two
// forms identical by construction and costs one string concatenation pass.

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

// Characters XML 1.0 cannot carry at all: C0 controls other than tab, LF and
// CR, U+FFFE/U+FFFF, and unpaired surrogates. They are removed, not escaped.
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>"'\r]/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A raw CR would be normalised to LF by every XML parser; a reference survives.
  '\r': '&#13;',
};

export function escapeXmlText(text: string): string {
  return text.replace(FORBIDDEN, '').replace(SPECIAL, (c) => ENTITIES[c] as string);
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return escapeXmlText(value);
  if (typeof value === 'number') return JSON.stringify(value);
  return escapeXmlText(String(value));
}

function element(name: string, inner: string): string {
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
}

/** `childNode`: ONE element holding image, video, image, video, … in item order. */
function childNodeElement(items: readonly Record<string, unknown>[]): string {
  let inner = '';
  for (const item of items) {
    inner += element('image', scalarText(item.image)) + element('video', scalarText(item.video));
  }
  return element('childNode', inner);
}

function fieldsOf(obj: Record<string, unknown>): string {
  let out = '';
  for (const key of Object.keys(obj)) out += field(key, obj[key]);
  return out;
}

function field(name: string, value: unknown): string {
  if (Array.isArray(value)) {
    if (name === 'childNode') return childNodeElement(value as Record<string, unknown>[]);
    // Repeated siblings named after the field; an empty list is no element.
    let out = '';
    for (const item of value) {
      out +=
        item !== null && typeof item === 'object'
          ? element(name, fieldsOf(item as Record<string, unknown>))
          : element(name, scalarText(item));
    }
    return out;
  }
  if (value !== null && typeof value === 'object') return element(name, fieldsOf(value as Record<string, unknown>));
  return element(name, scalarText(value));
}

/** One object of a list field, as the list renders it: an element named after the field. */
export function renderXmlListItem(name: string, item: Record<string, unknown>): string {
  return element(name, fieldsOf(item));
}

/** The whole document: declaration, then root `xml` holding the envelope's fields in order. */
export function renderXml(envelope: Record<string, unknown>): string {
  return `${XML_DECLARATION}\n<xml>${fieldsOf(envelope)}</xml>\n`;
}
