// Lemmy: the newest posts of a community
// (`GET /api/v3/post/list?community_name=…&sort=New`), older pages through
// the `next_page` cursor (`page_cursor=`) while everything on a page is new,
// at most `maxPages`. A post's title and Markdown body become the content
// (as text: escaped, line breaks and bare links kept); an image link or a
// video embed becomes its media; NSFW posts or communities arrive hidden;
// removed or deleted posts are left out.
import type { Static } from 'typebox';
import {
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { LemmyConnector } from './connector-settings.js';
import { escapeHtml, hashtagsIn, httpUrl, linkHtml, parseInstant, plainText, textToHtml } from './normalize.js';

type LemmySettings = Static<typeof LemmyConnector>;
type Json = Record<string, unknown>;

export const PAGE_LIMIT = 20;

const IMAGE_EXT = /\.(jpe?g|png|gif|webp|avif)$/i;
const VIDEO_EXT = /\.(mp4|webm|mov|m4v)$/i;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function mediaOf(post: Json): UpstreamMedia[] {
  const url = httpUrl(post.url);
  const thumb = httpUrl(post.thumbnail_url);
  const type = typeof post.url_content_type === 'string' ? post.url_content_type.toLowerCase() : '';
  const video = httpUrl(post.embed_video_url);
  if (url && (type.startsWith('image/') || (type === '' && IMAGE_EXT.test(pathOf(url)))))
    return [{ kind: 'image', url, thumb: thumb || '' }];
  if (video) return [{ kind: 'video', url: video, thumb }];
  if (url && (type.startsWith('video/') || (type === '' && VIDEO_EXT.test(pathOf(url)))))
    return [{ kind: 'video', url, thumb }];
  return [];
}

/** A PostView of `post/list` → a post (null for removed or deleted ones). */
export function postViewPost(view: Json): UpstreamPost | null {
  const post = isObject(view.post) ? view.post : null;
  if (!post || (typeof post.id !== 'number' && typeof post.id !== 'string')) return null;
  if (post.removed === true || post.deleted === true) return null;
  const creator = isObject(view.creator) ? view.creator : {};
  const community = isObject(view.community) ? view.community : {};
  const counts = isObject(view.counts) ? view.counts : {};
  const title = plainText(typeof post.name === 'string' ? post.name : '');
  const body = typeof post.body === 'string' ? post.body : '';
  const media = mediaOf(post);
  const link = httpUrl(post.url);
  let content = title ? `<p><strong>${escapeHtml(title)}</strong></p>` : '';
  if (body.trim() !== '') content += textToHtml(body);
  if (link && media.every((m) => m.url !== link) && !body.includes(link)) content += `<p>${linkHtml(link, link)}</p>`;
  const creatorHost = (() => {
    try {
      return new URL(String(creator.actor_id ?? '')).host;
    } catch {
      return '';
    }
  })();
  const name = typeof creator.name === 'string' ? creator.name : '';
  const score = Number(counts.score);
  return {
    externalId: String(post.id),
    content,
    authorName: plainText(
      typeof creator.display_name === 'string' && creator.display_name.trim() !== '' ? creator.display_name : name,
    ),
    username: name && creatorHost ? `${name}@${creatorHost}` : name,
    userPicture: httpUrl(creator.avatar),
    linkUrl: httpUrl(post.ap_id),
    createdAt: parseInstant(post.published),
    updatedAt: parseInstant(post.updated),
    media,
    tags: hashtagsIn(`${title}\n${body}`),
    sensitive: post.nsfw === true || community.nsfw === true,
    score: Number.isFinite(score) ? score : null,
  };
}

interface LemmyCursor {
  /** newest `published` (ms) read so far */
  newest?: number;
}

export const lemmyConnector: Connector<LemmySettings> = {
  kind: 'lemmy',
  network: 'Lemmy',
  sourceType: () => 'community',
  async poll({ settings, http, cursor: raw, maxPages }): Promise<PollOutput> {
    const cursor: LemmyCursor = isObject(raw) && typeof raw.newest === 'number' ? { newest: raw.newest } : {};
    const base = settings.instance.replace(/\/+$/, '');
    const where = new URL(base).host;
    const list = `${base}/api/v3/post/list?community_name=${encodeURIComponent(settings.community)}&sort=New&type_=All&limit=${PAGE_LIMIT}`;
    const views: { view: Json; featured: boolean; published: number }[] = [];
    let pageCursor: string | null = null;
    for (let page = 0; page < maxPages; page++) {
      const res = await http.request(pageCursor ? `${list}&page_cursor=${encodeURIComponent(pageCursor)}` : list, {
        conditional: page === 0,
      });
      if (res.notModified) return { posts: [], cursor, notModified: true, skipped: 0 };
      const data = parseJson(res);
      if (!isObject(data) || !Array.isArray(data.posts))
        throw new UpstreamFormatError(`expected a post list from ${where}`);
      const got = data.posts.filter(isObject).map((view) => {
        const post = isObject(view.post) ? view.post : {};
        return {
          view,
          featured: post.featured_community === true || post.featured_local === true,
          published: parseInstant(post.published) ?? 0,
        };
      });
      views.push(...got);
      pageCursor = typeof data.next_page === 'string' && data.next_page !== '' ? data.next_page : null;
      const timed = got.filter((v) => !v.featured);
      if (cursor.newest === undefined || pageCursor === null || timed.length === 0) break;
      if (timed.some((v) => v.published <= cursor.newest!)) break;
    }
    let newest = cursor.newest;
    for (const { featured, published } of views) {
      if (!featured && (newest === undefined || published > newest)) newest = published;
    }
    const { posts, skipped } = collectPosts(views, ({ view }) => postViewPost(view));
    return { posts, cursor: newest === undefined ? {} : { newest }, notModified: false, skipped };
  },
};
