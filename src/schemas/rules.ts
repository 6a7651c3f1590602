// Moderation rules of a wall (src/domain/rules.ts runs them): what PUT
// takes, what GET answers, what a dry run and an apply report.
import { Type, type Static, type TSchema } from 'typebox';
import {
  LANGUAGE_MODES,
  IMAGE_RULE_ACTIONS,
  BURST_BY,
  MEDIA_REQUIREMENTS,
  PROFANITY_LANGUAGES,
  RULE_ACTIONS,
  RIGHTS_RULE_STATES,
  RULE_KINDS,
  UNKNOWN_LANGUAGE,
  type Rule,
  type RuleIn,
} from '../domain/rules.js';
import { DETECTED_LANGUAGES, LANGUAGE_MODEL, SENTIMENT_MODEL } from '../domain/text-signals.js';
import { spoken } from '../domain/lists.js';
import {
  DEFAULT_IMAGE_THRESHOLD,
  DEFAULT_SIMILAR_DISTANCE,
  DEFAULT_SIMILAR_HOURS,
  IMAGE_CLASSES,
  PHASH_BITS,
} from '../domain/image-rules.js';
import { DEFAULT_PROVIDER_THRESHOLD } from '../domain/provider-rules.js';
import { Bool, Record, strict } from './fields.js';

export const RULES_MAX = 100;
export const WORDS_MAX = 200;

const RuleId = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,40}$',
  'x-error': 'id must be 1 to 40 letters, digits, - or _',
  description: 'assigned (r1, r2, …) when absent',
});
const Action = Type.Enum([...RULE_ACTIONS], {
  'x-error': `action must be ${spoken(RULE_ACTIONS)}`,
  description: 'reject; hold (pending, even in auto mode); approve',
});
const Word = Type.String({ minLength: 1, maxLength: 200, pattern: '[\\p{L}\\p{N}]' });

const RECORDS: TSchema[] = [];

/** A rule kind as PUT takes it (id optional); its record (id given) joins RECORDS. */
const kind = <K extends string, P extends Record<string, TSchema>>(
  k: K,
  description: string,
  props: P,
  action: TSchema = Action,
  /** the action as stored, when the input's may be left out */
  storedAction: TSchema = action,
) => {
  RECORDS.push(
    Type.Object({ id: RuleId, kind: Type.Literal(k), action: storedAction, ...props }, { ...strict, description }),
  );
  return Type.Object(
    { id: Type.Optional(RuleId), kind: Type.Literal(k), action, ...props },
    { ...strict, description },
  );
};

export const KeywordRule = kind(
  'keyword',
  'words or phrases, whole words, case- and accent-insensitive, in content and author name',
  {
    words: Type.Array(Word, {
      minItems: 1,
      maxItems: WORDS_MAX,
      'x-error': `words must be a list of 1 to ${WORDS_MAX} words or phrases, each with a letter or digit`,
    }),
    match: Type.Optional(
      Type.Enum(['any', 'all'], { 'x-error': 'match must be any or all', description: 'any (default) or all' }),
    ),
  },
);
export const AuthorRule = kind('author', 'usernames (handles) on a network, or on every network (network null)', {
  network: Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 100 })], {
    'x-error': 'network must be null (every network) or a network name such as Mastodon',
  }),
  usernames: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
    minItems: 1,
    maxItems: 1000,
    'x-error': 'usernames must be a list of 1 to 1000 usernames',
  }),
});
export const ProfanityRule = kind('profanity', 'the profanity filter (obscenity) in content and author name', {
  languages: Type.Optional(
    Type.Array(Type.Enum([...PROFANITY_LANGUAGES]), {
      minItems: 1,
      'x-error': `languages must be a list of ${spoken(PROFANITY_LANGUAGES)}`,
      description: 'default ["en"]',
    }),
  ),
});
export const MediaRule = kind('media', 'posts without the media required match', {
  require: Type.Enum([...MEDIA_REQUIREMENTS], {
    'x-error': `require must be ${spoken(MEDIA_REQUIREMENTS)}`,
    description: 'any: an image or a video; image; video',
  }),
});
export const RepostRule = kind('repost', 'boosts and reposts', {});
export const ReplyRule = kind('reply', 'replies', {});
export const SensitiveRule = kind('sensitive', 'posts flagged sensitive upstream', {});
export const LengthRule = kind('length', 'posts whose text is shorter than min characters', {
  min: Type.Integer({ minimum: 1, maximum: 10000, 'x-error': 'min must be an integer from 1 to 10000' }),
});

