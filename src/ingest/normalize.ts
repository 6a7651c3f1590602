// From what a connector read upstream to a stored post: HTML sanitized with the
// allowlist (content is always safe HTML), plain text for names and places,
// media → the post's picture/file/children and its postType (contract §6),
// hashtags → tags, and the hidden flag for sensitive or profane posts.
import sanitizeHtml from 'sanitize-html';
import { parseFeedInstant } from '../domain/dates.js';
import { isProfane } from '../domain/profanity.js';
import { normalizeHttpUrl, plainTextOf, REMOVED_WITH_TEXT, sanitize, withoutControls } from '../domain/sanitize.js';
import type { IngestedPost, PostFields } from '../store/ingest.js';
import type { MediaKind } from '../domain/lists.js';
import type { UpstreamMedia, UpstreamPost } from './connector.js';

// ---------- HTML ----------

// Upstream HTML goes through the allowlist shared with writes: sanitizeIngestedHtml
// in src/domain/sanitize.ts. Plain text is made here.

const TEXT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: REMOVED_WITH_TEXT,
};

const decodeEscapes = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/**
 * HTML (or entity-escaped text) → plain text: tags removed, entities decoded,
 * whitespace collapsed. Repeated a few times, so text that only becomes a tag
 * after decoding (`&lt;script&gt;`) is stripped as well; whatever markup is
 * still left then (deeper encodings, a trailing `</`) goes as in a written
 * name (plainTextOf): no markup survives. No control character either
 * (upstream is as untrusted as a write): line breaks stay with `keepLines`.
 */
export function plainText(html: string, keepLines = false): string {
  return withoutControls(plainTextOf(readableText(html, keepLines)), keepLines ? 'multiline' : 'single');
}

/**
 * HTML → the text a browser shows of it, read once: tags removed, entities
 * decoded, whitespace collapsed. Unlike plainText, text that only looks like
 * markup after decoding stays (`&lt;blink&gt;` is the text `<blink>`): for
 * text that is shown escaped, such as an item's title in its post.
 */
export function textOfHtml(html: string): string {
  return decodeEscapes(sanitize(html, TEXT_OPTIONS)).replace(/\s+/g, ' ').trim();
}

