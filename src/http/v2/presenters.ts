// Store rows → the two API families' records, with fields in the order of
// api-v2.md's tables (the XML form prints them in this order). Each returns
// exactly the type of its schema (src/http/v2/schemas.ts); a test holds
// their output for every fixture post against those schemas.
import type { WallRow } from '../../store/walls.js';
import type { PublicFeedRow } from '../../store/feeds.js';
import type { PostRow } from '../../store/posts.js';
import type { TaggedProduct } from '../../store/products.js';
import { parseChildren } from '../../domain/media.js';
import { formatDayMonthYear, formatIso, formatLongText } from '../../domain/dates.js';
import type { Static } from 'typebox';
import type * as S from './schemas.js';

export type DateForm = 'iso' | 'long';

const dmyOrNull = (ms: number | null) => (ms === null ? null : formatDayMonthYear(ms));
const widgetInstant = (ms: number, form: DateForm) => (form === 'iso' ? formatIso(ms) : formatLongText(ms));

export function feedInfo(f: PublicFeedRow): Static<typeof S.FeedInfo> {
  return {
    feedId: f.id,
    feedName: f.name,
    source: f.source,
    sourceType: f.source_type,
    feedCreatedAt: dmyOrNull(f.created_at),
    feedUpdatedAt: formatDayMonthYear(f.updated_at),
  };
}

/** W1 (`wallCreatedAt` ISO in JSON, long text in XML) */
export function widgetWallInfo(w: WallRow, feeds: PublicFeedRow[], form: DateForm): Static<typeof S.WidgetWallInfo> {
  return {
    wallId: w.id,
    wallName: w.name,
    wallUrl: w.url,
    wallProfanity: w.profanity,
    wallCreatedAt: widgetInstant(w.created_at, form),
    feeds: feeds.map(feedInfo),
  };
}

/** C1 (`wallCreatedAt` as DD/MM/YYYY) */
export function commerceWallInfo(w: WallRow, feeds: PublicFeedRow[]): Static<typeof S.CommerceWallInfo> {
  return {
    wallId: w.id,
    wallName: w.name,
    wallUrl: w.url,
    wallProfanity: w.profanity,
    wallCreatedAt: formatDayMonthYear(w.created_at),
    feeds: feeds.map(feedInfo),
  };
}

export function widgetListWall(w: WallRow, form: DateForm): Static<typeof S.WidgetListWall> {
  return {
    wallName: w.name,
    wallUrl: w.url,
    wallProfanity: w.profanity,
    wallCreatedAt: widgetInstant(w.created_at, form),
  };
}

export function commerceListWall(w: WallRow): Static<typeof S.CommerceListWall> {
  return {
    wallName: w.name,
    wallUrl: w.url,
    wallProfanity: w.profanity,
    wallCreatedAt: formatDayMonthYear(w.created_at),
  };
}

export function widgetPost(p: PostRow, wallProfanity: number): Static<typeof S.WidgetPost> {
  const cta = p.has_cta === 1;
  return {
    feedId: p.feed_id,
    feedName: p.feed_name,
    postPicture: p.picture,
    wallProfanity,
    networkName: p.network_name,
    postId: String(p.id),
    content: p.content,
    postFile: p.file,
    postFileOriginal: p.file_original,
    postFileThumb: p.file_thumb,
    postMediaFile: p.media_file,
    rating: p.rating,
    postPin: p.pin,
    postCreatedAt: formatDayMonthYear(p.created_at),
    postUpdatedAt: formatDayMonthYear(p.updated_at),
    postTags: p.tags,
    location: p.location,
    postLinkUrl: p.link_url,
    postAuthorName: p.author_name,
    postUsername: p.username,
    postUserPicture: p.user_picture,
    PostType: p.post_type,
    postHighlight: p.highlight,
    CTAcolor: cta ? p.cta_color : null,
    CTAbackground: cta ? p.cta_background : null,
    CTAStatus: cta ? p.cta_status : null,
    CTAurl: cta ? p.cta_url : null,
    CTAtext: cta ? p.cta_text : null,
    childNode: parseChildren(p.children),
  };
}

export function commercePost(p: PostRow): Static<typeof S.CommercePost> {
  const cta = p.has_cta === 1;
  return {
    feedId: p.feed_id,
    feedName: p.feed_name,
    networkName: p.network_name,
    postId: p.id,
    postPicture: p.picture,
    postContent: p.content,
    postFile: p.file,
    postMediaFile: p.media_file,
    postLinkUrl: p.link_url,
    postAuthorName: p.author_name,
    postUsername: p.username,
    postUserPicture: p.user_picture,
    postType: p.post_type,
    postScore: p.score,
    postHighlight: p.highlight,
    postRating: p.rating,
    postPin: p.pin,
    postCreatedAt: formatDayMonthYear(p.created_at),
    postUpdatedAt: formatDayMonthYear(p.updated_at),
    CTAcolor: cta ? p.cta_color : '',
    CTAbackground: cta ? p.cta_background : '',
    CTAStatus: cta ? p.cta_status : 0,
    CTAurl: cta ? p.cta_url : '',
    CTAtext: cta ? p.cta_text : '',
  };
}

export function productRecord(t: TaggedProduct, form: DateForm): Static<typeof S.Product> {
  return {
    productId: t.id,
    productName: t.name,
    productSku: t.sku,
    productPrice: t.price,
    productCurrencySymbol: t.currency_symbol,
    priceCurrency: t.currency,
    productDiscount: t.discount,
    productUrl: t.url,
    productImage: t.image,
    discountCurrencySymbol: t.discount_currency_symbol,
    discountCurrency: t.discount_currency,
    storeShopName: t.store_shop_name,
    storeProductId: t.store_product_id,
    storeProductType: t.store_product_type,
    hotspot: [`left:${String(t.left_pct)}%`, `top:${String(t.top_pct)}%`],
    createdAt: widgetInstant(t.created_at, form),
    updatedAt: widgetInstant(t.updated_at, form),
  };
}

/** C5 */
export function postDetail(
  wallId: number,
  p: PostRow,
  products: TaggedProduct[],
  form: DateForm,
): Static<typeof S.PostDetail> {
  return {
    wallId: String(wallId),
    postId: String(p.id),
    postProductIds: products.map((t) => String(t.id)).join(','),
    postDetail: [
      {
        feedId: p.feed_id,
        Postcontent: p.content,
        postPicture: p.picture,
        postLink: p.link_url,
        postMediaFile: p.media_file,
        highlight: p.highlight,
        postPin: p.pin,
        authorName: p.author_name,
        authorUserName: p.username,
        authorPicture: p.user_picture,
        postScore: p.score,
        postCreatedAt: formatDayMonthYear(p.created_at),
        postUpdatedAt: formatDayMonthYear(p.updated_at),
      },
    ],
    postProducts: products.map((t) => productRecord(t, form)),
  };
}
