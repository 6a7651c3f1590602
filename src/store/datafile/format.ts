// The data file of contract §8: its schema, record by record (a file is read
// as a stream: each record is checked as it arrives), and its errors, which
// name the JSON path of the problem.
import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { EMBED_LAYOUTS, EMBED_THEMES, MODERATION_MODES, PLANS, POST_STATES } from '../../domain/lists.js';
import { FLAG_COLUMNS, type FlagColumn } from '../../domain/post-fields.js';
import {
  OPT_OUT_REASONS,
  RIGHTS_AUTO_REQUESTS,
  RIGHTS_EVENT_KINDS,
  RIGHTS_METHODS,
  RIGHTS_REQUIREMENTS,
  RIGHTS_STATES,
} from '../../domain/rights.js';
import { optional } from '../../schemas/fields.js';
import { PostContent } from '../../schemas/posts.js';
import { RightsSettingsRecord } from '../../schemas/rights.js';

const Id = Type.Integer({ minimum: 1 });
const Str = Type.String();
const OptStr = Type.Optional(Type.String());
const Plan = Type.Enum(PLANS);
const NullableNum = Type.Union([Type.Number(), Type.Null()]);
const NullableStr = Type.Union([Str, Type.Null()]);
/** what an automatic rule found (src/domain/decision.ts) */
const DecisionDetailIn = Type.Object({
  rule: Str,
  kind: Str,
  label: NullableStr,
  score: NullableNum,
  threshold: NullableNum,
  model: NullableStr,
});

const { connections: _connections, ...settingsFields } = RightsSettingsRecord.properties;

/**
 * Wallery's own extension: an account's rights management (absent: the
 * defaults, nobody opted out). `settings` as GET …/rights-settings answers
 * them, without `connections` (connections are not in the data file; each
 * network asks with the feed's or the account's first connection until an
 * operator chooses again); a field left out keeps its default.
 */
const AccountRightsSchema = Type.Object({
  settings: Type.Optional(Type.Object(optional(settingsFields))),
  optOuts: Type.Optional(
    Type.Array(
      Type.Object({
        /** network:handle (src/domain/rights.ts authorKey) */
        author: Type.String({ pattern: '^[^:\\s]+:\\S' }),
        reason: Type.Enum([...OPT_OUT_REASONS]),
        postId: Type.Optional(Type.Union([Id, Type.Null()])),
        note: Type.Optional(NullableStr),
        createdAt: Str,
      }),
    ),
  ),
});

export const AccountSchema = Type.Object({
  id: Id,
  name: Str,
  plan: Plan,
  dailyCallLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  userKeys: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Wallery's own extension: keys exported as their SHA-256 (plaintext is never stored). */
  userKeyHashes: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9a-f]{64}$' }))),
  rights: Type.Optional(AccountRightsSchema),
});

export const ProductSchema = Type.Object({
  id: Id,
  accountId: Id,
  name: Str,
  sku: OptStr,
  price: Type.Number(),
  currencySymbol: OptStr,
  currency: OptStr,
  discount: Type.Optional(Type.Number()),
  discountCurrencySymbol: OptStr,
  discountCurrency: OptStr,
  url: OptStr,
  image: OptStr,
  storeShopName: OptStr,
  storeProductId: OptStr,
  storeProductType: OptStr,
  createdAt: Str,
  updatedAt: OptStr,
});

/** Wallery's own extension: the registry's flags (src/domain/post-fields.ts), e.g. arrived as a boost/repost (absent: false). */
const flagFields = Object.fromEntries(FLAG_COLUMNS.map((c) => [c, Type.Optional(Type.Boolean())])) as {
  [C in FlagColumn]: ReturnType<typeof Type.Optional<ReturnType<typeof Type.Boolean>>>;
};

/**
 * Wallery's own extension: a post's rights (absent: never asked) — its state,
 * the evidence of the request and the answer, and every step (events, oldest
 * first). `network`, `author`, `authorName` and `postUrl` are the post as it
 * was asked about (absent: as it is). A request sent by a reply is not
 * listened to after an import (its connection is not in the file): its
 * answer is recorded by hand.
 */
const PostRightsSchema = Type.Object({
  state: Type.Enum([...RIGHTS_STATES]),
  method: Type.Enum([...RIGHTS_METHODS]),
  network: OptStr,
  author: OptStr,
  authorName: OptStr,
  postUrl: OptStr,
  requestText: OptStr,
  requestId: Type.Optional(NullableStr),
  requestUrl: Type.Optional(NullableStr),
  /** what the channel needs to find the answers (its own JSON) */
  requestRef: Type.Optional(Type.Unknown()),
  authorRef: Type.Optional(NullableStr),
  requestedAt: Str,
  requestedBy: Str,
  expiresAt: Type.Optional(NullableStr),
  answerId: Type.Optional(NullableStr),
  answerUrl: Type.Optional(NullableStr),
  answerText: Type.Optional(NullableStr),
  answeredAt: Type.Optional(NullableStr),
  answerEditedAt: Type.Optional(NullableStr),
  decidedBy: Type.Optional(NullableStr),
  note: Type.Optional(NullableStr),
  events: Type.Optional(
    Type.Array(
      Type.Object({
        at: Str,
        kind: Type.Enum([...RIGHTS_EVENT_KINDS]),
        actor: Str,
        detail: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      }),
    ),
  ),
});

