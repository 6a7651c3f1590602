// Webhook endpoints of an account: create (the signing secret shown once),
// read, change, delete, rotate the secret, send a test event, read the
// delivery log and replay a delivery. Deliveries themselves are the worker's
// (src/webhooks/runtime.ts); a test or a replay is sent here, at once, and
// logged like any other attempt.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { PrivateNetworks } from '../config.js';
import { iso, isoOrNull } from '../domain/dates.js';
import { shownError } from '../domain/delivery-outcome.js';
import { conflict, found, invalidField, notFound } from '../domain/errors.js';
import { scopeFilter, type AccountScope } from '../domain/roles.js';
import { newWebhookSecret, openSecret, sealSecret, SecretBoxError } from '../domain/secret-box.js';
import { eventId } from '../domain/webhook-events.js';
import { redactedUrl, urlAs, type UrlView } from '../domain/webhook-url.js';
import type {
  DeliveryRecord,
  NewWebhookRecord,
  RotateSecretBody,
  WebhookCreateBody,
  WebhookPatchBody,
  WebhookRecord,
} from '../schemas/webhooks.js';
import { changesAfter, latestChangeSeq } from '../store/change-log.js';
import type { Database } from '../store/schema.js';
import { accountOf } from '../store/ownership.js';
import {
  attemptsAt,
  deleteWebhookRows,
  deliveriesPage,
  deliveryById,
  findDelivery,
  findWebhook,
  insertWebhook,
  logDelivery,
  signingSecrets,
  updateWebhookRow,
  webhooksPage,
  type WebhookRow,
} from '../store/webhooks.js';
import { payloadOfChange, testPayload, type WebhookPayload } from '../webhooks/payload.js';
import { eventsOf } from '../webhooks/runtime.js';
import { WebhookSender } from '../webhooks/sender.js';
import { addressRefusal } from '../net/address-policy.js';
import type { Resolver } from '../net/guard.js';
import { audited, type Op } from './op.js';
import { pageById, type Page, type PageRequest } from './paging.js';
import { fixedSelfUrl, selfBase } from '../domain/self-url.js';

/** What sending from a request needs: the key that opens secrets and the delivery settings. */
export interface WebhookSettings {
  secretKey: Buffer | null;
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: the non-global addresses a webhook may post to */
  allowPrivateNetworks: PrivateNetworks;
  resolve?: Resolver;
  /**
   * Hears why a test or a replay got no HTTP answer (the server's log, the
   * CLI's stderr): the attempt itself only says NO_ANSWER.
   */
  onNoAnswer?: (webhookId: number, cause: string) => void;
  /**
   * The base of Wallery's URLs in a replayed payload (src/domain/self-url.ts):
   * PUBLIC_URL, else the listen address — as the deliveries say; default http://localhost:PORT's default
   */
  mediaBase?: string;
}

/** A webhook as answered; `view`: its whole URL (who may edit it), or origin and path (anyone else). */
function webhookRecord(r: WebhookRow, view: UrlView = 'full'): WebhookRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    url: urlAs(r.url, view),
    events: eventsOf(r),
    enabled: r.enabled === 1,
    state: r.state,
    lastEventId: r.last_seq > 0 ? eventId(r.last_seq) : null,
    pendingEventId: r.head_seq === null ? null : eventId(r.head_seq),
    consecutiveFailures: r.consecutive_failures,
    lastError: shownError(r.last_error),
    lastErrorAt: isoOrNull(r.last_error_at),
    lastSuccessAt: isoOrNull(r.last_success_at),
    nextAttemptAt: r.next_attempt_at > 0 ? iso(r.next_attempt_at) : null,
    disabledAt: isoOrNull(r.disabled_at),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

type DeliveryRow = {
  id: number;
  webhook_id: number;
  event_id: string;
  type: string;
  attempt: number;
  status: DeliveryRecord['status'];
  http_status: number | null;
  latency_ms: number;
  error: string | null;
  at: number;
  replay: number;
};

const deliveryRecord = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  type: r.type,
  attempt: r.attempt,
  status: r.status,
  httpStatus: r.http_status,
  latencyMs: r.latency_ms,
  error: shownError(r.error),
  at: iso(r.at),
  replay: r.replay === 1,
});

