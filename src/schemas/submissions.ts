// A wall's submission page (attendee uploads, src/domain/uploads.ts): what
// GET answers and what PUT takes.
import { Type, type Static } from 'typebox';
import { DEFAULT_SUBMISSION, UPLOAD_LANGUAGES, UPLOAD_LIMITS, UPLOAD_MODERATION } from '../domain/uploads.js';
import { spoken } from '../domain/lists.js';
import { Bool, Nullable, OptText, Record, Text, patch } from './fields.js';

const MB = 1024 * 1024;
export const PER_IP_PER_HOUR_MAX = 1000;
export const PER_WALL_PER_MINUTE_MAX = 10_000;

const Moderation = Type.Enum([...UPLOAD_MODERATION], {
  'x-error': `moderation must be ${spoken(UPLOAD_MODERATION)}`,
  description: '`queue`: every upload waits for a moderator; `wall`: the wall’s own mode and rules decide',
});
const Language = Type.Enum([...UPLOAD_LANGUAGES], {
  'x-error': `language must be ${spoken(UPLOAD_LANGUAGES)}`,
  description: 'the page’s language',
});
const Count = (name: string, max: number, description: string) =>
  Type.Integer({ minimum: 1, maximum: max, 'x-error': `${name} must be a whole number from 1 to ${max}`, description });
const MaxBytes = Type.Integer({
  minimum: UPLOAD_LIMITS.maxBytesFloor,
  maximum: UPLOAD_LIMITS.maxBytesCeiling,
  'x-error': `maxBytes must be a whole number of bytes from ${UPLOAD_LIMITS.maxBytesFloor} to ${UPLOAD_LIMITS.maxBytesCeiling} (${UPLOAD_LIMITS.maxBytesCeiling / MB} MB)`,
  description: 'the largest photo in bytes',
});

export const SubmissionBody = Type.Object(
  {
    enabled: Type.Optional(Bool('enabled', 'the page takes posts; false is the kill switch (404 at once)')),
    title: Type.Optional(
      Type.Union([Type.Null(), Text('title', UPLOAD_LIMITS.titleMax)], {
        'x-error': `title must be null (the page's own) or a string of 1 to ${UPLOAD_LIMITS.titleMax} characters`,
        description: 'the page’s heading; null: the page’s own',
      }),
    ),
    terms: Type.Optional(OptText('terms', UPLOAD_LIMITS.termsMax)),
    consentText: Type.Optional(
      Text('consentText', UPLOAD_LIMITS.consentMax, {
        description: 'the consent checkbox’s text; a change takes the next consentVersion',
      }),
    ),
    moderation: Type.Optional(Moderation),
    language: Type.Optional(Language),
    maxBytes: Type.Optional(MaxBytes),
    perIpPerHour: Type.Optional(Count('perIpPerHour', PER_IP_PER_HOUR_MAX, 'uploads one address may send in an hour')),
    perWallPerMinute: Type.Optional(
      Count('perWallPerMinute', PER_WALL_PER_MINUTE_MAX, 'uploads the wall takes in a minute'),
    ),
  },
  {
    ...patch,
    examples: [
      { enabled: true, consentText: 'I agree that my photo and name are shown on the wall.', moderation: 'queue' },
      { enabled: false },
    ],
  },
);

export const SubmissionRecord = Record({
  wallId: Type.Integer(),
  enabled: Type.Boolean({ description: 'the page takes posts (false: the kill switch, 404)' }),
  title: Nullable(Type.String({ description: 'the page’s heading; null: the page’s own' })),
  terms: Type.String({ description: 'the wall’s terms, shown above the consent box' }),
  consentText: Type.String(),
  consentVersion: Type.Integer({
    description: 'taken by each upload with its consent; bumped by a change of the text',
  }),
  moderation: Type.Enum([...UPLOAD_MODERATION]),
  language: Type.Enum([...UPLOAD_LANGUAGES]),
  maxBytes: Type.Integer({
    description: `the largest photo in bytes (default ${DEFAULT_SUBMISSION.maxBytes / MB} MB)`,
  }),
  perIpPerHour: Type.Integer(),
  perWallPerMinute: Type.Integer(),
  url: Type.String({ description: 'the public submission page (for the QR code and the short link)' }),
  posterUrl: Type.String({ description: 'a printable SVG poster: QR code, the wall’s name and a call to post' }),
});

export type SubmissionInput = Static<typeof SubmissionBody>;
export type SubmissionRecord = Static<typeof SubmissionRecord>;
