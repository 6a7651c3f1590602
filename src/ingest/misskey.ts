// Misskey (and its forks: Sharkey, Firefish…): a hashtag's or a user's notes
// on one instance. Every call is a POST with a JSON body:
//   hashtag: `POST /api/notes/search-by-tag {tag, limit, sinceId}`
//   user:    `POST /api/users/show {username, host}` once, then
//            `POST /api/users/notes {userId, limit, sinceId, withReplies: false}`
// The first poll reads the newest page; later polls page forward from the
// newest note read (`sinceId`: the notes right after it, oldest first) until
// a page is not full, at most `maxPages` pages — the cursor moves as far as
// the pages read, so the next poll goes on from there.
//
// A note's text is MFM (Misskey's markup): shown as plain text — escaped,
// `$[fn …]` and MFM tags unwrapped to their text, links linked, `:emoji:` of
// the note's emoji list as their images (others stay `:name:`). Content
// warnings (`cw`) and sensitive files make it arrive hidden. Only public and
// home notes are read; a pure renote is left out, or (reposts: 'unwrap') read
// as the renoted note; a quote keeps its quoted note.
//
// The connection's access token (optional: for instances that require
// sign-in) is sent as `i` in the body, as the API documents, to this
// instance only. Misskey's errors are `{"error": {"code", "message", "id"}}`:
// AUTHENTICATION_FAILED and CREDENTIAL_REQUIRED fail the feed (and the
// connection) at once. Rate limits: 429 with Retry-After (the scheduler
// honours it); X-RateLimit-Remaining 0 with X-RateLimit-Clear defers the next poll.
//
// Deleted notes: each poll re-checks a few stored notes of the last days
// (`POST /api/notes/show`: NO_SUCH_NOTE → deleted), rotating through them.
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
  type MetaOf,
  type PollInput,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { MisskeyConnector } from '../schemas/connectors.js';
import { sanitizeIngestedHtml, type CustomEmoji } from '../domain/sanitize.js';
import {
  contentWarningHtml,
  hashtagsIn,
  httpUrl,
  parseInstant,
  plainText,
  pollHtml,
  quoteHtml,
  shownMedia,
  str,
  textToHtml,
  type QuotedPost,
} from './normalize.js';
import { hostOf } from './url-parts.js';
import { baseOf, instanceToken, recheckStored } from './fedi.js';

type MisskeySettings = Static<typeof MisskeyConnector>;
type Json = Record<string, unknown>;

const NETWORK = { name: 'Misskey', connection: 'misskey' };

/** Notes per page (the API allows 1–100). */
export const PAGE_LIMIT = 100;

/** Visibilities a wall may show: `followers` and `specified` (direct) notes never are. */
const SHOWN = new Set(['public', 'home']);

// ---------- MFM → text ----------

