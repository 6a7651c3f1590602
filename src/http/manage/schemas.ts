// TypeBox schemas of the management API: they validate every path, query
// and body (each field's wording in `x-error`, all bad fields reported at
// once), serialize every response, and are the OpenAPI document's source.
// The CLI validates its options against the same body schemas.
import { Type, type TObject, type TSchema } from 'typebox';
import { WRITE_MESSAGES } from '../../domain/writes.js';
import {
  BlueskyConnector,
  ConnectorSettings,
  LemmyConnector,
  MastodonConnector,
  RssConnector,
  YoutubeConnector,
} from '../../ingest/connector-settings.js';
import { BULK_ACTIONS, BULK_MAX, TAGS_MAX } from '../../store/manage/posts.js';
import { PAGE_DEFAULT, PAGE_MAX } from '../../store/manage/op.js';

// ---------- field rules ----------

const HTTP_URL = '^[hH][tT][tT][pP][sS]?://[^\\s/?#]+(?:[/?#]\\S*)?$';

export const M = {
  id: (name: string) => `${name} must be a positive integer`,
  limit: `limit must be an integer from 1 to ${PAGE_MAX}`,
  cursor: 'cursor is not one this API returned',
  text: (name: string, max: number) => `${name} must be a string of 1 to ${max} characters, not only spaces`,
  optText: (name: string, max: number) => `${name} must be a string of at most ${max} characters`,
  url: WRITE_MESSAGES.url,
  optUrl: WRITE_MESSAGES.emptyOrUrl,
  bool: (name: string) => `${name} must be true or false`,
  color: (name: string) => `${name} must be a hex colour such as #ffffff`,
  percent: (name: string) => `${name} must be a number from 0 to 100`,
  patch: 'body must name at least one field to change',
} as const;

/** A path or query id: a string of digits (no coercion; converted in code). */
export const IdString = (name: string) =>
  Type.String({
    pattern: '^0*[1-9][0-9]{0,14}$',
    'x-error': M.id(name),
    description: `${name} (digits)`,
    examples: ['7011'],
  });

const Text = (name: string, max: number, extra: Record<string, unknown> = {}) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', 'x-error': M.text(name, max), ...extra });
const OptText = (name: string, max: number) => Type.String({ maxLength: max, 'x-error': M.optText(name, max) });
const Url = (name: string) => Type.String({ maxLength: 2048, pattern: HTTP_URL, 'x-error': M.url(name) });
const OptUrl = (name: string) => Type.String({ maxLength: 2048, pattern: `^$|${HTTP_URL}`, 'x-error': M.optUrl(name) });
const Bool = (name: string, description?: string) =>
  Type.Boolean({ 'x-error': M.bool(name), ...(description ? { description } : {}) });
const Color = (name: string) =>
  Type.String({
    pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
    'x-error': M.color(name),
  });
const Percent = (name: string) =>
  Type.Number({
    minimum: 0,
    maximum: 100,
    'x-error': M.percent(name),
    description: `${name} position in percent (0–100)`,
  });
const PositiveId = (name: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, 'x-error': M.id(name) });

const strict = { additionalProperties: false } as const;
const patch = { additionalProperties: false, minProperties: 1, 'x-error': M.patch } as const;

// ---------- params ----------

export const AccountParams = Type.Object({ accountId: IdString('accountId') });
export const KeyParams = Type.Object({ accountId: IdString('accountId'), keyId: IdString('keyId') });
export const WallParams = Type.Object({ wallId: IdString('wallId') });
export const FeedParams = Type.Object({ wallId: IdString('wallId'), feedId: IdString('feedId') });
export const PostParams = Type.Object({ wallId: IdString('wallId'), postId: IdString('postId') });
export const TagParams = Type.Object({
  wallId: IdString('wallId'),
  postId: IdString('postId'),
  productId: IdString('productId'),
});
export const ProductParams = Type.Object({ productId: IdString('productId') });

// ---------- queries ----------

