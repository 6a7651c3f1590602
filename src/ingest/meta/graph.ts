// What Meta's three Graph APIs (Instagram and Facebook on graph.facebook.com,
// Threads on graph.threads.net) share: the version, the access token sent as
// a bearer header (never in a URL, so a URL in an error or a log never holds
// it), the JSON error body mapped to what it means (an expired or revoked
// token, a missing permission, a rate limit, an object that is gone), the
// usage headers honoured (`X-App-Usage`, `X-Page-Usage`,
// `X-Business-Use-Case-Usage`: the next poll waits while usage is high and
// until access is regained), `data` + `paging.cursors.after` pages, and the
// window comparison that finds deleted posts.
import type { FetchResponse } from '../../net/fetcher.js';
import { errorJson, said } from '../upstream-errors.js';
import {
  CredentialError,
  UpstreamError,
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  requireCredential,
  type ConnectorCredential,
  type DocumentContent,
  type HttpResult,
  type PollInput,
  type UpstreamDocument,
  type UpstreamPost,
} from '../connector.js';
import { parseInstant } from '../normalize.js';
import { whereFrom } from '../url-parts.js';
import type { IngestedPost } from '../../store/ingest.js';

/** The Graph API version every Instagram and Facebook request names (Meta's current one). */
export const GRAPH_API_VERSION = 'v26.0';
export const FACEBOOK_GRAPH_URL = `https://graph.facebook.com/${GRAPH_API_VERSION}`;
/** The Threads API has versions of its own. */
export const THREADS_API_VERSION = 'v1.0';
export const THREADS_GRAPH_URL = `https://graph.threads.net/${THREADS_API_VERSION}`;

/** Usage (percent of the allowance, the highest of calls, CPU time and total time) above which polls slow down. */
export const SLOW_DOWN_PERCENT = 80;
/** How long the next poll waits after a rate-limit error that names no time to regain access. */
export const RATE_LIMITED_WAIT_MS = 15 * 60_000;
/** Stored posts compared with a listing for deletions, at most. */
export const DELETION_WINDOW = 200;

// ---------- errors ----------

/** A Graph API error body: `{"error":{"message","type","code","error_subcode","fbtrace_id"}}`. */
export interface GraphError {
  message: string;
  type: string;
  code: number | null;
  subcode: number | null;
  userMessage: string;
  fbtraceId: string;
}

/** The error of an error answer, when it is one in the Graph API's shape. */
export function readGraphError(res: Pick<FetchResponse, 'bytes' | 'headers'>): GraphError | null {
  const data = errorJson(res);
  const error = isObject(data) && isObject(data.error) ? data.error : null;
  if (!error) return null;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const text_ = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    message: text_(error.message),
    type: text_(error.type),
    code: num(error.code),
    subcode: num(error.error_subcode),
    userMessage: text_(error.error_user_msg),
    fbtraceId: text_(error.fbtrace_id),
  };
}

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
export const isRateLimitCode = (code: number | null) =>
  code !== null && (RATE_LIMIT_CODES.has(code) || (code >= 80001 && code <= 80014));
const isPermissionCode = (code: number | null) => code === 10 || (code !== null && code >= 200 && code <= 299);
/** Error 100 with subcode 33: the object does not exist (deleted), or cannot be loaded. */
export const isMissingObject = (e: GraphError) =>
  e.code === 100 && (e.subcode === 33 || /does not exist/i.test(e.message));
/** Instagram's hashtag search allowance (30 different hashtags per account in 7 days) used up. */
export const isHashtagLimit = (e: GraphError) =>
  e.subcode === 2207034 || e.code === 24 || (/\bhashtag/i.test(e.message) && /\b(limit|maximum)\b/i.test(e.message));

/**
 * The error a Graph API error answer means. Code 190 is the access token
 * (subcode 463 expired; 458 app removed and 460 password changed: revoked;
 * anything else: invalid); 10 and 200–299 a missing permission; 4, 17, 32,
 * 613 and 80001–80014 a rate limit; anything else an upstream error with
 * the network's own message.
 */