// ── Text signals (issue 32) ─────────────────────────────────────────────
export const LanguageRule = kind(
  'language',
  `the language of the post's text, detected by ${LANGUAGE_MODEL} (60 languages; links, handles, hashtags and emoji left out)`,
  {
    languages: Type.Array(Type.Enum([...DETECTED_LANGUAGES]), {
      minItems: 1,
      maxItems: DETECTED_LANGUAGES.length,
      uniqueItems: true,
      'x-error': `languages must be a list of ISO 639-1 codes the detector knows: ${DETECTED_LANGUAGES.join(', ')}`,
      description: 'ISO 639-1 codes, such as ["en", "pt"]',
    }),
    mode: Type.Enum([...LANGUAGE_MODES], {
      'x-error': `mode must be ${spoken(LANGUAGE_MODES)}`,
      description: 'allow: posts in a language not listed match; block: posts in a listed language match',
    }),
    unknown: Type.Optional(
      Type.Enum([...UNKNOWN_LANGUAGE], {
        'x-error': `unknown must be ${spoken(UNKNOWN_LANGUAGE)}`,
        description:
          'a post whose language cannot be told (too short, or mixed): pass (default: it does not match) or match',
      }),
    ),
  },
);
// ---- picture rules (src/domain/image-rules.ts) ----
const ImageAction = Type.Enum([...IMAGE_RULE_ACTIONS], {
  'x-error': `action must be ${spoken(IMAGE_RULE_ACTIONS)}`,
  description: 'reject; hold (pending); blur (pending, the picture blurred in the console until revealed); approve',
});
export const ImageRule = kind(
  'image',
  'a post one of whose pictures the safety classifier (nsfwjs) scores at or over the threshold for one of the classes; the post waits, pending, for the check of its pictures',
  {
    classes: Type.Optional(
      Type.Array(Type.Enum([...IMAGE_CLASSES]), {
        minItems: 1,
        uniqueItems: true,
        'x-error': `classes must be a list of ${spoken(IMAGE_CLASSES)}, each once`,
        description: 'default ["porn", "hentai", "sexy"]',
      }),
    ),
    threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        'x-error': 'threshold must be a number from 0 to 1',
        description: `a class's score (0–1) at or over it matches; default ${DEFAULT_IMAGE_THRESHOLD}`,
      }),
    ),
  },
  ImageAction,
);
export const SimilarImageRule = kind(
  'similar_image',
  'a post whose picture is near (perceptual hash) a picture of an earlier post of the wall within the window; the post waits, pending, for the check of its pictures',
  {
    distance: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: PHASH_BITS / 2,
        'x-error': `distance must be an integer from 0 to ${PHASH_BITS / 2}`,
        description: `largest Hamming distance of the ${PHASH_BITS}-bit hashes that matches; default ${DEFAULT_SIMILAR_DISTANCE}`,
      }),
    ),
    withinHours: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 720,
        'x-error': 'withinHours must be an integer from 1 to 720',
        description: `how far back the earlier post may be (hours); default ${DEFAULT_SIMILAR_HOURS}`,
      }),
    ),
  },
);
// ---------- spam (src/domain/spam.ts) ----------

const Minutes = (name: string, what: string) =>
  Type.Integer({
    minimum: 1,
    maximum: 1440,
    'x-error': `${name} must be a whole number of minutes from 1 to 1440`,
    description: what,
  });