const pageQuery = {
  limit: Type.Optional(
    Type.String({
      pattern: `^0*(?:[1-9][0-9]?|1[0-9]{2}|200)$`,
      'x-error': M.limit,
      description: `items per page, 1–${PAGE_MAX}, default ${PAGE_DEFAULT}`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,500}$',
      'x-error': M.cursor,
      description: 'the `nextCursor` of the previous page',
    }),
  ),
};

export const PageQuery = Type.Object(pageQuery, strict);

/** Routes that take no query parameter still refuse unknown ones. */
export const NoQuery = Type.Object({}, strict);

export const WallListQuery = Type.Object(
  {
    ...pageQuery,
    accountId: Type.Optional(IdString('accountId')),
    state: Type.Optional(
      Type.Enum(['live', 'deleted', 'all'], {
        'x-error': 'state must be live, deleted or all',
        description: 'default all',
      }),
    ),
  },
  strict,
);

export const ProductListQuery = Type.Object({ ...pageQuery, accountId: Type.Optional(IdString('accountId')) }, strict);

export const PostListQuery = Type.Object(
  {
    ...pageQuery,
    status: Type.Optional(
      Type.Enum(['visible', 'hidden', 'all'], {
        'x-error': 'status must be visible, hidden or all',
        description: 'default all',
      }),
    ),
    feedId: Type.Optional(IdString('feedId')),
    media: Type.Optional(Type.Enum(['image', 'video', 'text'], { 'x-error': 'media must be image, video or text' })),
  },
  strict,
);

export const AuditListQuery = Type.Object(
  {
    ...pageQuery,
    action: Type.Optional(
      Type.String({ pattern: '^[a-zA-Z_.]{1,100}$', 'x-error': 'action must be an action name such as wall.update' }),
    ),
    targetType: Type.Optional(
      Type.Enum(['account', 'user_key', 'wall', 'feed', 'post', 'product', 'operator_token', 'publishable_key'], {
        'x-error': 'targetType must be account, user_key, wall, feed, post, product, operator_token or publishable_key',
      }),
    ),
    targetId: Type.Optional(IdString('targetId')),
    tokenName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, 'x-error': 'tokenName must be 1 to 100 characters' }),
    ),
  },
  strict,
);

// ---------- bodies ----------

const Plan = Type.Enum(['free', 'widget', 'commerce', 'enterprise'], {
  'x-error': 'plan must be free, widget, commerce or enterprise',
  description: 'widget: W1–W4; commerce: C1–C5; enterprise: both; free: no API access',
});
const DailyCallLimit = Type.Integer({
  minimum: 0,
  maximum: 1_000_000_000,
  'x-error': 'dailyCallLimit must be an integer from 0 to 1000000000',
  description: 'calls per UTC day shared by all the account’s keys (default 1000)',
});

export const AccountCreateBody = Type.Object(
  { name: Text('name', 200), plan: Plan, dailyCallLimit: Type.Optional(DailyCallLimit) },
  { ...strict, examples: [{ name: 'Harbour Festival', plan: 'enterprise', dailyCallLimit: 5000 }] },
);
export const AccountPatchBody = Type.Object(
  { name: Type.Optional(Text('name', 200)), plan: Type.Optional(Plan), dailyCallLimit: Type.Optional(DailyCallLimit) },
  { ...patch, examples: [{ plan: 'commerce' }] },
);

const Slug = Type.String({
  pattern: '^[a-z0-9](?:[a-z0-9_-]{0,98}[a-z0-9])?$',
  'x-error':
    'url must be a slug of 1 to 100 lowercase letters, digits, - and _, starting and ending with a letter or digit',
  description: 'URL slug, unique within the account',
});

export const WallCreateBody = Type.Object(
  {
    accountId: PositiveId('accountId'),
    name: Text('name', 200),
    url: Slug,
    profanity: Type.Optional(Bool('profanity', 'profanity filter flag (wallProfanity), default false')),
  },
  {
    ...strict,
    examples: [{ accountId: 7001, name: 'Harbour Festival 2026', url: 'harbour-festival-2026', profanity: false }],
  },
);
export const WallPatchBody = Type.Object(
  { name: Type.Optional(Text('name', 200)), url: Type.Optional(Slug), profanity: Type.Optional(Bool('profanity')) },
  { ...patch, examples: [{ name: 'Harbour Festival — main stage' }] },
);

