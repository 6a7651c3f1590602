// Fetching upstream content safely (SSRF guard) and politely.
//
// - http and https only, on every redirect hop (followed here, by hand, so
//   that each hop is checked; at most 5).
// - Every address a host name resolves to is checked where the connection is
//   made (undici's `connect.lookup`), so DNS rebinding between a check and the
//   connect cannot slip through; IP literals, which skip the lookup, are
//   checked before the request. Loopback, private, link-local, CGNAT,
//   multicast, unspecified and every other non-global range is refused unless
//   the operator allows it (all, or a list of CIDR ranges); IPv6 forms that
//   carry an IPv4 address are judged by it (address-policy.ts).
// - The body is capped in bytes (after decompression) and the whole request
//   in time; both end the request early.
// - Per-host concurrency and pauses come from the HostLimiter.
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isUtf8 } from 'node:buffer';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import * as chardet from 'chardet';
import { Agent, request } from 'undici';
import { addressRefusal } from './address-policy.js';
import { decodeBytes, encodingOfLabel, isUtf8Encoding } from './charset.js';
import type { PrivateNetworks } from '../config.js';
import { HostLimiter } from './scheduler.js';

export type ResolvedAddress = { address: string; family: number };
/** Host name → addresses (the default is the system resolver, like Node's own lookup). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetcherOptions {
  allowPrivateNetworks: PrivateNetworks;
  maxBytes: number;
  timeoutMs: number;
  hostConcurrency: number;
  maxRedirects?: number;
  userAgent?: string;
  /** tests inject a resolver that maps names to chosen addresses */
  resolve?: Resolver;
  now?: () => number;
}

export interface FetchRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FetchResponse {
  status: number;
  /** the final URL after redirects */
  url: string;
  /** lower-case names; repeated headers joined with ", " */
  headers: Record<string, string>;
  /**
   * The body as it came (decompressed, at most maxBytes), not decoded: the
   * parse workers decode it (see parse-pool.ts), and a body never passes
   * through the serving thread as text.
   */
  bytes: Buffer;
}

export type FetchErrorKind = 'refused' | 'scheme' | 'redirect' | 'timeout' | 'too_large' | 'network' | 'aborted';

export class FetchError extends Error {
  override name = 'FetchError';
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The SSRF guard refused an address or URL. */
export class SsrfError extends FetchError {
  override name = 'SsrfError';
  readonly code = 'ERR_INGEST_SSRF';
  constructor(message: string) {
    super('refused', message);
  }
}

export interface Fetcher {
  fetch(req: FetchRequest): Promise<FetchResponse>;
  readonly limiter: HostLimiter;
  close(): Promise<void>;
}

export const USER_AGENT = 'Wallery/0.1 (self-hosted social wall; feed ingestion)';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// ---------- the address policy (address-policy.ts) ----------

export { addressRefusal };

const systemResolve: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void;

/** A `net.connect` lookup that refuses a host if any address it resolves to is refused. */
export function guardedLookup(resolve: Resolver, allow: PrivateNetworks) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => {
    resolve(hostname).then(
      (found) => {
        const wanted =
          options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return callback(err);
        }
        for (const a of wanted) {
          const refused = addressRefusal(a.address, allow);
          if (refused !== null) {
            return callback(new SsrfError(`refused: ${hostname} resolves to ${a.address}, a ${refused} address`));
          }
        }
        if (options.all)
          return callback(
            null,
            wanted.map((a) => ({ address: a.address, family: a.family })),
          );
        return callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err),
    );
  };
}

