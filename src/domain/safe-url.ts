// The one test every URL passes before a page may put it in `src` or `href`,
// or the media worker may fetch it.

/** An absolute http(s) URL, else null (javascript:, data:, relative junk, empty). */
export function safeUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const text = value.trim();
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    return new URL(text).href;
  } catch {
    return null;
  }
}
