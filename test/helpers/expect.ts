// An independent expectation builder: what the contract says every API v2
// read returns, re-derived from the data file (contract §8 format) without
// touching src/domain. Field order follows api-v2.md's tables.

export interface SampleCta {
  color: string;
  background: string;
  status: number;
  url: string;
  text: string;
}

export interface SamplePost {
  id: number;
  networkName: string;
  postType: number;
  content: string;
  picture: string;
  file: string;
  fileOriginal: string;
  fileThumb: string;
  mediaFile: string;
  linkUrl: string;
  authorName: string;
  username: string;
  userPicture: string;
  score: number | null;
  rating: number | null;
  highlight: number;
  pin: number;
  tags: string;
  location: string;
  createdAt: string;
  updatedAt: string;
  media: 'image' | 'video' | 'text';
  hidden?: boolean;
  cta: SampleCta | null;
  children: { image: string; video: string }[];
  products: { productId: number; left: number; top: number }[];
}

export interface SampleFeed {
  id: number;
  name: string;
  source: string;
  sourceType: string;
  createdAt: string | null;
  updatedAt: string;
  posts: SamplePost[];
}

export interface SampleWall {
  id: number;
  accountId: number;
  name: string;
  url: string;
  profanity: number;
  createdAt: string;
  deleted?: boolean;
  feeds: SampleFeed[];
}

export interface SampleProduct {
  id: number;
  accountId: number;
  name: string;
  sku: string;
  price: number;
  currencySymbol: string;
  currency: string;
  discount: number;
  discountCurrencySymbol: string;
  discountCurrency: string;
  url: string;
  image: string;
  storeShopName: string;
  storeProductId: string;
  storeProductType: string;
  createdAt: string;
  updatedAt: string;
}

export interface SampleAccount {
  id: number;
  name: string;
  plan: 'free' | 'widget' | 'commerce' | 'enterprise';
  dailyCallLimit?: number;
  userKeys: string[];
}

export interface SampleData {
  version: 1;
  accounts: SampleAccount[];
  products: SampleProduct[];
  walls: SampleWall[];
}

export type Fmt = 'json' | 'xml';
export type MediaKind = 'image' | 'video' | 'text';

// ---------- dates (contract §5), derived from the platform's UTC printers ----------

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `DD/MM/YYYY` in UTC */
export function dmy(iso: string): string {
  const d = new Date(iso);
  return `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}/${String(d.getUTCFullYear()).padStart(4, '0')}`;
}

/** ISO 8601 with milliseconds, UTC */
export function isoMs(iso: string): string {
  return new Date(iso).toISOString();
}

/** `Fri Mar 01 2024 09:00:00 GMT+0000 (Coordinated Universal Time)`, rebuilt from toUTCString() */
export function longDate(iso: string): string {
  // toUTCString(): "Fri, 01 Mar 2024 09:00:00 GMT"
  const m = /^(\w{3}), (\d{2}) (\w{3}) (\d{4}) (\d{2}:\d{2}:\d{2}) GMT$/.exec(new Date(iso).toUTCString());
  if (!m) throw new Error(`unexpected toUTCString for ${iso}`);
  return `${m[1]} ${m[3]} ${m[2]} ${m[4]} ${m[5]} GMT+0000 (Coordinated Universal Time)`;
}

// ---------- lookups ----------

export function wallOf(data: SampleData, wallId: number): SampleWall {
  const wall = data.walls.find((w) => w.id === wallId);
  if (!wall) throw new Error(`no wall ${wallId} in the sample`);
  return wall;
}

export interface Located {
  wall: SampleWall;
  feed: SampleFeed;
  post: SamplePost;
}

export function allPosts(wall: SampleWall): Located[] {
  return wall.feeds.flatMap((feed) => feed.posts.map((post) => ({ wall, feed, post })));
}

export function findPost(data: SampleData, postId: number): Located {
  for (const wall of data.walls) {
    const hit = allPosts(wall).find((l) => l.post.id === postId);
    if (hit) return hit;
  }
  throw new Error(`no post ${postId} in the sample`);
}

