// Lemmy: the newest posts of a community
// (`GET /api/v3/post/list?community_name=…&sort=New`), older pages through
// the `next_page` cursor (`page_cursor=`) while everything on a page is new,
// at most `maxPages`. A post's title and Markdown body (rendered with
// markdown-it, then the ingestion allowlist) become the content, a link
// post's page title its linked card; an image link or a video embed becomes
// its media (with its alt text), else a link's thumbnail its picture; NSFW
// posts or communities arrive hidden; removed or deleted posts are left out.
// Neither a repost nor a reply: only posts are read (replies are comments,
// never ingested), and a cross-post is a post of its own in its community.
import type { Static } from 'typebox';
import type { IngestedPost } from '../store/ingest.js';
import {
  UpstreamFormatError,
  collectPosts,
  isObject,
  parseJson,
  type Connector,
  type DocumentParser,
  type MetaOf,
  type PollOutput,
  type UpstreamMedia,
  type UpstreamPost,
} from './connector.js';
import type { LemmyConnector } from '../schemas/connectors.js';
import MarkdownIt from 'markdown-it';
import { hostOf, pathOf } from './url-parts.js';
import { sanitizeIngestedHtml } from '../domain/sanitize.js';
import { escapeHtml, hashtagsIn, httpUrl, linkHtml, parseInstant, plainText, shownMedia, str } from './normalize.js';

type LemmySettings = Static<typeof LemmyConnector>;
type Json = Record<string, unknown>;

export const PAGE_LIMIT = 20;

const IMAGE_EXT = /\.(jpe?g|png|gif|webp|avif)$/i;
const VIDEO_EXT = /\.(mp4|webm|mov|m4v)$/i;

/** The post's own media: its link when that is an image or a video, or its video embed. */
function mediaOf(post: Json): UpstreamMedia[] {
  const url = httpUrl(post.url);
  const thumb = httpUrl(post.thumbnail_url);
  const type = typeof post.url_content_type === 'string' ? post.url_content_type.toLowerCase() : '';
  const video = httpUrl(post.embed_video_url);
  const alt = str(post.alt_text);
  if (url && (type.startsWith('image/') || (type === '' && IMAGE_EXT.test(pathOf(url)))))
    return [{ kind: 'image', url, thumb: thumb || '', alt }];
  if (video) return [{ kind: 'video', url: video, thumb, alt }];
  if (url && (type.startsWith('video/') || (type === '' && VIDEO_EXT.test(pathOf(url)))))
    return [{ kind: 'video', url, thumb, alt }];
  return [];
}

// Lemmy's own clients render bodies with markdown-it; raw HTML stays text
// (`html: false`), bare URLs become links, and the result still goes
// through the ingestion allowlist.
const markdown = new MarkdownIt({ html: false, linkify: true });
// an inline image is not something post content may show: a link to it, named by its alt text
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const src = String(token.attrGet('src') ?? '');
  return linkHtml(src, alt || src);
};

/** A Markdown body → safe HTML (without the line breaks markdown-it puts between blocks). */
export function markdownHtml(body: string): string {
  return sanitizeIngestedHtml(markdown.render(body).replace(/>\n+</g, '><'));
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
  const own = mediaOf(post);
  const link = httpUrl(post.url);
  let content = title ? `<p><strong>${escapeHtml(title)}</strong></p>` : '';
  if (body.trim() !== '') content += markdownHtml(body);
  // a link post: its page's title (the link card) linked, its thumbnail the picture
  if (link && own.every((m) => m.url !== link) && !body.includes(link))
    content += `<p>${linkHtml(link, plainText(str(post.embed_title)) || link)}</p>`;
  const thumb = httpUrl(post.thumbnail_url);
  const { media } = shownMedia(
    own,
    null,
    thumb ? { kind: 'image', url: thumb, thumb: '', alt: str(post.alt_text) } : null,
  );
  const creatorHost = hostOf(String(creator.actor_id ?? ''));
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
    authorBot: creator.bot_account === true,
    authorCreatedAt: parseInstant(creator.published),
    score: Number.isFinite(score) ? score : null,
  };
}

interface LemmyCursor {
  /** newest `published` (ms) read so far */
  newest?: number;
}

/** A page of `post/list` → its posts, and for paging each post's time and the next page's cursor. */
const postListDocument = ((doc, _settings, limits) => {
  const data = parseJson(doc);
  if (!isObject(data) || !Array.isArray(data.posts))
    throw new UpstreamFormatError(`expected a post list from ${new URL(doc.url).host}`);
  const views = data.posts.filter(isObject).slice(0, limits.maxItems);
  const times = views.map((view) => {
    const post = isObject(view.post) ? view.post : {};
    return {
      featured: post.featured_community === true || post.featured_local === true,
      published: parseInstant(post.published) ?? 0,
    };
  });
  const nextPage = typeof data.next_page === 'string' && data.next_page !== '' ? data.next_page : null;
  return { ...collectPosts(views, postViewPost), meta: { times, nextPage } };
}) satisfies DocumentParser<LemmySettings>;

export const lemmyConnector: Connector<LemmySettings> = {
  kind: 'lemmy',
  network: 'Lemmy',
  sourceType: () => 'community',
  async poll({ settings, http, parse, cursor: raw, maxPages, maxItems }): Promise<PollOutput> {
    const cursor: LemmyCursor = isObject(raw) && typeof raw.newest === 'number' ? { newest: raw.newest } : {};
    const base = settings.instance.replace(/\/+$/, '');
    const list = `${base}/api/v3/post/list?community_name=${encodeURIComponent(settings.community)}&sort=New&type_=All&limit=${PAGE_LIMIT}`;
    const rows: IngestedPost[] = [];
    let skipped = 0;
    let newest = cursor.newest;
    let pageCursor: string | null = null;
    for (let page = 0; page < maxPages && rows.length < maxItems; page++) {
      const res = await http.request(pageCursor ? `${list}&page_cursor=${encodeURIComponent(pageCursor)}` : list, {
        conditional: page === 0,
      });
      if (res.notModified) return { rows: [], cursor, notModified: true, skipped: 0 };
      const got = await parse<MetaOf<typeof postListDocument>>(res, 'postList');
      rows.push(...got.rows);
      skipped += got.skipped;
      const timed = got.meta.times.filter((v) => !v.featured);
      for (const { published } of timed) if (newest === undefined || published > newest) newest = published;
      pageCursor = got.meta.nextPage;
      if (cursor.newest === undefined || pageCursor === null || timed.length === 0) break;
      if (timed.some((v) => v.published <= cursor.newest!)) break;
    }
    // pages come newest first: what is over the cap is the oldest
    return {
      rows: rows.slice(0, maxItems),
      cursor: newest === undefined ? {} : { newest },
      notModified: false,
      skipped,
    };
  },
  documents: { postList: postListDocument },
};
