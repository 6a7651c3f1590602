// Webhook delivery: a periodic tick finds endpoints with events to send and
// delivers each endpoint's events one at a time, in change-log order. The
// change log is the outbox (written by the store in the same transaction as
// each change), and an endpoint's `last_seq` is its cursor: it moves past an
// event only once the event was answered 2xx, so an event is never skipped
// and — when a worker dies mid-delivery and another takes over after the
// lease — sent again with the same event id (at least once).
//
// Failures: the head event is retried with exponential backoff and jitter
// (backoffDelayS, as feeds after a failed poll); after FAILING_AFTER failures
// in a row the endpoint shows `failing`; an event failing for
// WEBHOOK_GIVE_UP_S (3 days) disables the endpoint, cursor kept, so
// re-enabling resumes there.
import type { Kysely } from 'kysely';
import type { ConnectionConfig, WebhookConfig } from '../config.js';
import { warnExpiringConnections } from '../connections/expiry.js';
import { openSecret } from '../domain/secret-box.js';
import { kindsOfEvents, type WebhookEvent } from '../domain/webhook-events.js';
import { backoffDelayS } from '../jobs/backoff.js';
import { LeasedJobs } from '../jobs/leased-jobs.js';
import type { WorkerLogger } from '../jobs/log.js';
import { workerDefaults, type WorkerOptions } from '../jobs/worker-options.js';
import { changesAfter, latestChangeSeq } from '../store/change-log.js';
import type { Database } from '../store/schema.js';
import {
  advanceCursor,
  claimWebhook,
  dueWebhookIds,
  findWebhook,
  logDelivery,
  pruneDeliveries,
  recordAttemptFailure,
  releaseWebhook,
  signingSecrets,
  type WebhookRow,
} from '../store/webhooks.js';
import { payloadOfChange } from './payload.js';
import { fixedSelfUrl, selfBase, type SelfUrl } from '../domain/self-url.js';
import { WebhookSender, type SendResult } from './sender.js';

/** Change-log rows read at a time. */
const PAGE = 50;
/** Events one claim sends at most before the endpoint goes back in line (others get a turn). */
const EVENTS_PER_CLAIM = 200;
/** the delivery log is pruned by each worker at most this often */
const PRUNE_EVERY_MS = 3_600_000;

export interface WebhookRuntimeOptions extends WorkerOptions {
  db: Kysely<Database>;
  config: WebhookConfig;
  /** endpoints served at the same time (default 8); each endpoint one delivery at a time */
  concurrency?: number;
  /** where this instance is reached: the base of the copies' URLs in payloads (default: no PUBLIC_URL, the default port) */
  self?: SelfUrl;
  /**
   * The connections' expiry check, run by the tick every `expiryCheckMs`
   * (src/connections/expiry.ts: `connection.expiring`); absent: not run here
   */
  connections?: Pick<ConnectionConfig, 'expiryWarnDays' | 'expiryCheckMs'>;
}

export type EndpointStatus = 'idle' | 'delivered' | 'failed' | 'disabled' | 'skipped';

export interface EndpointReport {
  webhookId: number;
  status: EndpointStatus;
  delivered: number;
  message: string | null;
}

/** The events an endpoint asked for (its stored JSON), unreadable → none. */
export function eventsOf(row: Pick<WebhookRow, 'events'>): WebhookEvent[] {
  try {
    const v = JSON.parse(row.events) as unknown;
    return Array.isArray(v) ? (v.filter((e) => typeof e === 'string') as WebhookEvent[]) : [];
  } catch {
    return [];
  }
}

export class WebhookRuntime {
  private readonly db: Kysely<Database>;
  private readonly config: WebhookConfig;
  private readonly log: WorkerLogger;
  private readonly now: () => number;
  private readonly random: () => number;
  readonly owner: string;
  private readonly sender: WebhookSender;
  private readonly jobs: LeasedJobs<EndpointReport>;
  private readonly failingAfter: number;
  private readonly self: SelfUrl;
  private nextPruneAt = 0;
  private nextExpiryCheckAt = 0;
  private readonly connections: WebhookRuntimeOptions['connections'];
  /** delivery attempts by outcome, read by the metrics on scrape */
  readonly stats = { deliveries: { delivered: 0, failed: 0, gave_up: 0 } };

