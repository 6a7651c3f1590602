// Pixelfed: a hashtag's or an account's posts on one instance, through its
// Mastodon-compatible API — the tag timeline (`GET /api/v1/timelines/tag/:tag`)
// or an account's statuses (`/api/v1/accounts/:id/statuses`, the id from
// `/api/v1/accounts/lookup`, else Pixelfed's own `/api/v1.1/accounts/username/:name`).
//
// The paging and the mapping are Mastodon's (src/ingest/mastodon.ts); what
// Pixelfed adds: albums (up to 20 photos or videos in one post), `pf_type`
// (stories, gone after a day, are left out), the media placeholder Pixelfed
// serves for a video without a poster (dropped: the media pipeline makes its
// own placeholder, as it does instead of the `blurhash`), and a post's
// `place` as its location. Most instances require sign-in for their API: the
// feed's connection's personal access token goes in `Authorization: Bearer`,
// to this instance only. A refused token fails the feed at once.
//
// Deleted posts: each poll re-checks a few stored posts of the last days
// (`GET /api/v1/statuses/:id`, 404 → deleted), rotating through them.
import type { Static } from 'typebox';
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
import type { MastodonConnector, PixelfedConnector } from '../schemas/connectors.js';
import { accountDocument, pollTimeline, statusPost } from './mastodon.js';
import { httpUrl, plainText, str } from './normalize.js';
import { hostOf, pathOf } from './url-parts.js';
import { baseOf, instanceToken, isGone, recheckStored, withHeaders } from './fedi.js';

type PixelfedSettings = Static<typeof PixelfedConnector>;
type Json = Record<string, unknown>;

const NETWORK = { name: 'Pixelfed', connection: 'pixelfed' };

/** What Pixelfed serves when a video has no poster yet. */
const NO_PREVIEW = /\/storage\/no-preview\.png$/;

/** A post's media: each photo or video of an album, in its order. */
function mediaOf(status: Json): UpstreamMedia[] {
  const out: UpstreamMedia[] = [];
  for (const m of Array.isArray(status.media_attachments) ? status.media_attachments : []) {
    if (!isObject(m)) continue;
    const url = httpUrl(m.url) || httpUrl(m.remote_url);
    if (!url) continue;
    const preview = httpUrl(m.preview_url);
    const thumb = NO_PREVIEW.test(pathOf(preview)) ? '' : preview;
    const alt = str(m.description);
    const mime = str(m.mime);
    const kind =
      m.type === 'image' || mime.startsWith('image/')
        ? 'image'
        : m.type === 'video' || mime.startsWith('video/')
          ? 'video'
          : null;
    if (kind === 'image') out.push({ kind, url, thumb, original: httpUrl(m.remote_url) || undefined, alt });
    else if (kind === 'video') out.push({ kind, url, thumb, alt });
  }
  return out;
}

/** Where a post was taken (`place`: name and country), or ''. */
function placeOf(status: Json): string {
  const place = isObject(status.place) ? status.place : null;
  if (!place) return '';
  return [plainText(str(place.name)), plainText(str(place.country))].filter((p) => p !== '').join(', ');
}

/** A Pixelfed status (already unwrapped from a share) → a post; null for what a wall never shows. */
export function pixelfedPost(status: Json, base: string): UpstreamPost | null {
  if (status.pf_type === 'story') return null;
  const post = statusPost(status, base);
  if (!post) return null;
  const media = mediaOf(status);
  const location = placeOf(status);
  return {
    ...post,
    ...(media.length > 0 ? { media } : {}),
    ...(location ? { location } : {}),
  };
}

// ---------- documents (parse worker) ----------

/**
 * A page of statuses → its posts (shares unwrapped or left out, as Mastodon's
 * boosts) and the ids on it, for the paging mastodon.ts does.
 */
const statusesDocument = ((doc, settings, limits) => {
  const base = baseOf(settings.instance);
  const data = parseJson(doc);
  if (!Array.isArray(data)) throw new UpstreamFormatError(`expected a list of statuses from ${hostOf(base)}`);
  const statuses = data.filter(isObject).slice(0, limits.maxItems);
  const ids = statuses.map((s) => (typeof s.id === 'string' ? s.id : '')).filter((id) => /^\d+$/.test(id));
  const shared = (s: Json) => isObject(s.reblog);
  const kept = settings.reposts === 'unwrap' ? statuses : statuses.filter((s) => !shared(s));
  const itself = new Set(kept.filter((s) => !shared(s)).map((s) => s.id));
  const { posts, skipped } = collectPosts(kept, (s) => {
    if (!isObject(s.reblog)) return pixelfedPost(s, base);
    const post = pixelfedPost(s.reblog, base);
    return post && { ...post, repost: !itself.has(s.reblog.id) };
  });
  return { posts, skipped, meta: { ids } };
}) satisfies DocumentParser<PixelfedSettings>;