export const DuplicateRule = kind(
  'duplicate',
  "posts whose text nearly repeats an earlier post of the wall's within the last `within` minutes (64-bit SimHash of word pairs; texts of fewer than 3 words are never duplicates)",
  {
    within: Minutes('within', 'how far back an earlier post counts, in minutes'),
    distance: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 32,
        'x-error': 'distance must be a whole number of bits from 0 to 32',
        description:
          'most bits the two SimHashes may differ in (Hamming distance); default 3; 0: the same words in the same order',
      }),
    ),
  },
);
export const SentimentRule = kind(
  'sentiment',
  `posts whose words are strongly negative, by ${SENTIMENT_MODEL}: English only (posts detected in another language never match)`,
  {
    below: Type.Number({
      minimum: -1,
      maximum: 1,
      'x-error': 'below must be a number from -1 to 1',
      description:
        'posts whose sentiment is below it match; sentiment is the sum of the AFINN-165 valences of the words (−5 … +5 each) s, normalised to s / √(s² + 15) on −1 … +1 (−0.5 holds a sum of −3 or less: one word such as "hate" or "awful", but not "stupid" (−2) alone; −0.8: a sum of −6 or less, such as "hate" and "idiot")',
    }),
  },
);
export const BurstRule = kind(
  'burst',
  'the posts that make one author, or one link, appear `count` times or more within `minutes` minutes on the wall',
  {
    by: Type.Enum([...BURST_BY], {
      'x-error': `by must be ${spoken(BURST_BY)}`,
      description:
        'author: the same handle on the same network; link: the same page linked in the text (host and path)',
    }),
    count: Type.Integer({
      minimum: 2,
      maximum: 10000,
      'x-error': 'count must be a whole number from 2 to 10000',
      description: 'posts in the window, this one included, from which posts are matched',
    }),
    minutes: Minutes('minutes', 'the window, in minutes'),
  },
);
export const LinkOnlyRule = kind('link_only', 'posts whose text is nothing but links, hashtags and mentions', {});
export const AccountRule = kind(
  'account',
  'posts of accounts the network flags as bots, or of accounts younger than minAgeDays when the post was made (where the network says)',
  {
    bot: Type.Boolean({ 'x-error': 'bot must be true or false', description: 'match accounts flagged bot upstream' }),
    minAgeDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        'x-error': 'minAgeDays must be a whole number of days from 1 to 3650',
        description: 'match accounts made less than this many days before the post',
      }),
    ),
  },
);

// ---------- moderation providers (src/domain/provider-rules.ts) ----------
const ProviderAction = Type.Enum([...RULE_ACTIONS], {
  'x-error': `action must be ${spoken(RULE_ACTIONS)}`,
  description: 'hold (default); reject; approve — a post its provider gave no answer for is held whatever the action',
});
export const ProviderRule = kind(
  'provider',
  'a post a moderation provider the operator configured (MODERATION_PROVIDERS) scores at or over the threshold for one of the labels; the post waits, pending, for the provider’s answer, and is held for a human when there is none (timeout, outage, circuit open, over budget)',
  {
    provider: Type.String({
      minLength: 1,
      maxLength: 40,
      'x-error': 'provider must be the name of a configured moderation provider',
      description: 'the name of a provider in MODERATION_PROVIDERS (GET …/rules lists them as `providers`)',
    }),
    labels: Type.Optional(
      Type.Union(
        [
          Type.Null(),
          Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, uniqueItems: true }),
        ],
        {
          'x-error': 'labels must be null (every label) or a list of 1 to 100 label names, each once',
          description:
            'the labels that count, as the provider names them (`hate`, `sexual/minors`); default null: every label',
        },
      ),
    ),
    threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        'x-error': 'threshold must be a number from 0 to 1',
        description: `a counted label's score (0–1) at or over it matches; default ${DEFAULT_PROVIDER_THRESHOLD}`,
      }),
    ),
  },
  Type.Optional(ProviderAction),
  ProviderAction,
);

// ---------- rights (issue 36; src/domain/rights.ts) ----------
export const RightsRule = kind(
  'rights',
  "posts whose rights state is one of `states` (none: never asked, as every new post). Judged at arrival and by an apply like every rule, and again whenever a post's rights state changes: then the first rights rule listing the new state decides a pending or approved post (rejected posts stay rejected; the wall's other rules are not run again)",
  {
    states: Type.Array(Type.Enum([...RIGHTS_RULE_STATES]), {
      minItems: 1,
      uniqueItems: true,
      'x-error': `states must be a list of ${spoken(RIGHTS_RULE_STATES)}, at least one, each once`,
      description: 'such as ["granted"] (approve once the author agrees) or ["declined", "revoked"]',
    }),
  },
);