/** Checks scheme and IP-literal hosts of one hop (names are checked at connect time). */
export function checkUrl(raw: string, allow: PrivateNetworks): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('scheme', `not a valid URL: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SsrfError(`refused: ${url.protocol} URLs are not fetched (http and https only)`);
  }
  if (url.username !== '' || url.password !== '') throw new SsrfError('refused: URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const refused = addressRefusal(host, allow);
    if (refused !== null) throw new SsrfError(`refused: ${host} is a ${refused} address`);
  }
  return url;
}

// ---------- body handling ----------

/** Bytes read to guess the encoding of a body that declares none and is not UTF-8. */
const DETECT_BYTES = 64 * 1024;

const XML_DECLARED = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i;
const HTTP_DECLARED = /charset\s*=\s*"?([\w.:-]+)"?/i;

/**
 * The encoding of a body, in this order: its byte order mark; what is
 * declared — the HTTP charset, then the XML declaration — the first that
 * names an encoding iconv-lite decodes (labels read as browsers read them,
 * charset.ts: `TIS-620` is windows-874), a UTF-8 one only if the bytes are
 * UTF-8 and a UTF-16 one never without a byte order mark; then, for bytes
 * that declare nothing usable, UTF-8 if they are valid UTF-8, else what
 * chardet detects (windows-1252 if it cannot tell). Declared encodings come
 * before any guess: chardet cannot name many legacy ones (TIS-620 among
 * them) and would make mojibake of them. One exception: an XML declaration
 * of UTF-8 that the bytes are beats an HTTP charset of another encoding
 * (a server's default charset, not what the file was written in).
 */
export function bodyEncoding(buf: Buffer, contentType: string | undefined): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  const head = buf.subarray(0, 1024).toString('latin1');
  const http = encodingOfLabel(HTTP_DECLARED.exec(contentType ?? '')?.[1]);
  const xml = encodingOfLabel(XML_DECLARED.exec(head)?.[1]);
  const utf8 = isUtf8(buf);
  if (isUtf8Encoding(xml) && utf8) return 'utf-8';
  for (const declared of [http, xml]) {
    if (declared === null || declared.startsWith('utf-16') || (isUtf8Encoding(declared) && !utf8)) continue;
    return declared;
  }
  if (utf8) return 'utf-8';
  const guess = chardet.detect(buf.subarray(0, DETECT_BYTES));
  return encodingOfLabel(guess) ?? 'windows-1252';
}

/** A body → text, in the encoding bodyEncoding finds (decoded by iconv-lite; a byte order mark dropped). */
export function decodeBody(buf: Buffer, contentType: string | undefined): string {
  return decodeBytes(buf, bodyEncoding(buf, contentType));
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

async function readCapped(
  body: Readable,
  encoding: string | undefined,
  maxBytes: number,
  host: string,
  announced: number | null,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  const stages: NodeJS.ReadWriteStream[] = [];
  for (const enc of (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== 'identity')
    .reverse()) {
    if (enc === 'gzip' || enc === 'x-gzip') stages.push(createGunzip());
    else if (enc === 'deflate') stages.push(createInflate());
    else if (enc === 'br') stages.push(createBrotliDecompress());
    else {
      body.destroy();
      throw new FetchError('network', `${host} sent an unsupported content encoding ${enc}`);
    }
  }
  // With its length announced (and nothing to decompress) the body goes
  // straight into one buffer of that size: no second copy of a large body.
  let whole =
    stages.length === 0 && announced !== null && announced > 0 && announced <= maxBytes
      ? Buffer.allocUnsafeSlow(announced)
      : null;
  let overflow: FetchError | null = null;
  const sink = async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes) {
        overflow = new FetchError('too_large', `${host} sent more than ${maxBytes} bytes`);
        throw overflow;
      }
      if (whole && total <= whole.length) chunk.copy(whole, total - chunk.length);
      else {
        if (whole) chunks.push(whole.subarray(0, total - chunk.length));
        whole = null;
        chunks.push(chunk);
      }
    }
  };
  try {
    await (pipeline as (...streams: unknown[]) => Promise<void>)(body, ...stages, sink);
  } catch (err) {
    // the pipeline may report the teardown (an AbortError) instead of the cause
    throw overflow ?? err;
  }
  if (whole) return total === whole.length ? whole : whole.subarray(0, total);
  return Buffer.concat(chunks, total);
}

// ---------- the fetcher ----------

export function createFetcher(options: FetcherOptions): Fetcher {
  const allow = options.allowPrivateNetworks;
  const resolve = options.resolve ?? systemResolve;
  const maxRedirects = options.maxRedirects ?? 5;
  const limiter = new HostLimiter(options.hostConcurrency, options.now);
  const agent = new Agent({
    connect: { lookup: guardedLookup(resolve, allow) as never, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
  });

  async function oneHop(
    url: URL,
    headers: Record<string, string>,
    method: string,
    body: string | undefined,
    signal: AbortSignal,
  ) {
    return limiter.schedule(url.host, async () => {
      const res = await request(url, { method: method as 'GET', headers, body, signal, dispatcher: agent });
      const resHeaders = flattenHeaders(res.headers);
      if (REDIRECTS.has(res.statusCode) && resHeaders.location) {
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        return { status: res.statusCode, headers: resHeaders, body: null as Buffer | null };
      }
      const declared = Number(resHeaders['content-length']);
      const announced = Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
      if (!resHeaders['content-encoding'] && announced !== null && announced > options.maxBytes) {
        res.body.destroy();
        throw new FetchError('too_large', `${url.host} announced ${declared} bytes, more than ${options.maxBytes}`);
      }
      const buf = await readCapped(res.body, resHeaders['content-encoding'], options.maxBytes, url.host, announced);
      return { status: res.statusCode, headers: resHeaders, body: buf };
    });
  }

  async function fetchGuarded(req: FetchRequest): Promise<FetchResponse> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    let url = checkUrl(req.url, allow);
    const origin = url.origin;
    let method = req.method ?? 'GET';
    let body = req.body;
    let headers: Record<string, string> = {
      'user-agent': options.userAgent ?? USER_AGENT,
      'accept-encoding': 'gzip, deflate, br',
      ...Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    };
    try {
      for (let hop = 0; ; hop++) {
        const res = await oneHop(url, headers, method, body, signal);
        if (res.body === null) {
          if (hop >= maxRedirects)
            throw new FetchError('redirect', `more than ${maxRedirects} redirects from ${req.url}`);
          const next = new URL(res.headers.location!, url).toString();
          url = checkUrl(next, allow);
          if (url.origin !== origin) {
            // credentials and validators belong to the first origin only
            const { authorization: _a, cookie: _c, 'if-none-match': _e, 'if-modified-since': _m, ...rest } = headers;
            headers = rest;
          }
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
            const { 'content-type': _t, ...rest } = headers;
            headers = rest;
          }
          continue;
        }
        return { status: res.status, url: url.toString(), headers: res.headers, bytes: res.body };
      }
    } catch (err) {
      throw classify(err, url, signal, timeout, options.timeoutMs);
    }
  }

  return {
    fetch: fetchGuarded,
    limiter,
    async close() {
      await limiter.close();
      await agent.close();
    },
  };
}

function classify(err: unknown, url: URL, signal: AbortSignal, timeout: AbortSignal, timeoutMs: number): Error {
  if (err instanceof FetchError || (err as Error)?.name === 'HostPausedError') return err as Error;
  // an SsrfError raised in the lookup may arrive as the cause of a connect error
  const cause = (err as { cause?: unknown })?.cause;
  if (cause instanceof SsrfError) return cause;
  const code = (err as { code?: string })?.code ?? '';
  if (
    timeout.aborted ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new FetchError('timeout', `${url.host} did not answer within ${timeoutMs} ms`, { cause: err });
  }
  if (signal.aborted) return new FetchError('aborted', `request to ${url.host} was cancelled`, { cause: err });
  const message = (err as Error)?.message ?? String(err);
  return new FetchError('network', `${url.host}: ${code ? `${code} ` : ''}${message}`.slice(0, 300), { cause: err });
}