  constructor(options: WebhookRuntimeOptions) {
    this.db = options.db;
    this.config = options.config;
    this.self = options.self ?? fixedSelfUrl(null);
    this.connections = options.connections;
    ({
      log: this.log,
      now: this.now,
      random: this.random,
      owner: this.owner,
      failingAfter: this.failingAfter,
    } = workerDefaults(options));
    this.sender = new WebhookSender({
      allowPrivateNetworks: options.config.allowPrivateNetworks,
      timeoutMs: options.config.timeoutMs,
      resolve: options.resolve,
      // a signature's time is the real clock's, what a receiver compares it with (the injected clock schedules)
    });
    this.jobs = new LeasedJobs(options.concurrency ?? 8);
  }

  start(): void {
    const started = this.jobs.startTicking(
      this.config.tickMs,
      () => this.tick(),
      (err) => this.log.error({ err }, 'webhook tick failed'),
    );
    if (started) this.log.info({ owner: this.owner }, 'webhook delivery started');
  }

  async stop(): Promise<void> {
    if (await this.jobs.stop()) await this.sender.close();
  }

  /**
   * One tick: prune the delivery log and check the connections' expiry when
   * due, start the due endpoints (not waiting for them).
   */
  async tick(): Promise<void> {
    if (this.jobs.stopped) return;
    if (this.now() >= this.nextPruneAt) {
      this.nextPruneAt = this.now() + PRUNE_EVERY_MS;
      await pruneDeliveries(this.db, this.now() - this.config.logRetentionDays * 86_400_000);
    }
    if (this.connections && this.now() >= this.nextExpiryCheckAt) {
      this.nextExpiryCheckAt = this.now() + this.connections.expiryCheckMs;
      await this.checkConnectionExpiry();
    }
    for (const id of await this.dueIds()) if (!this.jobs.has(id)) void this.schedule(id);
  }

  /** The expiry check now (the tick runs it every expiryCheckMs): the connections warned of. */
  async checkConnectionExpiry(): Promise<number[]> {
    if (!this.connections) return [];
    const warned = await warnExpiringConnections(this.db, this.now(), this.connections.expiryWarnDays);
    if (warned.length > 0) this.log.info({ connections: warned }, 'connections expiring soon: warned');
    return warned;
  }

  /** Serves every due endpoint once and waits (tests, one-shot runs). */
  async runOnce(): Promise<EndpointReport[]> {
    return Promise.all((await this.dueIds()).map((id) => this.schedule(id)));
  }

  private async dueIds(): Promise<number[]> {
    const latest = await latestChangeSeq(this.db);
    return dueWebhookIds(this.db, this.now(), latest, 100);
  }

  private schedule(id: number): Promise<EndpointReport> {
    return this.jobs.run(
      id,
      () => this.serveEndpoint(id),
      (err): EndpointReport => {
        this.log.error({ err, webhookId: id }, 'webhook delivery crashed');
        return { webhookId: id, status: 'failed', delivered: 0, message: (err as Error)?.message ?? String(err) };
      },
    );
  }

