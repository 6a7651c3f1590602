// Webhook endpoints of an account, their delivery log, tests and replays.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loadWebhookConfig } from '../../config.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  replayDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type WebhookSettings,
} from '../../manage/webhooks.js';
import { pageRequest } from '../../manage/paging.js';
import {
  DeliveryRecord,
  NewWebhookRecord,
  RotateSecretBody,
  WebhookCreateBody,
  WebhookListQuery,
  WebhookPatchBody,
  WebhookRecord,
} from '../../schemas/webhooks.js';
import { roleAllows, type Role } from '../../domain/roles.js';
import type { UrlView } from '../../domain/webhook-url.js';
import { accountFilterOf } from './access.js';
import { opOf } from './auth.js';
import { manageResource } from './resource.js';
import { db, num } from './common.js';
import { DeliveryParams, WebhookParams } from './schemas.js';
import { serverSelfUrl } from '../self-url.js';
import { selfBase } from '../../domain/self-url.js';

let defaults: WebhookSettings | null = null;

/**
 * The running instance's webhook settings, or the defaults (a bare test
 * server); why a send got no answer goes to the request's log, never to the caller.
 */
function settingsOf(request: FastifyRequest): WebhookSettings {
  const settings = request.server.ctx.webhooks ?? (defaults ??= loadWebhookConfig({}));
  return {
    ...settings,
    onNoAnswer: (webhookId, cause) => request.log.warn({ webhookId, cause }, 'webhook send got no HTTP answer'),
    // a replayed payload names Wallery's copies as its deliveries do: PUBLIC_URL, else the listen address
    mediaBase: selfBase(serverSelfUrl(request.server)),
  };
}

/** The least role that may change a webhook: the write routes' role, and who sees its whole URL. */
const EDITS: Role = 'editor';

/** Whole URLs for who may edit webhooks; origin and path for anyone else (a query may carry a token). */
const urlViewOf = (request: FastifyRequest): UrlView =>
  request.operator && roleAllows(request.operator.role, EDITS) ? 'full' : 'redacted';

const URL_NOTE =
  '`url` is whole for editors and admins; a viewer or moderator gets its origin and path only (no query, which may carry a token).';

const EVENTS_NOTE =
  'Events: `post.created` (a post visible when created), `post.approved`, `post.rejected`, ' +
  '`post.held` (a rule put the post in the approval queue, with its explained decision), `post.hidden`, ' +
  '`post.deleted`, `wall.deleted`, `feed.failing`, `feed.recovered`, `connection.failed` (a network refused a connection: ' +
  'failing, expired or revoked), `connection.expiring` (its token expires within CONNECTION_EXPIRY_WARN_DAYS; once per expiry). Each delivery is a POST of JSON signed in ' +
  '`Wallery-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (see the guide, Webhooks and the change feed, at /guide/).';

export async function webhookRoutes(app: FastifyInstance) {
  const tag = 'manage: webhooks';
  const webhooks = manageResource(app, tag, {
    record: [WebhookRecord, 'webhook'],
    collection: ['/webhooks'],
    item: ['/webhooks/:webhookId', WebhookParams],
  });
  const editors = [EDITS, 'webhook'] as const;

  webhooks.list(
    {
      access: ['viewer', 'filtered'],
      summary: 'List webhooks',
      description: `Of one account with \`accountId\`. The secrets are never shown again. ${URL_NOTE}`,
      query: WebhookListQuery,
    },
    async (request) =>
      await listWebhooks(db(request), accountFilterOf(request), pageRequest(request.query), urlViewOf(request)),
  );

  webhooks.create(
    {
      access: [EDITS, 'body-account'],
      summary: 'Create a webhook',
      description: `It receives the events after its creation (no backlog). The answer holds the signing secret (\`whsec_…\`), shown this once. ${EVENTS_NOTE}`,
      body: WebhookCreateBody,
      ok: [NewWebhookRecord, 'the new webhook with its secret'],
    },
    async (request) => createWebhook(opOf(request), request.body, settingsOf(request)),
  );

  webhooks.get({ access: ['viewer', 'webhook'], summary: 'Get a webhook', description: URL_NOTE }, async (request) =>
    getWebhook(db(request), num(request.params.webhookId), urlViewOf(request)),
  );

  webhooks.update(
    {
      access: editors,
      summary: 'Change a webhook',
      description:
        'url, events, enabled. `enabled: true` on a disabled webhook resumes from its cursor: the events since are sent, in order.',
      body: WebhookPatchBody,
    },
    async (request) =>
      await updateWebhook(opOf(request), num(request.params.webhookId), request.body, settingsOf(request)),
  );

  webhooks.remove(
    { access: editors, summary: 'Delete a webhook', description: 'With its delivery log.' },
    async (request) => deleteWebhook(opOf(request), num(request.params.webhookId)),
  );

  webhooks.action(
    'rotate-secret',
    {
      access: editors,
      summary: 'Rotate the signing secret',
      description:
        'The next delivery is signed with the new secret, shown this once; for 24 hours the old secret signs too (a second `v1`), so receivers switch without a gap. ' +
        'A secret that leaked: `{"expireOldNow": true}` — from the next delivery on only the new secret signs (the old one, and any before it, no more). The body is optional.',
      body: RotateSecretBody,
      ok: [NewWebhookRecord, 'the webhook with its new secret'],
    },
    async (request) =>
      await rotateWebhookSecret(opOf(request), num(request.params.webhookId), settingsOf(request), request.body ?? {}),
  );

  webhooks.action(
    'test',
    {
      access: editors,
      summary: 'Send a test event',
      description:
        'Sends a signed `webhook.test` event now and answers with the attempt as the delivery log holds it (status, HTTP code, latency, error). ' +
        'A failure without an HTTP answer says only that (`error`: no HTTP answer), whatever the cause — refused, closed, timed out, not resolved, or an address `WEBHOOK_ALLOW_PRIVATE_NETWORKS` does not allow; the cause is in the server log.',
      ok: [DeliveryRecord, 'the attempt'],
    },
    async (request) => testWebhook(opOf(request), num(request.params.webhookId), settingsOf(request)),
  );

  // A webhook's delivery log: each entry is one attempt to send an event.
  const deliveries = manageResource(app, tag, {
    record: [DeliveryRecord, 'attempt'],
    collection: ['/webhooks/:webhookId/deliveries', WebhookParams],
    item: ['/webhooks/:webhookId/deliveries/:deliveryId', DeliveryParams],
  });

  deliveries.list(
    {
      access: ['viewer', 'webhook'],
      summary: 'The delivery log',
      description: 'Every attempt, newest first: status, HTTP code, latency, a short error.',
    },
    async (request) => listDeliveries(db(request), num(request.params.webhookId), pageRequest(request.query)),
  );

  deliveries.action(
    'replay',
    {
      access: editors,
      summary: 'Replay a delivery',
      description:
        'Sends the event of that delivery again now, with the same event id (a receiver that dedupes by it ignores it), and answers with the attempt. 409 when the event left the change log (30 days).',
      answer: 'the attempt',
    },
    async (request) =>
      await replayDelivery(
        opOf(request),
        num(request.params.webhookId),
        num(request.params.deliveryId),
        settingsOf(request),
      ),
  );
}
