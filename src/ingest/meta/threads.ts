// Threads (graph.threads.net): a keyword search
// (`GET /keyword_search?q=&search_type=RECENT|TOP`, a `#tag` searches the
// topic tag: `search_mode=TAG`) or a profile's posts — the connected
// account's (`/me/threads`) or another public profile's (`/profile_posts?username=`,
// the Profile Discovery API). Exactly one of keyword, username.
//
// TEXT_POST is text, IMAGE an image, VIDEO a video with its thumbnail,
// CAROUSEL_ALBUM each of its children; AUDIO shows its text; a
// REPOST_FACADE (a repost on a profile) is left out, or with
// `reposts: unwrap` the reposted post is read (`GET /{media-id}`) and shown
// flagged as a repost. Threads names the username of a post, not a display
// name: it is both. Deletions: a profile's posts and the RECENT search are
// newest-first listings, compared with the stored posts they should show.
import type { Static } from 'typebox';
import type { ThreadsConnector } from '../../schemas/connectors.js';
import {
  UpstreamError,
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type DocumentParser,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from '../connector.js';
import { hashtagsIn, httpUrl, parseInstant, str, textToHtml, cardHtml } from '../normalize.js';
import {
  GraphClient,
  THREADS_GRAPH_URL,
  deletedFromWindow,
  graphUrl,
  listingDocument,
  newestOf,
  readListing,
  pageData,
  type GraphPageMeta,
} from './graph.js';
import type { IngestedPost } from '../../store/ingest.js';

type ThreadsSettings = Static<typeof ThreadsConnector>;
type Json = Record<string, unknown>;

export const PAGE_LIMIT = 50;
/** reposts unwrapped (one request each), at most, per poll */
const UNWRAP_LIMIT = 10;

const CHILD_FIELDS = 'children{id,media_type,media_url,thumbnail_url,alt_text}';
export const THREAD_FIELDS = `id,media_type,media_url,permalink,username,text,timestamp,shortcode,thumbnail_url,alt_text,link_attachment_url,is_quote_post,is_reply,reposted_post,${CHILD_FIELDS}`;

function oneMedia(m: Json): UpstreamMedia | null {
  const url = httpUrl(m.media_url);
  const alt = str(m.alt_text);
  if (!url) return null;
  if (m.media_type === 'IMAGE') return { kind: 'image', url, thumb: '', alt };
  if (m.media_type === 'VIDEO') return { kind: 'video', url, thumb: httpUrl(m.thumbnail_url), alt };
  return null;
}

function mediaOf(item: Json): UpstreamMedia[] {
  if (item.media_type === 'CAROUSEL_ALBUM') {
    const children = isObject(item.children) && Array.isArray(item.children.data) ? item.children.data : [];
    return children
      .filter(isObject)
      .map(oneMedia)
      .filter((m): m is UpstreamMedia => m !== null);
  }
  const one = oneMedia(item);
  return one ? [one] : [];
}

/** A Threads media object → a post (null for a repost's facade, which shows nothing of its own). */
export function threadsPost(item: Json): UpstreamPost | null {
  const id = typeof item.id === 'string' ? item.id : '';
  if (id === '' || item.media_type === 'REPOST_FACADE') return null;
  const text = str(item.text);
  let content = text.trim() === '' ? '' : textToHtml(text);
  const link = httpUrl(item.link_attachment_url);
  if (link) content += cardHtml(link, '', content);
  const username = str(item.username);
  return {
    externalId: id,
    content,
    authorName: username,
    username,
    userPicture: '',
    linkUrl: httpUrl(item.permalink),
    createdAt: parseInstant(item.timestamp),
    updatedAt: null,
    media: mediaOf(item),
    tags: hashtagsIn(text),
    sensitive: false,
    reply: item.is_reply === true,
  };
}

const repostTarget = (item: Json): string => {
  const target = isObject(item.reposted_post) ? item.reposted_post.id : item.reposted_post;
  return typeof target === 'string' && /^\d+$/.test(target) ? target : '';
};

// ---------- documents (parse worker) ----------

const threadListDocument = ((doc, _settings, limits) => {
  const content = listingDocument(
    doc,
    limits.maxItems,
    threadsPost,
    'timestamp',
    (item) => item.media_type !== 'REPOST_FACADE',
  );
  const { data } = pageData(doc);
  const pointers: GraphPageMeta['pointers'] = data
    .filter((item) => item.media_type === 'REPOST_FACADE' && typeof item.id === 'string')
    .map((item) => ({ id: item.id as string, target: repostTarget(item) }))
    .filter((p) => p.target !== '');
  return { ...content, meta: { ...content.meta, pointers } };
}) satisfies DocumentParser<ThreadsSettings>;

/** One media object (a reposted post) → the post, flagged as a repost. */
const repostedDocument = ((doc) => {
  const body = parseJson(doc);
  if (!isObject(body) || typeof body.id !== 'string')
    throw new UpstreamFormatError('Threads did not answer with the reposted post');
  const { posts, skipped } = collectPosts([body], (item) => {
    const post = threadsPost(item);
    return post && { ...post, repost: true };
  });
  return { posts, skipped, meta: { id: body.id } };
}) satisfies DocumentParser<ThreadsSettings>;

// ---------- the poll (serving thread) ----------

interface ThreadsCursor {
  /** what the cursor was made for: the search or profile */
  for?: string;
  newest?: number;
}

export const threadsConnector: Connector<ThreadsSettings> = {
  kind: 'threads',
  network: 'Threads',
  sourceType: (s) => (s.keyword !== undefined ? 'keyword' : 'account'),
  async poll(input): Promise<PollOutput> {
    const { settings } = input;
    const client = new GraphClient(input, 'Threads', input.credential);
    const base = settings.apiBaseUrl ?? THREADS_GRAPH_URL;
    let url: string;
    let chronological = true;
    let key: string;
    if (settings.keyword !== undefined) {
      const keyword = settings.keyword.trim();
      const tag = /^#\S+$/.test(keyword);
      const top = settings.order === 'top';
      chronological = !top;
      key = `${top ? 'top' : 'recent'}:${keyword}`;
      url = graphUrl(base, 'keyword_search', {
        q: tag ? keyword.slice(1) : keyword,
        search_type: top ? 'TOP' : 'RECENT',
        search_mode: tag ? 'TAG' : undefined,
        fields: THREAD_FIELDS,
        limit: PAGE_LIMIT,
      });
    } else {
      const username = (settings.username ?? '').replace(/^@/, '');
      const own =
        username.toLowerCase() === 'me' ||
        username.toLowerCase() === (input.credential?.accountName ?? '').replace(/^@/, '').toLowerCase();
      key = own ? 'me' : `@${username.toLowerCase()}`;
      url = own
        ? graphUrl(base, 'me/threads', { fields: THREAD_FIELDS, limit: PAGE_LIMIT })
        : graphUrl(base, 'profile_posts', { username, fields: THREAD_FIELDS, limit: PAGE_LIMIT });
    }
    const raw = isObject(input.cursor) ? (input.cursor as ThreadsCursor) : {};
    const stopAt = raw.for === key && typeof raw.newest === 'number' ? raw.newest : undefined;
    const listing = await readListing(client, input, url, 'threadList', stopAt, chronological);

    const rows: IngestedPost[] = [...listing.rows];
    let skipped = listing.skipped;
    if (settings.reposts === 'unwrap') {
      for (const pointer of listing.pointers.slice(0, UNWRAP_LIMIT)) {
        listing.seen.add(pointer.target);
        try {
          const res = await client.get(graphUrl(base, pointer.target, { fields: THREAD_FIELDS }));
          rows.push(...(await input.parse(res, 'reposted')).rows);
        } catch (err) {
          // a reposted post that is gone (or not readable) is left out; a refused token still fails the poll
          if (!(err instanceof UpstreamError)) throw err;
          skipped++;
        }
      }
    }
    // a search's results reach back only so far: it shows deletions only among what it returned
    const deleted = !chronological
      ? []
      : await deletedFromWindow(
          input,
          listing,
          settings.keyword !== undefined ? (listing.oldest ?? Infinity) : undefined,
        );
    const newest = chronological ? newestOf(stopAt, listing) : undefined;
    return {
      rows,
      cursor: { for: key, ...(newest !== undefined ? { newest } : {}) },
      notModified: false,
      skipped,
      warnings: listing.warnings,
      deleted,
    };
  },
  documents: { threadList: threadListDocument, reposted: repostedDocument },
};
