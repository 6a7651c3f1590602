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
import parseLinkHeader from 'parse-link-header';
import type { Static } from 'typebox';
import {
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type PollInput,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { MastodonConnector } from './connector-settings.js';
import { sanitizeIngestedHtml } from '../domain/sanitize.js';
import { escapeHtml, httpUrl, parseInstant, plainText } from './normalize.js';

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
    if (m.type === 'image')
      out.push({ kind: 'image', url, thumb: preview, original: httpUrl(m.remote_url) || undefined });
    else if (m.type === 'video' || m.type === 'gifv') out.push({ kind: 'video', url, thumb: preview });
    // audio and unknown attachments are left out
  }
  return out;
}

/** A status (already unwrapped from a boost) → a post. */
export function statusPost(status: Json, instance: string): UpstreamPost | null {
  const id = typeof status.id === 'string' ? status.id : '';
  if (id === '') return null;
  const account = isObject(status.account) ? status.account : {};
  const acct = typeof account.acct === 'string' ? account.acct : '';
  const host = (() => {
    try {
      return new URL(typeof account.url === 'string' ? account.url : instance).host;
    } catch {
      return '';
    }
  })();
  const spoiler = plainText(typeof status.spoiler_text === 'string' ? status.spoiler_text : '');
  const body = sanitizeIngestedHtml(typeof status.content === 'string' ? status.content : '');
  const tags = (Array.isArray(status.tags) ? status.tags : [])
    .filter(isObject)
    .map((t) => (typeof t.name === 'string' ? t.name : ''));
  return {
    externalId: id,
    content: `${spoiler ? `<p>${escapeHtml(spoiler)}</p>` : ''}${body}`,
    authorName: plainText(
      typeof account.display_name === 'string' && account.display_name.trim() !== ''
        ? account.display_name
        : typeof account.username === 'string'
          ? account.username
          : acct,
    ),
    username: acct === '' ? '' : acct.includes('@') || host === '' ? acct : `${acct}@${host}`,
    userPicture: httpUrl(account.avatar) || httpUrl(account.avatar_static),
    linkUrl: httpUrl(status.url) || httpUrl(status.uri),
    createdAt: parseInstant(status.created_at),
    updatedAt: parseInstant(status.edited_at),
    media: mediaOf(status),
    tags,
    sensitive: status.sensitive === true || spoiler !== '',
  };
}

async function lookupAccount(input: PollInput<MastodonSettings>, base: string, acct: string): Promise<string> {
  const res = await input.http.request(`${base}/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
  const data = parseJson(res);
  if (!isObject(data) || typeof data.id !== 'string')
    throw new UpstreamFormatError(`account lookup on ${new URL(base).host} did not return an account`);
  return data.id;
}

export const mastodonConnector: Connector<MastodonSettings> = {
  kind: 'mastodon',
  network: 'Mastodon',
  sourceType: (s) => (s.hashtag !== undefined ? 'hashtag' : 'account'),
  async poll(input): Promise<PollOutput> {
    const { settings, http } = input;
    const base = instanceBase(settings);
    const host = new URL(base).host;
    const cursor = readCursor(input.cursor);
    const unwrap = settings.reposts === 'unwrap';

    let timeline: string;
    const next: MastodonCursor = {};
    if (settings.hashtag !== undefined) {
      timeline = `${base}/api/v1/timelines/tag/${encodeURIComponent(settings.hashtag.replace(/^#/, ''))}?limit=${PAGE_LIMIT}`;
    } else {
      const acct = (settings.account ?? '').replace(/^@/, '');
      const accountId =
        cursor.acct === acct && cursor.accountId ? cursor.accountId : await lookupAccount(input, base, acct);
      next.accountId = accountId;
      next.acct = acct;
      timeline = `${base}/api/v1/accounts/${encodeURIComponent(accountId)}/statuses?limit=${PAGE_LIMIT}&exclude_replies=true${unwrap ? '' : '&exclude_reblogs=true'}`;
    }
    // the account mode keeps the previous sinceId only for the same account
    const sinceId = settings.account !== undefined && cursor.accountId !== next.accountId ? undefined : cursor.sinceId;

    // with a gap still open a 304 on the newest page must not end the poll
    const newest = await http.request(timeline, { conditional: !cursor.gapOpen });
    if (newest.notModified) return { posts: [], cursor: { ...next, sinceId }, notModified: true, skipped: 0 };
    const statuses = statusesOf(parseJson(newest), host);
    const newestIds = statuses.map((s) => (typeof s.id === 'string' ? s.id : '')).filter((id) => /^\d+$/.test(id));
    const oldestOnPage = minId(newestIds);

    let readUpTo = maxId(newestIds) ?? sinceId;
    let gapOpen = false;
    // a gap: the newest page holds only statuses newer than the cursor
    if (
      sinceId !== undefined &&
      oldestOnPage !== undefined &&
      newestIds.length >= PAGE_LIMIT &&
      compareIds(oldestOnPage, sinceId) > 0
    ) {
      let url: string | undefined = `${timeline}&min_id=${encodeURIComponent(sinceId)}`;
      let filledTo = sinceId;
      let closed = false;
      for (let page = 1; page < input.maxPages && url; page++) {
        const res = await http.request(url);
        const got = statusesOf(parseJson(res), host);
        const ids = got.map((s) => (typeof s.id === 'string' ? s.id : '')).filter((id) => /^\d+$/.test(id));
        if (ids.length === 0) {
          closed = true;
          break;
        }
        statuses.push(...got);
        filledTo = maxId([filledTo, ...ids])!;
        if (compareIds(filledTo, oldestOnPage) >= 0) {
          closed = true;
          break;
        }
        const prev = parseLinkHeader(res.headers.link ?? '')?.prev?.url;
        url = prev ? new URL(prev, base).toString() : undefined;
      }
      if (!closed) {
        readUpTo = filledTo;
        gapOpen = true;
      }
    }

    const kept = unwrap ? statuses : statuses.filter((s) => !isObject(s.reblog));
    const { posts, skipped } = collectPosts(kept, (s) => statusPost(isObject(s.reblog) ? s.reblog : s, base));
    const nextCursor: MastodonCursor = {
      ...next,
      ...(readUpTo !== undefined ? { sinceId: readUpTo } : {}),
      ...(gapOpen ? { gapOpen } : {}),
    };
    return { posts, cursor: nextCursor, notModified: false, skipped };
  },
};