/**
 * The URL rules beyond the schema's pattern: a URL that parses, http(s),
 * without credentials (they would be sent in clear and logged by proxies),
 * and no address written in it that WEBHOOK_ALLOW_PRIVATE_NETWORKS does not
 * allow. A host name is not resolved here (that would tell what internal
 * names exist); every address it resolves to is checked when sending.
 */
function checkWebhookUrl(raw: string, allow: PrivateNetworks): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField('url', 'url must be a valid http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw invalidField('url', 'url must be a valid http:// or https:// URL');
  if (url.username !== '' || url.password !== '')
    throw invalidField('url', 'url must not carry a user name or password');
  if (url.hash !== '') throw invalidField('url', 'url must not have a #fragment');
  const refused = writtenAddressRefusal(url.hostname, allow);
  if (refused !== null)
    throw invalidField(
      'url',
      `url points to a ${refused} address, which webhooks may not reach (WEBHOOK_ALLOW_PRIVATE_NETWORKS allows chosen ranges)`,
    );
  return url.href;
}

/** The range refusing the address a URL's host writes out (an IP literal, or a `localhost` name), or null. */
function writtenAddressRefusal(hostname: string, allow: PrivateNetworks): string | null {
  const host = hostname.replace(/^\[|\]$/g, '');
  // RFC 6761: localhost names are loopback, wherever they resolve
  const ip = isIP(host) !== 0 ? host : /(?:^|\.)localhost\.?$/i.test(host) ? '127.0.0.1' : null;
  return ip === null ? null : addressRefusal(ip, allow);
}

/** What the audit log keeps of a webhook record: its URL without query (it may carry a token) and fragment. */
function forAudit<T extends Partial<WebhookRecord>>(rec: T): T {
  return rec.url === undefined ? rec : { ...rec, url: redactedUrl(rec.url) };
}

/** `view`: whole URLs for who may edit the webhooks, origin and path for anyone else (the default). */
export async function listWebhooks(
  db: Kysely<Database>,
  filter: { accountId?: number; scope?: AccountScope },
  page: PageRequest,
  view: UrlView = 'redacted',
): Promise<Page<WebhookRecord>> {
  return pageById(
    page,
    (afterId, take) =>
      webhooksPage(
        db,
        {
          accountIds: scopeFilter(filter.scope),
          ...(filter.accountId !== undefined ? { accountId: filter.accountId } : {}),
        },
        afterId,
        take,
      ),
    (r) => webhookRecord(r, view),
  );
}

async function webhookRow(db: Kysely<Database>, id: number): Promise<WebhookRow> {
  return found(await findWebhook(db, id), 'webhook', id);
}

/** `view` as for listWebhooks. */
export async function getWebhook(db: Kysely<Database>, id: number, view: UrlView = 'redacted'): Promise<WebhookRecord> {
  return webhookRecord(await webhookRow(db, id), view);
}

/** A new endpoint, starting at the change log's latest event (no backlog); its secret is in the answer only. */
export async function createWebhook(
  op: Op,
  body: WebhookCreateBody,
  settings: Pick<WebhookSettings, 'secretKey' | 'allowPrivateNetworks'>,
): Promise<NewWebhookRecord> {
  const url = checkWebhookUrl(body.url, settings.allowPrivateNetworks);
  const secret = newWebhookSecret();
  // events from now on: the latest change committed before the endpoint exists
  const start = await latestChangeSeq(op.db);
  return audited(op, async (tx) => {
    if ((await accountOf(tx.trx, 'account', body.accountId)) === null) throw notFound('account', body.accountId);
    const id = await insertWebhook(tx.trx, {
      account_id: body.accountId,
      url,
      events: JSON.stringify(body.events),
      secret: sealSecret(secret, settings.secretKey),
      last_seq: start,
      created_at: op.now,
      updated_at: op.now,
    });
    const rec = webhookRecord(await webhookRow(tx.trx, id));
    // the audit log never holds the secret, nor the URL's query
    tx.audit({
      action: 'webhook.create',
      targetType: 'webhook',
      targetId: id,
      accountId: rec.accountId,
      after: forAudit(rec),
    });
    return { ...rec, secret };
  });
}

