// Contract §7, "Markup and URLs in writes": what a write stores of each
// field it is given, for the public create-post calls (C3, W3) and every
// write of the management API (and of the CLI, which shares its
// operations). Data files loaded with `wallery import` are not writes in
// this sense: they are the operator's own and are loaded as given.
import { normalizeHttpUrl, plainTextOf, sanitizeWrittenHtml, withoutControls } from './sanitize.js';

/** Wording of the refusals (the schemas' `x-error`s for the same fields say the same). */
export const WRITE_MESSAGES = {
  url: (field: string) => `${field} must be an absolute http or https URL of at most 2048 characters`,
  emptyOrUrl: (field: string) => `${field} must be empty or an absolute http or https URL of at most 2048 characters`,
  name: (field: string) => `${field} must contain text besides tags and spaces`,
  setting: (field: string) => `${field} must contain text besides control characters`,
} as const;

/**
 * How a written field is stored (no control character is ever kept: see
 * `withoutControls`):
 * - html: post content, through the allowlist sanitizer; tab, LF and CR kept
 * - text: plain text, tags removed; tab, LF and CR kept
 * - name: the same, and something besides blanks must be left
 * - url, emptyOrUrl: '' (none) stays ''; else an http(s) URL, stored normalized
 *   (the two differ only in the wording of their refusal; the normal form
 *   percent-encodes controls)
 * - setting: a value of any shape (a feed's connector, a wall's moderation
 *   rules): see `cleanSetting`
 */
export type FieldRule = 'html' | 'text' | 'name' | 'url' | 'emptyOrUrl' | 'setting';

export interface FieldProblem {
  /** the field as the caller named it: `name`, `cta.url` */
  field: string;
  message: string;
}

export interface Cleaned<V> {
  value: V;
  /** refused fields; `value` is only to be stored when this is empty */
  problems: FieldProblem[];
}

/**
 * Text as every store can hold it, the same on SQLite and PostgreSQL: U+0000
 * (which PostgreSQL text cannot carry) and unpaired surrogates (which are not
 * Unicode, and which the two drivers would mangle differently) become U+FFFD.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Post content as stored: without control characters (tab, LF and CR
 * kept), then through the allowlist. Controls go before the allowlist looks,
 * so content that holds nothing else to remove is stored exactly as sent
 * without them, and again after: a character reference (`&#27;`) that the
 * sanitizer decoded in text it serialized anew.
 */
export function storedContent(html: string): string {
  return withoutControls(sanitizeWrittenHtml(withoutControls(storable(html), 'multiline')), 'multiline');
}

/**
 * A plain-text field as stored: no control character but tab, LF and CR, no
 * markup (references decoded, so controls once more). Line breaks and tabs
 * are kept as sent (contract §7 keeps a name's text; the CLI shows them
 * escaped): they cannot rewrite a terminal, and they are whitespace in a page.
 */
export function storedText(text: string): string {
  return withoutControls(plainTextOf(withoutControls(storable(text), 'multiline')), 'multiline');
}

const storable = (text: string) => text.replace(UNSTORABLE, '\uFFFD');

/**
 * Applies `rules` to the string fields of `value` that are present (made
 * storable first); other fields are kept as they are.
 */
export function cleanWrite<V extends object>(
  value: V,
  rules: Readonly<Partial<Record<keyof V & string, FieldRule>>>,
  prefix = '',
): Cleaned<V> {
  const out = { ...value } as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  for (const [key, rule] of Object.entries(rules) as [string, FieldRule][]) {
    const field = prefix + key;
    if (rule === 'setting' && out[key] !== undefined) {
      const setting = cleanSetting(out[key], field);
      out[key] = setting.value;
      problems.push(...setting.problems);
    }
    if (typeof out[key] !== 'string') continue;
    const given = out[key];
    switch (rule) {
      case 'html':
        out[key] = storedContent(given);
        break;
      case 'text':
        out[key] = storedText(given);
        break;
      case 'name':
        out[key] = storedText(given);
        if (!/\S/.test(out[key] as string)) problems.push({ field, message: WRITE_MESSAGES.name(field) });
        break;
      case 'url':
      case 'emptyOrUrl': {
        if (given === '') break;
        const url = normalizeHttpUrl(storable(given));
        if (url === null) problems.push({ field, message: WRITE_MESSAGES[rule](field) });
        else out[key] = url;
      }
    }
  }
  return { value: out as V, problems };
}

/**
 * A written setting that is no field of the table above (a feed's
 * connector, a wall's moderation rules): every string in it, however deep,
 * made storable and put on one line without control characters; nothing
 * else changes (a keyword keeps its `<`). A string that held text and is
 * left with none is refused, named by its path (`rules[0].usernames[2]`).
 */
export function cleanSetting<V>(value: V, field: string): Cleaned<V> {
  const problems: FieldProblem[] = [];
  const visit = (v: unknown, path: string): unknown => {
    if (typeof v === 'string') {
      const kept = withoutControls(storable(v), 'single');
      if (kept.trim() === '' && v.trim() !== '') problems.push({ field: path, message: WRITE_MESSAGES.setting(path) });
      return kept;
    }
    if (Array.isArray(v)) return v.map((item, i) => visit(item, `${path}[${i}]`));
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, visit(item, `${path}.${k}`)]));
    return v;
  };
  return { value: visit(value, field) as V, problems };
}

/** C3/W3: the fields of a custom post. */
export const CUSTOM_POST_RULES = {
  content: 'html',
  authorName: 'text',
  postFile: 'url',
  authorPicture: 'url',
  link: 'url',
} as const;

/** A call-to-action (one post's, or a bulk `setCta`'s). */
export const CTA_RULES = { text: 'name', url: 'url' } as const;

/** Accounts, walls, feeds and operator tokens: their names (a feed's source names a network). */
export const NAME_RULES = { name: 'name', source: 'name', sourceType: 'name' } as const;

/** Feeds: their names, and the strings of their connector (hashtags, handles, URLs as given). */
export const FEED_RULES = { ...NAME_RULES, connector: 'setting' } as const;

/** A wall's moderation rules (keywords, usernames, networks). */
export const MODERATION_RULES = { rules: 'setting' } as const;

/** Products: every text of api-v2.md's Product is plain text, `url` and `image` URLs. */
export const PRODUCT_RULES = {
  name: 'name',
  sku: 'text',
  currencySymbol: 'text',
  discountCurrencySymbol: 'text',
  storeShopName: 'text',
  storeProductId: 'text',
  storeProductType: 'text',
  url: 'emptyOrUrl',
  image: 'emptyOrUrl',
} as const;

/** An operator's edit of a post: its content, and its call-to-action when one is set. */
export function cleanPostEdit<P extends { content?: string; cta?: { text: string; url: string } | null }>(
  patch: P,
): Cleaned<P> {
  const edited = cleanWrite(patch, { content: 'html' } as Partial<Record<keyof P & string, FieldRule>>);
  if (!patch.cta) return edited;
  const cta = cleanWrite(patch.cta, CTA_RULES, 'cta.');
  return { value: { ...edited.value, cta: cta.value }, problems: [...edited.problems, ...cta.problems] };
}
