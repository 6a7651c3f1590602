// A wall's live screen control on the wire (src/domain/screen-control.ts):
// the state as the management API reads it, a change to it (moderator), the
// slides and the schedule (editor), and what the embed stream sends screens.
import { Type, type Static } from 'typebox';
import { EMBED_LAYOUTS, EMBED_THEMES } from '../domain/lists.js';
import {
  EVERY_POSTS,
  HIDDEN_MAX,
  MESSAGE_MAX,
  SCHEDULE_ACTIONS,
  SCHEDULE_MAX,
  SHOW_SECONDS,
  SLIDE_TEXT_MAX,
  SLIDE_TITLE_MAX,
} from '../domain/screen-control.js';
import { EmbedPostSchema } from './embed.js';
import { Bool, Instant, Nullable, OptText, PositiveId, Record, Text, Url, patch, strict } from './fields.js';

const SECONDS = `how long, in seconds (${SHOW_SECONDS.min}–${SHOW_SECONDS.max}, default ${SHOW_SECONDS.default})`;
const Seconds = Type.Integer({
  minimum: SHOW_SECONDS.min,
  maximum: SHOW_SECONDS.max,
  'x-error': `seconds must be a whole number from ${SHOW_SECONDS.min} to ${SHOW_SECONDS.max}`,
  description: SECONDS,
});
const LayoutOverride = Nullable(
  Type.Enum([...EMBED_LAYOUTS], {
    'x-error': `layout must be one of ${EMBED_LAYOUTS.join(', ')}, or null`,
    description: 'the layout every screen of the wall shows; null: each screen’s own',
  }),
);
const ThemeOverride = Nullable(
  Type.Enum([...EMBED_THEMES], {
    'x-error': `theme must be one of ${EMBED_THEMES.join(', ')}, or null`,
    description: 'the theme every screen of the wall shows; null: each screen’s own',
  }),
);
const PostIds = (name: string, description: string) =>
  Type.Array(PositiveId('postId'), {
    maxItems: HIDDEN_MAX,
    'x-error': `${name} must be a list of at most ${HIDDEN_MAX} post ids`,
    description,
  });

const ISO_TIME =
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:[.][0-9]{1,3})?)?(?:Z|[+-][0-9]{2}:[0-9]{2})$';
/** A time a write takes: ISO 8601 with its offset (`2026-07-04T18:00:00Z`, `…+02:00`). */
const TimeIn = (name: string, description?: string) =>
  Type.String({
    pattern: ISO_TIME,
    'x-error': `${name} must be an ISO 8601 date and time with its offset, such as 2026-07-04T18:00:00Z`,
    ...(description ? { description } : {}),
  });

export const ScheduleEntrySchema = Type.Object(
  {
    at: TimeIn('at', 'from when'),
    action: Type.Enum([...SCHEDULE_ACTIONS], {
      'x-error': `action must be one of ${SCHEDULE_ACTIONS.join(', ')}`,
      description: 'on: the wall; off: the closing screen ("back soon"); message: a full-screen message',
    }),
    message: Type.Optional(
      Nullable(Type.String({ maxLength: MESSAGE_MAX, 'x-error': `message must be at most ${MESSAGE_MAX} characters` })),
    ),
  },
  strict,
);

export const ScheduleEntryRecord = Record({
  at: Instant,
  action: Type.Enum([...SCHEDULE_ACTIONS]),
  message: Nullable(Type.String()),
});

export const ScreenStateRecord = Record({
  wallId: Type.Integer(),
  paused: Type.Boolean({ description: 'the screen takes no new post and does not turn its pages' }),
  spotlight: Nullable(
    Record({ postId: Type.Integer(), until: Instant }, { description: 'the post shown full-screen, until when' }),
  ),
  slide: Nullable(
    Record({ slideId: Type.Integer(), until: Instant }, { description: 'the slide shown now, until when' }),
  ),
  hiddenPostIds: Type.Array(Type.Integer(), {
    description: 'posts kept off the screen (they stay on the wall elsewhere)',
  }),
  layout: Nullable(Type.Enum([...EMBED_LAYOUTS])),
  theme: Nullable(Type.Enum([...EMBED_THEMES])),
  qr: Type.Boolean({ description: 'the event screen’s QR code is shown' }),
  schedule: Type.Array(ScheduleEntryRecord),
  version: Type.Integer({ description: 'moves on with every change' }),
  updatedAt: Nullable(Instant),
});
export type ScreenStateRecord = Static<typeof ScreenStateRecord>;

export const ScreenPatchBody = Type.Object(
  {
    paused: Type.Optional(Bool('paused', 'pause (true) or resume (false) the screen')),
    spotlight: Type.Optional(
      Nullable(
        Type.Object(
          { postId: PositiveId('spotlight.postId'), seconds: Type.Optional(Seconds) },
          { ...strict, description: `an approved post of the wall full-screen for ${SECONDS}; null ends it` },
        ),
      ),
    ),
    showSlide: Type.Optional(
      Nullable(
        Type.Object(
          { slideId: PositiveId('showSlide.slideId'), seconds: Type.Optional(Seconds) },
          { ...strict, description: `one of the wall’s slides full-screen for ${SECONDS}; null ends it` },
        ),
      ),
    ),
    hide: Type.Optional(PostIds('hide', 'posts to take off the screen at once')),
    unhide: Type.Optional(PostIds('unhide', 'posts the screen may show again')),
    layout: Type.Optional(LayoutOverride),
    theme: Type.Optional(ThemeOverride),
    qr: Type.Optional(Bool('qr', 'show (true) or hide (false) the QR code')),
  },
  patch,
);
export type ScreenPatchBody = Static<typeof ScreenPatchBody>;

