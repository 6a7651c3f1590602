// A connection's status, as a pure rule: what a network's refusal makes of
// it, which statuses still poll, and how a status reads in words ("expires in
// 5 days", "revoked by the user on 14 Jan 2026"). `active` works; `failing`
// (a permission missing, a key not valid) is tried again on the next poll —
// the operator may have fixed it upstream; `expired` and `revoked` wait for a
// reconnect (a new token: PATCH the connection, or the OAuth flow again).

/** Why a network refused a connection's credentials. */
export type CredentialProblem = 'expired' | 'revoked' | 'permission' | 'invalid';

export const CONNECTION_STATUSES = ['active', 'failing', 'expired', 'revoked'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export type ConnectionFailedStatus = Exclude<ConnectionStatus, 'active'>;

/** The networks a connection may be for (the `network` of a connection; a connector's `x-network`). */
export const CONNECTION_NETWORKS = [
  'instagram',
  'facebook',
  'threads',
  'tiktok',
  'youtube',
  'x',
  'mastodon',
  'pixelfed',
  'misskey',
  'flickr',
  'reddit',
  'tumblr',
  'bluesky',
] as const;
export type ConnectionNetwork = (typeof CONNECTION_NETWORKS)[number];

/** How a connection was made: the OAuth connect flow, a pasted access token, an API key. */
export const AUTH_KINDS = ['oauth', 'token', 'api_key'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

/** CONNECTION_EXPIRY_WARN_DAYS's default: `connection.expiring` this many days before a token expires. */
export const DEFAULT_EXPIRY_WARN_DAYS = 7;

export function connectionStatusOf(problem: CredentialProblem): ConnectionFailedStatus {
  return problem === 'expired' ? 'expired' : problem === 'revoked' ? 'revoked' : 'failing';
}

/** Whether feeds may poll with a connection in this status. */
export const isUsable = (status: string): boolean => status === 'active' || status === 'failing';

/** Whether a status is one the network refused the connection with (what `connection.failed` announces). */
export const isFailedStatus = (status: string): status is ConnectionFailedStatus =>
  status === 'failing' || status === 'expired' || status === 'revoked';

/** What a connection's status in words is computed from. */
export interface StatusFacts {
  status: string;
  statusDetail: string | null;
  /** when the status last changed (epoch ms) */
  statusAt: number | null;
  /** when the access token expires (epoch ms); null: no expiry known */
  expiresAt: number | null;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** A span in the largest whole unit it holds: "5 days", "3 hours", "12 minutes", "less than a minute". */
export function spanInWords(ms: number): string {
  const span = Math.abs(ms);
  if (span >= DAY) return plural(Math.floor(span / DAY), 'day');
  if (span >= HOUR) return plural(Math.floor(span / HOUR), 'hour');
  if (span >= MINUTE) return plural(Math.floor(span / MINUTE), 'minute');
  return 'less than a minute';
}

/** `14 Jan 2026` (UTC). */
export function dayInWords(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** When a token expires, in words, from `now`: "expires in 5 days", "expired 2 days ago". */
export function expiryInWords(expiresAt: number, now: number): string {
  return expiresAt > now ? `expires in ${spanInWords(expiresAt - now)}` : `expired ${spanInWords(now - expiresAt)} ago`;
}

/**
 * A connection's status in words, as the console shows it: "active, no
 * expiry", "expires in 5 days", "expired 2 days ago", "revoked by the user on
 * 14 Jan 2026", "failing: <what the network said>".
 */
export function connectionStatusText(c: StatusFacts, now: number): string {
  switch (c.status) {
    case 'revoked':
      return c.statusAt === null ? 'revoked by the user' : `revoked by the user on ${dayInWords(c.statusAt)}`;
    case 'expired': {
      const at = c.expiresAt !== null && c.expiresAt <= now ? c.expiresAt : c.statusAt;
      return at === null ? 'expired' : `expired ${spanInWords(now - at)} ago`;
    }
    case 'failing':
      return c.statusDetail ? `failing: ${c.statusDetail}` : 'failing';
    default:
      return c.expiresAt === null ? 'active, no expiry' : expiryInWords(c.expiresAt, now);
  }
}

/** Whether the expiry check warns of this connection now: active, expiring within the window, not yet warned for this expiry. */
export function shouldWarnOfExpiry(
  c: { status: string; expiresAt: number | null; expiryWarnedAt: number | null },
  now: number,
  warnDays: number,
): boolean {
  if (c.status !== 'active' || c.expiresAt === null) return false;
  if (c.expiresAt <= now || c.expiresAt - now > warnDays * DAY) return false;
  // warned already for this expiry: the warning was sent within the window before it
  return c.expiryWarnedAt === null || c.expiryWarnedAt < c.expiresAt - warnDays * DAY;
}

/** The last 4 characters of a secret (what the API shows of it), or null when it is too short to show any. */
export function secretHint(secret: string | undefined): string | null {
  if (secret === undefined || secret.length < 12) return null;
  return `…${secret.slice(-4)}`;
}
