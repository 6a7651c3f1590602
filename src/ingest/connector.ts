// The one small interface every connector implements:
//
//   poll({ settings, cursor, http, parse, … }) → { rows, cursor, notModified }
//
// A connector reads its network through `http` (a per-poll view of the
// SSRF-guarded fetcher that adds conditional GET validators to the request
// it marks `conditional`, and collects caching hints — Retry-After,
// Cache-Control max-age, X-RateLimit-* — from every response) and hands
// every response body to `parse`, which runs one of the connector's
// `documents` parsers in a parse worker thread (parse-pool.ts): decoding,
// JSON/XML parsing, mapping and sanitizing never run on the serving thread.
// The parser returns posts plus whatever the poll needs to go on (ids,
// cursors); the worker normalizes the posts into stored rows. A connector
// never touches the store: the runtime fetches first, then writes in short
// transactions.
import type { IngestedPost } from '../store/ingest.js';
import type { ConnectorSettings } from '../schemas/connectors.js';
import { FetchError } from '../net/errors.js';
import type { Fetcher, FetchResponse } from '../net/fetcher.js';
import { decodeBody } from './charset.js';
import type { CredentialProblem } from '../domain/connections.js';
import { parseMaxAge, parseRateLimitReset, parseRetryAfter } from './scheduler.js';
import { whereFrom } from './url-parts.js';

export interface UpstreamMedia {
  kind: 'image' | 'video';
  /** the image, or the video (a file, stream or player URL) */
  url: string;
  /** preview image: the thumbnail of an image, the poster of a video ('' if none) */
  thumb: string;
  /** full-size original when the network serves it apart from `url` */
  original?: string;
  /** its text alternative (alt text) as the author wrote it; '' or absent when there is none */
  alt?: string;
}

/** One upstream post, normalized. `content` is already safe HTML (see normalize.ts). */
export interface UpstreamPost {
  externalId: string;
  content: string;
  authorName: string;
  username: string;
  userPicture: string;
  /** permalink of the post upstream */
  linkUrl: string;
  createdAt: number | null;
  /** last upstream edit, when the network says */
  updatedAt: number | null;
  media: UpstreamMedia[];
  tags: string[];
  location?: string;
  /** flagged sensitive upstream (content warning, NSFW, moderation labels): arrives hidden */
  sensitive: boolean;
  /** it arrived as a boost/repost (stored unwrapped: the boosted post); for the `repost` moderation rule */
  repost?: boolean;
  /** it answers another post upstream; for the `reply` moderation rule */
  reply?: boolean;
  /** upstream flags the author a bot (Mastodon `bot`, Lemmy `bot_account`); for the `account` moderation rule */
  authorBot?: boolean;
  /** when the author's account was made (epoch ms), where the network says; for the `account` moderation rule */
  authorCreatedAt?: number | null;
  score?: number | null;
  rating?: number | null;
}

/** Conditional GET validators of the one request a connector marks `conditional`. */
export interface Validators {
  url: string;
  etag: string | null;
  lastModified: string | null;
}

export interface ConnectorEnv {
  bluesky: { identifier: string; appPassword: string } | null;
  /** per-runtime memory (e.g. Bluesky sessions), never stored */
  memory: Map<string, unknown>;
}

/**
 * The operator's credentials for a network, from the connection the feed
 * names (`connector.connectionId`), opened from the secret box for this poll
 * only. A connector sends them to its network and nowhere else, and never
 * puts them in a post, a warning, an error message or a log line.
 */
export interface ConnectorCredential {
  connectionId: number;
  /** the connection's network (`instagram`, `x`, …) */
  network: string;
  /** OAuth access token, bearer token or personal access token */
  accessToken?: string;
  /** API key (Flickr, YouTube Data API key, Tumblr consumer key) */
  apiKey?: string;
  apiSecret?: string;
  /** the network account the connection signed in as (e.g. the Instagram business account id) */
  accountId?: string;
  /** its user name, for display */
  accountName?: string;
  /** a federated network's server (Pixelfed, Misskey, PeerTube, Mastodon-API servers) */
  instance?: string;
}

