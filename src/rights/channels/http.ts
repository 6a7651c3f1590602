// The one way a rights channel calls its network: JSON in and out through
// the guarded fetcher, a refusal of the credentials told apart (the
// connection is marked), any other failure said in words with what the
// network answered — never the token (the error body read and its words
// made safe as the connectors do: src/ingest/upstream-errors.ts).
import { FetchError } from '../../net/errors.js';
import { hostOf } from '../../ingest/url-parts.js';
import { errorJson, said } from '../../ingest/upstream-errors.js';
import { ChannelError, type ChannelContext } from './channel.js';

export interface JsonCall {
  url: string;
  method?: 'GET' | 'POST';
  /** sent as JSON */
  body?: unknown;
  /** sent as application/x-www-form-urlencoded (Reddit), in place of `body` */
  form?: Readonly<Record<string, string>>;
  headers?: Record<string, string>;
  /** what the call is, for messages: "posting the request on social.example" */
  what: string;
  /** statuses answered as null instead of thrown (a 404 for a deleted reply) */
  nullOn?: readonly number[];
  /** an error answer that says the thing is gone (a Graph API "does not exist" comes as a 400): answered as null */
  gone?: (status: number, json: unknown) => boolean;
  /**
   * Whether an error answer refuses the connection's credentials (the
   * connection is marked) rather than this one call (a post that takes no
   * replies, a duplicate). Default: a 401 or 403.
   */
  refusesCredentials?: (status: number, json: unknown) => boolean;
}

/** What a network's JSON error body says: Mastodon `error`, atproto `message`/`error`, others' `error.message`, X's `detail`/`title`. */
function errorText(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const o = json as Record<string, unknown>;
  const nested = typeof o.error === 'object' && o.error !== null ? (o.error as Record<string, unknown>).message : null;
  const text = [o.message, o.error_description, nested, o.detail, o.title, o.error].find(
    (v) => typeof v === 'string' && v !== '',
  );
  // cut to length only once the secrets are out (wordsOf): a cut could leave half of one
  return typeof text === 'string' ? text : null;
}

/** What the network said, fit for a message: never the connection's secrets (a network may echo what it was sent). */
const wordsOf = (json: unknown, ctx: ChannelContext) =>
  said(errorText(json), [ctx.credential.accessToken, ctx.credential.apiKey, ctx.credential.apiSecret], 300);

/** A success answer's JSON, or null when it is not JSON. */
function parsed(bytes: Buffer): unknown {
  try {
    return bytes.length > 0 ? (JSON.parse(bytes.toString('utf8')) as unknown) : null;
  } catch {
    return null;
  }
}

/** A machine-readable error code (atproto's `error`: `ExpiredToken`, `NotFound`), when the body has one. */
function errorCode(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const code = (json as Record<string, unknown>).error;
  return typeof code === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(code) ? code : null;
}

export async function callJson<T = unknown>(ctx: ChannelContext, call: JsonCall): Promise<T | null> {
  const body =
    call.form !== undefined
      ? { type: 'application/x-www-form-urlencoded', text: new URLSearchParams({ ...call.form }).toString() }
      : call.body !== undefined
        ? { type: 'application/json', text: JSON.stringify(call.body) }
        : null;
  let res;
  try {
    res = await ctx.fetcher.fetch({
      url: call.url,
      method: call.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(body ? { 'content-type': body.type } : {}),
        ...(call.headers ?? {}),
      },
      ...(body ? { body: body.text } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  } catch (err) {
    const why = err instanceof FetchError ? err.message : 'the request failed';
    throw new ChannelError(`${call.what}: ${hostOf(call.url)} could not be reached (${why})`);
  }
  if (call.nullOn?.includes(res.status)) return null;
  const json: unknown = res.status >= 400 ? errorJson(res) : parsed(res.bytes);
  if (res.status >= 400 && call.gone?.(res.status, json)) return null;
  const refused = call.refusesCredentials ?? ((status: number) => status === 401 || status === 403);
  if (res.status >= 400 && refused(res.status, json)) {
    const words = wordsOf(json, ctx);
    throw new ChannelError(
      `${call.what}: ${hostOf(call.url)} refused the connection's credentials (${res.status}${words ? `: ${words}` : ''})`,
      true,
      errorCode(json),
    );
  }
  if (res.status >= 400) {
    const words = wordsOf(json, ctx);
    throw new ChannelError(
      `${call.what}: ${hostOf(call.url)} answered ${res.status}${words ? `: ${words}` : ''}`,
      false,
      errorCode(json),
    );
  }
  if (json === null) throw new ChannelError(`${call.what}: ${hostOf(call.url)} did not answer JSON`);
  return json as T;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
