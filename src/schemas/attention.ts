// What needs an operator's attention across the walls a token sees (the
// console's Home): posts waiting, failing feeds and webhooks, accounts near
// their daily call limit, and today's impressions and clicks — each list
// bounded, with its whole count beside it (src/manage/attention.ts).
import { Type, type Static, type TSchema } from 'typebox';
import { Nullable, NullableInstant, Record } from './fields.js';

/** Most items each list of the answer holds (its `total` says how many there are). */
export const ATTENTION_MAX = 50;

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Id = Type.Integer();

/** A list of at most ATTENTION_MAX items, the most urgent first, and how many there are in all. */
const Listed = <T extends TSchema>(item: T, order: string) =>
  Record({
    total: Count('how many there are in all (the list holds the first 50)'),
    items: Type.Array(item, { maxItems: ATTENTION_MAX, description: order }),
  });

export const AttentionRecord = Record({
  day: Type.String({ format: 'date', description: 'today, the UTC day `today` and `nearQuota` count' }),
  accounts: Count('accounts the token sees'),
  walls: Count('live walls the token sees'),
  pending: Record({
    posts: Count('posts waiting for a decision on the live walls'),
    walls: Listed(
      Record({ wallId: Id, wallName: Type.String(), accountId: Id, pending: Count('posts waiting on this wall') }),
      'walls with posts waiting, most first',
    ),
  }),
  failingFeeds: Listed(
    Record({
      feedId: Id,
      feedName: Type.String(),
      wallId: Id,
      wallName: Type.String(),
      failures: Count('polls in a row that failed'),
      failing: Type.Boolean({ description: 'true after repeated failures (the feed’s `failing`)' }),
      lastError: Nullable(Type.String({ description: 'what the last failed poll said' })),
      lastErrorAt: NullableInstant,
    }),
    'enabled feeds of live walls whose last poll failed: the repeatedly failing first, then most failures',
  ),
  failingWebhooks: Listed(
    Record({
      webhookId: Id,
      accountId: Id,
      accountName: Type.String(),
      url: Type.String({ description: 'origin and path (no query, which may carry a token)' }),
      state: Type.Enum(['failing', 'disabled'], {
        description: 'failing: the last deliveries failed (retried); disabled: an event failed for 3 days',
      }),
      failures: Count('attempts in a row that failed'),
      lastErrorAt: NullableInstant,
    }),
    'webhook endpoints that are failing or were disabled by failures, disabled first',
  ),
  nearQuota: Listed(
    Record({
      accountId: Id,
      accountName: Type.String(),
      calls: Count('public API calls today'),
      dailyCallLimit: Count('the account’s daily call limit'),
    }),
    'accounts that used 80 % or more of their daily call limit today, the fullest first',
  ),
  today: Record({
    impressions: Count('posts seen today on the live walls'),
    clicks: Count('clicks today of every kind: a post’s link, its call-to-action, a product'),
    walls: Listed(
      Record({
        wallId: Id,
        wallName: Type.String(),
        impressions: Count('posts seen today'),
        clicks: Count('clicks today of every kind'),
      }),
      'live walls with impressions or clicks today, most impressions first',
    ),
  }),
});

export type AttentionRecord = Static<typeof AttentionRecord>;
