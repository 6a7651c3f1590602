// Fetching a resource safely (SSRF guard) and politely: feeds today, media
// to come.
//
// - Every hop through the guard of guard.ts: http(s) only, addresses checked
//   before the request (IP literals) and at connect time (names), including
//   each redirect hop (followed here, by hand, so that each hop is checked;
//   at most 5).
// - The body is capped in bytes (after decompression) and the whole request
//   in time; both end the request early.
// - Per-host concurrency and pauses come from the HostLimiter.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { request } from 'undici';
import { FetchError, SsrfError } from './errors.js';
import { checkUrl, guardedAgent, type GuardOptions } from './guard.js';
import { HostLimiter } from './host-limiter.js';

export interface FetcherOptions extends GuardOptions {
  maxBytes: number;
  hostConcurrency: number;
  maxRedirects?: number;
  /** default: Wallery's feed-ingestion agent (USER_AGENT) */
  userAgent?: string;
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
   * caller decodes it (ingestion in its parse workers, see ingest/parse-pool.ts),
   * and a body never passes through the serving thread as text.
   */
  bytes: Buffer;
}

export interface Fetcher {
  fetch(req: FetchRequest): Promise<FetchResponse>;
  readonly limiter: HostLimiter;
  close(): Promise<void>;
}

export const USER_AGENT = 'Wallery/0.1 (self-hosted social wall; feed ingestion)';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// ---------- the body ----------

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
      body.on('error', () => undefined).destroy();
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
  const maxRedirects = options.maxRedirects ?? 5;
  const limiter = new HostLimiter(options.hostConcurrency, options.now);
  const agent = guardedAgent(options);

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
        // undici's body reports its own destruction as an 'error' (an AbortError): heard here, or it
        // would be an uncaught exception
        res.body.on('error', () => undefined).destroy();
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
