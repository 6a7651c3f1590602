// Rights management (src/domain/rights.ts): what the management API takes
// and answers — an account's settings, a post's rights with its evidence,
// a request's outcome per post, the opt-out list, the evidence report.
import { Type, type Static } from 'typebox';
import {
  MASTODON_VISIBILITIES,
  OPT_OUT_REASONS,
  RIGHTS_AUTO_REQUESTS,
  RIGHTS_EVENT_KINDS,
  RIGHTS_METHODS,
  RIGHTS_NETWORKS,
  RIGHTS_REQUIREMENTS,
  RIGHTS_STATES,
} from '../domain/rights.js';
import { spoken } from '../domain/lists.js';
import {
  IdString,
  Instant,
  Nullable,
  NullableInstant,
  OptText,
  PositiveId,
  PostIdList,
  Record,
  Text,
  optional,
  patch,
  strict,
} from './fields.js';

const STATE_WORDS =
  'requested (asked, waiting for the author), granted (the author agreed), declined (the author said no: never asked again), ' +
  'expired (no answer in time: may be asked again), revoked (a grant taken back: the answer deleted or edited away, or recorded so)';

export const RightsStateField = Type.Enum([...RIGHTS_STATES], { description: STATE_WORDS });

export const RightsRequiredField = Type.Enum([...RIGHTS_REQUIREMENTS], {
  'x-error': `rightsRequired must be ${spoken(RIGHTS_REQUIREMENTS)}`,
  description:
    'what the wall requires before it shows a post publicly: none (default); shoppable (a post tagged with products needs granted rights); ' +
    'all (every ingested post needs granted rights). A post without them is left out of every public view like a hidden post: ' +
    'v2 lists and counts leave it out and answer 404 for it; the embed, its live stream and the hosted page do not show it. ' +
    'Uploads (their posters agreed to the terms) and custom posts never wait.',
});

export const RightsAutoField = Type.Enum([...RIGHTS_AUTO_REQUESTS], {
  'x-error': `rightsAuto must be ${spoken(RIGHTS_AUTO_REQUESTS)}`,
  description:
    'the wall’s asking rule: off (default); approved (ask for every approved post of the last 30 days by a reply); ' +
    'shoppable (ask for every approved post tagged with products). Within the account’s limits and opt-out list; ' +
    'only networks Wallery can reply on, through a connection.',
});

/** A post's rights in a post record: the state and whether it keeps the post off its wall. */
export const RightsSummary = Record(
  {
    state: Nullable(RightsStateField),
    held: Type.Boolean({ description: 'the wall requires rights the post lacks: it is not shown publicly' }),
  },
  { description: 'the post’s rights (state null: never asked)' },
);

export const RightsEventRecord = Record({
  at: Instant,
  kind: Type.Enum([...RIGHTS_EVENT_KINDS]),
  actor: Type.String({
    description: 'a token name, `cli`, `rule` (the wall’s asking rule), `reply` (the author upstream), `watcher`',
  }),
  state: Nullable(RightsStateField),
  url: Nullable(Type.String()),
  text: Nullable(Type.String({ description: 'the request’s or the answer’s text' })),
  note: Nullable(Type.String()),
});

export const RightsRecord = Record(
  {
    postId: Type.Integer(),
    wallId: Type.Integer(),
    state: Nullable(RightsStateField),
    held: Type.Boolean(),
    network: Type.String(),
    author: Type.String({ description: 'network:handle — what the limits and the opt-out list know the author by' }),
    authorName: Type.String(),
    postUrl: Type.String(),
    method: Nullable(
      Type.Enum([...RIGHTS_METHODS], { description: 'reply: asked on the network; manual: asked by hand' }),
    ),
    requestText: Nullable(Type.String({ description: 'the request as sent (by hand: the text to send)' })),
    requestUrl: Nullable(Type.String()),
    requestedAt: NullableInstant,
    requestedBy: Nullable(Type.String()),
    expiresAt: NullableInstant,
    answerUrl: Nullable(Type.String()),
    answerText: Nullable(Type.String()),
    answeredAt: NullableInstant,
    answerEditedAt: NullableInstant,
    decidedBy: Nullable(Type.String()),
    note: Nullable(Type.String()),
    optedOut: Type.Boolean({ description: 'the author is on the account’s opt-out list' }),
    events: Type.Array(RightsEventRecord, { description: 'the evidence trail, oldest first' }),
  },
  { description: 'a post’s rights and their evidence' },
);