export const PostSchema = Type.Object({
  id: Id,
  ...optional(PostContent),
  highlight: Type.Optional(Type.Integer({ minimum: 0 })),
  pin: Type.Optional(Type.Integer({ minimum: 0 })),
  createdAt: Str,
  updatedAt: OptStr,
  hidden: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  /** Wallery's own extension: moderation state (absent: approved) and the last decision */
  state: Type.Optional(Type.Enum([...POST_STATES])),
  decision: Type.Optional(
    Type.Union([
      Type.Null(),
      Type.Object({
        by: Str,
        at: Str,
        reason: Type.Optional(Type.Union([Str, Type.Null()])),
        detail: Type.Optional(Type.Union([Type.Null(), DecisionDetailIn])),
      }),
    ]),
  ),
  ...flagFields,
  cta: Type.Optional(
    Type.Union([
      Type.Null(),
      Type.Object({ color: Str, background: Str, status: Type.Integer(), url: Str, text: Str }),
    ]),
  ),
  /** Wallery's own extension (with `alt` of PostContent): alt text of each child */
  children: Type.Optional(Type.Array(Type.Object({ image: Str, video: Str, alt: OptStr }))),
  products: Type.Optional(Type.Array(Type.Object({ productId: Id, left: Type.Number(), top: Type.Number() }))),
  /**
   * Wallery's own extension: an attendee's upload (absent: none) — the
   * consent on record (the text agreed to, its version, when) and the
   * digests of the author's private deletion token and of their address
   * (never the token), so that the author's link still works after an import
   */
  upload: Type.Optional(
    Type.Object({
      consentVersion: Type.Integer({ minimum: 1 }),
      consentText: Str,
      consentedAt: Str,
      deleteTokenHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
      uploaderHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    }),
  ),
  rights: Type.Optional(PostRightsSchema),
});

/** A feed without its posts (they are records of their own). */
export const FeedHeadSchema = Type.Object({
  id: Id,
  name: Str,
  source: Str,
  sourceType: Str,
  createdAt: Type.Optional(Type.Union([Str, Type.Null()])),
  updatedAt: OptStr,
  /** ingestion setting (src/ingest/connector-settings.ts) */
  connector: Type.Optional(Type.Union([Type.Null(), Type.Object({ kind: Type.String() })])),
  enabled: Type.Optional(Type.Boolean()),
  /** Wallery's own extension: the feed's moderation mode (absent or null: the wall's) */
  moderation: Type.Optional(Type.Union([Type.Null(), Type.Enum([...MODERATION_MODES])])),
});
const FeedSchema = Type.Object({ ...FeedHeadSchema.properties, posts: Type.Optional(Type.Array(PostSchema)) });
/** A feed read as one value: its fields, and a list of posts (each then checked as a record of its own). */
export const FeedShallowSchema = Type.Object({
  ...FeedHeadSchema.properties,
  posts: Type.Optional(Type.Array(Type.Unknown())),
});

/** A wall without its feeds. */
export const WallHeadSchema = Type.Object({
  id: Id,
  accountId: Id,
  name: Str,
  url: Str,
  profanity: Type.Optional(Type.Integer({ minimum: 0 })),
  createdAt: Str,
  deleted: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  /** Wallery's own extension: moderation mode (absent: auto) */
  moderation: Type.Optional(Type.Enum([...MODERATION_MODES])),
  /**
   * Wallery's own extension: the wall's moderation rules, as GET …/rules
   * answers them (absent: none); checked by the management API's validator
   * (rulesErrors of src/schemas/validate.ts) when the wall is loaded.
   */
  rules: Type.Optional(Type.Unknown()),
  /** Wallery's own extension: how the embed shows the wall when a page does not say (absent or null: the embed's own) */
  layout: Type.Optional(Type.Union([Type.Null(), Type.Enum([...EMBED_LAYOUTS])])),
  theme: Type.Optional(Type.Union([Type.Null(), Type.Enum([...EMBED_THEMES])])),
  columns: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 8 })])),
  /** Wallery's own extension: any site may frame the hosted page of a key with no origins (absent: false) */
  allowFraming: Type.Optional(Type.Boolean()),
  /** Wallery's own extension: the embed shows a post once its pictures are in (absent: false) */
  mediaWait: Type.Optional(Type.Boolean()),
  /**
   * Wallery's own extension: the wall's branding, as the management API's
   * wall record gives it (absent or null: none); checked field by field and
   * against WCAG AA by src/domain/branding.ts when the wall is loaded.
   */
  branding: Type.Optional(Type.Unknown()),
  /** Wallery's own extension: what the wall requires before it shows a post publicly (absent: none) */
  rightsRequired: Type.Optional(Type.Enum([...RIGHTS_REQUIREMENTS])),
  /** Wallery's own extension: the wall's rule for asking by itself (absent: off) */
  rightsAuto: Type.Optional(Type.Enum([...RIGHTS_AUTO_REQUESTS])),
});
const WallSchema = Type.Object({ ...WallHeadSchema.properties, feeds: Type.Optional(Type.Array(FeedSchema)) });
/** A wall read as one value: its fields, and a list of feeds (each then checked on its own). */
export const WallShallowSchema = Type.Object({
  ...WallHeadSchema.properties,
  feeds: Type.Optional(Type.Array(Type.Unknown())),
});

