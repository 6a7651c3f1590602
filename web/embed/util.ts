// Small helpers the templates use: URLs and colours from the API are data,
// never trusted as markup or script.

/** An absolute http(s) URL as the browser parses it, else undefined (no `javascript:`, `data:`…). */
export function safeUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A CSS colour in a plain form (`#abc`, `#aabbcc`, `rgb(…)`, a name), else undefined. */
export function safeColor(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  return /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]{3,20})$/i.test(value.trim()) ? value.trim() : undefined;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
let relative: Intl.RelativeTimeFormat | undefined;
const absolute = new Map<boolean, Intl.DateTimeFormat>();

/** Midnight (local time) of the day `ms` falls on. */
const dayStart = (ms: number): number => new Date(ms).setHours(0, 0, 0, 0);

/**
 * When a post was made, as a wall shows it: relative while it is recent —
 * "now", "5 min. ago", "3 hr. ago", "yesterday", "3 days ago" — up to
 * `relativeUpToDays` (7 by default), then the date: "12 Mar", with the year
 * when it is not this year ("12 Mar 2016"). A post dated a little ahead of
 * `now` (clocks differ) reads "now"; an unreadable date reads "".
 */
export function postDate(iso: string, now: number, opts: { relativeUpToDays?: number } = {}): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at) || !Number.isFinite(now)) return '';
  const limit = opts.relativeUpToDays ?? 7;
  const ago = now - at;
  if (ago > -MINUTE) {
    relative ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
    const days = Math.round((dayStart(now) - dayStart(at)) / DAY);
    if (ago < MINUTE) return 'now';
    if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
    // "yesterday" for a post of an hour ago just past midnight would read as long ago
    if (days === 0 || ago < 6 * HOUR) return relative.format(-Math.floor(ago / HOUR), 'hour');
    if (days <= limit) return relative.format(-days, 'day');
  }
  const withYear = new Date(at).getFullYear() !== new Date(now).getFullYear();
  let format = absolute.get(withYear);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      ...(withYear ? { year: 'numeric' } : {}),
    });
    absolute.set(withYear, format);
  }
  return format.format(at);
}

const NETWORKS: Record<string, string> = {
  instagram: 'Instagram',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky',
  rss: 'RSS',
  youtube: 'YouTube',
  lemmy: 'Lemmy',
  twitter: 'X',
  x: 'X',
  facebook: 'Facebook',
  tiktok: 'TikTok',
  custom: 'Post',
};

export function networkLabel(network: string): string {
  return NETWORKS[network.toLowerCase()] ?? network.slice(0, 24);
}

/** Calls `fn` at most once per `ms`, the last call of a burst included. */
export function throttle(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      last = Date.now();
      fn();
    }, wait);
  };
}

/**
 * What a visitor reads when the wall cannot be shown: plain words for the
 * people of the page. What its developer should do (the API's message, which
 * may name a command) goes to the browser's console.
 */
export function visitorMessage(err: unknown): string {
  const status = (err as { status?: unknown }).status;
  console.warn(`Wallery: the wall cannot be shown: ${(err as Error).message}`);
  if (status === 401 || status === 403) return 'This wall can’t be shown on this page.';
  if (status === 404) return 'This wall is no longer available.';
  return 'This wall can’t be shown right now. Please try again later.';
}

export const reducedMotion = (): boolean => matchMedia('(prefers-reduced-motion: reduce)').matches;
