// TypeBox schemas of the public API v2: they validate every request (with
// the contract's error wording in `x-error`) and describe every response.
import { Type, type TSchema } from 'typebox';
import { WRITE_MESSAGES } from '../../domain/writes.js';
import { MESSAGES } from '../errors.js';

const ci = (word: string) =>
  [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join('');

export const LIMIT_MAX = 500;
export const LIMIT_DEFAULT = 100;

export const V2_MESSAGES = {
  limit: `limit must be an integer from 1 to ${LIMIT_MAX}`,
  offset: 'offset must be an integer of 0 or more',
  date_from: 'date_from must be a real date in the form DD/MM/YYYY',
  flag: (name: string) => `${name} must be true, false, 1 or 0`,
  wallId: 'wallId must be a positive integer',
  postId: 'postId must be a positive integer',
  bodyWallId: 'wallId must be an integer',
  contentOrFile: 'content or postFile is required',
  content: 'content must be a string of at most 10000 characters',
  authorName: 'authorName must be a string of at most 200 characters',
  url: WRITE_MESSAGES.url,
  idempotencyKey: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
} as const;

const FLAG_PATTERN = `^(?:${ci('true')}|${ci('false')}|1|0)$`;
const flag = (name: string) =>
  Type.Optional(
    Type.String({
      pattern: FLAG_PATTERN,
      'x-error': V2_MESSAGES.flag(name),
      description: `true/false/1/0, case-insensitive`,
    }),
  );

const common = {
  user_key: Type.Optional(Type.String({ description: 'the caller’s user key' })),
  format: Type.Optional(
    Type.String({
      pattern: `^(?:${ci('json')}|${ci('xml')})$`,
      'x-error': MESSAGES.format,
      description: 'json (default) or xml, case-insensitive',
    }),
  ),
};

export const CommonQuery = Type.Object(common);

const listBase = {
  ...common,
  limit: Type.Optional(
    Type.String({
      pattern: '^0*(?:[1-9][0-9]?|[1-4][0-9][0-9]|500)$',
      'x-error': V2_MESSAGES.limit,
      description: `posts to return, 1–${LIMIT_MAX}, default ${LIMIT_DEFAULT}`,
    }),
  ),
  offset: Type.Optional(
    Type.String({
      pattern: '^[0-9]+$',
      'x-error': V2_MESSAGES.offset,
      description: 'position of the first post, from 0',
    }),
  ),
  date_from: Type.Optional(
    Type.String({
      pattern: '^[0-9]{2}/[0-9]{2}/[0-9]{4}$',
      'x-error': V2_MESSAGES.date_from,
      description: 'DD/MM/YYYY: keep posts created at or after 00:00 UTC that day',
    }),
  ),
  include_only_image_posts: flag('include_only_image_posts'),
  include_only_video_posts: flag('include_only_video_posts'),
};

export const CommerceListQuery = Type.Object(listBase);
export const WidgetListQuery = Type.Object({ ...listBase, include_only_text_posts: flag('include_only_text_posts') });

const positiveId = (message: string) => Type.String({ pattern: '^[0-9]+$', 'x-error': message });
export const WallParams = Type.Object({ wall_id: positiveId(V2_MESSAGES.wallId) });
export const WallPostParams = Type.Object({
  wall_id: positiveId(V2_MESSAGES.wallId),
  post_id: positiveId(V2_MESSAGES.postId),
});

// No whitespace and no control characters anywhere (a NUL would also be
// unstorable in PostgreSQL).
const HTTP_URL = '^[hH][tT][tT][pP][sS]?://[^\\s/?#\\u0000-\\u001F\\u007F]+(?:[/?#][^\\s\\u0000-\\u001F\\u007F]*)?$';
const optionalUrl = (name: string) =>
  Type.Optional(
    Type.Union([Type.Null(), Type.Literal(''), Type.String({ maxLength: 2048, pattern: HTTP_URL })], {
      'x-error': V2_MESSAGES.url(name),
      description: 'absolute http(s) URL, stored as the WHATWG URL parser normalizes it',
    }),
  );

export const CreatePostBody = Type.Object({
  wallId: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })], {
    'x-error': V2_MESSAGES.bodyWallId,
    description: 'target wall (an integer or a string of digits)',
  }),
  content: Type.Optional(
    Type.Union([Type.Null(), Type.String({ maxLength: 10000 })], {
      'x-error': V2_MESSAGES.content,
      description: 'HTML: what the allowlist of contract §7 does not keep is removed (as sent when nothing is)',
    }),
  ),
  postFile: optionalUrl('postFile'),
  authorName: Type.Optional(
    Type.Union([Type.Null(), Type.String({ maxLength: 200 })], {
      'x-error': V2_MESSAGES.authorName,
      description: 'plain text: tags are removed',
    }),
  ),
  authorPicture: optionalUrl('authorPicture'),
  link: optionalUrl('link'),
});

