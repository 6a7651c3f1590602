// Which pages may show the hosted wall page in a frame: the key's binding
// made real. The embed API checks a page's `Origin`, but the hosted page is
// Wallery's own origin, so its calls carry none (or Wallery's): without this,
// `<iframe src="…/walls/102?key=pk_…">` would show an origin-bound key's wall
// on any site. The browser enforces `frame-ancestors` before the page runs.
import type { PublishableKeyGrant } from '../../store/publishable-keys.js';

/**
 * The hosted page's `frame-ancestors` sources for the key it was opened with:
 * the key's origins; for a key bound to none, `*` when the wall allows
 * framing and `'none'` otherwise; `'none'` when there is no valid key.
 */
export function frameAncestors(grant: PublishableKeyGrant | null): string {
  if (grant === null) return "'none'";
  if (grant.origins.length > 0) return grant.origins.join(' ');
  return grant.allowFraming ? '*' : "'none'";
}

/**
 * The headers that say it: CSP `frame-ancestors` (built into the page's
 * policy) and, when no one may frame the page, `X-Frame-Options: DENY` for
 * browsers that predate CSP 2 (it cannot name a list of origins).
 */
export function framingHeaders(ancestors: string): Record<string, string> {
  return ancestors === "'none'" ? { 'X-Frame-Options': 'DENY' } : {};
}
