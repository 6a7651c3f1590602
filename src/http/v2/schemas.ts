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
// Exactly the fields of api-v2.md's tables (contract §5, §6 for values):
// every record forbids other properties, so a validator catches a field that
// should not be there. The OpenAPI document adds the statuses and headers
// every route shares (src/http/openapi.ts).

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const strict = { additionalProperties: false } as const;
const DayMonthYear = (description = 'DD/MM/YYYY (UTC)') =>
  Type.String({ pattern: '^[0-9]{2}/[0-9]{2}/[0-9]{4}$', description });
/** widget `wallCreatedAt`, product `createdAt`/`updatedAt`: two forms, one schema for both documents */
const Instant = Type.String({
  description:
    'JSON: ISO 8601 UTC with milliseconds (2024-03-01T09:00:00.000Z); XML: the long text form (Fri Mar 01 2024 09:00:00 GMT+0000 (Coordinated Universal Time))',
});
const Score = Nullable(Type.Number());
const JSON_NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';

export const FeedInfo = Type.Object(
  {
    feedId: Type.Integer(),
    feedName: Type.String(),
    source: Type.String(),
    sourceType: Type.String(),
    feedCreatedAt: Nullable(DayMonthYear()),
    feedUpdatedAt: DayMonthYear(),
  },
  strict,
);

const wallInfo = (wallCreatedAt: TSchema) =>
  Type.Object(
    {
      wallId: Type.Integer(),
      wallName: Type.String(),
      wallUrl: Type.String(),
      wallProfanity: Type.Integer(),
      wallCreatedAt,
      feeds: Type.Array(FeedInfo),
    },
    strict,
  );
export const WidgetWallInfo = wallInfo(Instant);
export const CommerceWallInfo = wallInfo(DayMonthYear());

const listWall = (wallCreatedAt: TSchema) =>
  Type.Object(
    { wallName: Type.String(), wallUrl: Type.String(), wallProfanity: Type.Integer(), wallCreatedAt },
    strict,
  );
export const WidgetListWall = listWall(Instant);
export const CommerceListWall = listWall(DayMonthYear());

const ctaNullable = {
  CTAcolor: Nullable(Type.String()),
  CTAbackground: Nullable(Type.String()),
  CTAStatus: Nullable(Type.Integer()),
  CTAurl: Nullable(Type.String()),
  CTAtext: Nullable(Type.String()),
};

export const WidgetPost = Type.Object(
  {
    feedId: Type.Integer(),
    feedName: Type.String(),
    postPicture: Type.String(),
    wallProfanity: Type.Integer(),
    networkName: Type.String(),
    postId: Type.String({ pattern: '^[0-9]+$' }),
    content: Type.String(),
    postFile: Type.String(),
    postFileOriginal: Type.String(),
    postFileThumb: Type.String(),
    postMediaFile: Type.String(),
    rating: Score,
    postPin: Type.Integer(),
    postCreatedAt: DayMonthYear(),
    postUpdatedAt: DayMonthYear(),
    postTags: Type.String(),
    location: Type.String(),
    postLinkUrl: Type.String(),
    postAuthorName: Type.String(),
    postUsername: Type.String(),
    postUserPicture: Type.String(),
    PostType: Type.Integer(),
    postHighlight: Type.Integer(),
    ...ctaNullable,
    childNode: Type.Array(Type.Object({ image: Type.String(), video: Type.String() }, strict)),
  },
  strict,
);

export const CommercePost = Type.Object(
  {
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
    postScore: Score,
    postHighlight: Type.Integer(),
    postRating: Score,
    postPin: Type.Integer(),
    postCreatedAt: DayMonthYear(),
    postUpdatedAt: DayMonthYear(),
    CTAcolor: Type.String(),
    CTAbackground: Type.String(),
    CTAStatus: Type.Integer(),
    CTAurl: Type.String(),
    CTAtext: Type.String(),
  },
  strict,
);

export const WidgetPostList = Type.Array(Type.Object({ wall: WidgetListWall, posts: Type.Array(WidgetPost) }, strict), {
  minItems: 1,
  maxItems: 1,
});
export const CommercePostList = Type.Array(
  Type.Object({ wall: CommerceListWall, feeds: Type.Array(CommercePost) }, strict),
  { minItems: 1, maxItems: 1 },
);

export const Product = Type.Object(
  {
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
    hotspot: Type.Array(Type.String({ pattern: `^(?:left|top):${JSON_NUMBER}%$` }), {
      minItems: 2,
      maxItems: 2,
      description: '["left:<n>%", "top:<n>%"], <n> printed as a JSON number',
    }),
    createdAt: Instant,
    updatedAt: Instant,
  },
  strict,
);

export const PostDetail = Type.Object(
  {
    wallId: Type.String({ pattern: '^[0-9]+$' }),
    postId: Type.String({ pattern: '^[0-9]+$' }),
    postProductIds: Type.String({ pattern: '^(?:[0-9]+(?:,[0-9]+)*)?$', description: 'product ids in tag order' }),
    postDetail: Type.Array(
      Type.Object(
        {
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
          postScore: Score,
          postCreatedAt: DayMonthYear(),
          postUpdatedAt: DayMonthYear(),
        },
        strict,
      ),
      { minItems: 1, maxItems: 1 },
    ),
    postProducts: Type.Array(Product),
  },
  strict,
);

/** The error envelope of one status: `responseCode` always equals the status line (contract §1). */
export const errorEnvelope = (code: number) =>
  Type.Object(
    { responseCode: Type.Literal(code), responseStatus: Type.Literal('error'), responseMessage: Type.String() },
    strict,
  );

export const dataEnvelope = <T extends TSchema>(data: T) =>
  Type.Object({ responseCode: Type.Literal(200), responseStatus: Type.Literal('success'), responseData: data }, strict);

export const messageEnvelope = (message: string) =>
  Type.Object(
    {
      responseCode: Type.Literal(200),
      responseStatus: Type.Literal('success'),
      responseMessage: Type.Literal(message),
    },
    strict,
  );

/** 304: If-None-Match named the current ETag; no body. */
export const NotModified = Type.Null({ description: 'not modified: If-None-Match names the current ETag; no body' });

/** What every v2 route can answer besides its success (contract §2); the server-wide ones are added in openapi.ts. */
export const v2Errors = {
  400: errorEnvelope(400),
  401: errorEnvelope(401),
  404: errorEnvelope(404),
  429: errorEnvelope(429),
};

/**
 * What W3/C3 bodies may be labelled: JSON, or text/plain, which browsers send
 * cross-origin without a preflight (the body is read as JSON either way).
 */
export const CREATE_POST_CONTENT_TYPES = ['application/json', 'text/plain'];