export const CreatePostHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ pattern: '^[\\x21-\\x7E]{1,255}$', 'x-error': V2_MESSAGES.idempotencyKey }),
  ),
});

// ---- responses (documentation and types) ----

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const FeedInfo = Type.Object({
  feedId: Type.Integer(),
  feedName: Type.String(),
  source: Type.String(),
  sourceType: Type.String(),
  feedCreatedAt: Nullable(Type.String({ description: 'DD/MM/YYYY' })),
  feedUpdatedAt: Type.String({ description: 'DD/MM/YYYY' }),
});

export const WallInfo = Type.Object({
  wallId: Type.Integer(),
  wallName: Type.String(),
  wallUrl: Type.String(),
  wallProfanity: Type.Integer(),
  wallCreatedAt: Type.String(),
  feeds: Type.Array(FeedInfo),
});

export const ListWall = Type.Object({
  wallName: Type.String(),
  wallUrl: Type.String(),
  wallProfanity: Type.Integer(),
  wallCreatedAt: Type.String(),
});

const ctaNullable = {
  CTAcolor: Nullable(Type.String()),
  CTAbackground: Nullable(Type.String()),
  CTAStatus: Nullable(Type.Integer()),
  CTAurl: Nullable(Type.String()),
  CTAtext: Nullable(Type.String()),
};

export const WidgetPost = Type.Object({
  feedId: Type.Integer(),
  feedName: Type.String(),
  postPicture: Type.String(),
  wallProfanity: Type.Integer(),
  networkName: Type.String(),
  postId: Type.String(),
  content: Type.String(),
  postFile: Type.String(),
  postFileOriginal: Type.String(),
  postFileThumb: Type.String(),
  postMediaFile: Type.String(),
  rating: Nullable(Type.Number()),
  postPin: Type.Integer(),
  postCreatedAt: Type.String(),
  postUpdatedAt: Type.String(),
  postTags: Type.String(),
  location: Type.String(),
  postLinkUrl: Type.String(),
  postAuthorName: Type.String(),
  postUsername: Type.String(),
  postUserPicture: Type.String(),
  PostType: Type.Integer(),
  postHighlight: Type.Integer(),
  ...ctaNullable,
  childNode: Type.Array(Type.Object({ image: Type.String(), video: Type.String() })),
});

export const CommercePost = Type.Object({
  feedId: Type.Integer(),
  feedName: Type.String(),
  networkName: Type.String(),
  postId: Type.Integer(),
  postPicture: Type.String(),
  postContent: Type.String(),
  postFile: Type.String(),
  postMediaFile: Type.String(),
  postLinkUrl: Type.String(),
  postAuthorName: Type.String(),
  postUsername: Type.String(),
  postUserPicture: Type.String(),
  postType: Type.Integer(),
  postScore: Nullable(Type.Number()),
  postHighlight: Type.Integer(),
  postRating: Nullable(Type.Number()),
  postPin: Type.Integer(),
  postCreatedAt: Type.String(),
  postUpdatedAt: Type.String(),
  CTAcolor: Type.String(),
  CTAbackground: Type.String(),
  CTAStatus: Type.Integer(),
  CTAurl: Type.String(),
  CTAtext: Type.String(),
});

export const Product = Type.Object({
  productId: Type.Integer(),
  productName: Type.String(),
  productSku: Type.String(),
  productPrice: Type.Number(),
  productCurrencySymbol: Type.String(),
  priceCurrency: Type.String(),
  productDiscount: Type.Number(),
  productUrl: Type.String(),
  productImage: Type.String(),
  discountCurrencySymbol: Type.String(),
  discountCurrency: Type.String(),
  storeShopName: Type.String(),
  storeProductId: Type.String(),
  storeProductType: Type.String(),
  hotspot: Type.Array(Type.String(), { minItems: 2, maxItems: 2 }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const PostDetail = Type.Object({
  wallId: Type.String(),
  postId: Type.String(),
  postProductIds: Type.String(),
  postDetail: Type.Array(
    Type.Object({
      feedId: Type.Integer(),
      Postcontent: Type.String(),
      postPicture: Type.String(),
      postLink: Type.String(),
      postMediaFile: Type.String(),
      highlight: Type.Integer(),
      postPin: Type.Integer(),
      authorName: Type.String(),
      authorUserName: Type.String(),
      authorPicture: Type.String(),
      postScore: Nullable(Type.Number()),
      postCreatedAt: Type.String(),
      postUpdatedAt: Type.String(),
    }),
  ),
  postProducts: Type.Array(Product),
});

export const ErrorEnvelope = Type.Object({
  responseCode: Type.Integer(),
  responseStatus: Type.Literal('error'),
  responseMessage: Type.String(),
});

export const dataEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ responseCode: Type.Literal(200), responseStatus: Type.Literal('success'), responseData: data });

export const MessageEnvelope = Type.Object({
  responseCode: Type.Literal(200),
  responseStatus: Type.Literal('success'),
  responseMessage: Type.String(),
});
