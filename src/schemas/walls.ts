// Walls: what a write takes, what a read answers, how lists filter.
import { Type, type Static } from 'typebox';
import { EMBED_LAYOUTS, EMBED_THEMES, MODERATION_MODES, spoken } from '../domain/lists.js';
import {
  Bool,
  IdString,
  Instant,
  Nullable,
  NullableInstant,
  PositiveId,
  Record,
  Text,
  pageQuery,
  patch,
  strict,
} from './fields.js';
import { BrandingField, BrandingRecord } from './branding.js';
import { RightsAutoField, RightsRequiredField } from './rights.js';

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

export const Slug = Type.String({
  pattern: '^[a-z0-9](?:[a-z0-9_-]{0,98}[a-z0-9])?$',
  'x-error':
    'url must be a slug of 1 to 100 lowercase letters, digits, - and _, starting and ending with a letter or digit',
  description: 'URL slug, unique within the account',
});

export const Moderation = (description: string) =>
  Type.Enum([...MODERATION_MODES], { 'x-error': `moderation must be ${spoken(MODERATION_MODES)}`, description });

const WALL_MODERATION =
  'auto: posts appear as they arrive; manual: ingested posts wait as pending until approved (default auto)';

const ALLOW_FRAMING =
  'whether any site may show the hosted wall page in a frame when the page’s key names no origins (default ' +
  'false: never framed); a key bound to origins is framed by those origins only, whatever this says';

const MEDIA_WAIT =
  'whether the embed shows a post only once Wallery has its pictures (fetched, refused, or given up on after ' +
  'its retries; a media worker must run) — default false: at once, its original pictures until the copies are in';

/** How the embed shows the wall when a page does not choose: null leaves it to the embed (masonry, auto, its width). */
const Display = {
  layout: Type.Optional(
    Type.Union([Type.Null(), Type.Enum([...EMBED_LAYOUTS])], {
      'x-error': `layout must be null (the embed's own) or ${spoken(EMBED_LAYOUTS)}`,
      description: 'the embed’s layout when a page does not choose one; null: masonry (the hosted page: event)',
    }),
  ),
  theme: Type.Optional(
    Type.Union([Type.Null(), Type.Enum([...EMBED_THEMES])], {
      'x-error': `theme must be null (the embed's own) or ${spoken(EMBED_THEMES)}`,
      description: 'the embed’s theme when a page does not choose one; null: auto (the reader’s system setting)',
    }),
  ),
  columns: Type.Optional(
    Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 8 })], {
      'x-error': 'columns must be null (as many as fit) or a whole number from 1 to 8',
      description: 'the most columns the embed uses when a page does not say; null: as many as fit',
    }),
  ),
  allowFraming: Type.Optional(Bool('allowFraming', ALLOW_FRAMING)),
  mediaWait: Type.Optional(Bool('mediaWait', MEDIA_WAIT)),
  branding: Type.Optional(BrandingField),
  rightsRequired: Type.Optional(RightsRequiredField),
  rightsAuto: Type.Optional(RightsAutoField),
};

export const WallCreateBody = Type.Object(
  {
    accountId: PositiveId('accountId'),
    name: Text('name', 200),
    url: Slug,
    profanity: Type.Optional(Bool('profanity', 'profanity filter flag (wallProfanity), default false')),
    moderation: Type.Optional(Moderation(WALL_MODERATION)),
    ...Display,
  },
  {
    ...strict,
    examples: [{ accountId: 7001, name: 'Harbour Festival 2026', url: 'harbour-festival-2026', profanity: false }],
  },
);
export const WallPatchBody = Type.Object(
  {
    name: Type.Optional(Text('name', 200)),
    url: Type.Optional(Slug),
    profanity: Type.Optional(Bool('profanity')),
    moderation: Type.Optional(Moderation(WALL_MODERATION)),
    ...Display,
  },
  {
    ...patch,
    examples: [
      { name: 'Harbour Festival — main stage' },
      { moderation: 'manual' },
      { layout: 'event', theme: 'dark' },
      { rightsRequired: 'shoppable', rightsAuto: 'shoppable' },
      {
        branding: {
          accent: '#e4572e',
          font: 'serif',
          radius: 0,
          cardStyle: 'outlined',
          callToPost: 'Post with #harborfest',
        },
      },
      { branding: { accent: null } },
    ],
  },
);

export const WallRecord = Record({
  id: Type.Integer(),
  accountId: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  profanity: Type.Boolean(),
  moderation: Type.Enum([...MODERATION_MODES], { description: 'auto or manual (approve first)' }),
  layout: Nullable(Type.Enum([...EMBED_LAYOUTS], { description: 'the embed’s layout when a page does not choose' })),
  theme: Nullable(Type.Enum([...EMBED_THEMES], { description: 'the embed’s theme when a page does not choose' })),
  columns: Nullable(Type.Integer({ description: 'the most columns the embed uses when a page does not say' })),
  allowFraming: Type.Boolean({ description: ALLOW_FRAMING }),
  mediaWait: Type.Boolean({ description: MEDIA_WAIT }),
  branding: BrandingRecord,
  rightsRequired: RightsRequiredField,
  rightsAuto: RightsAutoField,
  createdAt: Instant,
  deleted: Type.Boolean(),
  deletedAt: NullableInstant,
  feedCount: Type.Integer(),
  postCount: Type.Integer(),
  approvedCount: Type.Integer({ description: 'posts the public API shows: approved and not hidden' }),
  pendingCount: Type.Integer({ description: 'posts waiting for a decision (the approval queue)' }),
  rejectedCount: Type.Integer(),
  hiddenCount: Type.Integer({ description: 'hidden posts, whatever their state' }),
});

// ---------- the types of the shapes above ----------

export type WallRecord = Static<typeof WallRecord>;
export type WallInput = Static<typeof WallCreateBody>;
export type WallPatch = Static<typeof WallPatchBody>;
export type WallState = NonNullable<Static<typeof WallListQuery>['state']>;