/** MFM's inline tags (`<small>`, `<center>`, `<plain>`, …): their text stays. */
const MFM_TAGS = /<\/?(?:small|center|plain|i|b|s)>/gi;
/** `$[name.args text]` with no brackets inside: the innermost function, unwrapped to its text. */
const MFM_FN = /\$\[[^\s[\]]+ ([^[\]]*)\]/g;
/** `[label](url)` and `?[label](url)`: the label, then the URL (linked). */
const MFM_LINK = /\??\[([^[\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g;

/** MFM → the text it shows (no markup), as safe HTML: escaped, links linked, paragraphs. */
export function mfmHtml(text: string): string {
  let plain = text.replace(MFM_LINK, '$1 $2');
  for (let i = 0; i < 8; i++) {
    const next = plain.replace(MFM_FN, '$1');
    if (next === plain) break;
    plain = next;
  }
  return textToHtml(plain.replace(MFM_TAGS, ''));
}

// ---------- mapping (parse worker) ----------

/** A note's custom emoji: `emojis` as `{name: url}` (Misskey 13+) or `[{name, url}]` (older). */
function emojisOf(...sources: unknown[]): CustomEmoji[] {
  const out: CustomEmoji[] = [];
  for (const e of sources) {
    if (Array.isArray(e)) {
      for (const item of e.filter(isObject)) out.push({ shortcode: str(item.name), url: str(item.url) });
    } else if (isObject(e)) {
      for (const [name, url] of Object.entries(e)) out.push({ shortcode: name.replace(/@\.$/, ''), url: str(url) });
    }
  }
  return out;
}

function filesOf(note: Json): UpstreamMedia[] {
  const out: UpstreamMedia[] = [];
  for (const f of Array.isArray(note.files) ? note.files : []) {
    if (!isObject(f)) continue;
    const type = str(f.type).toLowerCase();
    const url = httpUrl(f.url);
    if (!url) continue;
    const thumb = httpUrl(f.thumbnailUrl);
    const alt = str(f.comment);
    if (type.startsWith('image/')) out.push({ kind: 'image', url, thumb, alt });
    else if (type.startsWith('video/')) out.push({ kind: 'video', url, thumb, alt });
    // audio and other files are left out
  }
  return out;
}

const hasSensitiveFile = (note: Json) =>
  (Array.isArray(note.files) ? note.files : []).some((f) => isObject(f) && f.isSensitive === true);

function userOf(note: Json, base: string) {
  const user = isObject(note.user) ? note.user : {};
  const username = str(user.username);
  const host = typeof user.host === 'string' && user.host !== '' ? user.host : hostOf(base);
  const name = str(user.name);
  return {
    name: plainText(name.trim() !== '' ? name : username),
    handle: username === '' ? '' : `${username}@${host}`,
    avatar: httpUrl(user.avatarUrl),
    bot: user.isBot === true,
  };
}

/** A note's page: its HTML page on its own server (`url`), its ActivityPub id (`uri`), or this instance's page. */
function linkOf(note: Json, base: string): string {
  return httpUrl(note.url) || httpUrl(note.uri) || (typeof note.id === 'string' ? `${base}/notes/${note.id}` : '');
}

/** A pure renote: it only renotes (no text, files or poll of its own). */
export const isPureRenote = (note: Json): boolean =>
  typeof note.renoteId === 'string' &&
  isObject(note.renote) &&
  (note.text === null || note.text === undefined) &&
  !(Array.isArray(note.files) && note.files.length > 0) &&
  !isObject(note.poll);

const shown = (note: Json) => SHOWN.has(str(note.visibility) || 'public');

/** A note's text as safe HTML: its content warning, its text, its poll's choices. */
function noteBody(note: Json) {
  const user = isObject(note.user) ? note.user : {};
  const emojis = emojisOf(note.emojis, user.emojis);
  const cw = typeof note.cw === 'string' ? note.cw : '';
  const poll = isObject(note.poll) ? note.poll : null;
  const choices = poll && Array.isArray(poll.choices) ? poll.choices.filter(isObject).map((c) => str(c.text)) : [];
  const html =
    sanitizeIngestedHtml(contentWarningHtml(plainText(cw)), { emojis }) +
    sanitizeIngestedHtml(mfmHtml(str(note.text)), { emojis }) +
    sanitizeIngestedHtml(pollHtml(choices), { emojis });
  return { html, media: filesOf(note), sensitive: cw.trim() !== '' || hasSensitiveFile(note) };
}

/** A note (already unwrapped from a pure renote) → a post. */
export function notePost(note: Json, base: string): UpstreamPost | null {
  const id = typeof note.id === 'string' ? note.id : '';
  if (id === '') return null;
  const author = userOf(note, base);
  const body = noteBody(note);
  // a quote: the renoted note with text of its own
  let quote: QuotedPost | null | undefined;
  if (typeof note.renoteId === 'string') {
    const quoted = isObject(note.renote) && shown(note.renote) ? note.renote : null;
    if (quoted) {
      const who = userOf(quoted, base);
      const qb = noteBody(quoted);
      quote = {
        authorName: who.name,
        handle: who.handle,
        link: linkOf(quoted, base),
        bodyHtml: qb.html,
        media: qb.media,
        sensitive: qb.sensitive,
      };
    } else quote = null;
  }
  const { media, fromQuote } = shownMedia(body.media, quote ?? null, null);
  const tags = Array.isArray(note.tags) ? note.tags.filter((t) => typeof t === 'string') : hashtagsIn(str(note.text));
  return {
    externalId: id,
    content: body.html + (quote !== undefined ? quoteHtml(quote, fromQuote) : ''),
    authorName: author.name,
    username: author.handle,
    userPicture: author.avatar,
    linkUrl: linkOf(note, base),
    createdAt: parseInstant(note.createdAt),
    updatedAt: parseInstant(note.updatedAt),
    media,
    tags,
    sensitive: body.sensitive || quote?.sensitive === true,
    reply: typeof note.replyId === 'string',
    authorBot: author.bot,
    authorCreatedAt: null,
  };
}

// ---------- documents (parse worker) ----------

const userDocument = ((doc, settings) => {
  const data = parseJson(doc);
  if (!isObject(data) || typeof data.id !== 'string')
    throw new UpstreamFormatError(`users/show on ${hostOf(settings.instance)} did not return a user`);
  return { posts: [], skipped: 0, meta: { id: data.id } };
}) satisfies DocumentParser<MisskeySettings>;

/**
 * A page of notes → its posts (public and home notes only; pure renotes left
 * out or unwrapped) and the ids on it, for paging. An unwrapped renote is the
 * renoted note flagged `repost`, unless the page also holds that note itself.
 */
const notesDocument = ((doc, settings, limits) => {
  const base = baseOf(settings.instance);
  const data = parseJson(doc);
  if (!Array.isArray(data)) throw new UpstreamFormatError(`expected a list of notes from ${hostOf(base)}`);
  const notes = data.filter(isObject);
  const ids = notes.map((n) => (typeof n.id === 'string' ? n.id : '')).filter((id) => id !== '');
  const unwrap = settings.reposts === 'unwrap';
  const kept = notes
    .filter((n) => shown(n) && (isPureRenote(n) ? unwrap && shown(n.renote as Json) : true))
    .slice(0, limits.maxItems);
  const itself = new Set(kept.filter((n) => !isPureRenote(n)).map((n) => n.id));
  const { posts, skipped } = collectPosts(kept, (n) => {
    if (!isPureRenote(n)) return notePost(n, base);
    const renoted = n.renote as Json;
    const post = notePost(renoted, base);
    return post && { ...post, repost: !itself.has(renoted.id) };
  });
  return { posts, skipped, meta: { ids } };
}) satisfies DocumentParser<MisskeySettings>;

// ---------- the poll (serving thread) ----------

interface MisskeyCursor {
  /** every note up to this id has been read */
  sinceId?: string;
  /** user mode: the id `user` resolved to */
  userId?: string;
  user?: string;
  /** where the next re-check of stored notes starts */
  recheck?: number;
}

/** Misskey ids (aid, aidx, meid, ulid, objectid) sort as strings of one length per instance. */
export function compareNoteIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function readCursor(raw: unknown): MisskeyCursor {
  if (!isObject(raw)) return {};
  const out: MisskeyCursor = {};
  const id = /^[0-9A-Za-z]{1,64}$/;
  if (typeof raw.sinceId === 'string' && id.test(raw.sinceId)) out.sinceId = raw.sinceId;
  if (typeof raw.userId === 'string' && id.test(raw.userId)) out.userId = raw.userId;
  if (typeof raw.user === 'string') out.user = raw.user;
  if (typeof raw.recheck === 'number' && Number.isInteger(raw.recheck) && raw.recheck >= 0) out.recheck = raw.recheck;
  return out;
}

/** The error code of a Misskey error answer (`{"error": {"code": …}}`, as describeFailure quotes it). */
export function misskeyErrorCode(err: unknown): string | null {
  if (!(err instanceof UpstreamError)) return null;
  return /\(([A-Z][A-Z0-9_]+)[:)]/.exec(err.message)?.[1] ?? null;
}

/** What the instance's refusal means for the feed and its connection. */
function refusal(err: unknown, token: string | null, base: string): unknown {
  if (!(err instanceof UpstreamError)) return err;
  const code = misskeyErrorCode(err);
  const where = hostOf(base);
  const authFailed =
    code === 'AUTHENTICATION_FAILED' || code === 'CREDENTIAL_REQUIRED' || (err.status === 401 && !code);
  if (token === null) {
    if (!authFailed) return err;
    return new ConnectorSetupError(
      `${where} requires sign-in for its API: give the feed a Misskey connection (an access token of the instance)`,
    );
  }
  if (authFailed) {
    return new CredentialError(
      'revoked',
      `${where} no longer accepts the connection's access token (revoked or deleted): create a new one in the instance's Settings → API and reconnect`,
    );
  }
  if (code === 'YOUR_ACCOUNT_SUSPENDED') {
    return new CredentialError('revoked', `the connection's account on ${where} is suspended: connect another account`);
  }
  if (code === 'PERMISSION_DENIED') {
    return new CredentialError(
      'permission',
      `${where} refused the connection's access token (PERMISSION_DENIED): create a token with read access and reconnect`,
    );
  }
  return err;
}

export const misskeyConnector: Connector<MisskeySettings> = {
  kind: 'misskey',
  network: 'Misskey',
  sourceType: (s) => (s.hashtag !== undefined ? 'hashtag' : 'user'),
  async poll(input): Promise<PollOutput> {
    const { settings, http } = input;
    const base = baseOf(settings.instance);
    const token = instanceToken(input.credential, base, NETWORK);
    const cursor = readCursor(input.cursor);
    const auth = token === null ? {} : { i: token };
    const call = async (endpoint: string, body: Json) => {
      const res = await http.request(`${base}/api/${endpoint}`, { method: 'POST', json: { ...body, ...auth } });
      deferOnEmptyBucket(input, res.headers);
      return res;
    };

    try {
      const next: MisskeyCursor = {};
      let page: (sinceId: string | undefined, limit: number) => Promise<Awaited<ReturnType<typeof call>>>;
      if (settings.hashtag !== undefined) {
        const tag = settings.hashtag.replace(/^#/, '');
        page = (sinceId, limit) => call('notes/search-by-tag', { tag, limit, ...(sinceId ? { sinceId } : {}) });
      } else {
        const user = (settings.user ?? '').replace(/^@/, '');
        let userId = cursor.user === user ? cursor.userId : undefined;
        if (!userId) {
          const [username, host] = user.split('@');
          const res = await call('users/show', { username, host: host && host !== hostOf(base) ? host : null });
          userId = (await input.parse<MetaOf<typeof userDocument>>(res, 'user')).meta.id;
        }
        next.user = user;
        next.userId = userId;
        page = (sinceId, limit) =>
          call('users/notes', {
            userId,
            limit,
            withReplies: false,
            withRenotes: settings.reposts === 'unwrap',
            ...(sinceId ? { sinceId } : {}),
          });
      }
      // the user mode keeps the previous sinceId only for the same user
      const sinceId = settings.user !== undefined && cursor.userId !== next.userId ? undefined : cursor.sinceId;

      const rows: IngestedPost[] = [];
      let skipped = 0;
      let readUpTo = sinceId;
      for (let n = 0; n < input.maxPages && rows.length < input.maxItems; n++) {
        const limit = Math.min(PAGE_LIMIT, input.maxItems - rows.length);
        const res = await page(readUpTo, limit);
        const got = await input.parse<MetaOf<typeof notesDocument>>(res, 'notes');
        rows.push(...got.rows);
        skipped += got.skipped;
        for (const id of got.meta.ids) if (readUpTo === undefined || compareNoteIds(id, readUpTo) > 0) readUpTo = id;
        // the first poll reads the newest page only; later ones until a page is not full
        if (sinceId === undefined || got.meta.ids.length < limit) break;
      }

      const seen = new Set(rows.map((r) => r.external_id));
      const { deleted, next: recheck } = await recheckStored(input, cursor.recheck ?? 0, seen, async (noteId) => {
        try {
          await call('notes/show', { noteId });
          return true;
        } catch (err) {
          if (misskeyErrorCode(err) === 'NO_SUCH_NOTE' || (err instanceof UpstreamError && err.status === 404))
            return false;
          throw err;
        }
      });
      return {
        rows: rows.slice(0, input.maxItems),
        cursor: { ...next, ...(readUpTo !== undefined ? { sinceId: readUpTo } : {}), recheck },
        notModified: false,
        skipped,
        ...(deleted.length > 0 ? { deleted } : {}),
      };
    } catch (err) {
      throw refusal(err, token, base);
    }
  },
  documents: { user: userDocument, notes: notesDocument },
};

/**
 * Misskey's own bucket signal: no call left (`X-RateLimit-Remaining: 0`)
 * until it is clear again (`X-RateLimit-Clear`, seconds): the next poll waits.
 */
function deferOnEmptyBucket(input: PollInput<MisskeySettings>, headers: Record<string, string>): void {
  if (!/^\s*0+\s*$/.test(headers['x-ratelimit-remaining'] ?? '')) return;
  const clear = Number(headers['x-ratelimit-clear']);
  if (Number.isFinite(clear) && clear > 0) input.http.waitUntil(input.now + Math.ceil(clear * 1000));
}