const Connector = Type.Union([Type.Null(), ConnectorSettings], {
  'x-error': 'connector must be null or a connector setting (kind rss, mastodon, bluesky, youtube or lemmy)',
  'x-check': 'connector',
  description: 'what ingestion collects for this feed; null: none (posts come from import or the API)',
});

export const FeedCreateBody = Type.Object(
  {
    name: Text('name', 200),
    source: Text('source', 100, { description: 'network name, e.g. Mastodon' }),
    sourceType: Text('sourceType', 100, { description: 'kind of feed on that network, e.g. hashtag' }),
    connector: Type.Optional(Connector),
    enabled: Type.Optional(Bool('enabled', 'false stops ingestion for this feed; its posts stay (default true)')),
  },
  {
    ...strict,
    examples: [
      {
        name: '#harbourfest on Mastodon',
        source: 'Mastodon',
        sourceType: 'hashtag',
        connector: { kind: 'mastodon', instance: 'https://mastodon.social', hashtag: 'harbourfest' },
      },
    ],
  },
);
export const FeedPatchBody = Type.Object(
  {
    name: Type.Optional(Text('name', 200)),
    source: Type.Optional(Text('source', 100)),
    sourceType: Type.Optional(Text('sourceType', 100)),
    connector: Type.Optional(Connector),
    enabled: Type.Optional(Bool('enabled')),
  },
  { ...patch, examples: [{ enabled: false }] },
);

const CtaBody = Type.Object(
  {
    color: Color('cta.color'),
    background: Color('cta.background'),
    status: Type.Integer({ minimum: 0, maximum: 1, 'x-error': 'cta.status must be 0 or 1', description: 'CTAStatus' }),
    url: Url('cta.url'),
    text: Text('cta.text', 200),
  },
  {
    ...strict,
    description: 'call-to-action: CTAcolor, CTAbackground, CTAStatus, CTAurl, CTAtext of both API families',
  },
);

export const PostPatchBody = Type.Object(
  {
    content: Type.Optional(
      Type.String({
        maxLength: 10000,
        'x-error': M.optText('content', 10000),
        description: 'HTML: what the allowlist of contract §7 does not keep is removed (as sent when nothing is)',
      }),
    ),
    hidden: Type.Optional(Bool('hidden', 'hidden posts never appear in the public API')),
    pinned: Type.Optional(Bool('pinned', 'pinned posts come first in post lists (postPin)')),
    highlighted: Type.Optional(Bool('highlighted', 'postHighlight')),
    cta: Type.Optional(
      Type.Union([Type.Null(), CtaBody], {
        'x-error': 'cta must be null (clear) or an object with color, background, status, url, text',
      }),
    ),
  },
  {
    ...patch,
    examples: [
      { hidden: true },
      {
        pinned: true,
        cta: {
          color: '#ffffff',
          background: '#0a7cff',
          status: 1,
          url: 'https://shop.example.com/look',
          text: 'Shop the look',
        },
      },
    ],
  },
);

export const BulkBody = Type.Object(
  {
    postIds: Type.Array(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        'x-error': 'each post id must be a positive integer',
      }),
      {
        minItems: 1,
        maxItems: BULK_MAX,
        'x-error': `postIds must be a list of 1 to ${BULK_MAX} post ids`,
      },
    ),
    action: Type.Enum([...BULK_ACTIONS], { 'x-error': `action must be one of ${BULK_ACTIONS.join(', ')}` }),
    cta: Type.Optional(CtaBody),
  },
  { ...strict, examples: [{ postIds: [17001, 17002, 17003], action: 'hide' }] },
);

const TagBody = Type.Object(
  { productId: PositiveId('productId'), left: Percent('left'), top: Percent('top') },
  { ...strict, description: 'a product tagged on the post, with its hotspot' },
);

