// Feeds and their connector settings: what a write takes, what a read answers.
import { Type, type Static, type TObject } from 'typebox';
import { CONNECTOR_KINDS, spoken } from '../domain/lists.js';
import { ConnectorSettings } from './connectors.js';
import { Bool, Instant, Nullable, NullableInstant, Record, Text, patch, strict } from './fields.js';
import { MODERATION_MODES } from '../domain/lists.js';

export const FeedModeration = Type.Union([Type.Null(), Type.Enum([...MODERATION_MODES])], {
  'x-error': `moderation must be null (the wall's), ${spoken(MODERATION_MODES)}`,
  description: "overrides the wall's moderation mode for this feed's posts; null: the wall's (default)",
});

export const Connector = Type.Union([Type.Null(), ConnectorSettings], {
  'x-error': `connector must be null or a connector setting (kind ${spoken(CONNECTOR_KINDS)})`,
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
    moderation: Type.Optional(FeedModeration),
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
    moderation: Type.Optional(FeedModeration),
  },
  { ...patch, examples: [{ enabled: false }, { moderation: 'manual' }] },
);

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
export const exactly = <T extends TObject>(kind: T) =>
  Type.Object(kind.properties, { ...strict, description: (kind as { description?: string }).description });
// every kind of the union, so that a kind added there is answered too
export const ConnectorRecord = Type.Union(
  (ConnectorSettings.anyOf as TObject[]).map(exactly),
) as unknown as typeof ConnectorSettings;

export const FeedRecord = Record({
  id: Type.Integer(),
  wallId: Type.Integer(),
  name: Type.String(),
  source: Type.String(),
  sourceType: Type.String(),
  connector: Nullable(ConnectorRecord),
  enabled: Type.Boolean(),
  moderation: Nullable(Type.Enum([...MODERATION_MODES], { description: "null: the wall's mode" })),
  createdAt: NullableInstant,
  updatedAt: Instant,
  postCount: Type.Integer(),
  ingest: Type.Optional(FeedIngestState),
});

export const POLL_OUTCOMES = ['ok', 'not_modified', 'failed', 'deferred', 'skipped', 'scheduled'] as const;

export const PollResult = Record({
  feed: FeedRecord,
  poll: Record({
    status: Type.Enum([...POLL_OUTCOMES], {
      description:
        'ok: read (new posts in `inserted`); not_modified: nothing new upstream; failed: see `message` (also in the feed’s ingestion state); deferred, skipped: not polled now (`message` says why); scheduled: this server does not poll (INGEST off), the feed is due at once for the poller that does',
    }),
    inserted: Type.Integer({ description: 'new posts' }),
    updated: Type.Integer({ description: 'posts updated from upstream' }),
    message: Nullable(Type.String()),
  }),
});

// ---------- the types of the shapes above ----------

export type FeedRecord = Static<typeof FeedRecord>;
export type FeedIngestState = Static<typeof FeedIngestState>;
export type FeedInput = Static<typeof FeedCreateBody>;
export type FeedPatch = Static<typeof FeedPatchBody>;
export type PollResult = Static<typeof PollResult>;
