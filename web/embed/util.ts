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

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];
let rtf: Intl.RelativeTimeFormat | undefined;

/** "3 hr. ago", "yesterday", "now". */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  if (!Number.isFinite(seconds)) return '';
  rtf ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return 'now';
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

export const reducedMotion = (): boolean => matchMedia('(prefers-reduced-motion: reduce)').matches;