export function graphFailure(
  network: string,
  status: number,
  error: GraphError | null,
  secret: string | undefined,
  retryAfterMs: number | null,
): Error {
  const detail = error ? said(error.message || error.userMessage, [secret]) : '';
  const codes =
    error?.code !== null && error?.code !== undefined
      ? ` (code ${error.code}${error.subcode ? `/${error.subcode}` : ''})`
      : '';
  const reconnect = `reconnect the ${network} connection`;
  if (error?.code === 190 || error?.code === 102) {
    if (error.subcode === 463)
      return new CredentialError('expired', `${network} says the access token has expired: ${reconnect}`);
    if (error.subcode === 458 || error.subcode === 460)
      return new CredentialError(
        'revoked',
        `${network} says the access was taken back (${error.subcode === 458 ? 'the app was removed' : 'the password was changed'}): ${reconnect}`,
      );
    return new CredentialError('invalid', `${network} does not accept the access token${codes}: ${reconnect}`);
  }
  if (error && isPermissionCode(error.code))
    return new CredentialError(
      'permission',
      `${network} refused a permission this feed needs${detail ? ` (${detail})` : ''}${codes}: reconnect granting it`,
    );
  if (error && isRateLimitCode(error.code))
    return new UpstreamError(
      status === 429 ? 429 : status,
      `${network} rate limit reached${codes}: polls wait until access is regained`,
      retryAfterMs,
    );
  if (error && isHashtagLimit(error))
    return new UpstreamError(
      status,
      `${network} allows an account 30 different hashtags in 7 days and this one has used them${codes}: the feed tries again later (a hashtag searched in the last 7 days does not count again)`,
    );
  return new UpstreamError(
    status,
    `HTTP ${status} from ${network}${detail ? ` (${detail})` : ''}${codes}`,
    retryAfterMs,
  );
}

// ---------- usage headers ----------

export interface Usage {
  /** the highest percentage of any allowance (calls, CPU time, total time) */
  percent: number;
  /** minutes until a throttled app, page or account may call again (0: not throttled) */
  regainMinutes: number;
}

function usageOf(v: unknown, into: Usage): void {
  if (!isObject(v)) return;
  for (const key of ['call_count', 'total_time', 'total_cputime', 'acc_id_util_pct']) {
    const n = Number(v[key]);
    if (Number.isFinite(n) && n > into.percent) into.percent = n;
  }
  const regain = Number(v.estimated_time_to_regain_access);
  if (Number.isFinite(regain) && regain > into.regainMinutes) into.regainMinutes = regain;
}

