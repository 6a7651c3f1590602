// What the xsocial connectors (X, Reddit, Tumblr, Flickr) share when a
// network answers with an error of its own: its JSON error body, read on the
// serving thread (a few bytes: error bodies are small), and error messages
// kept clear of the key a URL carries (Flickr and Tumblr take theirs in the
// query string).
import { decodeBody } from './charset.js';
import type { FetchResponse } from '../net/fetcher.js';
import { UpstreamError, describeFailure, isObject } from './connector.js';

const ERROR_BODY_BYTES = 64 * 1024;

/** An error answer's JSON object, or null when it has none. */
export function errorJson(res: FetchResponse): Record<string, unknown> | null {
  try {
    const data = JSON.parse(
      decodeBody(res.bytes.subarray(0, ERROR_BODY_BYTES), res.headers['content-type']).replace(/^\uFEFF/, ''),
    ) as unknown;
    return isObject(data) ? data : null;
  } catch {
    return null;
  }
}

/** A network's own words (printable, short) for a message. */
export function said(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[^\x20-\x7e\u00a0-\uffff]/g, ' ').slice(0, 200) : '';
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
