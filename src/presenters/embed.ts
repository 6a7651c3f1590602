// Store rows → the embed API's records (EmbedPost, EmbedWall of the embed
// wire contract), for the embed API and the webhook payloads alike. Content is already sanitized HTML (every write and every
// ingested post goes through domain/sanitize.ts); URLs are kept only when
// they are http(s), so nothing a page puts in `src` or `href` can run.
// Pictures Wallery keeps a copy of (src/store/media.ts) add the copy's URLs
// and dimensions; the original URLs stay as they are.
import { AVATAR_SLOT, itemSlot, mediaItemsOf } from '../domain/media-sources.js';
import { safeUrl } from '../domain/safe-url.js';
import type { PostPicture, StoredPicture } from '../store/media.js';
import type { PostRow } from '../store/posts.js';
import { pictureCopy, smallCopyUrl } from './media.js';
import type { TaggedProduct } from '../store/products.js';
import type { WallRow } from '../store/walls.js';
import { storedBranding } from '../domain/branding.js';
import type { EmbedMedia, EmbedPost, EmbedProduct, EmbedWall } from '../schemas/embed.js';

export type { EmbedPost } from '../schemas/embed.js';
export { safeUrl } from '../domain/safe-url.js';

const nonEmpty = (s: string) => (s.trim() === '' ? null : s);

/**
 * The opaque ordering key: posts sort by it DESCENDING (string compare) in W2
 * order — pin, then created time, then id, each fixed-width.
 */
export function sortKey(p: { pin: number; created_at: number; id: number }): string {
  const created = Math.max(0, Math.trunc(p.created_at));
  return `${p.pin > 0 ? 1 : 0}${String(created).padStart(15, '0')}${String(p.id).padStart(16, '0')}`;
}

/** A post's pictures (by slot, from `picturesOfPosts`) and the base of Wallery's URLs (src/domain/self-url.ts). */
export interface PostCopies {
  base: string;
  pictures: ReadonlyMap<string, PostPicture> | undefined;
}

/**
 * The stored copy of the picture in `slot`, when it is ready and still of
 * `url`: a post edited since its pictures were fetched shows its new
 * original, not the copy of the old one.
 */
function storedCopy(copies: PostCopies | undefined, slot: string, url: string | null): StoredPicture | null {
  const picture = url === null ? undefined : copies?.pictures?.get(slot);
  return picture && picture.state === 'ready' && picture.sourceUrl === url ? picture.stored : null;
}

function mediaOf(p: PostRow, copies: PostCopies | undefined): EmbedMedia[] {
  return mediaItemsOf(p).map((item, i) => {
    const stored = storedCopy(copies, itemSlot(i), item.kind === 'image' ? item.url : item.poster);
    return {
      ...item,
      width: stored?.width ?? null,
      height: stored?.height ?? null,
      copy: stored && copies ? pictureCopy(stored, copies.base) : null,
    };
  });
}

function typeOf(media: EmbedMedia[]): EmbedPost['type'] {
  if (media.length > 1) return 'carousel';
  if (media.length === 1) return media[0]!.kind;
  return 'text';
}

function priceOf(t: TaggedProduct): string | null {
  if (!Number.isFinite(t.price) || t.price <= 0) return null;
  return t.price.toFixed(2);
}

export function embedProduct(t: TaggedProduct): EmbedProduct {
  return {
    id: String(t.id),
    name: t.name,
    price: priceOf(t),
    currency: nonEmpty(t.currency_symbol) ?? nonEmpty(t.currency),
    url: safeUrl(t.url),
    image: safeUrl(t.image),
    left: t.left_pct,
    top: t.top_pct,
  };
}

export function embedPost(p: PostRow, products: readonly TaggedProduct[], copies?: PostCopies): EmbedPost {
  const media = mediaOf(p, copies);
  const avatar = safeUrl(p.user_picture);
  const avatarStored = storedCopy(copies, AVATAR_SLOT, avatar);
  const ctaUrl = p.has_cta === 1 ? safeUrl(p.cta_url) : null;
  return {
    id: String(p.id),
    network: p.network_name.trim().toLowerCase() || 'custom',
    type: typeOf(media),
    html: p.content,
    author: {
      name: p.author_name,
      username: nonEmpty(p.username),
      avatar,
      avatarCopy: avatarStored && copies ? smallCopyUrl(avatarStored, copies.base) : null,
      url: null,
    },
    link: safeUrl(p.link_url),
    createdAt: new Date(p.created_at).toISOString(),
    pinned: p.pin > 0,
    highlighted: p.highlight > 0,
    lang: p.lang,
    media,
    cta:
      ctaUrl !== null
        ? { text: p.cta_text, url: ctaUrl, color: p.cta_color || '#ffffff', background: p.cta_background || '#000000' }
        : null,
    products: products.map(embedProduct),
    sort: sortKey(p),
  };
}

/** The wall's record; `base` is the API path of the wall (`/api/embed/v1/walls/ID`), `key` the publishable key. */
export function embedWall(w: WallRow, shoppable: boolean, base: string, key: string): EmbedWall {
  const q = `?key=${encodeURIComponent(key)}`;
  return {
    id: w.id,
    name: w.name,
    slug: nonEmpty(w.url),
    shoppable,
    // the wall's own defaults, else the embed's; a page's attributes win over both
    layout: w.layout ?? 'masonry',
    theme: w.theme ?? 'auto',
    columns: w.columns,
    // the stored logo URL as given: the media pipeline copies posts' pictures only (not yet a wall's logo)
    branding: storedBranding(w.branding),
    postsUrl: `${base}/posts${q}`,
    streamUrl: `${base}/stream${q}`,
  };
}