export const ScheduleBody = Type.Object(
  {
    schedule: Type.Array(ScheduleEntrySchema, {
      maxItems: SCHEDULE_MAX,
      'x-error': `schedule must be a list of at most ${SCHEDULE_MAX} entries`,
    }),
  },
  strict,
);
export type ScheduleBody = Static<typeof ScheduleBody>;

const slideFields = {
  title: Text('title', SLIDE_TITLE_MAX, { description: 'the slide’s heading' }),
  text: OptText('text', SLIDE_TEXT_MAX),
  imageUrl: Nullable(Url('imageUrl')),
  sponsor: Bool('sponsor', 'labelled “Sponsor” on the screen'),
  everyPosts: Nullable(
    Type.Integer({
      minimum: EVERY_POSTS.min,
      maximum: EVERY_POSTS.max,
      'x-error': `everyPosts must be a whole number from ${EVERY_POSTS.min} to ${EVERY_POSTS.max}, or null`,
      description: 'in the rotation after every this many posts; null: shown on demand only',
    }),
  ),
  startsAt: Nullable(TimeIn('startsAt', 'shown from then on; null: from now')),
  endsAt: Nullable(TimeIn('endsAt', 'shown until then; null: no end')),
};

export const SlideCreateBody = Type.Object(
  {
    title: slideFields.title,
    text: Type.Optional(slideFields.text),
    imageUrl: Type.Optional(slideFields.imageUrl),
    sponsor: Type.Optional(slideFields.sponsor),
    everyPosts: Type.Optional(slideFields.everyPosts),
    startsAt: Type.Optional(slideFields.startsAt),
    endsAt: Type.Optional(slideFields.endsAt),
  },
  strict,
);
export type SlideCreateBody = Static<typeof SlideCreateBody>;

export const SlidePatchBody = Type.Object(
  {
    title: Type.Optional(slideFields.title),
    text: Type.Optional(slideFields.text),
    imageUrl: Type.Optional(slideFields.imageUrl),
    sponsor: Type.Optional(slideFields.sponsor),
    everyPosts: Type.Optional(slideFields.everyPosts),
    startsAt: Type.Optional(slideFields.startsAt),
    endsAt: Type.Optional(slideFields.endsAt),
  },
  patch,
);
export type SlidePatchBody = Static<typeof SlidePatchBody>;

export const SlideRecord = Record({
  id: Type.Integer(),
  wallId: Type.Integer(),
  title: Type.String(),
  text: Type.String(),
  imageUrl: Nullable(Type.String()),
  sponsor: Type.Boolean(),
  everyPosts: Nullable(Type.Integer()),
  startsAt: Nullable(Instant),
  endsAt: Nullable(Instant),
  createdAt: Instant,
  updatedAt: Instant,
});
export type SlideRecord = Static<typeof SlideRecord>;

export const SlideList = Record({ data: Type.Array(SlideRecord) });

/** A slide as a screen gets it (sanitized text; the image only as an http(s) URL). */
export const EmbedSlideSchema = Record({
  id: Type.String(),
  title: Type.String(),
  text: Type.String(),
  imageUrl: Nullable(Type.String()),
  sponsor: Type.Boolean(),
  everyPosts: Nullable(Type.Integer()),
  startsAt: Nullable(Instant),
  endsAt: Nullable(Instant),
});
export type EmbedSlide = Static<typeof EmbedSlideSchema>;

const embedScreenFields = {
  version: Type.Integer(),
  paused: Type.Boolean(),
  spotlight: Nullable(Record({ post: EmbedPostSchema, until: Instant })),
  slide: Nullable(Record({ slide: EmbedSlideSchema, until: Instant })),
  hiddenPostIds: Type.Array(Type.String()),
  layout: Nullable(Type.Enum([...EMBED_LAYOUTS])),
  theme: Nullable(Type.Enum([...EMBED_THEMES])),
  qr: Type.Boolean(),
  schedule: Type.Array(ScheduleEntryRecord),
  slides: Type.Array(EmbedSlideSchema, { description: 'the slides in the rotation (with everyPosts)' }),
};

/**
 * The `screen` event of the embed stream: the whole current state. A screen
 * applies the highest `version` it has seen; times are the server's,
 * `serverNow` tells a screen its clock's offset.
 */
export const EmbedScreenSchema = Record({ ...embedScreenFields, serverNow: Instant });
export type EmbedScreen = Static<typeof EmbedScreenSchema>;

/**
 * The same state in the first page of the embed API's posts, for screens
 * that poll: cached and purged with the wall like the rest of the answer, so
 * it has no `serverNow` (a cached answer's would be as old as the answer).
 */
export const EmbedPolledScreenSchema = Record(embedScreenFields, {
  description:
    'the wall’s live screen state, as the stream’s `screen` event sends it but without `serverNow`: on the first ' +
    'page only, and only once the wall’s screen has been controlled (paused, a spotlight, slides, a schedule…). ' +
    'A screen that polls applies it as it applies that event: the highest version wins.',
});
export type EmbedPolledScreen = Static<typeof EmbedPolledScreenSchema>;
