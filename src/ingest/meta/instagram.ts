// Instagram (the Instagram API with Facebook Login: an Instagram business or
// creator account, `credential.accountId` its IG user id), three feeds:
//
//   hashtag  `GET /ig_hashtag_search?user_id=&q=` once (the hashtag id is kept
//            in the cursor: a search counts against the account's 30 hashtags
//            in 7 days), then `/{hashtag-id}/recent_media` (newest first, the
//            last 24 hours) or `/top_media` (the most popular), `user_id=`;
//   media    the account's own media, `/{ig-user-id}/media`;
//   tags     media the account is tagged in, `/{ig-user-id}/tags`.
//
// Pages follow `paging.cursors.after` until what the last poll read. An
// IMAGE is an image, a VIDEO (reels too) a video with its `thumbnail_url`
// (hashtag media give none: no poster), a CAROUSEL_ALBUM each of its
// `children`. Hashtag media carry no username (the Graph API gives none):
// they are shown as 'Instagram', linked to their permalink, where the author
// is named. Deletions: the stored posts a listing should show and does not
// are gone; for the account's own media each is re-checked first (`GET
// /{media-id}`, error 100: it does not exist).
import type { Static } from 'typebox';
import type { InstagramConnector } from '../../schemas/connectors.js';
import {
  ConnectorSetupError,
  UpstreamFormatError,
  isObject,
  parseJson,
  type Connector,
  type DocumentParser,
  type MetaOf,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from '../connector.js';
import { hashtagsIn, httpUrl, parseInstant, str, textToHtml } from '../normalize.js';
import {
  FACEBOOK_GRAPH_URL,
  GraphClient,
  deletedFromWindow,
  graphUrl,
  listingDocument,
  newestOf,
  readListing,
} from './graph.js';

type InstagramSettings = Static<typeof InstagramConnector>;
type Json = Record<string, unknown>;

export const PAGE_LIMIT = 50;
/** recent_media holds the media of the last 24 hours */
const RECENT_HORIZON_MS = 24 * 3_600_000;
/** own media missing from a listing re-checked one by one, at most, per poll */
const RECHECK_LIMIT = 10;

const CHILD_FIELDS = 'children{id,media_type,media_url,thumbnail_url}';
export const HASHTAG_FIELDS = `id,caption,media_type,media_url,permalink,timestamp,${CHILD_FIELDS}`;
export const MEDIA_FIELDS = `id,caption,media_type,media_product_type,media_url,thumbnail_url,permalink,timestamp,username,${CHILD_FIELDS}`;

/** How a post without a username (hashtag media) is attributed: the network, linked to the post. */
export const UNNAMED_AUTHOR = 'Instagram';

interface InstagramCursor {
  hashtag?: string;
  hashtagId?: string;
  /** the newest media time read (ms) */
  newest?: number;
}

function readCursor(raw: unknown): InstagramCursor {
  if (!isObject(raw)) return {};
  const out: InstagramCursor = {};
  if (typeof raw.hashtag === 'string') out.hashtag = raw.hashtag;
  if (typeof raw.hashtagId === 'string' && /^\d+$/.test(raw.hashtagId)) out.hashtagId = raw.hashtagId;
  if (typeof raw.newest === 'number' && Number.isFinite(raw.newest)) out.newest = raw.newest;
  return out;
}

/** One IMAGE or VIDEO (a carousel's child too) → its media. */
function oneMedia(m: Json): UpstreamMedia | null {
  const url = httpUrl(m.media_url);
  const thumb = httpUrl(m.thumbnail_url);
  if (m.media_type === 'IMAGE') return url ? { kind: 'image', url, thumb: '' } : null;
  if (m.media_type === 'VIDEO' || m.media_type === 'REELS') {
    // media_url is left out of media with copyrighted music: the poster is still worth showing
    if (url) return { kind: 'video', url, thumb };
    return thumb ? { kind: 'image', url: thumb, thumb: '' } : null;
  }
  return null;
}

function mediaOf(item: Json): UpstreamMedia[] {
  if (item.media_type === 'CAROUSEL_ALBUM') {
    const children = isObject(item.children) && Array.isArray(item.children.data) ? item.children.data : [];
    const out = children
      .filter(isObject)
      .map(oneMedia)
      .filter((m): m is UpstreamMedia => m !== null);
    if (out.length > 0) return out;
  }
  const one = oneMedia(item);
  return one ? [one] : [];
}

/** An IG Media object → a post. */
export function instagramPost(item: Json): UpstreamPost | null {
  const id = typeof item.id === 'string' ? item.id : '';
  if (id === '') return null;
  const caption = str(item.caption);
  const username = str(item.username);
  return {
    externalId: id,
    content: caption.trim() === '' ? '' : textToHtml(caption),
    authorName: username || UNNAMED_AUTHOR,
    username,
    userPicture: '',
    linkUrl: httpUrl(item.permalink),
    createdAt: parseInstant(item.timestamp),
    updatedAt: null,
    media: mediaOf(item),
    tags: hashtagsIn(caption),
    sensitive: false,
  };
}

// ---------- documents (parse worker) ----------

const hashtagSearchDocument = ((doc) => {
  const body = parseJson(doc);
  const first = isObject(body) && Array.isArray(body.data) ? body.data.find(isObject) : undefined;
  if (!first || typeof first.id !== 'string' || !/^\d+$/.test(first.id))
    throw new UpstreamFormatError('Instagram found no such hashtag');
  return { posts: [], skipped: 0, meta: { id: first.id } };
}) satisfies DocumentParser<InstagramSettings>;

const mediaListDocument = ((doc, _settings, limits) =>
  listingDocument(doc, limits.maxItems, instagramPost, 'timestamp')) satisfies DocumentParser<InstagramSettings>;

// ---------- the poll (serving thread) ----------

const hashtagName = (s: InstagramSettings) => (s.hashtag ?? '').replace(/^#/, '').toLowerCase();

export const instagramConnector: Connector<InstagramSettings> = {
  kind: 'instagram',
  network: 'Instagram',
  sourceType: (s) => (s.follow === 'hashtag' ? 'hashtag' : s.follow === 'tags' ? 'tagged' : 'account'),
  async poll(input): Promise<PollOutput> {
    const { settings } = input;
    const client = new GraphClient(input, 'Instagram', input.credential);
    const userId = input.credential?.accountId ?? '';
    if (!/^\d+$/.test(userId))
      throw new ConnectorSetupError(
        'the Instagram connection names no Instagram business or creator account id: reconnect it choosing the account',
      );
    const base = settings.apiBaseUrl ?? FACEBOOK_GRAPH_URL;
    const cursor = readCursor(input.cursor);
    const next: InstagramCursor = {};

    let url: string;
    let stopAt = cursor.newest;
    let chronological = true;
    if (settings.follow === 'hashtag') {
      const name = hashtagName(settings);
      let hashtagId = cursor.hashtag === name ? cursor.hashtagId : undefined;
      if (hashtagId === undefined) {
        stopAt = undefined;
        const res = await client.get(graphUrl(base, 'ig_hashtag_search', { user_id: userId, q: name }));
        hashtagId = (await input.parse<MetaOf<typeof hashtagSearchDocument>>(res, 'hashtagSearch')).meta.id;
      }
      next.hashtag = name;
      next.hashtagId = hashtagId;
      const edge = settings.order === 'top' ? 'top_media' : 'recent_media';
      chronological = edge === 'recent_media';
      url = graphUrl(base, `${hashtagId}/${edge}`, { user_id: userId, fields: HASHTAG_FIELDS, limit: PAGE_LIMIT });
    } else {
      const edge = settings.follow === 'tags' ? 'tags' : 'media';
      url = graphUrl(base, `${userId}/${edge}`, { fields: MEDIA_FIELDS, limit: PAGE_LIMIT });
    }

    const listing = await readListing(client, input, url, 'mediaList', stopAt, chronological);
    let deleted: string[] = [];
    if (chronological) {
      const gone = await deletedFromWindow(
        input,
        listing,
        settings.follow === 'hashtag' ? input.now - RECENT_HORIZON_MS : undefined,
      );
      if (settings.follow === 'media') {
        // the account's own media: one that still answers was only left out of the listing
        for (const id of gone.filter((g) => /^\d+$/.test(g)).slice(0, RECHECK_LIMIT))
          if (!(await client.exists(graphUrl(base, id, { fields: 'id' })))) deleted.push(id);
      } else deleted = gone;
    }
    const newest = chronological ? newestOf(cursor.newest, listing) : undefined;
    return {
      rows: listing.rows,
      cursor: { ...next, ...(newest !== undefined ? { newest } : {}) },
      notModified: false,
      skipped: listing.skipped,
      warnings: listing.warnings,
      deleted,
    };
  },
  documents: { hashtagSearch: hashtagSearchDocument, mediaList: mediaListDocument },
};
