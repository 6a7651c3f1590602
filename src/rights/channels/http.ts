// The one way a rights channel calls its network: JSON in and out through
// the guarded fetcher, a refusal of the credentials told apart (the
// connection is marked), any other failure said in words with what the
// network answered — never the token.
import { FetchError } from '../../net/errors.js';
import { hostOf } from '../../ingest/url-parts.js';
import { ChannelError, type ChannelContext } from './channel.js';

export interface JsonCall {
  url: string;
  method?: 'GET' | 'POST';
  /** sent as JSON */
  body?: unknown;
  headers?: Record<string, string>;
  /** what the call is, for messages: "posting the request on social.example" */
  what: string;
  /** statuses answered as null instead of thrown (a 404 for a deleted reply) */
  nullOn?: readonly number[];
}

/** What a network's JSON error body says: Mastodon `error`, atproto `message`/`error`, others' `error.message`. */
function errorText(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const o = json as Record<string, unknown>;
  const nested = typeof o.error === 'object' && o.error !== null ? (o.error as Record<string, unknown>).message : null;
  const text = [o.message, o.error_description, nested, o.error].find((v) => typeof v === 'string' && v !== '');
  return typeof text === 'string' ? text.slice(0, 300) : null;
}

/** A machine-readable error code (atproto's `error`: `ExpiredToken`, `NotFound`), when the body has one. */
function errorCode(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const code = (json as Record<string, unknown>).error;
  return typeof code === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(code) ? code : null;
}

export async function callJson<T = unknown>(ctx: ChannelContext, call: JsonCall): Promise<T | null> {
  let res;
  try {
    res = await ctx.fetcher.fetch({
      url: call.url,
      method: call.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(call.headers ?? {}),
      },
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  } catch (err) {
    const why = err instanceof FetchError ? err.message : 'the request failed';
    throw new ChannelError(`${call.what}: ${hostOf(call.url)} could not be reached (${why})`);
  }
  let json: unknown = null;
  try {
    json = res.bytes.length > 0 ? JSON.parse(res.bytes.toString('utf8')) : null;
  } catch {
    json = null;
  }
  if (call.nullOn?.includes(res.status)) return null;
  if (res.status === 401 || res.status === 403) {
    const said = errorText(json);
    throw new ChannelError(
      `${call.what}: ${hostOf(call.url)} refused the connection's credentials (${res.status}${said ? `: ${said}` : ''})`,
      true,
      errorCode(json),
    );
  }
  if (res.status >= 400) {
    const said = errorText(json);
    throw new ChannelError(
      `${call.what}: ${hostOf(call.url)} answered ${res.status}${said ? `: ${said}` : ''}`,
      false,
      errorCode(json),
    );
  }
  if (json === null) throw new ChannelError(`${call.what}: ${hostOf(call.url)} did not answer JSON`);
  return json as T;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