/**
 * Thrown by a connector when its network says the credentials no longer work:
 * expired (`expired`), the user took the app's access back (`revoked`), a
 * permission the feed needs is missing (`permission`), or the token/key is
 * not valid (`invalid`). The runtime records the feed as failing with this
 * message and sets the connection's status, which fires `connection.failed`.
 * The message says what happened and what to do; it never contains a secret.
 */
export class CredentialError extends Error {
  override name = 'CredentialError';
  constructor(
    readonly problem: CredentialProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface PollInput<S extends ConnectorSettings = ConnectorSettings> {
  settings: S;
  /** what this connector returned as `cursor` last time (null at first, or after a reset) */
  cursor: unknown;
  http: PollHttp;
  /** runs `documents[document]` on a response in a parse worker */
  parse: ParseFn;
  env: ConnectorEnv;
  /** the feed's connection's credentials; null when the feed names no connection */
  credential: ConnectorCredential | null;
  /**
   * The upstream ids of this feed's stored posts, newest first (at most
   * `limit`), with when they were posted: to re-check them and report the
   * ones the network deleted in `deleted`.
   */
  storedIds: (limit: number) => Promise<{ externalId: string; createdAt: number }[]>;
  now: number;
  /** most pages one poll may read (catching up after a long pause) */
  maxPages: number;
  /** most posts one poll may keep (INGEST_MAX_ITEMS): paging stops there, the newest are kept */
  maxItems: number;
}

export interface PollOutput {
  /** the posts, normalized into stored rows (newest first where the network pages newest first) */
  rows: IngestedPost[];
  cursor: unknown;
  /** the upstream answered 304: nothing changed */
  notModified: boolean;
  /** upstream items that could not be read and were left out */
  skipped: number;
  /** what was read but not as it should be (e.g. unreadable dates): shown in the feed's ingestion status */
  warnings?: string[];
  /** upstream ids of posts left out because their authors asked not to be shown publicly (stored copies go too) */
  withheld?: string[];
  /** upstream ids the network says no longer exist (deleted by their author, or removed): stored copies go */
  deleted?: string[];
}

// ---------- documents: what the parse workers run ----------

/** An upstream response as a document parser sees it: the body decoded to text. */
export interface UpstreamDocument {
  /** the final URL after redirects */
  url: string;
  status: number;
  headers: Record<string, string>;
  text: string;
}

export interface ParseLimits {
  /** most posts to return (the newest) */
  maxItems: number;
}

/** What a document parser makes of one response. */
export interface DocumentContent<M = unknown> {
  posts: UpstreamPost[];
  /** items that could not be read and were left out */
  skipped: number;
  /** what was read but not as it should be (e.g. unreadable dates) */
  warnings?: string[];
  /** upstream ids of posts whose authors asked not to be shown publicly: left out */
  withheld?: string[];
  /** what the poll needs from the document to go on: ids for paging, a cursor, a token (structured-cloneable) */
  meta: M;
}

/** Body → posts. Runs in a parse worker: pure, no I/O, may be CPU-heavy; throws UpstreamFormatError on a bad body. */
export type DocumentParser<S extends ConnectorSettings = ConnectorSettings, M = unknown> = (
  doc: UpstreamDocument,
  settings: S,
  limits: ParseLimits,
) => DocumentContent<M>;

/** A parsed response as the poll gets it back from the worker: its posts as stored rows. */
export interface ParsedPage<M = unknown> {
  rows: IngestedPost[];
  skipped: number;
  warnings: string[];
  withheld: string[];
  meta: M;
}

export type ParseFn = <M = unknown>(res: HttpResult, document: string) => Promise<ParsedPage<M>>;

/** The `meta` type a document parser returns. */
export type MetaOf<P> = P extends (...args: never[]) => DocumentContent<infer M> ? M : never;

export interface Connector<S extends ConnectorSettings = ConnectorSettings> {
  kind: S['kind'];
  /** `networkName` of its posts and `source` of its feeds */
  network: string;
  /** `sourceType` of its feeds: what on the network the feed follows */
  sourceType(settings: S): string;
  /** the network conversation (serving thread): requests, paging, cursor; bodies go to `parse` */
  poll(input: PollInput<S>): Promise<PollOutput>;
  /** the parsers of the responses `poll` reads, by name (parse worker) */
  documents: Record<string, DocumentParser<S>>;
}

// ---------- errors ----------

/** The upstream answered with an error status. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** The upstream answered, but not in the format it should (HTML instead of JSON, malformed XML, …). */
export class UpstreamFormatError extends Error {
  override name = 'UpstreamFormatError';
}

/** The feed's setting cannot be polled as it is (missing credentials, …). */
export class ConnectorSetupError extends Error {
  override name = 'ConnectorSetupError';
}

// ---------- the per-poll HTTP view ----------

export interface HttpOptions {
  accept?: string;
  headers?: Record<string, string>;
  /** send the stored validators if they belong to this URL, and keep the new ones */
  conditional?: boolean;
  method?: 'GET' | 'POST';
  /** JSON body (POST) */
  json?: unknown;
  /**
   * Error answers given back instead of thrown, for a connector that reads its
   * network's own error body (an expired token, a missing permission, the
   * reason of a 403): every error with `true`, else the statuses listed.
   * Their rate-limit hints (Retry-After, X-RateLimit-*) count all the same.
   */
  returnErrors?: true | readonly number[];
}

export interface HttpResult extends FetchResponse {
  notModified: boolean;
}

export const ACCEPT_JSON = 'application/json';
export const ACCEPT_FEED =
  'application/atom+xml, application/rss+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.1';

export class PollHttp {
  /** validators to store after the poll (kept when the conditional request was not made) */
  validators: Validators | null;
  /** the earliest instant the upstream wants to be asked again, from its hints */
  notBefore: number | null = null;
  requests = 0;

  constructor(
    private readonly fetcher: Fetcher,
    previous: Validators | null,
    private readonly signal: AbortSignal | undefined,
    private readonly now: () => number,
  ) {
    this.validators = previous;
  }

  /**
   * The next poll waits until `until` at least: for a network's own rate-limit
   * signals that the generic headers below do not cover (Meta's
   * `X-App-Usage` near 100 %, a quota header), read by its connector.
   */
  waitUntil(until: number): void {
    if (this.notBefore === null || until > this.notBefore) this.notBefore = until;
  }

  async request(url: string, options: HttpOptions = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { accept: options.accept ?? ACCEPT_JSON, ...(options.headers ?? {}) };
    const previous = options.conditional && this.validators?.url === url ? this.validators : null;
    if (previous?.etag) headers['if-none-match'] = previous.etag;
    if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    this.requests++;
    const res = await this.fetcher.fetch({ url, method: options.method ?? 'GET', headers, body, signal: this.signal });
    const now = this.now();
    const host = whereFrom(res.url);

    const rateLimitReset = parseRateLimitReset(res.headers, now);
    if (rateLimitReset !== null && rateLimitReset > now) {
      this.waitUntil(rateLimitReset);
      this.fetcher.limiter.pause(host, rateLimitReset);
    }
    let retryAfterMs: number | null = null;
    if (res.status === 429 || res.status === 503) {
      retryAfterMs = parseRetryAfter(res.headers['retry-after'], now) ?? (res.status === 429 ? 60_000 : null);
      if (retryAfterMs !== null) {
        this.waitUntil(now + retryAfterMs);
        if (res.status === 429) this.fetcher.limiter.pause(host, now + retryAfterMs);
      }
    }
    if (options.conditional && (res.status === 200 || res.status === 304)) {
      const maxAge = parseMaxAge(res.headers['cache-control']);
      if (maxAge !== null) this.waitUntil(now + maxAge);
    }
    if (res.status === 304 && previous) return { ...res, notModified: true };
    if (res.status < 200 || res.status > 299) {
      const { returnErrors } = options;
      if (returnErrors === true || returnErrors?.includes(res.status)) return { ...res, notModified: false };
      throw new UpstreamError(res.status, describeFailure(res), retryAfterMs);
    }
    if (options.conditional) {
      const etag = res.headers.etag ?? null;
      const lastModified = res.headers['last-modified'] ?? null;
      this.validators = etag || lastModified ? { url, etag, lastModified } : null;
    }
    return { ...res, notModified: false };
  }
}

/** Error answers are read on the serving thread; what matters is at their start. */
const ERROR_BODY_BYTES = 64 * 1024;

/** A short, safe description of an error answer (never the HTML of an error page). */
export function describeFailure(res: FetchResponse): string {
  const where = whereFrom(res.url);
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
  const body = decodeBody(res.bytes.subarray(0, ERROR_BODY_BYTES), res.headers['content-type']);
  let detail = '';
  if (/json/i.test(type) || /^\s*[{[]/.test(body)) {
    try {
      const data = JSON.parse(body) as Record<string, unknown>;
      // `{"error": {"code", "message"}}` (Misskey, Graph-style APIs): its code and message; RFC 7807's `detail` (PeerTube)
      const nested = isObject(data.error) ? data.error : {};
      const parts = [data.error, nested.code, nested.message, data.message, data.error_description, data.detail].filter(
        (v) => typeof v === 'string' && v !== '',
      ) as string[];
      detail = [...new Set(parts)].join(': ');
    } catch {
      detail = '';
    }
  } else if (/html/i.test(type) || /^\s*<(!doctype|html)/i.test(body)) {
    detail = 'an HTML error page';
  }
  detail = detail.replace(/[^\x20-\x7e\u00a0-\uffff]/g, ' ').slice(0, 200);
  return `HTTP ${res.status} from ${where}${detail ? ` (${detail})` : ''}`;
}

/** The body as JSON, or an UpstreamFormatError that says what came instead. */
export function parseJson(res: UpstreamDocument): unknown {
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
  const text = res.text.replace(/^\uFEFF/, '');
  if (/^\s*</.test(text)) {
    throw new UpstreamFormatError(
      `expected JSON from ${whereFrom(res.url)}, got ${type || 'markup'}${/html/i.test(type + text.slice(0, 100)) ? ' (an HTML page)' : ''}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamFormatError(`malformed JSON from ${whereFrom(res.url)}`);
  }
}

/** What a connector's mapping returns for a post its author asked not to be shown publicly. */
export interface Withheld {
  withheld: string;
}

export const isWithheld = (v: UpstreamPost | Withheld | null): v is Withheld => v !== null && 'withheld' in v;

/**
 * Upstream items → posts. An item `toPost` cannot read (null, or a throw) is
 * counted as skipped, never fatal; one it withholds is listed by its upstream
 * id; a post whose externalId came before is left out.
 */
export function collectPosts<I>(
  items: readonly I[],
  toPost: (item: I) => UpstreamPost | Withheld | null,
): { posts: UpstreamPost[]; skipped: number; withheld: string[] } {
  const posts: UpstreamPost[] = [];
  const withheld: string[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const item of items) {
    try {
      const post = toPost(item);
      if (!post) {
        skipped++;
        continue;
      }
      if (isWithheld(post)) {
        withheld.push(post.withheld);
        continue;
      }
      if (seen.has(post.externalId)) continue;
      seen.add(post.externalId);
      posts.push(post);
    } catch {
      skipped++;
    }
  }
  return { posts, skipped, withheld };
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

export { FetchError };

/** The feed's credential, or a setup error naming what the feed needs. */
export function requireCredential(credential: ConnectorCredential | null, network: string): ConnectorCredential {
  if (!credential) throw new ConnectorSetupError(`this feed needs a ${network} connection (connector.connectionId)`);
  return credential;
}