export async function updateWebhook(
  op: Op,
  id: number,
  change: WebhookPatchBody,
  settings: Pick<WebhookSettings, 'allowPrivateNetworks'>,
): Promise<WebhookRecord> {
  const url = change.url === undefined ? undefined : checkWebhookUrl(change.url, settings.allowPrivateNetworks);
  return audited(op, async (tx) => {
    const beforeRow = await webhookRow(tx.trx, id);
    const before = webhookRecord(beforeRow);
    const resume = change.enabled === true && (beforeRow.enabled === 0 || beforeRow.state === 'disabled');
    await updateWebhookRow(tx.trx, id, {
      ...(url !== undefined ? { url } : {}),
      ...(change.events !== undefined ? { events: JSON.stringify(change.events) } : {}),
      ...(change.enabled === false ? { enabled: 0 } : {}),
      // enabled again: from the cursor, at once, the event at the head given a fresh 3 days
      ...(resume
        ? {
            enabled: 1,
            state: 'active' as const,
            next_attempt_at: 0,
            head_first_failed_at: null,
            head_attempts: 0,
            consecutive_failures: 0,
            disabled_at: null,
          }
        : {}),
      updated_at: op.now,
    });
    const after = webhookRecord(await webhookRow(tx.trx, id));
    const changed = diffOf(before, after);
    tx.audit({
      action: 'webhook.update',
      targetType: 'webhook',
      targetId: id,
      accountId: after.accountId,
      before: forAudit(changed.before),
      after: forAudit(changed.after),
    });
    return after;
  });
}

function diffOf(before: WebhookRecord, after: WebhookRecord) {
  const b: Partial<WebhookRecord> = {};
  const a: Partial<WebhookRecord> = {};
  for (const k of ['url', 'events', 'enabled', 'state'] as const) {
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) {
      (b as Record<string, unknown>)[k] = before[k];
      (a as Record<string, unknown>)[k] = after[k];
    }
  }
  return { before: b, after: a };
}

export async function deleteWebhook(op: Op, id: number): Promise<WebhookRecord> {
  return audited(op, async (tx) => {
    const before = webhookRecord(await webhookRow(tx.trx, id));
    await deleteWebhookRows(tx.trx, id);
    tx.audit({
      action: 'webhook.delete',
      targetType: 'webhook',
      targetId: id,
      accountId: before.accountId,
      before: forAudit(before),
    });
    return before;
  });
}

/** How long the secret before a rotation keeps signing (a second `v1`), so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * A new signing secret, in force for the next delivery; shown this once. The
 * old one signs too for a day, or — `expireOldNow`, for a secret that
 * leaked — no more at all: every secret before this one is dropped.
 */
export async function rotateWebhookSecret(
  op: Op,
  id: number,
  settings: Pick<WebhookSettings, 'secretKey'>,
  options: RotateSecretBody = {},
): Promise<NewWebhookRecord> {
  const secret = newWebhookSecret();
  const expireOldNow = options.expireOldNow === true;
  return audited(op, async (tx) => {
    const before = await webhookRow(tx.trx, id);
    await updateWebhookRow(tx.trx, id, {
      secret: sealSecret(secret, settings.secretKey),
      previous_secret: expireOldNow ? null : before.secret,
      previous_secret_until: expireOldNow ? null : op.now + ROTATION_OVERLAP_MS,
      updated_at: op.now,
    });
    const rec = webhookRecord(await webhookRow(tx.trx, id));
    tx.audit({
      action: 'webhook.rotate_secret',
      targetType: 'webhook',
      targetId: id,
      accountId: rec.accountId,
      details: { expireOldNow },
    });
    return { ...rec, secret };
  });
}

