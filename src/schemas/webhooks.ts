// Webhook endpoints and their delivery log: what a write takes, what a read answers.
import { Type, type Static } from 'typebox';
import { WEBHOOK_EVENTS } from '../domain/webhook-events.js';
import {
  Bool,
  IdString,
  Instant,
  Nullable,
  NullableInstant,
  PositiveId,
  Record,
  Url,
  pageQuery,
  patch,
  strict,
} from './fields.js';

export const EventsField = Type.Array(
  Type.Enum([...WEBHOOK_EVENTS], { 'x-error': `each event must be one of ${WEBHOOK_EVENTS.join(', ')}` }),
  {
    minItems: 1,
    maxItems: WEBHOOK_EVENTS.length,
    uniqueItems: true,
    'x-error': `events must be a list of 1 to ${WEBHOOK_EVENTS.length} different events of ${WEBHOOK_EVENTS.join(', ')}`,
    description: 'the events sent to the endpoint',
  },
);

export const WebhookCreateBody = Type.Object(
  {
    accountId: PositiveId('accountId'),
    url: Url('url'),
    events: EventsField,
  },
  {
    ...strict,
    examples: [{ accountId: 7001, url: 'https://hooks.example.com/wallery', events: ['post.approved'] }],
  },
);

export const WebhookPatchBody = Type.Object(
  {
    url: Type.Optional(Url('url')),
    events: Type.Optional(EventsField),
    enabled: Type.Optional(
      Bool('enabled', 'false stops deliveries; true resumes them from the cursor (also after a give-up)'),
    ),
  },
  { ...patch, examples: [{ enabled: true }] },
);

export const WebhookListQuery = Type.Object({ ...pageQuery, accountId: Type.Optional(IdString('accountId')) }, strict);

const webhookFields = {
  id: Type.Integer(),
  accountId: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  state: Type.Enum(['active', 'failing', 'disabled'], {
    description:
      'active; failing: the last deliveries failed (retried with backoff); disabled: an event failed for 3 days (PATCH enabled: true resumes)',
  }),
  lastEventId: Nullable(Type.String({ description: 'the last event handled (evt_<seq>); later events are pending' })),
  pendingEventId: Nullable(Type.String({ description: 'the event being retried' })),
  consecutiveFailures: Type.Integer(),
  lastError: Nullable(Type.String()),
  lastErrorAt: NullableInstant,
  lastSuccessAt: NullableInstant,
  nextAttemptAt: NullableInstant,
  disabledAt: NullableInstant,
  createdAt: Instant,
  updatedAt: Instant,
};

export const WebhookRecord = Record(webhookFields);
export const NewWebhookRecord = Record({
  ...webhookFields,
  secret: Type.String({
    description: 'the signing secret (`whsec_…`): shown this once (and by rotate-secret)',
  }),
});

export const DeliveryRecord = Record({
  id: Type.Integer(),
  webhookId: Type.Integer(),
  eventId: Type.String({ description: 'evt_<seq>, the same on every attempt and replay: dedupe by it' }),
  type: Type.String(),
  attempt: Type.Integer(),
  status: Type.Enum(['delivered', 'failed', 'gave_up']),
  httpStatus: Nullable(Type.Integer()),
  latencyMs: Type.Integer(),
  error: Nullable(Type.String()),
  at: Instant,
  replay: Type.Boolean(),
});

export type WebhookCreateBody = Static<typeof WebhookCreateBody>;
export type WebhookPatchBody = Static<typeof WebhookPatchBody>;
export type WebhookRecord = Static<typeof WebhookRecord>;
export type NewWebhookRecord = Static<typeof NewWebhookRecord>;
export type DeliveryRecord = Static<typeof DeliveryRecord>;
