// Mastodon (and API-compatible servers): a hashtag timeline
// (`GET /api/v1/timelines/tag/:hashtag`) or an account's statuses
// (`GET /api/v1/accounts/lookup?acct=` once, then `/api/v1/accounts/:id/statuses`).
//
// Each poll reads the newest page (conditional GET; it also brings edits of
// recent statuses). When that page does not reach back to the cursor — more
// new statuses than a page holds — the gap is filled forward from the cursor
// with `min_id`, following the `Link: rel="prev"` pages, at most `maxPages`
// pages; the cursor then only moves as far as the gap was filled, so the next
// poll continues where this one stopped.
//
// With a connection (`connectionId`: an access token of an account on the
// instance) every request carries `Authorization: Bearer` — for servers that
// require sign-in (GoToSocial, instances with public timelines closed) —
// and a 401 is the token refused: the feed fails at once and the connection
// is marked (CredentialError). The token goes to the connection's instance only.
import parseLinkHeader from 'parse-link-header';
import type { Static } from 'typebox';
import type { IngestedPost } from '../store/ingest.js';
import {
  ConnectorSetupError,
  CredentialError,
  UpstreamError,
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type DocumentParser,
  type HttpOptions,
  type HttpResult,
  type MetaOf,
  type PollInput,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { MastodonConnector } from '../schemas/connectors.js';
import { sanitizeIngestedHtml, type CustomEmoji } from '../domain/sanitize.js';
import {
  cardHtml,
  contentWarningHtml,
  httpUrl,
  parseInstant,
  plainText,
  pollHtml,
  quoteHtml,
  shownMedia,
  str,
  type QuotedPost,
} from './normalize.js';
import { instanceToken } from './fedi.js';
import { hostOf } from './url-parts.js';

type MastodonSettings = Static<typeof MastodonConnector>;
type Json = Record<string, unknown>;

export const PAGE_LIMIT = 40;

interface MastodonCursor {
  /** every status up to this id has been read */
  sinceId?: string;
  /** account mode: the id `acct` resolved to */
  accountId?: string;
  acct?: string;
  /** the last poll stopped before it closed the gap to the newest page */
  gapOpen?: boolean;
}

/** Mastodon ids are decimal strings (snowflakes); compare them as numbers of any length. */
export function compareIds(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** What the feed's connection must be: a Mastodon connection of the feed's instance (fedi.ts instanceToken). */
const NETWORK = { name: 'Mastodon', connection: 'mastodon' };

const maxId = (ids: string[]) =>
  ids.reduce<string | undefined>((m, id) => (m === undefined || compareIds(id, m) > 0 ? id : m), undefined);
const minId = (ids: string[]) =>
  ids.reduce<string | undefined>((m, id) => (m === undefined || compareIds(id, m) < 0 ? id : m), undefined);

function readCursor(raw: unknown): MastodonCursor {
  if (!isObject(raw)) return {};
  const out: MastodonCursor = {};
  if (typeof raw.sinceId === 'string' && /^\d+$/.test(raw.sinceId)) out.sinceId = raw.sinceId;
  if (typeof raw.accountId === 'string' && /^[\w-]+$/.test(raw.accountId)) out.accountId = raw.accountId;
  if (typeof raw.acct === 'string') out.acct = raw.acct;
  if (raw.gapOpen === true) out.gapOpen = true;
  return out;
}

function statusesOf(data: unknown, where: string): Json[] {
  if (!Array.isArray(data)) throw new UpstreamFormatError(`expected a list of statuses from ${where}`);
  return data.filter(isObject);
}

function instanceBase(settings: MastodonSettings): string {
  return settings.instance.replace(/\/+$/, '');
}

function mediaOf(status: Json): UpstreamMedia[] {
  const out: UpstreamMedia[] = [];
  for (const m of Array.isArray(status.media_attachments) ? status.media_attachments : []) {
    if (!isObject(m)) continue;
    const url = httpUrl(m.url) || httpUrl(m.remote_url);
    if (!url) continue;
    const preview = httpUrl(m.preview_url);
    const alt = str(m.description);
    if (m.type === 'image')
      out.push({ kind: 'image', url, thumb: preview, original: httpUrl(m.remote_url) || undefined, alt });
    else if (m.type === 'video' || m.type === 'gifv') out.push({ kind: 'video', url, thumb: preview, alt });
    // audio and unknown attachments are left out
  }
  return out;
}

/** The custom emoji a status's text may use (`emojis[]`). */
function emojisOf(status: Json): CustomEmoji[] {
  return (Array.isArray(status.emojis) ? status.emojis : [])
    .filter(isObject)
    .map((e) => ({ shortcode: str(e.shortcode), url: str(e.url) || str(e.static_url) }));
}

/** An account's name (display name, else its user name) and its handle `user@host`. */
function accountOf(status: Json, instance: string) {
  const account = isObject(status.account) ? status.account : {};
  const acct = str(account.acct);
  const host = hostOf(str(account.url) || instance);
  const displayName = str(account.display_name);
  return {
    // custom emoji in a name stay as their `:shortcode:` text (name fields are plain text)
    name: plainText(displayName.trim() !== '' ? displayName : str(account.username) || acct),
    handle: acct === '' ? '' : acct.includes('@') || host === '' ? acct : `${acct}@${host}`,
    avatar: httpUrl(account.avatar) || httpUrl(account.avatar_static),
    bot: account.bot === true,
    createdAt: parseInstant(account.created_at),
  };
}

/**
 * What a status shows as text: content warning, text (custom emoji as their
 * images), poll options, link card; its media, and its link card's image.
 */
function statusBody(status: Json, hiddenClasses: string[] = []) {
  const emojis = emojisOf(status);
  const poll = isObject(status.poll) ? status.poll : null;
  const options = poll && Array.isArray(poll.options) ? poll.options.filter(isObject).map((o) => str(o.title)) : [];
  const card = isObject(status.card) ? status.card : null;
  let html =
    sanitizeIngestedHtml(contentWarningHtml(plainText(str(status.spoiler_text))), { emojis }) +
    sanitizeIngestedHtml(str(status.content), { emojis, hiddenClasses }) +
    sanitizeIngestedHtml(pollHtml(options), { emojis: poll ? [...emojis, ...emojisOf(poll)] : emojis });
  if (card) html += cardHtml(str(card.url), str(card.title), html);
  const cardImage = card && httpUrl(card.image) ? httpUrl(card.image) : '';
  return {
    html,
    media: mediaOf(status),
    cardImage: cardImage
      ? { kind: 'image' as const, url: cardImage, thumb: '', alt: str(card?.image_description) }
      : null,
    sensitive: status.sensitive === true || str(status.spoiler_text).trim() !== '',
  };
}

/**
 * A status's quote (`quote`, Mastodon 4.5): the quoted status, when the
 * quote is accepted and the status is there; null for any other state
 * (pending, revoked, deleted, blocked…). undefined when it quotes nothing.
 */
function quoteOf(status: Json, instance: string): QuotedPost | null | undefined {
  const quote = isObject(status.quote) ? status.quote : null;
  if (!quote) return undefined;
  const quoted = quote.state === 'accepted' && isObject(quote.quoted_status) ? quote.quoted_status : null;
  if (!quoted) return null;
  const author = accountOf(quoted, instance);
  // its own quote is not shown (nor by Mastodon): its `RE: <link>` paragraph stays for it
  const body = statusBody(quoted);
  return {
    authorName: author.name,
    handle: author.handle,
    link: httpUrl(quoted.url) || httpUrl(quoted.uri),
    bodyHtml: body.html,
    media: body.media,
    sensitive: body.sensitive,
  };
}

/** A status (already unwrapped from a boost) → a post. */
export function statusPost(status: Json, instance: string): UpstreamPost | null {
  const id = typeof status.id === 'string' ? status.id : '';
  if (id === '') return null;
  const author = accountOf(status, instance);
  const quote = quoteOf(status, instance);
  // a quote's `RE: <link>` paragraph is for clients that cannot show quotes: theirs hide it
  const body = statusBody(status, quote !== undefined ? ['quote-inline'] : []);
  const { media, fromQuote } = shownMedia(body.media, quote ?? null, body.cardImage);
  const tags = (Array.isArray(status.tags) ? status.tags : [])
    .filter(isObject)
    .map((t) => (typeof t.name === 'string' ? t.name : ''));
  return {
    externalId: id,
    content: body.html + (quote !== undefined ? quoteHtml(quote, fromQuote) : ''),
    authorName: author.name,
    username: author.handle,
    userPicture: author.avatar,
    linkUrl: httpUrl(status.url) || httpUrl(status.uri),
    createdAt: parseInstant(status.created_at),
    updatedAt: parseInstant(status.edited_at),
    media,
    tags,
    sensitive: body.sensitive || quote?.sensitive === true,
    reply: status.in_reply_to_id !== null && status.in_reply_to_id !== undefined,
    authorBot: author.bot,
    authorCreatedAt: author.createdAt,
  };
}

// ---------- documents (parse worker) ----------

export const accountDocument = ((doc) => {
  const data = parseJson(doc);
  if (!isObject(data) || typeof data.id !== 'string')
    throw new UpstreamFormatError(`account lookup on ${hostOf(doc.url)} did not return an account`);
  return { posts: [], skipped: 0, meta: { id: data.id } };
}) satisfies DocumentParser<MastodonSettings>;

/**
 * A page of statuses → its posts (boosts unwrapped or left out) and the ids on
 * it, for paging. An unwrapped boost is the boosted status flagged `repost`,
 * unless the page also holds that status itself (then it is read as itself,
 * as when boosts are left out).
 */
const statusesDocument = ((doc, settings, limits) => {
  const base = instanceBase(settings);
  const statuses = statusesOf(parseJson(doc), hostOf(base)).slice(0, limits.maxItems);
  const ids = statuses.map((s) => (typeof s.id === 'string' ? s.id : '')).filter((id) => /^\d+$/.test(id));
  const kept = settings.reposts === 'unwrap' ? statuses : statuses.filter((s) => !isObject(s.reblog));
  const itself = new Set(kept.filter((s) => !isObject(s.reblog)).map((s) => s.id));
  const { posts, skipped } = collectPosts(kept, (s) => {
    if (!isObject(s.reblog)) return statusPost(s, base);
    const post = statusPost(s.reblog, base);
    return post && { ...post, repost: !itself.has(s.reblog.id) };
  });
  return { posts, skipped, meta: { ids } };
}) satisfies DocumentParser<MastodonSettings>;

// ---------- the poll (serving thread) ----------

type Request = (url: string, options?: HttpOptions) => Promise<HttpResult>;

/**
 * What the instance's refusal of a token means (Mastodon answers 401 with
 * Doorkeeper's `{"error": "The access token is invalid"}` for a token it no
 * longer knows — revoked by the user, or the app removed — and "…expired" /
 * "…was revoked" in the other cases; 403 when a scope is missing).
 */
export function mastodonCredentialError(err: UpstreamError, instance: string): CredentialError | null {
  const said = err.message.toLowerCase();
  const where = hostOf(instance);
  if (err.status === 401) {
    const problem = said.includes('expired')
      ? 'expired'
      : said.includes('invalid') || said.includes('revoked')
        ? 'revoked'
        : 'invalid';
    const what =
      problem === 'expired'
        ? 'has expired'
        : problem === 'revoked'
          ? 'is no longer valid (revoked, or the app was removed)'
          : 'was refused';
    return new CredentialError(
      problem,
      `${where} says the access token ${what} (${err.message}): reconnect the Mastodon connection with a new token`,
    );
  }
  if (err.status === 403 && said.includes('scope'))
    return new CredentialError(
      'permission',
      `${where} refused the access token a permission this feed needs (${err.message}): reconnect with a token that has the read scope`,
    );
  return null;
}

/** The poll's requests: with the connection's token when there is one, its refusal a CredentialError. */
function requester(input: PollInput<MastodonSettings>, base: string): Request {
  const credential = instanceToken(input.credential, base, NETWORK);
  if (!credential)
    return async (url, options) => {
      try {
        return await input.http.request(url, options);
      } catch (err) {
        if (err instanceof UpstreamError && err.status === 401)
          throw new ConnectorSetupError(
            `${hostOf(base)} requires sign-in to read this (${err.message}): give the feed a Mastodon connection (connector.connectionId)`,
          );
        throw err;
      }
    };
  return async (url, options = {}) => {
    try {
      return await input.http.request(url, {
        ...options,
        headers: { ...(options.headers ?? {}), authorization: `Bearer ${credential}` },
      });
    } catch (err) {
      throw (err instanceof UpstreamError && mastodonCredentialError(err, base)) || err;
    }
  };
}

async function lookupAccount(input: PollInput<MastodonSettings>, request: Request, base: string, acct: string) {
  const res = await request(`${base}/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
  return (await input.parse<MetaOf<typeof accountDocument>>(res, 'account')).meta.id;
}

/** The parsers of the responses a Mastodon-API poll reads. */
const MASTODON_DOCUMENTS = { account: accountDocument, statuses: statusesDocument };

export const mastodonConnector: Connector<MastodonSettings> = {
  kind: 'mastodon',
  network: 'Mastodon',
  sourceType: (s) => (s.hashtag !== undefined ? 'hashtag' : 'account'),
  poll: (input) => pollTimeline(input, requester(input, instanceBase(input.settings))),
  documents: MASTODON_DOCUMENTS,
};

/**
 * A poll of the tag timeline or the account's statuses through `request`:
 * Mastodon's own (the connection's token, its refusals said for Mastodon), or
 * an API-compatible network's (Pixelfed), which says its refusals itself.
 */
export async function pollTimeline(input: PollInput<MastodonSettings>, request: Request): Promise<PollOutput> {
  {
    const { settings } = input;
    const base = instanceBase(settings);
    const cursor = readCursor(input.cursor);
    const unwrap = settings.reposts === 'unwrap';
    // pages never ask for more than the poll may keep
    const pageLimit = (kept: number) => Math.min(PAGE_LIMIT, input.maxItems - kept);

    let timeline: (limit: number) => string;
    const next: MastodonCursor = {};
    if (settings.hashtag !== undefined) {
      const tag = encodeURIComponent(settings.hashtag.replace(/^#/, ''));
      timeline = (limit) => `${base}/api/v1/timelines/tag/${tag}?limit=${limit}`;
    } else {
      const acct = (settings.account ?? '').replace(/^@/, '');
      const accountId =
        cursor.acct === acct && cursor.accountId ? cursor.accountId : await lookupAccount(input, request, base, acct);
      next.accountId = accountId;
      next.acct = acct;
      timeline = (limit) =>
        `${base}/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=${limit}&exclude_replies=true${unwrap ? '' : '&exclude_reblogs=true'}`;
    }
    // the account mode keeps the previous sinceId only for the same account
    const sinceId = settings.account !== undefined && cursor.accountId !== next.accountId ? undefined : cursor.sinceId;

    // with a gap still open a 304 on the newest page must not end the poll
    const newestLimit = pageLimit(0);
    const newest = await request(timeline(newestLimit), { conditional: !cursor.gapOpen });
    if (newest.notModified) return { rows: [], cursor: { ...next, sinceId }, notModified: true, skipped: 0 };
    const first = await input.parse<MetaOf<typeof statusesDocument>>(newest, 'statuses');
    const rows: IngestedPost[] = [...first.rows];
    let skipped = first.skipped;
    let read = first.meta.ids.length;
    const newestIds = first.meta.ids;
    const oldestOnPage = minId(newestIds);

    let readUpTo = maxId(newestIds) ?? sinceId;
    let gapOpen = false;
    // a gap: the newest page holds only statuses newer than the cursor (with
    // no room left under INGEST_MAX_ITEMS, the newest page is all the poll keeps)
    if (
      sinceId !== undefined &&
      oldestOnPage !== undefined &&
      newestIds.length >= newestLimit &&
      compareIds(oldestOnPage, sinceId) > 0 &&
      read < input.maxItems
    ) {
      let url: string | undefined = `${timeline(pageLimit(read))}&min_id=${encodeURIComponent(sinceId)}`;
      let filledTo = sinceId;
      let closed = false;
      for (let page = 1; page < input.maxPages && url && read < input.maxItems; page++) {
        const res = await request(url);
        const got = await input.parse<MetaOf<typeof statusesDocument>>(res, 'statuses');
        const ids = got.meta.ids;
        if (ids.length === 0) {
          closed = true;
          break;
        }
        rows.push(...got.rows);
        skipped += got.skipped;
        read += ids.length;
        filledTo = maxId([filledTo, ...ids])!;
        if (compareIds(filledTo, oldestOnPage) >= 0) {
          closed = true;
          break;
        }
        const prev = parseLinkHeader(res.headers.link ?? '')?.prev?.url;
        url = prev ? new URL(prev, base).toString() : undefined;
        if (url && pageLimit(read) < PAGE_LIMIT) {
          const smaller = new URL(url);
          smaller.searchParams.set('limit', String(pageLimit(read)));
          url = smaller.toString();
        }
      }
      if (!closed) {
        readUpTo = filledTo;
        gapOpen = true;
      }
    }

    const nextCursor: MastodonCursor = {
      ...next,
      ...(readUpTo !== undefined ? { sinceId: readUpTo } : {}),
      ...(gapOpen ? { gapOpen } : {}),
    };
    return { rows, cursor: nextCursor, notModified: false, skipped };
  }
}