const HASHTAG = '^#?[\\p{L}\\p{N}_]{1,100}$';

const settingsFields = {
  template: Text('template', 1000, {
    description:
      'the request text; {author} (the author’s handle), {hashtag} (the grant hashtag), {brand} and {terms} (" Terms: <termsUrl>") are filled in',
  }),
  grantHashtag: Type.String({
    pattern: HASHTAG,
    'x-error': 'grantHashtag must be a hashtag of 1 to 100 letters, digits or _, with or without #',
    description: 'the hashtag an author answers with to grant (e.g. YesHarbor)',
  }),
  declineWords: Type.Array(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      'x-error': 'each decline word must be a text of 1 to 100 characters, not only spaces',
    }),
    {
      maxItems: 20,
      'x-error': 'declineWords must be a list of at most 20 words or phrases',
      description: 'words or hashtags an answer declines with (whole words, any case), when it holds no grant hashtag',
    },
  ),
  brand: Text('brand', 200, { description: 'the brand’s name, as {brand} says it' }),
  termsUrl: Type.String({
    maxLength: 2048,
    pattern: '^$|^[hH][tT][tT][pP][sS]?://\\S+$',
    'x-error': 'termsUrl must be empty or an http(s) URL',
    description: 'where the terms are read; "" when the template holds them',
  }),
  mastodonVisibility: Type.Enum([...MASTODON_VISIBILITIES], {
    'x-error': `mastodonVisibility must be ${spoken(MASTODON_VISIBILITIES)}`,
    description: 'who sees a request on Mastodon: public, unlisted, or direct (the author only, a direct mention)',
  }),
  perAuthorPerDay: Type.Integer({
    minimum: 1,
    maximum: 20,
    'x-error': 'perAuthorPerDay must be a whole number from 1 to 20',
    description: 'most requests to one author in a day (UTC)',
  }),
  perDay: Type.Integer({
    minimum: 1,
    maximum: 5000,
    'x-error': 'perDay must be a whole number from 1 to 5000',
    description: 'most requests the account sends in a day (UTC)',
  }),
  expireDays: Type.Integer({
    minimum: 1,
    maximum: 365,
    'x-error': 'expireDays must be a whole number from 1 to 365',
    description: 'a request unanswered this many days expires',
  }),
  connections: Type.Object(
    Object.fromEntries(RIGHTS_NETWORKS.map((n) => [n, Type.Optional(PositiveId(`connections.${n}`))])) as {
      [N in (typeof RIGHTS_NETWORKS)[number]]: ReturnType<typeof Type.Optional<ReturnType<typeof PositiveId>>>;
    },
    {
      ...strict,
      'x-error': `connections must map a network (${RIGHTS_NETWORKS.join(', ')}) to a connection id`,
      description:
        'which connection asks on each network (network → connection id); a network not named asks with the feed’s own connection, else the account’s first working one',
    },
  ),
};

export const RightsSettingsRecord = Record(settingsFields, { description: 'the account’s rights settings' });

export const RightsSettingsPatch = Type.Object(optional(settingsFields), {
  ...patch,
  examples: [
    {
      template: 'We love this, {author}! Reply {hashtag} to let {brand} show it on our site.{terms}',
      grantHashtag: 'YesHarbor',
      brand: 'Harbor Coffee',
      termsUrl: 'https://harbor.example/ugc-terms',
    },
  ],
});

export const RightsRequestBody = Type.Object(
  {
    postIds: PostIdList(100, 'the posts of the wall to ask about'),
    method: Type.Optional(
      Type.Enum([...RIGHTS_METHODS], {
        'x-error': `method must be ${spoken(RIGHTS_METHODS)}`,
        description:
          'reply (default): a reply on the network where Wallery can, else by hand; manual: by hand (copy the text, record the answer)',
      }),
    ),
  },
  { ...strict, examples: [{ postIds: [101, 102] }] },
);