function readableText(html: string, keepLines: boolean): string {
  let text = html;
  for (let i = 0; i < 4; i++) {
    const withBreaks = text.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|blockquote|h[1-6])>/gi, '\n');
    const next = decodeEscapes(sanitize(withBreaks, TEXT_OPTIONS));
    if (next === text) break;
    text = next;
  }
  if (keepLines) {
    return text
      .split('\n')
      .map((l) => l.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }
  return text.replace(/\s+/g, ' ').trim();
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text (YouTube descriptions, Lemmy bodies) → safe HTML: escaped, line breaks kept, bare links linked. */
export function textToHtml(text: string): string {
  const segments: TextSegment[] = [];
  const urlRe = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'’]/g;
  let last = 0;
  for (const m of text.matchAll(urlRe)) {
    segments.push({ text: text.slice(last, m.index) }, { text: m[0], href: m[0] });
    last = m.index + m[0].length;
  }
  segments.push({ text: text.slice(last) });
  return segmentsToHtml(segments);
}

export interface TextSegment {
  text: string;
  /** a link on this stretch of text (dropped unless http/https/mailto) */
  href?: string;
}

/** Rich text (plain text with linked stretches, e.g. Bluesky facets) → safe HTML paragraphs. */
export function segmentsToHtml(segments: readonly TextSegment[]): string {
  return paragraphs(segments.map((s) => (s.href ? linkHtml(s.href, s.text) : escapeHtml(s.text))).join(''));
}

function paragraphs(html: string): string {
  return html
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${p.replace(/\n/g, '<br />')}</p>`)
    .join('');
}

export function linkHtml(href: string, text: string): string {
  return linkAround(href, escapeHtml(text));
}

/** A link around safe HTML (`inner` as it is); the HTML alone when `href` is not an http(s) or mailto URL. */
function linkAround(href: string, inner: string): string {
  const url = /^mailto:[^\s<>"]+$/i.test(href) ? href : httpUrl(href);
  if (url === '') return inner;
  return `<a href="${escapeHtml(url)}" rel="nofollow noopener noreferrer" target="_blank">${inner}</a>`;
}

// ---------- what social posts carry besides their text ----------

/**
 * A content warning as the first paragraph, marked as one (the post also
 * arrives hidden: `sensitive`). '' when there is none.
 */
export function contentWarningHtml(text: string): string {
  return text.trim() === '' ? '' : `<p><strong>Content warning:</strong> ${escapeHtml(text.trim())}</p>`;
}

export interface QuotedPost {
  authorName: string;
  /** shown after the name as `@handle` */
  handle: string;
  /** the quoted post upstream */
  link: string;
  /** its text (and whatever it shows of its own embeds), safe HTML */
  bodyHtml: string;
  /** its images and videos */
  media: UpstreamMedia[];
  /** flagged sensitive upstream: the quoting post arrives hidden too */
  sensitive: boolean;
}

export const QUOTE_UNAVAILABLE = 'Quoted post unavailable';

/**
 * A quoted post as a block of the quoting post's content: its author (name
 * and handle, linked to the quoted post upstream), then its text, then —
 * unless they became the quoting post's own media (`mediaShown`) — its media
 * as links named by their alt text. A quote the network cannot show
 * (deleted, blocked, detached by its author, not approved, or its author
 * opted out of public display) is a block that says so, with nothing of the
 * quoted post.
 */
export function quoteHtml(quote: QuotedPost | null, mediaShown: boolean): string {
  if (!quote) return `<blockquote><p>${QUOTE_UNAVAILABLE}</p></blockquote>`;
  const name = plainText(quote.authorName) || quote.handle;
  const who = `<strong>${escapeHtml(name)}</strong>${quote.handle && quote.handle !== name ? ` @${escapeHtml(quote.handle)}` : ''}`;
  const media = mediaShown
    ? ''
    : quote.media
        .map((m) => {
          const kind = m.kind === 'image' ? 'Image' : 'Video';
          const alt = plainText(m.alt ?? '');
          return `<p>${linkHtml(m.url, alt ? `${kind}: ${alt}` : kind)}</p>`;
        })
        .join('');
  return `<blockquote><p>${linkAround(quote.link, who)}</p>${quote.bodyHtml}${media}</blockquote>`;
}

/**
 * The media a post shows: its own; when it has none, the quoted post's;
 * else a link card's image. `fromQuote` tells whether the quoted post's
 * media were taken.
 */
export function shownMedia(
  own: readonly UpstreamMedia[],
  quote: QuotedPost | null,
  cardImage: UpstreamMedia | null,
): { media: UpstreamMedia[]; fromQuote: boolean } {
  if (own.length > 0) return { media: [...own], fromQuote: false };
  if (quote && quote.media.length > 0) return { media: [...quote.media], fromQuote: true };
  return { media: cardImage ? [cardImage] : [], fromQuote: false };
}

/**
 * A link card (a page the post links to) as a paragraph: its title linked to
 * the page. Left out when the post's text already shows the title (in any
 * case), or when there is no title and the text already links the page.
 */
export function cardHtml(url: string, title: string, postHtml: string): string {
  const href = httpUrl(url);
  if (href === '') return '';
  const name = plainText(title);
  const shown =
    name === '' ? postHtml.includes(escapeHtml(href)) : plainText(postHtml).toLowerCase().includes(name.toLowerCase());
  if (shown) return '';
  return `<p>${linkHtml(href, name || href)}</p>`;
}

/** A poll's options as a list (their counts change with every vote: left out, so re-polls stay quiet). */
export function pollHtml(options: readonly string[]): string {
  const items = options.map((o) => plainText(o)).filter((o) => o !== '');
  return items.length === 0 ? '' : `<ul>${items.map((o) => `<li>${escapeHtml(o)}</li>`).join('')}</ul>`;
}

// ---------- small values ----------

const limit = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** An http(s) URL as a string (normalized, src/domain/sanitize.ts), or '' (anything else never reaches a client). */
export function httpUrl(value: unknown, base?: string): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  try {
    return normalizeHttpUrl(value.trim(), base) ?? '';
  } catch {
    return ''; // an unusable base
  }
}

/** A string field of an upstream object, or ''. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/**
 * An upstream instant → epoch ms (UTC), or null. ISO 8601, RFC 822 and their
 * usual breakages and translations (parseFeedInstant); zone-less forms (older
 * Lemmy, many feeds) are taken as UTC. Anything else only with an explicit zone.
 */
export function parseInstant(value: unknown): number | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const read = parseFeedInstant(value);
  if (read !== null) return read;
  if (!/(?:\b(?:gmt|utc)|[+-]\d{2}:?\d{2})\s*$/i.test(value.trim())) return null;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? null : ms;
}

const TAG_RE = /(?:^|[^\p{L}\p{N}_&/#])#([\p{L}\p{N}_][\p{L}\p{N}_]{0,99})/gu;

/** `#hashtags` in plain text, without the `#`. */
export function hashtagsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TAG_RE)) if (!/^\d+$/.test(m[1]!)) out.push(m[1]!);
  return out;
}

/**
 * Tags for `postTags`: without `#`, each once (case-insensitively), in
 * first-seen order. A tag of several words (an RSS category "Donald Trump")
 * keeps them, one space apart; commas (the list's separator) read as spaces.
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = plainText(raw)
      .replace(/^[#\s]+/, '')
      .replace(/[,\s]+/g, ' ')
      .trim()
      .slice(0, 100)
      .trimEnd();
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out.slice(0, 50);
}

// ---------- the stored row ----------

export const POST_TYPE = { text: 1, image: 2, video: 3, carousel: 4 } as const;

/**
 * Media → the fields the API shows. No media: a text post (1). One image: an
 * image post (2) whose picture and file are the image. One video: a video post
 * (3) whose picture is the poster, file and media file the video. Several: an
 * image carousel (4), one child node per item, the first item as picture/file.
 * Alt text: the first item's is the post's `alt`; each child carries its own.
 */
