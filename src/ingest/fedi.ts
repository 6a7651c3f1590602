// What the connectors of the open (federated) networks share — Mastodon,
// Pixelfed, Misskey/Sharkey, PeerTube: the instance's token sent only to its own
// instance, a per-poll HTTP view that adds the token, and the re-check of
// recently stored items that finds the ones deleted upstream.
import {
  ConnectorSetupError,
  UpstreamError,
  type ConnectorCredential,
  type HttpOptions,
  type PollHttp,
  type PollInput,
} from './connector.js';
import { hostOf } from './url-parts.js';

/** Most stored items one poll re-checks (each is one request to the instance). */
export const RECHECK_PER_POLL = 10;
/** Stored items older than this are not re-checked any more. */
export const RECHECK_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** How many of the feed's newest stored items the re-check rotates through. */
export const RECHECK_SCAN = 200;

/** The instance's base URL without a trailing slash. */
export const baseOf = (instance: string): string => instance.replace(/\/+$/, '');

/**
 * The access token of the feed's connection, checked to belong to this
 * network and this instance (a token is never sent to another server);
 * null when the feed names no connection.
 */
export function instanceToken(
  credential: ConnectorCredential | null,
  base: string,
  network: { name: string; connection: string },
): string | null {
  if (!credential) return null;
  if (credential.network !== network.connection) {
    throw new ConnectorSetupError(
      `the feed's connection is a ${credential.network} connection; a ${network.name} feed needs a ${network.connection} connection`,
    );
  }
  const own = credential.instance
    ? hostOf(credential.instance.includes('//') ? credential.instance : `https://${credential.instance}`)
    : '';
  if (own !== '' && own.toLowerCase() !== hostOf(base).toLowerCase()) {
    throw new ConnectorSetupError(
      `the feed's ${network.name} connection belongs to ${own}, not ${hostOf(base)}: its token is only sent to its own instance`,
    );
  }
  if (!credential.accessToken) {
    throw new ConnectorSetupError(`the feed's ${network.name} connection has no access token: reconnect it`);
  }
  return credential.accessToken;
}

/** The poll's HTTP view with these headers on every request (the poll's validators and hints stay shared). */
export function withHeaders(http: PollHttp, headers: Record<string, string>): PollHttp {
  const view = Object.create(http) as PollHttp;
  view.request = (url: string, options: HttpOptions = {}) =>
    http.request(url, { ...options, headers: { ...(options.headers ?? {}), ...headers } });
  return view;
}

export interface RecheckResult {
  deleted: string[];
  /** where the next poll's re-check starts in the rotation */
  next: number;
}

/**
 * Re-checks up to RECHECK_PER_POLL of the feed's stored items of the last
 * RECHECK_WINDOW_MS (not those this poll just read: they exist), rotating
 * through them from `from` poll after poll. `exists` asks the instance about
 * one item: false when it is gone. An item the instance cannot answer for
 * (rate limit, an error) ends the re-check for this poll; nothing is removed
 * on a doubt.
 */
export async function recheckStored(
  input: Pick<PollInput, 'storedIds' | 'now'>,
  from: number,
  seen: ReadonlySet<string>,
  exists: (externalId: string) => Promise<boolean>,
): Promise<RecheckResult> {
  const stored = (await input.storedIds(RECHECK_SCAN)).filter(
    (s) => input.now - s.createdAt <= RECHECK_WINDOW_MS && !seen.has(s.externalId),
  );
  if (stored.length === 0) return { deleted: [], next: 0 };
  const start = Number.isInteger(from) && from >= 0 ? from % stored.length : 0;
  const count = Math.min(RECHECK_PER_POLL, stored.length);
  const deleted: string[] = [];
  let checked = 0;
  for (; checked < count; checked++) {
    const { externalId } = stored[(start + checked) % stored.length]!;
    try {
      if (!(await exists(externalId))) deleted.push(externalId);
    } catch {
      break;
    }
  }
  // the rotation goes on after the last one checked; the deleted ones leave the list
  return { deleted, next: (start + checked) % stored.length };
}

/** Whether an error is the instance's answer that the item is not there (any more). */
export const isGone = (err: unknown, statuses: readonly number[] = [404, 410]): boolean =>
  err instanceof UpstreamError && statuses.includes(err.status);
