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
  return typeof text === 'string' ? text.slice(0, 300) : null;
}

/** A network's words with the connection's secrets taken out (a network may echo what it was sent). */
function scrubbed(text: string | null, ctx: ChannelContext): string | null {
  if (text === null) return null;
  let out = text;
  for (const secret of [ctx.credential.accessToken, ctx.credential.apiKey, ctx.credential.apiSecret])
    if (secret) out = out.split(secret).join('…');
  return out;
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
  let json: unknown = null;
  try {
    json = res.bytes.length > 0 ? JSON.parse(res.bytes.toString('utf8')) : null;
  } catch {
    json = null;
  }
  if (call.nullOn?.includes(res.status)) return null;
  if (res.status >= 400 && call.gone?.(res.status, json)) return null;
  const refused = call.refusesCredentials ?? ((status: number) => status === 401 || status === 403);
  if (res.status >= 400 && refused(res.status, json)) {
    const said = scrubbed(errorText(json), ctx);
    throw new ChannelError(
      `${call.what}: ${hostOf(call.url)} refused the connection's credentials (${res.status}${said ? `: ${said}` : ''})`,
      true,
      errorCode(json),
    );
  }
  if (res.status >= 400) {
    const said = scrubbed(errorText(json), ctx);
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
