// Posts, their call-to-action and product tags: what a write takes, what a
// read answers, how lists filter. Store records are `Static<>` of these.
import { RIGHTS_STATES } from '../domain/rights.js';
import { RightsSummary } from './rights.js';
import { Type, type Static } from 'typebox';
import { MEDIA_KINDS, POST_STATES, spoken } from '../domain/lists.js';
import { FLAG_COLUMNS, FLAG_DESCRIPTIONS, type FlagColumn } from '../domain/post-fields.js';
import {
  Bool,
  Color,
  IdString,
  Instant,
  M,
  Nullable,
  Percent,
  PositiveId,
  Record,
  Text,
  Url,
  pageQuery,
  patch,
  PostIdList,
  strict,
} from './fields.js';

export const BULK_MAX = 500;
export const BULK_ACTIONS = [
  'hide',
  'unhide',
  'pin',
  'unpin',
  'highlight',
  'unhighlight',
  'setCta',
  'clearCta',
  'approve',
  'reject',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** product tags one post carries at most */
export const TAGS_MAX = 50;

/** The longest reason a moderation decision keeps. */
export const REASON_MAX = 500;

/** What the moderation view lists by state: one state, the hidden posts (any state), or all. */
export const POST_LIST_STATES = ['pending', 'approved', 'rejected', 'hidden', 'all'] as const;

/** What the moderation view filters by rights: a state, never asked, or held off the wall. */
export const RIGHTS_LIST_STATES = ['none', ...RIGHTS_STATES, 'held'] as const;

export const Reason = (description: string) =>
  Type.String({ maxLength: REASON_MAX, 'x-error': M.optText('reason', REASON_MAX), description });

export const PostListQuery = Type.Object(
  {
    ...pageQuery,
    status: Type.Optional(
      Type.Enum(['visible', 'hidden', 'all'], {
        'x-error': 'status must be visible, hidden or all',
        description: 'visible: what the public API shows (approved, not hidden); default all',
      }),
    ),
    state: Type.Optional(
      Type.Enum([...POST_LIST_STATES], {
        'x-error': `state must be ${spoken(POST_LIST_STATES)}`,
        description:
          'moderation state (hidden: the hidden posts, whatever their state); default all. `pending` is the queue: oldest first',
      }),
    ),
    rights: Type.Optional(
      Type.Enum([...RIGHTS_LIST_STATES], {
        'x-error': `rights must be ${spoken(RIGHTS_LIST_STATES)}`,
        description:
          'a rights state, none (never asked) or held (kept off its wall for want of the rights it requires)',
      }),
    ),
    feedId: Type.Optional(IdString('feedId')),
    media: Type.Optional(Type.Enum(MEDIA_KINDS, { 'x-error': `media must be ${spoken(MEDIA_KINDS)}` })),
    network: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        'x-error': 'network must be a network name of 1 to 100 characters',
        description: 'network name (networkName), any case, e.g. mastodon',
      }),
    ),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        'x-error': 'q must be a text of 1 to 200 characters',
        description: 'text search: posts whose content, author name or username contain it (any case)',
      }),
    ),
  },
  strict,
);

export const CtaBody = Type.Object(
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
    state: Type.Optional(
      Type.Enum([...POST_STATES], {
        'x-error': `state must be ${spoken(POST_STATES)}`,
        description: 'moderation decision: only approved posts (and not hidden) appear in the public API',
      }),
    ),
    reason: Type.Optional(Reason('why (with `state`): kept with the decision and in the audit log')),
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
      { state: 'rejected', reason: 'off-topic' },
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
    postIds: PostIdList(BULK_MAX),
    action: Type.Enum([...BULK_ACTIONS], { 'x-error': `action must be one of ${BULK_ACTIONS.join(', ')}` }),
    cta: Type.Optional(CtaBody),
    reason: Type.Optional(Reason('why (approve, reject): kept with each decision and in the audit log')),
  },
  {
    ...strict,
    examples: [
      { postIds: [17001, 17002, 17003], action: 'hide' },
      { postIds: [17004, 17005], action: 'reject', reason: 'spam' },
    ],
  },
);

