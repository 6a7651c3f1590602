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
