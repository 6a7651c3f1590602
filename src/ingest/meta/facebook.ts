// Facebook Page posts: `GET /{page-id}/posts` with a Page access token,
// `fields=id,message,created_time,permalink_url,full_picture,attachments{…},from`,
// newest first, `paging.cursors.after` pages until what the last poll read.
// A photo attachment is an image, a video one a video (its file when the
// attachment gives it, else the video's page) with its picture as the
// poster, an album each of its `subattachments`; a shared link is a linked
// card with its picture. The author is the Page (`from`). Deletions: the
// stored posts the listing should show and does not are re-checked (`GET
// /{post-id}`, error 100: it does not exist) and removed.
import type { Static } from 'typebox';
import type { FacebookConnector } from '../../schemas/connectors.js';
import {
  ConnectorSetupError,
  isObject,
  type Connector,
  type DocumentParser,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from '../connector.js';
import { cardHtml, hashtagsIn, httpUrl, parseInstant, plainText, str, textToHtml } from '../normalize.js';
import {
  FACEBOOK_GRAPH_URL,
  GraphClient,
  deletedFromWindow,
  graphUrl,
  listingDocument,
  newestOf,
  readListing,
} from './graph.js';

type FacebookSettings = Static<typeof FacebookConnector>;
type Json = Record<string, unknown>;

export const PAGE_LIMIT = 25;
const RECHECK_LIMIT = 10;
export const POST_FIELDS =
  'id,message,created_time,permalink_url,full_picture,attachments{media_type,type,media,url,title,subattachments},from';

interface FacebookCursor {
  pageId?: string;
  newest?: number;
}

/** One attachment (or subattachment) → its media. */
function attachmentMedia(a: Json): UpstreamMedia | null {
  const media = isObject(a.media) ? a.media : {};
  const image = isObject(media.image) ? httpUrl(media.image.src) : '';
  const type = `${str(a.media_type)} ${str(a.type)}`.toLowerCase();
  if (/\bvideo/.test(type)) {
    const file = httpUrl(media.source) || httpUrl(a.url);
    return file ? { kind: 'video', url: file, thumb: image } : image ? { kind: 'image', url: image, thumb: '' } : null;
  }
  if (/\b(photo|album|profile_media|cover_photo)/.test(type) && image) return { kind: 'image', url: image, thumb: '' };
  return null;
}

function attachmentsOf(post: Json): Json[] {
  return isObject(post.attachments) && Array.isArray(post.attachments.data)
    ? post.attachments.data.filter(isObject)
    : [];
}

/** A Page post → a post. */
export function facebookPost(post: Json): UpstreamPost | null {
  const id = typeof post.id === 'string' ? post.id : '';
  if (id === '') return null;
  const message = str(post.message);
  let content = message.trim() === '' ? '' : textToHtml(message);
  const media: UpstreamMedia[] = [];
  for (const a of attachmentsOf(post)) {
    const subs = isObject(a.subattachments) && Array.isArray(a.subattachments.data) ? a.subattachments.data : [];
    if (subs.length > 0) {
      for (const sub of subs.filter(isObject)) {
        const m = attachmentMedia(sub);
        if (m) media.push(m);
      }
      continue;
    }
    const m = attachmentMedia(a);
    if (m) media.push(m);
    else if (/share|link/.test(`${str(a.media_type)} ${str(a.type)}`.toLowerCase()))
      content += cardHtml(str(a.url), plainText(str(a.title)), content);
  }
  // a shared link's picture, when nothing else shows
  const picture = httpUrl(post.full_picture);
  if (media.length === 0 && picture) media.push({ kind: 'image', url: picture, thumb: '' });
  const from = isObject(post.from) ? post.from : {};
  return {
    externalId: id,
    content,
    authorName: plainText(str(from.name)),
    username: str(from.id),
    userPicture: '',
    linkUrl: httpUrl(post.permalink_url),
    createdAt: parseInstant(post.created_time),
    // `updated_time` moves with comments too: it is no edit time
    updatedAt: null,
    media,
    tags: hashtagsIn(message),
    sensitive: false,
  };
}

const postListDocument = ((doc, _settings, limits) =>
  listingDocument(doc, limits.maxItems, facebookPost, 'created_time')) satisfies DocumentParser<FacebookSettings>;

export const facebookConnector: Connector<FacebookSettings> = {
  kind: 'facebook',
  network: 'Facebook',
  sourceType: () => 'page',
  async poll(input): Promise<PollOutput> {
    const { settings } = input;
    const client = new GraphClient(input, 'Facebook', input.credential);
    const pageId = settings.pageId ?? input.credential?.accountId ?? '';
    if (!/^\d+$/.test(pageId))
      throw new ConnectorSetupError('this feed needs a pageId, or a Facebook connection made for a Page');
    const base = settings.apiBaseUrl ?? FACEBOOK_GRAPH_URL;
    const raw = isObject(input.cursor) ? (input.cursor as FacebookCursor) : {};
    const stopAt = raw.pageId === pageId && typeof raw.newest === 'number' ? raw.newest : undefined;
    const url = graphUrl(base, `${pageId}/posts`, { fields: POST_FIELDS, limit: PAGE_LIMIT });
    const listing = await readListing(client, input, url, 'postList', stopAt);
    const deleted: string[] = [];
    const gone = (await deletedFromWindow(input, listing)).filter((id) => /^\d+_\d+$/.test(id));
    for (const id of gone.slice(0, RECHECK_LIMIT))
      if (!(await client.exists(graphUrl(base, id, { fields: 'id' })))) deleted.push(id);
    const newest = newestOf(stopAt, listing);
    return {
      rows: listing.rows,
      cursor: { pageId, ...(newest !== undefined ? { newest } : {}) },
      notModified: false,
      skipped: listing.skipped,
      warnings: listing.warnings,
      deleted,
    };
  },
  documents: { postList: postListDocument },
};