export const DataFileSchema = Type.Object({
  version: Type.Literal(1),
  accounts: Type.Optional(Type.Array(AccountSchema)),
  products: Type.Optional(Type.Array(ProductSchema)),
  walls: Type.Optional(Type.Array(WallSchema)),
});

export type DataFile = Static<typeof DataFileSchema>;
export type AccountIn = Static<typeof AccountSchema>;
export type ProductIn = Static<typeof ProductSchema>;
export type WallHeadIn = Static<typeof WallHeadSchema>;
export type FeedHeadIn = Static<typeof FeedHeadSchema>;
export type PostIn = Static<typeof PostSchema>;
export type AccountRightsIn = Static<typeof AccountRightsSchema>;
export type PostRightsIn = Static<typeof PostRightsSchema>;

/** The top-level sections, in the order their rows depend on each other. */
export const SECTIONS = ['accounts', 'products', 'walls'] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * Whether a wall's (or feed's) fields read so far are all it needs before its
 * feeds (posts) can be loaded: the reader then streams them; otherwise it
 * keeps the whole object and hands it over at its end.
 */
export function headComplete(kind: 'wall' | 'feed', head: Record<string, unknown>): boolean {
  return (kind === 'wall' ? WallHeadSchema : FeedHeadSchema).required.every((key) => key in head);
}

// ---------- errors ----------

export class DataFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'DataFileError';
  }
}

/** `/walls/0/feeds/1/id` → `$.walls[0].feeds[1].id` (below `base`, `$` by default) */
export function jsonPath(pointer: string, base = '$'): string {
  let out = base;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

interface SchemaError {
  keyword?: string;
  message?: string;
  instancePath?: string;
  params?: Record<string, unknown>;
}

function describe(err: SchemaError | undefined): string {
  if (!err) return 'invalid';
  if (err.keyword === 'required')
    return `missing required field ${JSON.stringify(err.params?.requiredProperties ?? err.params?.missingProperty ?? '')}`;
  return err.message ?? 'invalid';
}

/** A compiled check of one kind of record that names the first problem by its path. */
export function recordCheck<T extends TSchema>(schema: T): (value: unknown, path: string) => Static<T> {
  const checker = Compile(schema);
  return (value, path) => {
    if (checker.Check(value)) return value as Static<T>;
    const [first] = checker.Errors(value) as Iterable<SchemaError>;
    throw new DataFileError(jsonPath(first?.instancePath ?? '', path), describe(first));
  };
}

// ---------- what a reader hands to the loader, in file order ----------

export type DataEvent =
  /** the top-level value, when it is not an object */
  | { kind: 'top'; value: unknown }
  /** a top-level field that is not a section array (`version`, or a section that is not an array) */
  | { kind: 'field'; key: string; value: unknown }
  | { kind: 'sectionStart'; name: Section }
  | { kind: 'sectionEnd'; name: Section }
  | { kind: 'account' | 'product'; index: number; value: unknown }
  /** `whole`: the complete wall (feeds included); else its fields before `feeds`, which follow as events */
  | { kind: 'wall'; index: number; value: unknown; whole: boolean }
  | { kind: 'feed'; index: number; value: unknown; whole: boolean }
  | { kind: 'post'; index: number; value: unknown }
  /** the end of a wall or feed read field by field; `tail`: fields after its feeds or posts */
  | { kind: 'wallEnd' | 'feedEnd'; tail: Record<string, unknown> };

/** The section an event belongs to; null for the top-level ones. */
export function sectionOf(event: DataEvent): Section | null {
  switch (event.kind) {
    case 'sectionStart':
    case 'sectionEnd':
      return event.name;
    case 'account':
      return 'accounts';
    case 'product':
      return 'products';
    case 'top':
    case 'field':
      return null;
    default:
      return 'walls';
  }
}