export const RequestOutcomeRecord = Record({
  postId: Type.Integer(),
  ok: Type.Boolean(),
  state: Nullable(RightsStateField),
  method: Nullable(Type.Enum([...RIGHTS_METHODS])),
  text: Nullable(Type.String({ description: 'the request’s text (by hand: what to send the author)' })),
  requestUrl: Nullable(Type.String()),
  problem: Nullable(
    Type.Enum(['not_found', 'refused', 'failed'], {
      description:
        'not_found: no such post on the wall; refused: opt-out, limits or its state; failed: the network did',
    }),
  ),
  reason: Nullable(Type.String({ description: 'why it was not asked, in words' })),
});

export const RequestOutcomes = Record({
  asked: Type.Integer({ description: 'posts asked' }),
  outcomes: Type.Array(RequestOutcomeRecord),
});

export const RightsAnswerBody = Type.Object(
  {
    state: Type.Enum(['granted', 'declined', 'revoked'], {
      'x-error': 'state must be granted, declined or revoked',
      description:
        'the answer as given by the author outside a reply Wallery reads (by e-mail, on a network asked by hand)',
    }),
    note: Type.Optional(OptText('note', 1000)),
    url: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: '^$|^[hH][tT][tT][pP][sS]?://\\S+$',
        'x-error': 'url must be empty or an http(s) URL',
        description: 'where the answer is (its link)',
      }),
    ),
  },
  {
    ...strict,
    examples: [{ state: 'granted', note: 'agreed by e-mail, 2026-11-29', url: 'https://www.instagram.com/p/abc/' }],
  },
);

export const OptOutRecord = Record({
  author: Type.String({ description: 'network:handle' }),
  reason: Type.Enum([...OPT_OUT_REASONS]),
  postId: Nullable(Type.Integer()),
  note: Nullable(Type.String()),
  createdAt: Instant,
});

export const OptOutBody = Type.Object(
  {
    network: Text('network', 50, { description: 'the network’s name, e.g. mastodon' }),
    username: Text('username', 300, { description: 'the author’s handle, as posts show it' }),
    note: Type.Optional(OptText('note', 1000)),
  },
  { ...strict, examples: [{ network: 'mastodon', username: 'ana@harbor.social', note: 'asked us by e-mail' }] },
);

export const OptOutParams = Type.Object({
  accountId: IdString('accountId'),
  author: Type.String({
    pattern: '^[^:]{1,50}:.{1,300}$',
    'x-error': 'author must be network:handle',
    description: 'network:handle',
  }),
});

export const RightsReportQuery = Type.Object(
  {
    wallId: Type.Optional(IdString('wallId')),
    state: Type.Optional(
      Type.Enum([...RIGHTS_STATES], {
        'x-error': `state must be ${spoken(RIGHTS_STATES)}`,
        description: 'default: every state',
      }),
    ),
  },
  strict,
);

export const RightsReportRow = Record({
  postId: Type.Integer(),
  wallId: Type.Integer(),
  network: Type.String(),
  author: Type.String(),
  authorName: Type.String(),
  postUrl: Type.String(),
  state: RightsStateField,
  method: Type.Enum([...RIGHTS_METHODS]),
  requestedAt: Instant,
  requestedBy: Type.String(),
  requestUrl: Type.String(),
  requestText: Type.String(),
  answeredAt: NullableInstant,
  answerUrl: Type.String(),
  answerText: Type.String(),
  decidedBy: Type.String(),
  note: Type.String(),
});

export const RightsReport = Record({
  accountId: Type.Integer(),
  generatedAt: Instant,
  rows: Type.Array(RightsReportRow),
});

export type RightsSettingsRecord = Static<typeof RightsSettingsRecord>;
export type RightsSettingsPatch = Static<typeof RightsSettingsPatch>;
export type RightsRecord = Static<typeof RightsRecord>;
export type RightsEventRecord = Static<typeof RightsEventRecord>;
export type RequestOutcomeRecord = Static<typeof RequestOutcomeRecord>;
export type RequestOutcomes = Static<typeof RequestOutcomes>;
export type RightsAnswerBody = Static<typeof RightsAnswerBody>;
export type OptOutRecord = Static<typeof OptOutRecord>;
export type OptOutBody = Static<typeof OptOutBody>;
export type RightsReport = Static<typeof RightsReport>;
export type RightsReportRow = Static<typeof RightsReportRow>;
export type RightsSummary = Static<typeof RightsSummary>;
