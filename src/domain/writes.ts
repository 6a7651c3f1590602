// Contract §7, "Markup and URLs in writes": what a write stores of each
// field it is given, for the public create-post calls (C3, W3) and every
// write of the management API (and of the CLI, which shares its
// operations). Data files loaded with `wallery import` are not writes in
// this sense: they are the operator's own and are loaded as given.
import { normalizeHttpUrl, plainTextOf, sanitizeWrittenHtml } from './sanitize.js';

/** Wording of the refusals (the schemas' `x-error`s for the same fields say the same). */
export const WRITE_MESSAGES = {
  url: (field: string) => `${field} must be an absolute http or https URL of at most 2048 characters`,
  emptyOrUrl: (field: string) => `${field} must be empty or an absolute http or https URL of at most 2048 characters`,
  name: (field: string) => `${field} must contain text besides tags and spaces`,
} as const;

/**
 * How a written field is stored:
 * - html: post content, through the allowlist sanitizer
 * - text: plain text, tags removed
 * - name: the same, and something besides blanks must be left
 * - url, emptyOrUrl: '' (none) stays ''; else an http(s) URL, stored normalized
 *   (the two differ only in the wording of their refusal)
 */
export type FieldRule = 'html' | 'text' | 'name' | 'url' | 'emptyOrUrl';

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
    if (typeof out[key] !== 'string') continue;
    const given = out[key].replace(UNSTORABLE, '\uFFFD');
    const field = prefix + key;
    switch (rule) {
      case 'html':
        out[key] = sanitizeWrittenHtml(given);
        break;
      case 'text':
        out[key] = plainTextOf(given);
        break;
      case 'name':
        out[key] = plainTextOf(given);
        if (!/\S/.test(out[key] as string)) problems.push({ field, message: WRITE_MESSAGES.name(field) });
        break;
      case 'url':
      case 'emptyOrUrl': {
        if (given === '') break;
        const url = normalizeHttpUrl(given);
        if (url === null) problems.push({ field, message: WRITE_MESSAGES[rule](field) });
        else out[key] = url;
      }
    }
  }
  return { value: out as V, problems };
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