export const TagsPutBody = Type.Object(
  {
    tags: Type.Array(TagBody, {
      maxItems: TAGS_MAX,
      'x-error': `tags must be a list of at most ${TAGS_MAX} tags`,
      description: 'in tag order',
    }),
  },
  {
    ...strict,
    examples: [
      {
        tags: [
          { productId: 7501, left: 40, top: 62.5 },
          { productId: 7502, left: 71, top: 20 },
        ],
      },
    ],
  },
);

const Position = Type.Integer({
  minimum: 0,
  maximum: TAGS_MAX,
  'x-error': 'position must be an integer of 0 or more',
  description: 'place in the tag order, from 0',
});

export const TagPostBody = Type.Object(
  { productId: PositiveId('productId'), left: Percent('left'), top: Percent('top'), position: Type.Optional(Position) },
  { ...strict, examples: [{ productId: 7501, left: 40, top: 62.5 }] },
);
export const TagPatchBody = Type.Object(
  { left: Type.Optional(Percent('left')), top: Type.Optional(Percent('top')), position: Type.Optional(Position) },
  { ...patch, examples: [{ position: 0 }] },
);

const productFields = {
  sku: OptText('sku', 200),
  currencySymbol: OptText('currencySymbol', 10),
  currency: Type.String({
    pattern: '^(?:[A-Z]{3})?$',
    'x-error': 'currency must be empty or a three-letter code such as USD',
  }),
  discount: Type.Number({ minimum: 0, maximum: 1e12, 'x-error': 'discount must be a number from 0 to 1000000000000' }),
  discountCurrencySymbol: OptText('discountCurrencySymbol', 10),
  discountCurrency: Type.String({
    pattern: '^(?:[A-Z]{3})?$',
    'x-error': 'discountCurrency must be empty or a three-letter code such as USD',
  }),
  url: OptUrl('url'),
  image: OptUrl('image'),
  storeShopName: OptText('storeShopName', 200),
  storeProductId: OptText('storeProductId', 200),
  storeProductType: OptText('storeProductType', 200),
};
const Price = Type.Number({ minimum: 0, maximum: 1e12, 'x-error': 'price must be a number from 0 to 1000000000000' });
const optional = <T extends Record<string, TSchema>>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

export const ProductCreateBody = Type.Object(
  { accountId: PositiveId('accountId'), name: Text('name', 200), price: Price, ...optional(productFields) },
  {
    ...strict,
    examples: [
      {
        accountId: 7001,
        name: 'Trail runner 2',
        sku: 'TR-2',
        price: 129.9,
        currencySymbol: '€',
        currency: 'EUR',
        url: 'https://shop.example.com/p/tr-2',
        image: 'https://cdn.example.com/p/tr-2.jpg',
      },
    ],
  },
);
export const ProductPatchBody = Type.Object(
  { name: Type.Optional(Text('name', 200)), price: Type.Optional(Price), ...optional(productFields) },
  { ...patch, examples: [{ price: 99.5, discount: 10 }] },
);

// ---------- records (responses) ----------
// Every record forbids properties it does not name, so a validator catches a
// field that should not be there (the audit summary is the one open map).

const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 UTC' });
const NullableInstant = Type.Union([Instant, Type.Null()]);
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/** A response record: exactly these properties. */
const Record = <T extends Record<string, TSchema>>(properties: T, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { ...strict, ...options });

export const AccountRecord = Record({
  id: Type.Integer(),
  name: Type.String(),
  plan: Type.Enum(['free', 'widget', 'commerce', 'enterprise']),
  dailyCallLimit: Type.Integer(),
  createdAt: Instant,
});

export const UsageRecord = Record({
  accountId: Type.Integer(),
  dailyCallLimit: Type.Integer(),
  days: Type.Array(Record({ day: Type.String({ format: 'date', description: 'UTC day' }), calls: Type.Integer() }), {
    description:
      'the last 30 UTC days, oldest first, today last. The current day can run ahead by calls a running instance has ' +
      'reserved but not answered yet (the quota counter reserves calls in small blocks); it settles when the instance ' +
      'sees the next day or stops.',
  }),
});

