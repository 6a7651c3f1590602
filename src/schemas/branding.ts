// A wall's branding on the wire: the whole record (management API's wall
// record, embed API's wall) and a change to it (create and update bodies).
// The rules themselves are src/domain/branding.ts: a write is checked by its
// `checkBranding` (the `x-check` below), so the schema and the messages agree.
import { Type } from 'typebox';
import {
  AA_TEXT,
  AA_UI,
  CALL_TO_POST_MAX,
  CARD_STYLES,
  CUSTOM_VARS,
  FONTS,
  RADIUS_MAX,
  VAR_RULES,
  VARS_MAX,
} from '../domain/branding.js';
import { Nullable, strict } from './fields.js';

const HEX = '^#[0-9a-f]{6}$';
const HEX_IN = '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';

/** What each field is, in words: the OpenAPI document and the docs say the same. */
export const BRANDING_DESCRIPTIONS = {
  accent: `links, buttons and highlights (--wallery-accent); at least ${AA_UI}:1 against the card background`,
  background: 'the wall’s and the hosted page’s background (--wallery-background)',
  cardBackground: 'the background of the posts’ cards (--wallery-card-background)',
  text: `the cards’ text (--wallery-color); at least ${AA_TEXT}:1 against the card background`,
  font: 'a system font stack from a safe list (nothing is downloaded): system (default), humanist, geometric, serif, rounded or mono',
  radius: `the cards’ corner radius, whole px from 0 to ${RADIUS_MAX} (--wallery-radius); null: the theme’s (10)`,
  cardStyle: 'how the cards stand off the background: elevated (a shadow, default), flat or outlined (a line)',
  logoUrl:
    'absolute http(s) URL of the wall’s logo (the event screen’s banner); the embed API gives Wallery’s copy when the media pipeline has one',
  callToPost: `the event screen’s call to post, at most ${CALL_TO_POST_MAX} characters, e.g. “Post with #harborfest”`,
  infoUrl: 'http(s) URL the event screen’s QR code points to (the wall’s submission or information page)',
  vars: `custom CSS variables, at most ${VARS_MAX}, from an allow-list (never raw CSS): ${Object.entries(CUSTOM_VARS)
    .map(([name, kind]) => `${name} (${kind})`)
    .join(', ')}`,
} as const;

const colorOut = (field: keyof typeof BRANDING_DESCRIPTIONS) =>
  Nullable(Type.String({ pattern: HEX, description: `${BRANDING_DESCRIPTIONS[field]}; #rrggbb, null: the theme’s` }));

/** A wall's branding as read: every field, null colours and radius leaving the theme's own. */
export const BrandingRecord = Type.Object(
  {
    accent: colorOut('accent'),
    background: colorOut('background'),
    cardBackground: colorOut('cardBackground'),
    text: colorOut('text'),
    font: Type.Enum([...FONTS], { description: BRANDING_DESCRIPTIONS.font }),
    radius: Nullable(Type.Integer({ minimum: 0, maximum: RADIUS_MAX, description: BRANDING_DESCRIPTIONS.radius })),
    cardStyle: Type.Enum([...CARD_STYLES], { description: BRANDING_DESCRIPTIONS.cardStyle }),
    logoUrl: Nullable(Type.String({ description: BRANDING_DESCRIPTIONS.logoUrl })),
    callToPost: Nullable(Type.String({ maxLength: CALL_TO_POST_MAX, description: BRANDING_DESCRIPTIONS.callToPost })),
    infoUrl: Nullable(Type.String({ description: BRANDING_DESCRIPTIONS.infoUrl })),
    vars: Type.Object(
      Object.fromEntries(
        Object.entries(CUSTOM_VARS).map(([name, kind]) => [
          name,
          Type.Optional(Type.String({ description: VAR_RULES[kind] })),
        ]),
      ),
      { ...strict, description: BRANDING_DESCRIPTIONS.vars },
    ),
  },
  { ...strict, description: 'the wall’s look: colours, font, corners, cards, logo and the event screen’s texts' },
);

const colorIn = (field: keyof typeof BRANDING_DESCRIPTIONS) =>
  Type.Optional(
    Nullable(
      Type.String({
        pattern: HEX_IN,
        description: `${BRANDING_DESCRIPTIONS[field]}; #rgb or #rrggbb (stored #rrggbb in lower case), null: the theme’s`,
      }),
    ),
  );

const VAR_SCHEMAS = Object.fromEntries(
  Object.entries(CUSTOM_VARS).map(([name, kind]) => [
    name,
    Type.Optional(Nullable(Type.String({ description: `${VAR_RULES[kind]}; null removes it` }))),
  ]),
);

/**
 * A branding as written: the fields given change, `null` resets one to its
 * default, `vars` merge by name (a null value removes one). Checked by
 * checkBranding (src/domain/branding.ts); a colour pair below WCAG AA after
 * the change is refused naming the field (`branding.text`) with its ratio.
 */
export const BrandingWrite = Type.Object(
  {
    accent: colorIn('accent'),
    background: colorIn('background'),
    cardBackground: colorIn('cardBackground'),
    text: colorIn('text'),
    font: Type.Optional(Nullable(Type.Enum([...FONTS], { description: BRANDING_DESCRIPTIONS.font }))),
    radius: Type.Optional(
      Nullable(Type.Integer({ minimum: 0, maximum: RADIUS_MAX, description: BRANDING_DESCRIPTIONS.radius })),
    ),
    cardStyle: Type.Optional(Nullable(Type.Enum([...CARD_STYLES], { description: BRANDING_DESCRIPTIONS.cardStyle }))),
    logoUrl: Type.Optional(Nullable(Type.String({ maxLength: 2048, description: BRANDING_DESCRIPTIONS.logoUrl }))),
    callToPost: Type.Optional(Nullable(Type.String({ description: BRANDING_DESCRIPTIONS.callToPost }))),
    infoUrl: Type.Optional(Nullable(Type.String({ maxLength: 2048, description: BRANDING_DESCRIPTIONS.infoUrl }))),
    vars: Type.Optional(Nullable(Type.Object(VAR_SCHEMAS, { ...strict, description: BRANDING_DESCRIPTIONS.vars }))),
  },
  strict,
);

/** The `branding` of a create or update body: a change to the branding, or null for none (every field its default). */
export const BrandingField = Type.Union([Type.Null(), BrandingWrite], {
  'x-check': 'branding',
  'x-error': 'branding must be null or an object of branding fields',
  description:
    'the wall’s look; on an update the fields given change and the others stay, null resets a field to its ' +
    'default (and branding: null all of them)',
});
