// Web origins (`scheme://host[:port]`) as a publishable key lists them and as
// browsers send them in the `Origin` header: compared in normalised form
// (lower-case scheme and host, default port left out, no path).

/** The normalised origin, or null when `text` is not exactly an http(s) origin. */
export function normaliseOrigin(text: string): string | null {
  if (typeof text !== 'string' || text.length > 300) return null;
  // an origin has no path, query, fragment or credentials; `https://a.example/` is tolerated
  const match = /^(https?):\/\/([^/?#@\s]+?)\/?$/i.exec(text.trim());
  if (!match) return null;
  let url: URL;
  try {
    url = new URL(`${match[1]!.toLowerCase()}://${match[2]!}`);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.hostname === '') return null;
  return url.origin;
}

/** Whether a request's `Origin` header is allowed by a key's list (empty list: any origin). */
export function originAllowed(allowed: readonly string[], origin: string | undefined): boolean {
  if (origin === undefined || allowed.length === 0) return true;
  const normal = normaliseOrigin(origin);
  return normal !== null && allowed.includes(normal);
}

/**
 * Whether a request may use a key, by what the browser says of the page that
 * sent it. `Sec-Fetch-Site: same-origin` is a page of this Wallery (the
 * hosted wall page, the console's preview), which is shown only where its
 * `frame-ancestors` allows: its calls carry no `Origin` (GET) or Wallery's
 * own (POST). Any other `Origin` must be one the key allows. A request with
 * no `Origin` that a browser marks `cross-site` or `same-site` is another
 * site's page loading the URL without CORS (an `<iframe>`, `<img>`,
 * `<script>`): refused for a key bound to origins. With neither header it is
 * no browser's page (a server, curl), which could send any `Origin`: the key
 * is read-only and rate limited for that reason.
 */
export function requestMayUseKey(
  allowed: readonly string[],
  origin: string | undefined,
  fetchSite: string | undefined,
): boolean {
  if (fetchSite === 'same-origin') return true;
  if (origin !== undefined) return originAllowed(allowed, origin);
  if (allowed.length === 0) return true;
  return fetchSite === undefined || fetchSite === 'none';
}