/** What the usage headers of a Graph API answer say (null: it has none). */
export function readUsage(headers: Readonly<Record<string, string>>): Usage | null {
  const usage: Usage = { percent: 0, regainMinutes: 0 };
  let found = false;
  const parse = (raw: string | undefined): unknown => {
    if (!raw) return undefined;
    try {
      found = true;
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  };
  usageOf(parse(headers['x-app-usage']), usage);
  usageOf(parse(headers['x-page-usage']), usage);
  const buc = parse(headers['x-business-use-case-usage']);
  if (isObject(buc))
    for (const list of Object.values(buc)) for (const v of Array.isArray(list) ? list : [list]) usageOf(v, usage);
  return found ? usage : null;
}

/**
 * How long the next poll waits for this usage (null: no need): until access
 * is regained when Meta says when; an hour (the window of the platform
 * limits) at 100 %; from 10 minutes at 80 % rising to an hour at 100 %.
 */
export function usageWaitMs(usage: Usage): number | null {
  if (usage.regainMinutes > 0) return usage.regainMinutes * 60_000;
  if (usage.percent >= 100) return 60 * 60_000;
  if (usage.percent >= SLOW_DOWN_PERCENT)
    return Math.round((10 + ((usage.percent - SLOW_DOWN_PERCENT) / (100 - SLOW_DOWN_PERCENT)) * 50) * 60_000);
  return null;
}

// ---------- the client ----------

/** A poll's conversation with one of Meta's Graph APIs, with the connection's token. */
export class GraphClient {
  /** usage is high: read no further pages this poll */
  throttled = false;
  private readonly token: string;

  constructor(
    private readonly input: PollInput,
    readonly network: string,
    credential: ConnectorCredential | null,
  ) {
    const c = requireCredential(credential, network);
    if (!c.accessToken)
      throw new CredentialError('invalid', `the ${network} connection has no access token: reconnect it`);
    this.token = c.accessToken;
  }

  /** GET a Graph API URL; an error answer throws what it means. */
  async get(url: string): Promise<HttpResult> {
    const res = await this.request(url);
    if (res.status >= 200 && res.status <= 299) return res;
    throw this.failure(res);
  }

  /** GET an object to see whether it still exists: 'missing' when Meta says it does not (error 100). */
  async exists(url: string): Promise<boolean> {
    const res = await this.request(url);
    if (res.status >= 200 && res.status <= 299) return true;
    const error = readGraphError(res);
    if (error && isMissingObject(error)) return false;
    throw this.failure(res);
  }

  private async request(url: string): Promise<HttpResult> {
    const res = await this.input.http.request(url, {
      headers: { authorization: `Bearer ${this.token}` },
      returnErrors: true,
    });
    const usage = readUsage(res.headers);
    const wait = usage ? usageWaitMs(usage) : null;
    if (wait !== null) {
      this.input.http.waitUntil(this.input.now + wait);
      this.throttled = true;
    }
    return res;
  }

  private failure(res: HttpResult): Error {
    const error = readGraphError(res);
    const retryAfter = res.headers['retry-after'];
    let retryAfterMs = /^\d+$/.test(retryAfter ?? '') ? Number(retryAfter) * 1000 : null;
    if (error && isRateLimitCode(error.code)) {
      const usage = readUsage(res.headers);
      const wait = Math.max(usage ? (usageWaitMs(usage) ?? 0) : 0, retryAfterMs ?? 0) || RATE_LIMITED_WAIT_MS;
      this.input.http.waitUntil(this.input.now + wait);
      retryAfterMs = wait;
    } else if (error && isHashtagLimit(error)) {
      this.input.http.waitUntil(this.input.now + 6 * 3_600_000);
    }
    if (!error && res.status === 200) return new UpstreamFormatError(`unexpected answer from ${whereFrom(res.url)}`);
    return graphFailure(this.network, res.status, error, this.token, retryAfterMs);
  }
}

/** `base/path?params` with each value encoded. */
export function graphUrl(base: string, path: string, params: Record<string, string | number | undefined>): string {
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`;
}

// ---------- pages (parse worker) ----------

/** What a listing page tells the poll: each item's id and time, and the cursor of the next page. */
export interface GraphPageMeta {
  items: { id: string; createdAt: number | null }[];
  /** `paging.cursors.after`, when a next page exists (`paging.next`) */
  after: string | null;
  /** ids of items the page shows only as a pointer (a Threads repost), to read one by one */
  pointers?: { id: string; target: string }[];
}

type Json = Record<string, unknown>;

/** The items of a `{"data":[…],"paging":{…}}` page. */
export function pageData(doc: UpstreamDocument): { data: Json[]; after: string | null } {
  const body = parseJson(doc);
  if (!isObject(body) || !Array.isArray(body.data))
    throw new UpstreamFormatError(`expected a list (data) from ${whereFrom(doc.url)}`);
  const paging = isObject(body.paging) ? body.paging : {};
  const cursors = isObject(paging.cursors) ? paging.cursors : {};
  const after =
    typeof paging.next === 'string' && typeof cursors.after === 'string' && cursors.after !== '' ? cursors.after : null;
  return { data: body.data.filter(isObject), after };
}

/** A listing page → its posts, and for paging and deletions each item's id and time. */
export function listingDocument(
  doc: UpstreamDocument,
  maxItems: number,
  toPost: (item: Json) => UpstreamPost | null,
  timeField: string,
  keep: (item: Json) => boolean = () => true,
): DocumentContent<GraphPageMeta> {
  const { data, after } = pageData(doc);
  const items = data
    .filter((item) => typeof item.id === 'string' && item.id !== '')
    .map((item) => ({ id: item.id as string, createdAt: parseInstant(item[timeField]) }));
  const { posts, skipped } = collectPosts(data.filter(keep).slice(0, maxItems), toPost);
  return { posts, skipped, meta: { items, after } };
}

// ---------- reading a listing (serving thread) ----------

export interface Listing {
  rows: IngestedPost[];
  skipped: number;
  warnings: string[];
  /** every item id the pages read showed */
  seen: Set<string>;
  /** the newest and the oldest item time read */
  newest: number | null;
  oldest: number | null;
  /** the last page was read: the listing holds everything there is */
  complete: boolean;
  pointers: { id: string; target: string }[];
}

/**
 * Reads a newest-first listing: the first page, then `after` pages until an
 * item at or before `stopAt` (what the last poll read), the end, `maxPages`,
 * `maxItems`, or high usage.
 */
export async function readListing(
  client: GraphClient,
  input: PollInput,
  firstUrl: string,
  document: string,
  stopAt: number | undefined,
  chronological = true,
): Promise<Listing> {
  const out: Listing = {
    rows: [],
    skipped: 0,
    warnings: [],
    seen: new Set(),
    newest: null,
    oldest: null,
    complete: false,
    pointers: [],
  };
  let url = firstUrl;
  for (let page = 0; page < input.maxPages && out.rows.length < input.maxItems; page++) {
    const res = await client.get(url);
    const got = await input.parse<GraphPageMeta>(res, document);
    out.rows.push(...got.rows);
    out.skipped += got.skipped;
    out.warnings.push(...got.warnings);
    out.pointers.push(...(got.meta.pointers ?? []));
    for (const item of got.meta.items) {
      out.seen.add(item.id);
      const t = item.createdAt;
      if (t === null) continue;
      if (out.newest === null || t > out.newest) out.newest = t;
      if (out.oldest === null || t < out.oldest) out.oldest = t;
    }
    if (got.meta.after === null) {
      out.complete = true;
      break;
    }
    if (!chronological || client.throttled) break;
    if (stopAt !== undefined && got.meta.items.some((i) => i.createdAt !== null && i.createdAt <= stopAt)) break;
    url = `${firstUrl}&after=${encodeURIComponent(got.meta.after)}`;
  }
  out.rows = out.rows.slice(0, input.maxItems);
  return out;
}

/**
 * The stored posts a newest-first listing shows are gone: those it should
 * hold — posted after the oldest item read, or any when the whole listing
 * was read (any since `horizon` for a listing that only reaches back so far,
 * as a hashtag's recent media: 24 hours) — and does not.
 */
export async function deletedFromWindow(input: PollInput, listing: Listing, horizon?: number): Promise<string[]> {
  if (!listing.complete && listing.oldest === null) return [];
  const from = listing.complete ? (horizon ?? -Infinity) : listing.oldest!;
  const stored = await input.storedIds(DELETION_WINDOW);
  return stored.filter((s) => !listing.seen.has(s.externalId) && s.createdAt > from).map((s) => s.externalId);
}

/** The newest time a poll has read, kept in the cursor. */
export function newestOf(previous: number | undefined, listing: Listing): number | undefined {
  if (listing.newest === null) return previous;
  return previous === undefined ? listing.newest : Math.max(previous, listing.newest);
}
