// Store side of webhook delivery: the endpoint's cursor, retry state and
// lease, and the delivery log. Each write is one short statement; none runs
// while a delivery is in flight.
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { PLAIN_PREFIX } from '../domain/secret-box.js';
import type { Database, DeliveryStatus, WebhookDeliveriesTable, WebhooksTable } from './schema.js';
import { childRows, ofAccounts, pageAfterId, type AccountFilter } from './paging.js';
import { insertRow } from './rows.js';

export type WebhookRow = Selectable<WebhooksTable>;

/**
 * Endpoints that may have something to send: enabled, not disabled, due, not
 * leased, behind the change log's latest seq (or with a head event to retry).
 */
export async function dueWebhookIds(
  db: Kysely<Database>,
  now: number,
  latestSeq: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select('id')
    .where('enabled', '=', 1)
    .where('state', '!=', 'disabled')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('last_seq', '<', latestSeq), eb('head_seq', 'is not', null)]))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function findWebhook(db: Kysely<Database>, id: number): Promise<WebhookRow | null> {
  return (await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * Takes the endpoint's lease until `until` unless another worker holds a live
 * one, and only while it is still enabled and not disabled — a conditional
 * UPDATE, like claimFeed. True when this worker holds the lease now.
 */
export async function claimWebhook(
  db: Kysely<Database>,
  id: number,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const res = await db
    .updateTable('webhooks')
    .set({ lease_owner: owner, lease_until: until })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .where('state', '!=', 'disabled')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_owner', '=', owner)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Moves the cursor to `seq` (an event sent or given up, or rows that were no event): the head is cleared. */
export async function advanceCursor(
  db: Kysely<Database>,
  id: number,
  owner: string,
  p: { seq: number; now: number; delivered: boolean },
): Promise<boolean> {
  const res = await db
    .updateTable('webhooks')
    .set({
      last_seq: p.seq,
      head_seq: null,
      head_attempts: 0,
      head_first_failed_at: null,
      ...(p.delivered ? { consecutive_failures: 0, state: 'active', last_success_at: p.now } : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('last_seq', '<', p.seq)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After a failed attempt at the head event: when to try again, failing after `failingAfter` in a row, or disabled. */
export async function recordAttemptFailure(
  db: Kysely<Database>,
  id: number,
  owner: string,
  p: {
    seq: number;
    attempts: number;
    firstFailedAt: number;
    failures: number;
    nextAttemptAt: number;
    error: string;
    now: number;
    failingAfter: number;
    disable: boolean;
  },
): Promise<boolean> {
  const res = await db
    .updateTable('webhooks')
    .set({
      head_seq: p.seq,
      head_attempts: p.attempts,
      head_first_failed_at: p.firstFailedAt,
      consecutive_failures: p.failures,
      next_attempt_at: p.nextAttemptAt,
      last_error: p.error,
      last_error_at: p.now,
      state: p.disable ? 'disabled' : p.failures >= p.failingAfter ? 'failing' : 'active',
      ...(p.disable ? { disabled_at: p.now, enabled: 0 } : {}),
      lease_owner: null,
      lease_until: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Gives the lease back, due again at `nextAttemptAt` (default: at once). */
export async function releaseWebhook(
  db: Kysely<Database>,
  id: number,
  owner: string,
  nextAttemptAt?: number,
): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({
      lease_owner: null,
      lease_until: null,
      ...(nextAttemptAt !== undefined ? { next_attempt_at: nextAttemptAt } : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

export interface DeliveryEntry {
  webhookId: number;
  eventId: string;
  seq: number | null;
  type: string;
  attempt: number;
  status: DeliveryStatus;
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  at: number;
  replay: boolean;
}

export async function logDelivery(db: Kysely<Database>, e: DeliveryEntry): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      webhook_id: e.webhookId,
      event_id: e.eventId,
      seq: e.seq,
      type: e.type,
      attempt: e.attempt,
      status: e.status,
      http_status: e.httpStatus,
      latency_ms: Math.max(0, Math.round(e.latencyMs)),
      error: e.error === null ? null : e.error.slice(0, 300),
      at: e.at,
      replay: e.replay ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Deletes the delivery log's attempts made before `before` (ms); how many. */
export async function pruneDeliveries(db: Kysely<Database>, before: number): Promise<number> {
  const res = await db.deleteFrom('webhook_deliveries').where('at', '<', before).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The stored secrets that sign a delivery at `now`: the current one, and the one before a rotation for a while. */
export function signingSecrets(
  row: Pick<WebhookRow, 'secret' | 'previous_secret' | 'previous_secret_until'>,
  now: number,
): string[] {
  return row.previous_secret !== null && (row.previous_secret_until ?? 0) > now
    ? [row.secret, row.previous_secret]
    : [row.secret];
}

export async function countWebhooks(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type StoredSecrets = Pick<WebhookRow, 'secret' | 'previous_secret'>;

/** The endpoints whose secret, or secret before the last rotation, is stored in plain text. */
export async function webhooksWithPlainSecrets(db: Kysely<Database>): Promise<(StoredSecrets & { id: number })[]> {
  return db
    .selectFrom('webhooks')
    .select(['id', 'secret', 'previous_secret'])
    .where((eb) => eb.or([eb('secret', 'like', `${PLAIN_PREFIX}%`), eb('previous_secret', 'like', `${PLAIN_PREFIX}%`)]))
    .orderBy('id')
    .execute();
}

/**
 * Replaces an endpoint's stored secrets with `to` if they are still `from`
 * (a rotation, or another process doing the same, meanwhile wins); true when replaced.
 */
export async function replaceStoredSecrets(
  db: Kysely<Database>,
  id: number,
  from: StoredSecrets,
  to: StoredSecrets,
): Promise<boolean> {
  const res = await db
    .updateTable('webhooks')
    .set({ secret: to.secret, previous_secret: to.previous_secret })
    .where('id', '=', id)
    .where('secret', '=', from.secret)
    .where((eb) =>
      from.previous_secret === null
        ? eb('previous_secret', 'is', null)
        : eb('previous_secret', '=', from.previous_secret),
    )
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

// ---------- the management API's reads and writes ----------

export type DeliveryLogRow = Selectable<WebhookDeliveriesTable>;

/** A page of endpoints in id order: of `accountIds` when given (an operator token's scope), of `accountId` when given. */
export async function webhooksPage(
  db: Kysely<Database>,
  filter: AccountFilter,
  afterId: number | undefined,
  take: number,
): Promise<WebhookRow[]> {
  return pageAfterId(ofAccounts(db.selectFrom('webhooks').selectAll(), 'account_id', filter), afterId, take).execute();
}

/** A new endpoint; its id. */
export const insertWebhook = (db: Kysely<Database>, values: Insertable<WebhooksTable>) =>
  insertRow(db, 'webhooks', values);

export async function updateWebhookRow(
  db: Kysely<Database>,
  id: number,
  set: Updateable<WebhooksTable>,
): Promise<void> {
  await db.updateTable('webhooks').set(set).where('id', '=', id).execute();
}

/** Deletes the endpoint with its delivery log. */
export async function deleteWebhookRows(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

/** How many attempts at the event the endpoint's delivery log holds. */
export async function attemptsAt(db: Kysely<Database>, webhookId: number, eventId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('webhook_id', '=', webhookId)
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A logged attempt by id (it must exist: just logged). */
export async function deliveryById(db: Kysely<Database>, id: number): Promise<DeliveryLogRow> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The endpoint's delivery log. */
const endpointDeliveries = childRows((db, webhookId) =>
  db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId),
);

/** A logged attempt of the endpoint, if it has one with this id. */
export const findDelivery = endpointDeliveries.find;

/** A page of the endpoint's delivery log, newest first: ids below `beforeId`, `take` of them. */
export const deliveriesPage = endpointDeliveries.newestFirst;
