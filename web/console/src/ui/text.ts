// Posts are untrusted input: their HTML is parsed into an inert document
// (DOMParser: nothing in it runs or loads) and only its text is read, block
// by block, so a title and the paragraph after it stay two blocks (not
// "answeredEverything"). Dates: relative while recent, then the date.

/** Elements whose text is not the post's (code, embedded documents, form values, metadata): left out. */
const WITHOUT_TEXT = new Set([
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'TEXTAREA',
  'OPTION',
  'NOSCRIPT',
  'NOEMBED',
  'NOFRAMES',
  'XMP',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'SVG',
  'MATH',
  'HEAD',
  'TITLE',
]);
/** Elements that start a block of their own. */
const BLOCK = new Set([
  'P',
  'DIV',
  'LI',
  'UL',
  'OL',
  'BLOCKQUOTE',
  'PRE',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'TABLE',
  'TR',
  'SECTION',
  'ARTICLE',
  'HEADER',
  'FOOTER',
  'FIGCAPTION',
  'DL',
  'DT',
  'DD',
  'HR',
]);
const BOLD = new Set(['STRONG', 'B', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

export interface TextBlock {
  text: string;
  /** the post's title: a first block all in bold, with more text after it (how RSS items are stored) */
  title: boolean;
}

/** The text of a post's HTML as its blocks (paragraphs, list items, lines), whitespace collapsed, empty ones left out. */
export function textBlocks(html: string): TextBlock[] {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const blocks: { text: string; bold: boolean }[] = [];
  let text = '';
  let bold = true;
  const flush = () => {
    const t = text.replace(/\s+/g, ' ').trim();
    if (t !== '') blocks.push({ text: t, bold });
    text = '';
    bold = true;
  };
  const walk = (node: Node, inBold: boolean) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        const data = child.textContent ?? '';
        text += data;
        if (data.trim() !== '' && !inBold) bold = false;
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const tag = (child as Element).tagName.toUpperCase();
      if (WITHOUT_TEXT.has(tag)) continue;
      if (tag === 'BR') {
        flush();
        continue;
      }
      // a custom emoji's picture reads as its name
      if (tag === 'IMG') {
        text += (child as Element).getAttribute('alt') ?? '';
        continue;
      }
      if (BLOCK.has(tag)) flush();
      walk(child, inBold || BOLD.has(tag));
      if (BLOCK.has(tag)) flush();
    }
  };
  walk(body, false);
  flush();
  return blocks.map((b, i) => ({ text: b.text, title: i === 0 && b.bold && blocks.length > 1 }));
}

/** The text of a post's HTML, its blocks on lines of their own. */
export const plainText = (html: string): string =>
  textBlocks(html)
    .map((b) => b.text)
    .join('\n');

/** The first `max` characters of the blocks (the last one cut with "…"). */
export function clipBlocks(blocks: readonly TextBlock[], max: number): TextBlock[] {
  const out: TextBlock[] = [];
  let left = max;
  for (const b of blocks) {
    if (left <= 0) break;
    out.push(b.text.length > left ? { ...b, text: `${b.text.slice(0, left).trimEnd()}…` } : b);
    left -= b.text.length;
  }
  return out;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** past this, a date is shown as a date: "14 days ago" makes people count */
const RELATIVE_UP_TO = 7 * DAY;

const absolute = new Map<boolean, Intl.DateTimeFormat>();

/** A date and time, e.g. "12 Mar, 14:05" ("12 Mar 2025, 14:05" in another year than `now`'s). */
export function dateText(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  const withYear = new Date(at).getFullYear() !== new Date(now).getFullYear();
  let format = absolute.get(withYear);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      ...(withYear ? { year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
    });
    absolute.set(withYear, format);
  }
  return format.format(at);
}

/** "just now", "3 minutes ago", "in 5 hours" within a week of `now`; past that, the date (dateText). */
export function whenText(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  if (!Number.isFinite(ms)) return '';
  const abs = Math.abs(ms);
  if (abs >= RELATIVE_UP_TO) return dateText(iso, now);
  if (abs < 5 * SECOND) return 'just now';
  const [n, unit] =
    abs < MINUTE
      ? [Math.round(abs / SECOND), 'second']
      : abs < HOUR
        ? [Math.round(abs / MINUTE), 'minute']
        : abs < DAY
          ? [Math.round(abs / HOUR), 'hour']
          : [Math.round(abs / DAY), 'day'];
  const span = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return ms < 0 ? `${span} ago` : `in ${span}`;
}
