// What a shared cache (a CDN, a Varnish) is told about an answer: how long it
// may keep it (`Cache-Control`'s s-maxage, with stale-while-revalidate and
// stale-if-error) and the tags it is filed under, so one purge by tag drops
// every answer of a wall (or of an account, or all of Wallery's) at once.
// Pure: no I/O. The purge hook (purger.ts) sends the same tags.

/** Tags are made of these characters only: safe in every CDN's header and in the VCL's ban expression. */
export const TAG_PATTERN = /^[a-z0-9-]{1,40}$/;

export interface CdnCaching {
  /** s-maxage: seconds a shared cache keeps an answer (purged sooner on a change) */
  sharedMaxAge: number;
  /** the tags' common prefix (CDN_TAG_PREFIX); alone, it is the tag of every answer */
  tagPrefix: string;
}

/** Without purge targets a shared cache must not keep answers longer than browsers do. */
export const DEFAULT_SHARED_MAX_AGE = 5;
/** With purge targets: an hour, since every change purges what it touched. */
export const DEFAULT_PURGED_SHARED_MAX_AGE = 3600;
export const DEFAULT_TAG_PREFIX = 'wallery';
/** How long a shared cache may serve a stale answer while revalidating it, and when the origin fails. */
export const STALE_WHILE_REVALIDATE_S = 30;
export const STALE_IF_ERROR_S = 86_400;

export const DEFAULT_CDN_CACHING: CdnCaching = { sharedMaxAge: DEFAULT_SHARED_MAX_AGE, tagPrefix: DEFAULT_TAG_PREFIX };

/** The tags of one wall's answers, of one account's, and of everything Wallery serves. */
export const wallTag = (prefix: string, wallId: number) => `${prefix}-w${wallId}`;
export const accountTag = (prefix: string, accountId: number) => `${prefix}-a${accountId}`;
export const allTag = (prefix: string) => prefix;

/**
 * `Cache-Control` of an answer browsers keep `browserMaxAge` seconds and
 * shared caches `sharedMaxAge`; both may serve it stale briefly while they
 * revalidate, and shared caches for a day while the origin fails.
 */
export function sharedCacheControl(browserMaxAge: number, caching: CdnCaching): string {
  return [
    'public',
    `max-age=${browserMaxAge}`,
    `s-maxage=${caching.sharedMaxAge}`,
    `stale-while-revalidate=${STALE_WHILE_REVALIDATE_S}`,
    `stale-if-error=${STALE_IF_ERROR_S}`,
  ].join(', ');
}

/**
 * The tag headers of an answer of a wall: `Surrogate-Key` (Fastly, Varnish;
 * space-separated), `Cache-Tag` (Cloudflare) and `CDN-Tag` (Bunny), comma-separated.
 */
export function tagHeaders(caching: CdnCaching, wallId: number, accountId: number): Record<string, string> {
  const p = caching.tagPrefix;
  const tags = [allTag(p), accountTag(p, accountId), wallTag(p, wallId)];
  return { 'Surrogate-Key': tags.join(' '), 'Cache-Tag': tags.join(','), 'CDN-Tag': tags.join(',') };
}
