// Webhook endpoints and their delivery log: what a write takes, what a read answers.
import { Type, type Static } from 'typebox';
import { NO_ANSWER } from '../domain/delivery-outcome.js';
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
  recordsWithSecret,
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

/** What a failed attempt says: the HTTP status, or that none came — never the cause (refused, closed, timed out…). */
const ATTEMPT_ERROR =
  '`the endpoint answered <status>` for a non-2xx answer; for a failure without an HTTP answer always ' +
  `\`${NO_ANSWER}\`, whatever the cause (refused, closed, timed out, not resolved, an address the network policy refuses): ` +
  'the cause goes to the server log only, so sending to chosen addresses tells nothing about them';

export const RotateSecretBody = Type.Object(
  {
    expireOldNow: Type.Optional(
      Bool(
        'expireOldNow',
        'true: the old secret stops signing at once (it leaked); false (default): it signs too for 24 hours, so receivers switch without a gap',
      ),
    ),
  },
  { ...strict, examples: [{}, { expireOldNow: true }] },
);

export const WebhookListQuery = Type.Object({ ...pageQuery, accountId: Type.Optional(IdString('accountId')) }, strict);

const webhookFields = {
  id: Type.Integer(),
  accountId: Type.Integer(),
  url: Type.String({
    description:
      'where the events are POSTed. Whole for who may edit the webhook (editor, admin); a viewer or moderator, and the audit log, get its origin and path only — no query or fragment, which may carry a token',
  }),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  state: Type.Enum(['active', 'failing', 'disabled'], {
    description:
      'active; failing: the last deliveries failed (retried with backoff); disabled: an event failed for 3 days (PATCH enabled: true resumes)',
  }),
  lastEventId: Nullable(Type.String({ description: 'the last event handled (evt_<seq>); later events are pending' })),
  pendingEventId: Nullable(Type.String({ description: 'the event being retried' })),
  consecutiveFailures: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()], {
    description: `the last failed attempt's error: ${ATTEMPT_ERROR}`,
  }),
  lastErrorAt: NullableInstant,
  lastSuccessAt: NullableInstant,
  nextAttemptAt: NullableInstant,
  disabledAt: NullableInstant,
  createdAt: Instant,
  updatedAt: Instant,
};

export const [WebhookRecord, NewWebhookRecord] = recordsWithSecret(
  webhookFields,
  'secret',
  'the signing secret (`whsec_…`): shown this once (and by rotate-secret)',
);

export const DeliveryRecord = Record({
  id: Type.Integer(),
  webhookId: Type.Integer(),
  eventId: Type.String({ description: 'evt_<seq>, the same on every attempt and replay: dedupe by it' }),
  type: Type.String(),
  attempt: Type.Integer(),
  status: Type.Enum(['delivered', 'failed', 'gave_up']),
  httpStatus: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the HTTP status the endpoint answered; null when none came',
  }),
  latencyMs: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()], { description: `null when delivered; else ${ATTEMPT_ERROR}` }),
  at: Instant,
  replay: Type.Boolean(),
});

export type WebhookCreateBody = Static<typeof WebhookCreateBody>;
export type WebhookPatchBody = Static<typeof WebhookPatchBody>;
export type RotateSecretBody = Static<typeof RotateSecretBody>;
export type WebhookRecord = Static<typeof WebhookRecord>;
export type NewWebhookRecord = Static<typeof NewWebhookRecord>;
export type DeliveryRecord = Static<typeof DeliveryRecord>;
