// A webhook's URL may carry a token in its query (many receivers take one
// there). Only who may edit the webhook sees the whole URL; everyone else —
// viewers, moderators — and the audit log (which any role reads) get its
// origin and path.

/** Whole, or origin and path only. */
export type UrlView = 'full' | 'redacted';

/** The origin and path of a URL: no query, no fragment (user info is refused when a webhook is made). */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '';
  }
}

/** `url` as `view` shows it. */
export const urlAs = (url: string, view: UrlView) => (view === 'full' ? url : redactedUrl(url));

/**
 * An audit summary of a webhook entry with the `url` of its before and after
 * redacted: entries are written so, and older ones are shown so.
 */
export function redactedSummary(summary: unknown): unknown {
  if (typeof summary !== 'object' || summary === null) return summary;
  const s = summary as { before?: unknown; after?: unknown };
  const side = (v: unknown) =>
    typeof v === 'object' && v !== null && typeof (v as { url?: unknown }).url === 'string'
      ? { ...v, url: redactedUrl((v as { url: string }).url) }
      : v;
  return {
    ...s,
    ...('before' in s ? { before: side(s.before) } : {}),
    ...('after' in s ? { after: side(s.after) } : {}),
  };
}