export const RULE_SCHEMAS: Record<string, TSchema> = {
  keyword: KeywordRule,
  author: AuthorRule,
  profanity: ProfanityRule,
  media: MediaRule,
  repost: RepostRule,
  reply: ReplyRule,
  sensitive: SensitiveRule,
  length: LengthRule,
  language: LanguageRule,
  sentiment: SentimentRule,
  image: ImageRule,
  similar_image: SimilarImageRule,
  duplicate: DuplicateRule,
  burst: BurstRule,
  link_only: LinkOnlyRule,
  account: AccountRule,
  provider: ProviderRule,
  rights: RightsRule,
};

export const RuleInput = Type.Union(Object.values(RULE_SCHEMAS), {
  'x-error': `each rule needs a kind (${spoken(RULE_KINDS)}) and its fields`,
});

export const RulesBody = Type.Object(
  {
    rules: Type.Array(RuleInput, {
      maxItems: RULES_MAX,
      'x-error': `rules must be a list of at most ${RULES_MAX} rules`,
      'x-check': 'rules',
      description: 'in order: the first rule that matches a post decides; then the mode',
    }),
  },
  {
    ...strict,
    examples: [
      {
        rules: [
          { kind: 'keyword', action: 'reject', words: ['spoiler', 'free money'], match: 'any' },
          { kind: 'author', action: 'reject', network: 'Mastodon', usernames: ['troll@m.example'] },
          { kind: 'media', action: 'hold', require: 'image' },
          { kind: 'length', action: 'hold', min: 20 },
          { kind: 'language', action: 'hold', languages: ['en', 'pt'], mode: 'allow' },
          { kind: 'sentiment', action: 'hold', below: -0.5 },
          { kind: 'rights', action: 'reject', states: ['declined', 'revoked'] },
        ],
      },
    ],
  },
);

export const RulesQuery = Type.Object(
  {
    dryRun: Type.Optional(
      Type.Enum(['true', 'false'], {
        'x-error': 'dryRun must be true or false',
        description: 'true: save nothing, report what the rules would change in the stored posts',
      }),
    ),
  },
  strict,
);

export const ApplyBody = Type.Object(
  {
    includeApproved: Type.Optional(
      Bool('includeApproved', 'also judge approved posts (default false: only pending ones)'),
    ),
  },
  { ...strict, examples: [{}, { includeApproved: true }] },
);

/** A rule as stored and answered: as PUT takes it, its id assigned. */
export const RuleRecord = Type.Unsafe<Rule>(Type.Union(RECORDS, { description: 'a rule, with its id' }));

export const RuleCount = Record({
  ruleId: Type.String(),
  matched: Type.Integer({ description: 'posts the rule decides (the first rule to match them)' }),
  changed: Type.Integer({ description: 'of those, posts whose state changes' }),
});

const Queued = Type.Integer({
  description:
    'posts a picture or provider rule could not judge yet: their pictures have no scores from the image check (left as they are, the pictures queued for scoring), or their provider has not answered for them (an apply sets pending ones waiting for it; approved ones are left as they are) (absent when none)',
});

export const RulesRecord = Record({
  rules: Type.Array(RuleRecord),
  dryRun: Type.Optional(Type.Boolean()),
  counts: Type.Optional(Type.Array(RuleCount, { description: 'per rule: what it would change (dry run)' })),
  queued: Type.Optional(Queued),
  providers: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'the moderation providers configured on this server (MODERATION_PROVIDERS), by name: what a provider rule may name (GET only)',
    }),
  ),
});

export const ApplyRecord = Record({
  counts: Type.Array(RuleCount, { description: 'per rule, in rule order' }),
  checked: Type.Integer({ description: 'posts judged' }),
  queued: Type.Optional(Queued),
});

/** The body of PUT …/rules: the validation hook checks it against RulesBody before the service sees it. */
export interface RulesInput {
  rules: RuleIn[];
}
export type RuleCount = Static<typeof RuleCount>;
export type RulesRecord = Static<typeof RulesRecord>;
export type ApplyRecord = Static<typeof ApplyRecord>;
export type ApplyInput = Static<typeof ApplyBody>;