export interface ListOptions {
  limit?: number;
  offset?: number;
  /** `DD/MM/YYYY`: keep posts created at or after 00:00 UTC of that day */
  dateFrom?: string;
  /** kinds kept; empty or absent keeps all */
  kinds?: readonly MediaKind[];
}

/** Visible posts of a wall in contract order (§4): pinned first, newest first, larger id first. */
export function listed(wall: SampleWall, options: ListOptions = {}): Located[] {
  let from = -Infinity;
  if (options.dateFrom !== undefined) {
    const [d, m, y] = options.dateFrom.split('/').map(Number) as [number, number, number];
    from = Date.UTC(y, m - 1, d);
  }
  const kinds = options.kinds ?? [];
  const posts = allPosts(wall)
    .filter((l) => l.post.hidden !== true)
    .filter((l) => Date.parse(l.post.createdAt) >= from)
    .filter((l) => kinds.length === 0 || kinds.includes(l.post.media))
    .sort(
      (a, b) =>
        b.post.pin - a.post.pin || Date.parse(b.post.createdAt) - Date.parse(a.post.createdAt) || b.post.id - a.post.id,
    );
  const offset = options.offset ?? 0;
  return posts.slice(offset, offset + (options.limit ?? 100));
}

// ---------- records (api-v2.md tables, in table order) ----------

export function feedInfo(feed: SampleFeed) {
  return {
    feedId: feed.id,
    feedName: feed.name,
    source: feed.source,
    sourceType: feed.sourceType,
    feedCreatedAt: feed.createdAt === null ? null : dmy(feed.createdAt),
    feedUpdatedAt: dmy(feed.updatedAt),
  };
}

/** W1 responseData (an array with one element) */
export function widgetWallInfo(wall: SampleWall, fmt: Fmt) {
  return [
    {
      wallId: wall.id,
      wallName: wall.name,
      wallUrl: wall.url,
      wallProfanity: wall.profanity,
      wallCreatedAt: fmt === 'json' ? isoMs(wall.createdAt) : longDate(wall.createdAt),
      feeds: wall.feeds.map(feedInfo),
    },
  ];
}

/** C1 responseData */
export function commerceWallInfo(wall: SampleWall) {
  return [
    {
      wallId: wall.id,
      wallName: wall.name,
      wallUrl: wall.url,
      wallProfanity: wall.profanity,
      wallCreatedAt: dmy(wall.createdAt),
      feeds: wall.feeds.map(feedInfo),
    },
  ];
}

export function widgetListWall(wall: SampleWall, fmt: Fmt) {
  return {
    wallName: wall.name,
    wallUrl: wall.url,
    wallProfanity: wall.profanity,
    wallCreatedAt: fmt === 'json' ? isoMs(wall.createdAt) : longDate(wall.createdAt),
  };
}

export function commerceListWall(wall: SampleWall) {
  return {
    wallName: wall.name,
    wallUrl: wall.url,
    wallProfanity: wall.profanity,
    wallCreatedAt: dmy(wall.createdAt),
  };
}

export function widgetPost({ wall, feed, post }: Located) {
  const cta = post.cta;
  return {
    feedId: feed.id,
    feedName: feed.name,
    postPicture: post.picture,
    wallProfanity: wall.profanity,
    networkName: post.networkName,
    postId: String(post.id),
    content: post.content,
    postFile: post.file,
    postFileOriginal: post.fileOriginal,
    postFileThumb: post.fileThumb,
    postMediaFile: post.mediaFile,
    rating: post.rating,
    postPin: post.pin,
    postCreatedAt: dmy(post.createdAt),
    postUpdatedAt: dmy(post.updatedAt),
    postTags: post.tags,
    location: post.location,
    postLinkUrl: post.linkUrl,
    postAuthorName: post.authorName,
    postUsername: post.username,
    postUserPicture: post.userPicture,
    PostType: post.postType,
    postHighlight: post.highlight,
    CTAcolor: cta ? cta.color : null,
    CTAbackground: cta ? cta.background : null,
    CTAStatus: cta ? cta.status : null,
    CTAurl: cta ? cta.url : null,
    CTAtext: cta ? cta.text : null,
    childNode: post.children.map((c) => ({ image: c.image, video: c.video })),
  };
}