export function mediaFields(media: readonly UpstreamMedia[]) {
  const first = media[0];
  const children = media.map((m) => ({
    ...(m.kind === 'image' ? { image: m.url, video: '' } : { image: m.thumb, video: m.url }),
    ...(m.alt ? { alt: m.alt } : {}),
  }));
  if (!first) {
    return {
      post_type: POST_TYPE.text,
      media: 'text' as MediaKind,
      picture: '',
      file: '',
      file_original: '',
      file_thumb: '',
      media_file: '',
      children: '[]',
      alt: '',
    };
  }
  const type = media.length > 1 ? POST_TYPE.carousel : first.kind === 'image' ? POST_TYPE.image : POST_TYPE.video;
  const shared = {
    post_type: type,
    file: first.url,
    file_original: first.original && first.original !== first.url ? first.original : '',
    children: JSON.stringify(children),
    alt: first.alt ?? '',
  };
  if (first.kind === 'image') {
    return {
      ...shared,
      media: 'image' as MediaKind,
      picture: first.url,
      file_thumb: first.thumb && first.thumb !== first.url ? first.thumb : '',
      media_file: '',
    };
  }
  return {
    ...shared,
    media: 'video' as MediaKind,
    picture: first.thumb,
    file_thumb: first.thumb,
    media_file: first.url,
  };
}

/** Alt text is plain text: markup removed, line breaks kept, at most this long (Bluesky allows 10,000 graphemes). */
const ALT_MAX = 10_000;

/** Keeps only media with usable http(s) URLs; a video without a poster keeps '' as its image. */
export function cleanMedia(media: readonly UpstreamMedia[]): UpstreamMedia[] {
  const out: UpstreamMedia[] = [];
  const seen = new Set<string>();
  for (const m of media) {
    const url = httpUrl(m.url);
    if (url === '' || seen.has(url)) continue;
    seen.add(url);
    const alt = limit(plainText(m.alt ?? '', true), ALT_MAX);
    out.push({
      kind: m.kind,
      url,
      thumb: httpUrl(m.thumb),
      ...(m.original ? { original: httpUrl(m.original) } : {}),
      ...(alt ? { alt } : {}),
    });
  }
  return out.slice(0, 20);
}

/** A connector's post → the stored columns (everything except ids and moderation state). */
export function toPostFields(post: UpstreamPost, network: string, now: number): PostFields {
  const created = post.createdAt ?? now;
  return {
    network_name: network,
    ...mediaFields(cleanMedia(post.media)),
    // the connector's HTML has passed the allowlist, which leaves control characters (and decodes `&#27;`)
    content: limit(withoutControls(post.content, 'multiline'), 100_000),
    link_url: httpUrl(post.linkUrl),
    author_name: limit(plainText(post.authorName), 300),
    username: limit(plainText(post.username), 300),
    user_picture: httpUrl(post.userPicture),
    score: post.score ?? null,
    rating: post.rating ?? null,
    tags: normalizeTags(post.tags).join(','),
    location: limit(plainText(post.location ?? ''), 300),
    created_at: created,
    updated_at: Math.max(created, post.updatedAt ?? created),
    repost: post.repost === true ? 1 : 0,
    reply: post.reply === true ? 1 : 0,
    sensitive: post.sensitive ? 1 : 0,
    author_bot: post.authorBot === true ? 1 : 0,
    author_created_at: post.authorCreatedAt ?? null,
  };
}

/** Whether a new post arrives hidden: flagged sensitive upstream, or profane on a wall that filters profanity. */
export function arrivesHidden(post: UpstreamPost, wallProfanity: boolean): boolean {
  if (post.sensitive) return true;
  if (!wallProfanity) return false;
  return isProfane([plainText(post.content), plainText(post.authorName), post.tags.join(' ')].join('\n'));
}

/**
 * A document's posts → stored rows: each upstream id once (the first wins; cut
 * to 1000 characters, empty ones left out), at most `maxItems`. A post that
 * cannot be normalized is left out and counted.
 */
export function postRows(
  posts: readonly UpstreamPost[],
  options: { network: string; wallProfanity: boolean; now: number; maxItems: number },
): { rows: IngestedPost[]; leftOut: number } {
  const seen = new Set<string>();
  const rows: IngestedPost[] = [];
  let leftOut = 0;
  for (const post of posts) {
    if (rows.length >= options.maxItems) break;
    const id = post.externalId.slice(0, 1000);
    if (id === '' || seen.has(id)) continue;
    seen.add(id);
    try {
      rows.push({
        external_id: id,
        ...toPostFields(post, options.network, options.now),
        hidden: arrivesHidden(post, options.wallProfanity) ? 1 : 0,
      });
    } catch {
      leftOut++;
    }
  }
  return { rows, leftOut };
}