// ---------- the poll (serving thread) ----------

interface PixelfedCursor {
  /** Mastodon's cursor (sinceId, accountId, acct, gapOpen) */
  [key: string]: unknown;
  /** where the next re-check of stored posts starts */
  recheck?: number;
}

/** What the instance's refusal means for the feed and its connection. */
function refusal(err: unknown, token: string | null, base: string): unknown {
  if (!(err instanceof UpstreamError) || (err.status !== 401 && err.status !== 403)) return err;
  const where = hostOf(base);
  if (token === null) {
    return new ConnectorSetupError(
      `${where} requires sign-in for its API: give the feed a Pixelfed connection (a personal access token of the instance)`,
    );
  }
  if (err.status === 401) {
    return new CredentialError(
      'expired',
      `${where} no longer accepts the connection's personal access token (expired or revoked): create a new one in the instance's Settings → Applications and reconnect`,
    );
  }
  return new CredentialError(
    'permission',
    `${where} refused the connection's personal access token (${err.message}): give the token the read scope and reconnect`,
  );
}

async function lookupAccount(input: PollInput<PixelfedSettings>, base: string, acct: string): Promise<string> {
  try {
    const res = await input.http.request(`${base}/api/v1/accounts/lookup?acct=${encodeURIComponent(acct)}`);
    return (await input.parse<MetaOf<typeof accountDocument>>(res, 'account')).meta.id;
  } catch (err) {
    // instances without Mastodon's lookup: Pixelfed's own, for a local user
    if (!isGone(err) || acct.includes('@')) throw err;
    const res = await input.http.request(`${base}/api/v1.1/accounts/username/${encodeURIComponent(acct)}`);
    return (await input.parse<MetaOf<typeof accountDocument>>(res, 'account')).meta.id;
  }
}

export const pixelfedConnector: Connector<PixelfedSettings> = {
  kind: 'pixelfed',
  network: 'Pixelfed',
  sourceType: (s) => (s.hashtag !== undefined ? 'hashtag' : 'account'),
  async poll(input): Promise<PollOutput> {
    const { settings } = input;
    const base = baseOf(settings.instance);
    const token = instanceToken(input.credential, base, NETWORK);
    const http = token === null ? input.http : withHeaders(input.http, { authorization: `Bearer ${token}` });
    const raw: PixelfedCursor = isObject(input.cursor) ? { ...input.cursor } : {};
    const recheckFrom = typeof raw.recheck === 'number' ? raw.recheck : 0;
    delete raw.recheck;
    const view: PollInput<PixelfedSettings> = { ...input, http };
    try {
      const mastodon: Static<typeof MastodonConnector> = {
        kind: 'mastodon',
        instance: base,
        ...(settings.hashtag !== undefined ? { hashtag: settings.hashtag } : {}),
        ...(settings.account !== undefined ? { account: settings.account } : {}),
        ...(settings.reposts !== undefined ? { reposts: settings.reposts } : {}),
      };
      let cursor: PixelfedCursor = raw;
      if (settings.account !== undefined) {
        const acct = settings.account.replace(/^@/, '');
        if (raw.acct !== acct || typeof raw.accountId !== 'string') {
          // a new account: Mastodon's cursor starts afresh with the id found here
          cursor = { acct, accountId: await lookupAccount(view, base, acct) };
        }
      }
      // the token goes with `http`; the documents are this connector's (same names as Mastodon's)
      // its refusals are this connector's to say (refusal below), not Mastodon's
      const out = await pollTimeline(
        { ...view, settings: mastodon, cursor, credential: null } as unknown as PollInput<
          Static<typeof MastodonConnector>
        >,
        (url, options) => http.request(url, options),
      );
      // deletions are looked for whether or not the timeline changed
      const seen = new Set(out.rows.map((r) => r.external_id));
      const { deleted, next } = await recheckStored(input, recheckFrom, seen, async (id) => {
        try {
          await http.request(`${base}/api/v1/statuses/${encodeURIComponent(id)}`);
          return true;
        } catch (err) {
          if (isGone(err)) return false;
          throw err;
        }
      });
      return {
        ...out,
        cursor: { ...(isObject(out.cursor) ? out.cursor : {}), recheck: next },
        ...(deleted.length > 0 ? { deleted } : {}),
      };
    } catch (err) {
      throw refusal(err, token, base);
    }
  },
  documents: { account: accountDocument as DocumentParser<PixelfedSettings>, statuses: statusesDocument },
};