export function commercePost({ feed, post }: Located) {
  const cta = post.cta;
  return {
    feedId: feed.id,
    feedName: feed.name,
    networkName: post.networkName,
    postId: post.id,
    postPicture: post.picture,
    postContent: post.content,
    postFile: post.file,
    postMediaFile: post.mediaFile,
    postLinkUrl: post.linkUrl,
    postAuthorName: post.authorName,
    postUsername: post.username,
    postUserPicture: post.userPicture,
    postType: post.postType,
    postScore: post.score,
    postHighlight: post.highlight,
    postRating: post.rating,
    postPin: post.pin,
    postCreatedAt: dmy(post.createdAt),
    postUpdatedAt: dmy(post.updatedAt),
    CTAcolor: cta ? cta.color : '',
    CTAbackground: cta ? cta.background : '',
    CTAStatus: cta ? cta.status : 0,
    CTAurl: cta ? cta.url : '',
    CTAtext: cta ? cta.text : '',
  };
}

/** W2 responseData */
export function widgetList(wall: SampleWall, fmt: Fmt, options: ListOptions = {}) {
  return [{ wall: widgetListWall(wall, fmt), posts: listed(wall, options).map(widgetPost) }];
}

/** C2 responseData */
export function commerceList(wall: SampleWall, options: ListOptions = {}) {
  return [{ wall: commerceListWall(wall), feeds: listed(wall, options).map(commercePost) }];
}

export function productRecord(data: SampleData, tag: { productId: number; left: number; top: number }, fmt: Fmt) {
  const p = data.products.find((x) => x.id === tag.productId);
  if (!p) throw new Error(`no product ${tag.productId}`);
  const instant = (iso: string) => (fmt === 'json' ? isoMs(iso) : longDate(iso));
  return {
    productId: p.id,
    productName: p.name,
    productSku: p.sku,
    productPrice: p.price,
    productCurrencySymbol: p.currencySymbol,
    priceCurrency: p.currency,
    productDiscount: p.discount,
    productUrl: p.url,
    productImage: p.image,
    discountCurrencySymbol: p.discountCurrencySymbol,
    discountCurrency: p.discountCurrency,
    storeShopName: p.storeShopName,
    storeProductId: p.storeProductId,
    storeProductType: p.storeProductType,
    hotspot: [`left:${JSON.stringify(tag.left)}%`, `top:${JSON.stringify(tag.top)}%`],
    createdAt: instant(p.createdAt),
    updatedAt: instant(p.updatedAt),
  };
}

/** C5 responseData (an object, not an array) */
export function postDetail(data: SampleData, located: Located, fmt: Fmt) {
  const { wall, feed, post } = located;
  return {
    wallId: String(wall.id),
    postId: String(post.id),
    postProductIds: post.products.map((t) => String(t.productId)).join(','),
    postDetail: [
      {
        feedId: feed.id,
        Postcontent: post.content,
        postPicture: post.picture,
        postLink: post.linkUrl,
        postMediaFile: post.mediaFile,
        highlight: post.highlight,
        postPin: post.pin,
        authorName: post.authorName,
        authorUserName: post.username,
        authorPicture: post.userPicture,
        postScore: post.score,
        postCreatedAt: dmy(post.createdAt),
        postUpdatedAt: dmy(post.updatedAt),
      },
    ],
    postProducts: post.products.map((t) => productRecord(data, t, fmt)),
  };
}

/** The success envelope (contract §1 order). */
export function dataEnvelope(responseData: unknown) {
  return { responseCode: 200, responseStatus: 'success', responseData };
}

export function messageEnvelope(responseMessage: string) {
  return { responseCode: 200, responseStatus: 'success', responseMessage };
}
