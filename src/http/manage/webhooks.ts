// Webhook endpoints of an account, their delivery log, tests and replays.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
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
import { PageQuery } from '../../schemas/fields.js';
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
import { access, scopeOf } from './access.js';
import { opOf } from './auth.js';
import { created, db, doc, num, ok, optNum } from './common.js';
import { Created, DeliveryParams, Ok, PageOf, responses, WebhookParams } from './schemas.js';

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
  'Events: `post.created` (a post visible when created), `post.approved`, `post.rejected`, `post.hidden`, ' +
  '`post.deleted`, `wall.deleted`, `feed.failing`, `feed.recovered`. Each delivery is a POST of JSON signed in ' +
  '`Wallery-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (see the README).';

export async function webhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: webhooks';

  app.get(
    '/webhooks',
    {
      config: access('viewer', 'filtered'),
      schema: {
        ...doc(
          tag,
          'List webhooks',
          `Of one account with \`accountId\`. The secrets are never shown again. ${URL_NOTE}`,
        ),
        querystring: WebhookListQuery,
        response: responses({ 200: Ok(PageOf(WebhookRecord), 'a page of webhooks') }),
      },
    },
    async (request) =>
      ok(
        await listWebhooks(
          db(request),
          { accountId: optNum(request.query.accountId), scope: scopeOf(request) },
          pageRequest(request.query),
          urlViewOf(request),
        ),
      ),
  );

  app.post(
    '/webhooks',
    {
      config: access(EDITS, 'body-account'),
      schema: {
        ...doc(
          tag,
          'Create a webhook',
          `It receives the events after its creation (no backlog). The answer holds the signing secret (\`whsec_…\`), shown this once. ${EVENTS_NOTE}`,
        ),
        body: WebhookCreateBody,
        response: responses({ 201: Created(NewWebhookRecord, 'the new webhook with its secret') }, 404, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createWebhook(opOf(request), request.body, settingsOf(request)));
    },
  );

  app.get(
    '/webhooks/:webhookId',
    {
      config: access('viewer', 'webhook'),
      schema: {
        ...doc(tag, 'Get a webhook', URL_NOTE),
        params: WebhookParams,
        response: responses({ 200: Ok(WebhookRecord, 'the webhook') }, 404),
      },
    },
    async (request) => ok(await getWebhook(db(request), num(request.params.webhookId), urlViewOf(request))),
  );

  app.patch(
    '/webhooks/:webhookId',
    {
      config: access(EDITS, 'webhook'),
      schema: {
        ...doc(
          tag,
          'Change a webhook',
          'url, events, enabled. `enabled: true` on a disabled webhook resumes from its cursor: the events since are sent, in order.',
        ),
        params: WebhookParams,
        body: WebhookPatchBody,
        response: responses({ 200: Ok(WebhookRecord, 'the webhook after the change') }, 404, 409),
      },
    },
    async (request) =>
      ok(await updateWebhook(opOf(request), num(request.params.webhookId), request.body, settingsOf(request))),
  );

  app.delete(
    '/webhooks/:webhookId',
    {
      config: access(EDITS, 'webhook'),
      schema: {
        ...doc(tag, 'Delete a webhook', 'With its delivery log.'),
        params: WebhookParams,
        response: responses({ 200: Ok(WebhookRecord, 'the webhook as it was') }, 404, 409),
      },
    },
    async (request) => ok(await deleteWebhook(opOf(request), num(request.params.webhookId))),
  );

  app.post(
    '/webhooks/:webhookId/rotate-secret',
    {
      config: access(EDITS, 'webhook'),
      schema: {
        ...doc(
          tag,
          'Rotate the signing secret',
          'The next delivery is signed with the new secret, shown this once; for 24 hours the old secret signs too (a second `v1`), so receivers switch without a gap. ' +
            'A secret that leaked: `{"expireOldNow": true}` — from the next delivery on only the new secret signs (the old one, and any before it, no more). The body is optional.',
        ),
        params: WebhookParams,
        body: RotateSecretBody,
        response: responses({ 200: Ok(NewWebhookRecord, 'the webhook with its new secret') }, 404, 409),
      },
    },
    async (request) =>
      ok(
        await rotateWebhookSecret(
          opOf(request),
          num(request.params.webhookId),
          settingsOf(request),
          request.body ?? {},
        ),
      ),
  );

  app.post(
    '/webhooks/:webhookId/test',
    {
      config: access(EDITS, 'webhook'),
      schema: {
        ...doc(
          tag,
          'Send a test event',
          'Sends a signed `webhook.test` event now and answers with the attempt as the delivery log holds it (status, HTTP code, latency, error). ' +
            'A failure without an HTTP answer says only that (`error`: no HTTP answer), whatever the cause — refused, closed, timed out, not resolved, or an address `WEBHOOK_ALLOW_PRIVATE_NETWORKS` does not allow; the cause is in the server log.',
        ),
        params: WebhookParams,
        response: responses({ 200: Ok(DeliveryRecord, 'the attempt') }, 404, 409),
      },
    },
    async (request) => ok(await testWebhook(opOf(request), num(request.params.webhookId), settingsOf(request))),
  );

  app.get(
    '/webhooks/:webhookId/deliveries',
    {
      config: access('viewer', 'webhook'),
      schema: {
        ...doc(tag, 'The delivery log', 'Every attempt, newest first: status, HTTP code, latency, a short error.'),
        params: WebhookParams,
        querystring: PageQuery,
        response: responses({ 200: Ok(PageOf(DeliveryRecord), 'a page of attempts') }, 404),
      },
    },
    async (request) => ok(await listDeliveries(db(request), num(request.params.webhookId), pageRequest(request.query))),
  );

  app.post(
    '/webhooks/:webhookId/deliveries/:deliveryId/replay',
    {
      config: access(EDITS, 'webhook'),
      schema: {
        ...doc(
          tag,
          'Replay a delivery',
          'Sends the event of that delivery again now, with the same event id (a receiver that dedupes by it ignores it), and answers with the attempt. 409 when the event left the change log (30 days).',
        ),
        params: DeliveryParams,
        response: responses({ 200: Ok(DeliveryRecord, 'the attempt') }, 404, 409),
      },
    },
    async (request) =>
      ok(
        await replayDelivery(
          opOf(request),
          num(request.params.webhookId),
          num(request.params.deliveryId),
          settingsOf(request),
        ),
      ),
  );
}
