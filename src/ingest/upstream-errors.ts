// How a network's error answer is read, the one way for the connectors (X,
// Reddit, Tumblr, Flickr, Meta's Graph APIs) and the rights channels
// (src/rights/channels/http.ts): its JSON error body, read on the serving
// thread (a bounded prefix: error bodies are small), the network's words made
// fit for a status or a message (one line, short, printable, never a secret),
// and error messages kept clear of the key a URL carries (Flickr and Tumblr
// take theirs in the query string).
import { decodeBody } from './charset.js';
import type { FetchResponse } from '../net/fetcher.js';
import { UpstreamError, describeFailure, isObject } from './connector.js';

const ERROR_BODY_BYTES = 64 * 1024;

/** An error answer's JSON object, or null when it has none. */
export function errorJson(res: Pick<FetchResponse, 'bytes' | 'headers'>): Record<string, unknown> | null {
  try {
    const data = JSON.parse(
      decodeBody(res.bytes.subarray(0, ERROR_BODY_BYTES), res.headers['content-type']).replace(/^\uFEFF/, ''),
    ) as unknown;
    return isObject(data) ? data : null;
  } catch {
    return null;
  }
}

/**
 * A network's own words fit for a status or a message: one line, printable,
 * at most `max` characters, and never one of `secrets` nor an
 * `access_token=` a quoted URL carries (a network may echo what it was sent).
 * Not a string: ''.
 */
export function said(value: unknown, secrets: readonly (string | null | undefined)[] = [], max = 200): string {
  if (typeof value !== 'string') return '';
  let out = value;
  for (const secret of secrets) if (secret) out = out.split(secret).join('…');
  return out
    .replace(/access_token=[^&\s]+/gi, 'access_token=…')
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, ' ')
    .slice(0, max);
}

/** The UpstreamError an error answer makes by default (as PollHttp would have thrown it). */
export function upstreamError(res: FetchResponse, detail = ''): UpstreamError {
  const base = describeFailure(res);
  return new UpstreamError(res.status, detail ? `${base.replace(/ \(.*\)$/, '')} (${detail})` : base);
}

/**
 * Runs `fn`; an error it throws leaves without `secret` in its message (a
 * fetch error may quote the URL, and a URL may carry an API key).
 */
export async function withoutSecret<T>(secret: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (secret && err instanceof Error && err.message.includes(secret)) {
      err.message = err.message.split(secret).join('…');
    }
    throw err;
  }
}