  /** Claims one endpoint and sends its pending events in order until one fails or none is left. */
  async serveEndpoint(id: number): Promise<EndpointReport> {
    const report: EndpointReport = { webhookId: id, status: 'idle', delivered: 0, message: null };
    const leaseMs = this.config.leaseMs;
    if (this.jobs.stopped) return { ...report, status: 'skipped', message: 'stopping' };
    if (!(await claimWebhook(this.db, id, this.owner, this.now(), this.now() + leaseMs)))
      return { ...report, status: 'skipped', message: 'another worker holds this endpoint' };
    let released = false;
    try {
      let row = await findWebhook(this.db, id);
      if (!row) return { ...report, status: 'skipped', message: 'no such endpoint' };
      const kinds = kindsOfEvents(eventsOf(row));
      const started = this.now();
      while (!this.jobs.stopped && report.delivered < EVENTS_PER_CLAIM) {
        // the latest seq is read first: every row up to it is committed, so
        // rows for this endpoint up to it are all in the page read next
        const latest = await latestChangeSeq(this.db);
        const page = await changesAfter(this.db, {
          after: row.last_seq,
          accountId: row.account_id,
          kinds,
          limit: PAGE,
        });
        let next: { seq: number; payload: NonNullable<Awaited<ReturnType<typeof payloadOfChange>>> } | null = null;
        let skippedTo = row.last_seq;
        for (const change of page) {
          const payload = await payloadOfChange(this.db, change, selfBase(this.self));
          if (payload) {
            next = { seq: change.seq, payload };
            break;
          }
          skippedTo = change.seq;
        }
        if (!next) {
          // nothing to send: move past what was read (all of the log up to `latest` when the page was short)
          const to = page.length < PAGE ? Math.max(skippedTo, latest) : skippedTo;
          if (to > row.last_seq)
            await advanceCursor(this.db, id, this.owner, { seq: to, now: this.now(), delivered: false });
          break;
        }
        if (skippedTo > row.last_seq) {
          await advanceCursor(this.db, id, this.owner, { seq: skippedTo, now: this.now(), delivered: false });
        }
        // the secrets of the row as read last (after each delivery): a rotation
        // between two events signs the next one, and an expired secret signs no more
        let secret: string[];
        try {
          secret = signingSecrets(row, this.now()).map((stored) => openSecret(stored, this.config.secretKey));
        } catch (err) {
          // a configuration problem, not the receiver's: try again later, no attempt counted
          this.log.error({ webhookId: id, error: (err as Error).message }, 'webhook secret unreadable');
          await releaseWebhook(this.db, id, this.owner, this.now() + this.config.retryMaxS * 1000);
          released = true;
          return { ...report, status: 'failed', message: (err as Error).message };
        }
        const attempt = row.head_seq === next.seq ? row.head_attempts + 1 : 1;
        const body = JSON.stringify(next.payload);
        const result = await this.sender.send(row.url, secret, next.payload, body, this.jobs.signal);
        const at = this.now();
        if (this.jobs.signal.aborted && !result.ok) {
          // stopping: the event stays at the head, sent again later
          report.message = 'stopped during a delivery';
          break;
        }
        if (result.ok) {
          await this.logAttempt(row, next.payload, next.seq, attempt, result, at, 'delivered');
          const kept = await advanceCursor(this.db, id, this.owner, { seq: next.seq, now: at, delivered: true });
          if (!kept) {
            report.message = 'lease lost during a delivery';
            this.log.warn(
              { webhookId: id, eventId: next.payload.id },
              'webhook lease lost; the event may be sent again',
            );
            released = true;
            break;
          }
          report.delivered++;
          report.status = 'delivered';
          // keep the lease for the next event (refused once the endpoint was disabled meanwhile: then let go)
          if (!(await claimWebhook(this.db, id, this.owner, at, at + leaseMs))) break;
          row = (await findWebhook(this.db, id)) ?? row;
          if (at - started > leaseMs / 2) break;
          continue;
        }
        // failed: retry the same event later, or give up after giveUpS
        const firstFailedAt =
          row.head_seq === next.seq && row.head_first_failed_at !== null ? row.head_first_failed_at : at;
        const giveUp = at - firstFailedAt >= this.config.giveUpS * 1000;
        const failures = row.consecutive_failures + 1;
        await this.logAttempt(row, next.payload, next.seq, attempt, result, at, giveUp ? 'gave_up' : 'failed');
        const bounds = { minIntervalS: this.config.retryMinS, maxIntervalS: this.config.retryMaxS };
        const nextAttemptAt = at + backoffDelayS(bounds, attempt, this.random) * 1000;
        await recordAttemptFailure(this.db, id, this.owner, {
          seq: next.seq,
          attempts: attempt,
          firstFailedAt,
          failures,
          nextAttemptAt,
          error: result.error ?? 'failed',
          now: at,
          failingAfter: this.failingAfter,
          disable: giveUp,
        });
        released = true;
        this.log.warn(
          {
            webhookId: id,
            eventId: next.payload.id,
            attempt,
            error: result.error,
            cause: result.cause,
            nextAttemptAt,
            disabled: giveUp,
          },
          giveUp ? 'webhook endpoint disabled: an event failed for too long' : 'webhook delivery failed',
        );
        return {
          ...report,
          status: giveUp ? 'disabled' : 'failed',
          message: result.error,
        };
      }
      return report;
    } finally {
      if (!released) await releaseWebhook(this.db, id, this.owner).catch(() => undefined);
    }
  }

  private async logAttempt(
    row: WebhookRow,
    payload: { id: string; type: string },
    seq: number,
    attempt: number,
    result: SendResult,
    at: number,
    status: 'delivered' | 'failed' | 'gave_up',
  ): Promise<void> {
    this.stats.deliveries[status]++;
    await logDelivery(this.db, {
      webhookId: row.id,
      eventId: payload.id,
      seq,
      type: payload.type,
      attempt,
      status,
      httpStatus: result.httpStatus,
      latencyMs: result.latencyMs,
      error: result.error,
      at,
      replay: false,
    });
  }
}
