// Parts of URLs an upstream hands over: any of them may not parse, and a
// poll must go on (or report its error) all the same.

/** The URL parsed, or null when it is not one. */
export function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The URL's host; `fallback` ('' unless given) when it does not parse. */
export const hostOf = (url: string, fallback = ''): string => parseUrl(url)?.host ?? fallback;

/** The URL's path; '' when it does not parse. */
export const pathOf = (url: string): string => parseUrl(url)?.pathname ?? '';

/** Where a response came from, for a message: its host, or the URL itself when it has none. */
export const whereFrom = (url: string): string => hostOf(url, url);