const userKeyFields = {
  id: Type.Integer(),
  accountId: Type.Integer(),
  prefix: Type.String({ description: 'first characters of the key' }),
  createdAt: Instant,
  lastUsedAt: Type.Union([Instant, Type.Null()], { description: 'to the minute' }),
  revokedAt: NullableInstant,
};

export const UserKeyRecord = Record(userKeyFields);

export const NewUserKeyRecord = Record({
  ...userKeyFields,
  key: Type.String({ description: 'the plaintext key: shown this once, only its SHA-256 is stored' }),
});

export const WallRecord = Record({
  id: Type.Integer(),
  accountId: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  profanity: Type.Boolean(),
  createdAt: Instant,
  deleted: Type.Boolean(),
  deletedAt: NullableInstant,
  feedCount: Type.Integer(),
  postCount: Type.Integer(),
});

export const FeedIngestState = Record(
  {
    lastPolledAt: Type.Optional(NullableInstant),
    lastSuccessAt: Type.Optional(NullableInstant),
    nextPollAt: Type.Optional(NullableInstant),
    intervalSeconds: Type.Optional(Type.Integer({ description: 'current adaptive poll interval' })),
    consecutiveFailures: Type.Optional(Type.Integer()),
    lastError: Type.Optional(Nullable(Type.String())),
    lastErrorAt: Type.Optional(NullableInstant),
    failing: Type.Optional(Type.Boolean({ description: 'true after repeated failures; the feed keeps being polled' })),
    warnings: Type.Optional(
      Type.Integer({
        description:
          'warnings of the last poll that read the feed: what was read but not as it should be (e.g. items whose date could not be read, dated when first read)',
      }),
    ),
    lastWarning: Type.Optional(Nullable(Type.String({ description: 'the last warning, kept until the next one' }))),
    lastWarningAt: Type.Optional(NullableInstant),
  },
  { description: 'ingestion state, present once the feed is ingested' },
);

/** The connector settings as stored and answered: each kind with exactly its own fields. */
const exactly = <T extends TObject>(kind: T) =>
  Type.Object(kind.properties, { ...strict, description: (kind as { description?: string }).description });
const ConnectorRecord = Type.Union([
  exactly(RssConnector),
  exactly(MastodonConnector),
  exactly(BlueskyConnector),
  exactly(YoutubeConnector),
  exactly(LemmyConnector),
]);

export const FeedRecord = Record({
  id: Type.Integer(),
  wallId: Type.Integer(),
  name: Type.String(),
  source: Type.String(),
  sourceType: Type.String(),
  connector: Nullable(ConnectorRecord),
  enabled: Type.Boolean(),
  createdAt: NullableInstant,
  updatedAt: Instant,
  postCount: Type.Integer(),
  ingest: Type.Optional(FeedIngestState),
});

export const CtaRecord = Record({
  color: Type.String(),
  background: Type.String(),
  status: Type.Integer(),
  url: Type.String(),
  text: Type.String(),
});

export const TagRecord = Record({
  productId: Type.Integer(),
  productName: Type.String(),
  left: Type.Number(),
  top: Type.Number(),
  position: Type.Integer({ description: 'tag order, from 0' }),
});

export const PostRecord = Record({
  id: Type.Integer(),
  wallId: Type.Integer(),
  feedId: Type.Integer(),
  feedName: Type.String(),
  externalId: Nullable(Type.String()),
  networkName: Type.String(),
  postType: Type.Integer(),
  media: Type.Enum(['image', 'video', 'text']),
  content: Type.String(),
  picture: Type.String(),
  file: Type.String(),
  fileOriginal: Type.String(),
  fileThumb: Type.String(),
  mediaFile: Type.String(),
  linkUrl: Type.String(),
  authorName: Type.String(),
  username: Type.String(),
  userPicture: Type.String(),
  score: Nullable(Type.Number()),
  rating: Nullable(Type.Number()),
  tags: Type.String(),
  location: Type.String(),
  alt: Type.String({ description: 'alt text (text alternative) of the main media; empty when none' }),
  children: Type.Array(
    Record({
      image: Type.String(),
      video: Type.String(),
      alt: Type.Optional(Type.String({ description: 'alt text of this item, when it has one' })),
    }),
    { description: 'carousel items (childNode in v2, which shows image and video only)' },
  ),
  createdAt: Instant,
  updatedAt: Instant,
  hidden: Type.Boolean(),
  pinned: Type.Boolean(),
  highlighted: Type.Boolean(),
  cta: Nullable(CtaRecord),
  products: Type.Array(TagRecord),
});

