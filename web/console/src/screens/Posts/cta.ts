// A post's call to action as its form holds it: the fields (named as the
// API's fieldErrors name them), and what is wrong with them, in words, before
// anything is sent.
import type { Post } from '../../api/client';

/** The form's fields, named as the API's fieldErrors name them. */
export interface CtaFields {
  'cta.text': string;
  'cta.url': string;
  'cta.background': string;
  'cta.color': string;
}
export type Problems = Partial<Record<keyof CtaFields, string>>;

const DEFAULT_BACKGROUND = '#0b57d0';
const DEFAULT_COLOR = '#ffffff';
export const TEXT_MAX = 200;

export function ctaFieldsOf(cta: Post['cta'], accent: string | null): CtaFields {
  return {
    'cta.text': cta?.text ?? '',
    'cta.url': cta?.url ?? '',
    'cta.background': cta?.background ?? accent ?? DEFAULT_BACKGROUND,
    'cta.color': cta?.color ?? DEFAULT_COLOR,
  };
}

export const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** `#abc` as `#aabbcc` (what the contrast maths reads). */
export const hex6 = (c: string) => (c.length === 4 ? `#${[...c.slice(1)].map((d) => d + d).join('')}` : c);

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The problems of a call to action as typed, in words, by field; none: it can be sent. */
export function ctaProblems(f: CtaFields): Problems {
  const problems: Problems = {};
  const text = f['cta.text'].trim();
  if (text === '') problems['cta.text'] = 'Enter the text of the button, e.g. “Shop the look”.';
  else if (text.length > TEXT_MAX) problems['cta.text'] = `Keep the button’s text to ${TEXT_MAX} characters.`;
  const url = f['cta.url'].trim();
  if (url === '') problems['cta.url'] = 'Enter the address of the page the button opens.';
  else if (!isWebAddress(url))
    problems['cta.url'] =
      'Enter the full address of a web page, starting with https:// (e.g. https://shop.example.com).';
  for (const [name, what] of [
    ['cta.background', 'button'],
    ['cta.color', 'button’s text'],
  ] as const)
    if (!COLOR.test(f[name].trim())) problems[name] = `Enter the ${what} colour as # and 6 hex digits, e.g. #0b57d0.`;
  return problems;
}