/** Sends `payload` to the endpoint now and logs the attempt; the delivery log's record of it. */
async function sendNow(
  db: Kysely<Database>,
  row: WebhookRow,
  payload: WebhookPayload,
  seq: number | null,
  replay: boolean,
  settings: WebhookSettings,
  /** the operation's time: which secrets sign, the log's `at` (the signature itself carries the real time) */
  now: number,
): Promise<DeliveryRecord> {
  let secret: string[];
  try {
    secret = signingSecrets(row, now).map((stored) => openSecret(stored, settings.secretKey));
  } catch (err) {
    if (err instanceof SecretBoxError) throw conflict(err.message);
    throw err;
  }
  const sender = new WebhookSender({
    allowPrivateNetworks: settings.allowPrivateNetworks,
    timeoutMs: settings.timeoutMs,
    resolve: settings.resolve,
  });
  try {
    const result = await sender.send(row.url, secret, payload, JSON.stringify(payload));
    if (result.cause !== null) settings.onNoAnswer?.(row.id, result.cause);
    const previous = await attemptsAt(db, row.id, payload.id);
    const id = await logDelivery(db, {
      webhookId: row.id,
      eventId: payload.id,
      seq,
      type: payload.type,
      attempt: previous + 1,
      status: result.ok ? 'delivered' : 'failed',
      httpStatus: result.httpStatus,
      latencyMs: result.latencyMs,
      error: result.error,
      at: now,
      replay,
    });
    return deliveryRecord((await deliveryById(db, id)) as DeliveryRow);
  } finally {
    await sender.close();
  }
}

/** Sends a `webhook.test` event now (whatever the endpoint's events or state); the attempt as logged. */
export async function testWebhook(op: Op, id: number, settings: WebhookSettings): Promise<DeliveryRecord> {
  const row = await webhookRow(op.db, id);
  const payload = testPayload(row.account_id, `evt_test_${randomBytes(8).toString('hex')}`, op.now);
  const delivery = await sendNow(op.db, row, payload, null, false, settings, op.now);
  await auditSend(op, row, 'webhook.test', delivery);
  return delivery;
}

/**
 * Who sent an event by hand, and how it went, in the audit log — written
 * after the send, never around it: no transaction waits on a remote endpoint.
 */
function auditSend(op: Op, row: WebhookRow, action: 'webhook.test' | 'webhook.replay', delivery: DeliveryRecord) {
  const { eventId, status, httpStatus } = delivery;
  return audited(op, async (tx) => {
    tx.audit({
      action,
      targetType: 'webhook',
      targetId: row.id,
      accountId: row.account_id,
      details: { eventId, status, httpStatus },
    });
  });
}

export async function listDeliveries(
  db: Kysely<Database>,
  webhookId: number,
  page: PageRequest,
): Promise<Page<DeliveryRecord>> {
  await webhookRow(db, webhookId);
  // newest first: the cursor's id is the last one shown, the page goes on below it
  return pageById(
    page,
    async (beforeId, take) => (await deliveriesPage(db, webhookId, beforeId, take)) as DeliveryRow[],
    deliveryRecord,
  );
}

/** Sends the event of a logged delivery again, with the same event id, now; the new attempt as logged. */
export async function replayDelivery(
  op: Op,
  webhookId: number,
  deliveryId: number,
  settings: WebhookSettings,
): Promise<DeliveryRecord> {
  const row = await webhookRow(op.db, webhookId);
  const delivery = await findDelivery(op.db, webhookId, deliveryId);
  if (!delivery) throw notFound('delivery', deliveryId);
  let payload: WebhookPayload | null;
  if (delivery.seq === null) payload = testPayload(row.account_id, delivery.event_id, delivery.at);
  else {
    const [change] = await changesAfter(op.db, { after: delivery.seq - 1, accountId: row.account_id, limit: 1 });
    if (!change || change.seq !== delivery.seq)
      throw conflict(
        `event ${delivery.event_id} is no longer in the change log (it keeps CHANGES_RETENTION_DAYS days)`,
      );
    payload = await payloadOfChange(op.db, change, settings.mediaBase ?? selfBase(fixedSelfUrl(null)));
    if (!payload) throw conflict(`event ${delivery.event_id} cannot be sent again`);
  }
  const result = await sendNow(op.db, row, payload, delivery.seq, true, settings, op.now);
  await auditSend(op, row, 'webhook.replay', result);
  return result;
}