export const BulkResult = Record({
  action: Type.Enum([...BULK_ACTIONS]),
  postIds: Type.Array(Type.Integer()),
  changed: Type.Integer({ description: 'posts whose state actually changed' }),
});

export const ProductRecord = Record({
  id: Type.Integer(),
  accountId: Type.Integer(),
  name: Type.String(),
  sku: Type.String(),
  price: Type.Number(),
  currencySymbol: Type.String(),
  currency: Type.String(),
  discount: Type.Number(),
  discountCurrencySymbol: Type.String(),
  discountCurrency: Type.String(),
  url: Type.String(),
  image: Type.String(),
  storeShopName: Type.String(),
  storeProductId: Type.String(),
  storeProductType: Type.String(),
  createdAt: Instant,
  updatedAt: Instant,
  tagCount: Type.Integer({ description: 'posts this product is tagged on' }),
});

export const AuditRecord = Record({
  id: Type.Integer(),
  at: Instant,
  tokenName: Type.String({ description: 'operator token name, or cli' }),
  action: Type.String(),
  targetType: Type.String(),
  targetId: Nullable(Type.Integer()),
  summary: Type.Object(
    { before: Type.Unknown(), after: Type.Unknown() },
    {
      additionalProperties: true,
      description:
        'the changed fields before and after, plus details of the action: an open map, as what changed differs per action',
    },
  ),
});

// ---------- envelopes ----------

export const FieldErrorSchema = Record({ field: Type.String(), message: Type.String() });

/** The error envelope of one status (`responseCode` = the status line); a 400 adds every bad field. */
export const ErrorEnvelope = (code: number, description: string) =>
  Record(
    {
      responseCode: Type.Literal(code),
      responseStatus: Type.Literal('error'),
      responseMessage: Type.String(),
      ...(code === 400
        ? { fieldErrors: Type.Array(FieldErrorSchema, { minItems: 1, description: 'every bad field' }) }
        : {}),
    },
    { description },
  );

const ERRORS = {
  400: ErrorEnvelope(400, 'invalid request; fieldErrors names every bad field'),
  401: ErrorEnvelope(401, 'missing, unknown or revoked operator token'),
  404: ErrorEnvelope(404, 'a resource the request names does not exist'),
  409: ErrorEnvelope(409, 'conflicts with the current state, or with a concurrent change: read again and retry'),
};

export const Ok = <T extends TSchema>(data: T, description: string) =>
  Record(
    { responseCode: Type.Literal(200), responseStatus: Type.Literal('success'), responseData: data },
    { description },
  );
export const Created = <T extends TSchema>(data: T, description: string) =>
  Record(
    { responseCode: Type.Literal(201), responseStatus: Type.Literal('success'), responseData: data },
    { description },
  );
export const PageOf = <T extends TSchema>(item: T) =>
  Record({
    data: Type.Array(item),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as cursor for the next page; null on the last page',
    }),
  });

/**
 * The responses of a route: its success, 400 and 401 (every route), and the
 * route's own errors — 404 when it names a record, 409 when it writes. The
 * statuses every route shares (413, 431, 500, 503…) are added in openapi.ts.
 */
export const responses = <S extends Record<number, TSchema>>(success: S, ...own: (404 | 409)[]) => ({
  ...success,
  400: ERRORS[400],
  401: ERRORS[401],
  ...Object.fromEntries(own.map((code) => [code, ERRORS[code]])),
});