export const TagBody = Type.Object(
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

export const Position = Type.Integer({
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

export const CtaRecord = Record({
  color: Type.String(),
  background: Type.String(),
  status: Type.Integer(),
  url: Type.String(),
  text: Type.String(),
});

export const DecisionDetailRecord = Record(
  {
    rule: Type.String({ description: 'the rule’s id' }),
    kind: Type.String({ description: 'the rule’s kind' }),
    label: Nullable(Type.String({ description: 'what was found: a class, a language, a duplicate’s post id' })),
    score: Nullable(Type.Number({ description: 'the measured value: a classifier’s 0–1 score, a count' })),
    threshold: Nullable(Type.Number({ description: 'the rule’s threshold the score was held against' })),
    model: Nullable(Type.String({ description: 'the detector and its version' })),
  },
  { description: 'what an automatic rule found when it decided; null for people’s decisions and plain rules' },
);

export const DecisionRecord = Record(
  {
    by: Type.String({ description: 'the operator token’s name, `cli`, or `rule:<id>`' }),
    at: Instant,
    reason: Nullable(Type.String()),
    detail: Nullable(DecisionDetailRecord),
  },
  { description: 'the last moderation decision on the post; null when none was made (the mode placed it)' },
);

/** Where a post's media stand as a whole (posts.media_state). */
export const POST_MEDIA_STATES = ['none', 'pending', 'ready', 'partial', 'failed'] as const;
/** Where fetching one picture stands (post_media.state). */
export const PICTURE_STATES = ['pending', 'ready', 'failed', 'refused', 'skipped'] as const;

export const PictureRecord = Record(
  {
    slot: Type.String({
      description: '`item:<n>`: the picture of the post’s n-th media item (a video’s poster), from 0; `avatar`',
    }),
    sourceUrl: Type.String({ description: 'where the picture was fetched from (the original)' }),
    state: Type.Enum([...PICTURE_STATES], {
      description:
        'pending: to be fetched (or retried); ready: Wallery has a copy; failed: gave up after retries; refused: not a picture Wallery takes (an SVG, too many pixels…); skipped: not fetched',
    }),
    reason: Nullable(Type.String({ description: 'why it failed or was refused' })),
    attempts: Type.Integer({ minimum: 0, description: 'fetches tried so far' }),
    width: Nullable(Type.Integer({ description: 'of the copy, when ready' })),
    height: Nullable(Type.Integer()),
    url: Nullable(
      Type.String({ description: 'absolute URL of Wallery’s copy (a rendition at most 1080 px wide), when ready' }),
    ),
  },
  { description: 'one picture of the post that Wallery keeps a copy of' },
);

export const PostMediaRecord = Record(
  {
    state: Nullable(
      Type.Enum([...POST_MEDIA_STATES], {
        description:
          'none: no picture; pending: some still being fetched (a wall that waits for media does not show the post in its embed yet); ready: all copied; partial: some copied, some failed; failed: none copied. null: not looked at yet',
      }),
    ),
    pictures: Type.Array(PictureRecord, { description: 'in slot order: the items’, then the avatar' }),
  },
  { description: 'the post’s pictures and Wallery’s copies of them (its media as fetched)' },
);

export const TagRecord = Record({
  productId: Type.Integer(),
  productName: Type.String(),
  left: Type.Number(),
  top: Type.Number(),
  position: Type.Integer({ description: 'tag order, from 0' }),
});

/**
 * A post's content as the management API and the data file name it: each
 * field one stored column, named by its `content` in the post-field registry
 * (src/domain/post-fields.ts; src/store/post-columns.ts checks both agree). A
 * field added here is answered by the management API, exported and imported.
 */
export const PostContent = {
  networkName: Type.String(),
  postType: Type.Integer({ minimum: 0 }),
  media: Type.Enum(MEDIA_KINDS),
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
};

/** The registry's flags (src/domain/post-fields.ts), each a boolean of a post's record. */
const flagRecordFields = Object.fromEntries(
  FLAG_COLUMNS.map((c) => [c, Type.Boolean({ description: FLAG_DESCRIPTIONS[c] })]),
) as { [C in FlagColumn]: ReturnType<typeof Type.Boolean> };

export const PostRecord = Record({
  id: Type.Integer(),
  wallId: Type.Integer(),
  feedId: Type.Integer(),
  feedName: Type.String(),
  externalId: Nullable(Type.String()),
  ...PostContent,
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
  state: Type.Enum([...POST_STATES], { description: 'moderation state; the public API shows approved posts only' }),
  decision: Nullable(DecisionRecord),
  hidden: Type.Boolean(),
  pinned: Type.Boolean(),
  highlighted: Type.Boolean(),
  ...flagRecordFields,
  cta: Nullable(CtaRecord),
  products: Type.Array(TagRecord),
  // not `media`: that is the post's media kind (image, video, text), a field of its content
  copies: PostMediaRecord,
  rights: RightsSummary,
});

export const BulkResult = Record({
  action: Type.Enum([...BULK_ACTIONS]),
  postIds: Type.Array(Type.Integer()),
  changed: Type.Integer({ description: 'posts whose state actually changed' }),
});

// ---------- the types of the shapes above ----------

export type PostRecord = Static<typeof PostRecord>;
export type TagRecord = Static<typeof TagRecord>;
export type PostMediaRecord = Static<typeof PostMediaRecord>;
export type PictureRecord = Static<typeof PictureRecord>;
export type BulkResult = Static<typeof BulkResult>;
export type PostPatch = Static<typeof PostPatchBody>;
export type BulkInput = Static<typeof BulkBody>;
export type PostStatus = NonNullable<Static<typeof PostListQuery>['status']>;
export type PostListState = NonNullable<Static<typeof PostListQuery>['state']>;
export type RightsListState = NonNullable<Static<typeof PostListQuery>['rights']>;
export type DecisionRecord = Static<typeof DecisionRecord>;
