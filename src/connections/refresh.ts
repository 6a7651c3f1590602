// The token refresh job: beside feed ingestion (`serve` with INGEST on,
// `wallery worker`), a periodic tick finds the OAuth connections whose token
// expires soon (refreshLeadMs: a quarter of its lifetime, at most a day) on
// a network that can refresh (networks.ts: the refresh_token grant, Threads'
// th_refresh_token), takes each one's refresh lease (one worker per
// connection: a refresh token may be spent once) and refreshes it.
//
// A refusal by the network (invalid_grant: the refresh token was revoked or
// expired) marks the connection `expired` with markConnectionFailed — which
// announces `connection.failed` — and the refresh token as dead, so it is
// not tried again until the operator reconnects. A network that cannot be
// reached keeps the connection as it is and is tried again after
// RETRY_AFTER_MS. Fresh tokens make an expired connection active again.
import type { Kysely } from 'kysely';
import type { OAuthConfig, PrivateNetworks } from '../config.js';
import { LeasedJobs } from '../jobs/leased-jobs.js';
import type { WorkerLogger } from '../jobs/log.js';
import { workerDefaults, type WorkerOptions } from '../jobs/worker-options.js';
import { createFetcher, type Fetcher } from '../net/fetcher.js';
import { findConnection, markConnectionFailed, updateConnection, type ConnectionRow } from '../store/connections.js';
import {
  claimConnectionRefresh,
  pruneOAuthStates,
  refreshCandidates,
  releaseConnectionRefresh,
} from '../store/oauth.js';
import type { Database } from '../store/schema.js';
import { REFRESHABLE_NETWORKS, refreshLeadMs, networkAuth } from './networks.js';
import { appTarget, instanceTarget, OAuthFlowError, refreshTokens } from './oauth.js';
import { openConnectionSecret, sealConnectionSecret } from './secrets.js';

/** How often the job looks for tokens to refresh. */
export const REFRESH_TICK_MS = 60_000;
/** The longest lead: candidates are read up to this far ahead, then each is held to its own lead. */
const MAX_LEAD_MS = 86_400_000;
/** A refresh that could not reach the network is tried again after this. */
export const RETRY_AFTER_MS = 15 * 60_000;
/** How long a worker holds a connection while refreshing it. */
const LEASE_MS = 60_000;

export interface RefreshOptions extends WorkerOptions {
  db: Kysely<Database>;
  oauth: OAuthConfig;
  secretKey: Buffer | null;
  /** which addresses the token endpoints may be at (INGEST_ALLOW_PRIVATE_NETWORKS) */
  allowPrivateNetworks: PrivateNetworks;
  /** a fetcher of the caller's (tests); default: a guarded one of its own */
  fetcher?: Fetcher;
  tickMs?: number;
}

export type RefreshStatus = 'refreshed' | 'expired' | 'retry' | 'skipped';

export interface RefreshReport {
  connectionId: number;
  status: RefreshStatus;
  /** what happened, in words (never a token) */
  message: string | null;
}

export class ConnectionRefresher {
  private readonly db: Kysely<Database>;
  private readonly oauth: OAuthConfig;
  private readonly secretKey: Buffer | null;
  private readonly fetcher: Fetcher;
  private readonly ownFetcher: boolean;
  private readonly log: WorkerLogger;
  private readonly now: () => number;
  readonly owner: string;
  private readonly jobs = new LeasedJobs<RefreshReport>(4);
  private readonly tickMs: number;

  constructor(options: RefreshOptions) {
    this.db = options.db;
    this.oauth = options.oauth;
    this.secretKey = options.secretKey;
    ({ log: this.log, now: this.now, owner: this.owner } = workerDefaults(options));
    this.ownFetcher = options.fetcher === undefined;
    this.fetcher =
      options.fetcher ??
      createFetcher({
        allowPrivateNetworks: options.allowPrivateNetworks,
        timeoutMs: 20_000,
        maxBytes: 256 * 1024,
        hostConcurrency: 4,
        userAgent: 'Wallery/0.1 (self-hosted social wall; token refresh)',
        ...(options.resolve ? { resolve: options.resolve } : {}),
      });
    this.tickMs = options.tickMs ?? REFRESH_TICK_MS;
  }

  start(): void {
    const started = this.jobs.startTicking(
      this.tickMs,
      () => this.tick(),
      (err) => this.log.error({ err }, 'token refresh tick failed'),
    );
    if (started) this.log.info({ owner: this.owner }, 'token refresh started');
  }

  async stop(): Promise<void> {
    if ((await this.jobs.stop()) && this.ownFetcher) await this.fetcher.close();
  }

  /** One tick: expired sign-ins pruned, the due connections started (not waited for). */
  async tick(): Promise<void> {
    if (this.jobs.stopped) return;
    await pruneOAuthStates(this.db, this.now());
    for (const row of await this.due()) if (!this.jobs.has(row.id)) void this.schedule(row.id);
  }

  /** Refreshes every due connection once and waits (tests, one-shot runs). */
  async runOnce(): Promise<RefreshReport[]> {
    return Promise.all((await this.due()).map((row) => this.schedule(row.id)));
  }

  /** The candidates whose own lead has come. */
  private async due(): Promise<ConnectionRow[]> {
    const now = this.now();
    const rows = await refreshCandidates(this.db, {
      networks: REFRESHABLE_NETWORKS,
      now,
      horizon: now + MAX_LEAD_MS,
      retryAfter: now - RETRY_AFTER_MS,
      limit: 100,
    });
    return rows.filter((r) => isDue(r, now));
  }

  private schedule(id: number): Promise<RefreshReport> {
    return this.jobs.run(
      id,
      () => this.refreshOne(id),
      (err): RefreshReport => {
        this.log.error({ err, connectionId: id }, 'token refresh crashed');
        return { connectionId: id, status: 'retry', message: 'the refresh crashed' };
      },
    );
  }

  /** Claims one connection and refreshes its token. */
  async refreshOne(id: number): Promise<RefreshReport> {
    const skipped = (message: string): RefreshReport => ({ connectionId: id, status: 'skipped', message });
    if (this.jobs.stopped) return skipped('stopping');
    const now = this.now();
    if (!(await claimConnectionRefresh(this.db, id, this.owner, now, now + LEASE_MS)))
      return skipped('another worker holds this connection');
    try {
      // read again under the lease: another worker may have refreshed it a moment ago
      const row = await findConnection(this.db, id);
      if (!row) return skipped('no such connection');
      if (!isDue(row, now)) return skipped('not due');
      const report = await this.refreshRow(row, now);
      this.log.info({ connectionId: id, network: row.network, status: report.status }, 'token refresh');
      return report;
    } finally {
      await releaseConnectionRefresh(this.db, id, this.owner);
    }
  }

  private async refreshRow(row: ConnectionRow, now: number): Promise<RefreshReport> {
    const n = networkAuth(row.network);
    const secret = openConnectionSecret(row.secret, this.secretKey);
    const target = n?.oauth
      ? appTarget(row.network, this.oauth)
      : n?.instanceOAuth && row.instance && secret.clientId && secret.clientSecret
        ? instanceTarget(row.network, row.instance, { clientId: secret.clientId, clientSecret: secret.clientSecret })
        : null;
    if (!target) {
      // no app to refresh with (its settings were removed): tried again later, the expiry warning tells the operator
      return { connectionId: row.id, status: 'retry', message: `${n?.title ?? row.network} has no app configured` };
    }
    try {
      const tokens = await refreshTokens(this.fetcher, target, secret, now);
      await updateConnection(this.db, row.id, {
        secret: sealConnectionSecret(
          {
            ...secret,
            accessToken: tokens.accessToken,
            ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
          },
          this.secretKey,
        ),
        expires_at: tokens.expiresAt,
        ...(tokens.refreshExpiresAt !== null ? { refresh_expires_at: tokens.refreshExpiresAt } : {}),
        ...(tokens.scope !== null ? { scopes: tokens.scope } : {}),
        refreshed_at: now,
        expiry_warned_at: null,
        ...(row.status === 'expired' ? { status: 'active', status_detail: null, status_at: now } : {}),
        updated_at: now,
      });
      return { connectionId: row.id, status: 'refreshed', message: null };
    } catch (err) {
      if (!(err instanceof OAuthFlowError) || err.kind === 'unavailable' || err.kind === 'not_configured')
        return { connectionId: row.id, status: 'retry', message: err instanceof Error ? err.message : String(err) };
      const detail = `${err.message}: connect it again in the console (Connections).`;
      // the refresh token is dead: no further tries until a reconnect
      await updateConnection(this.db, row.id, { refresh_expires_at: now, updated_at: now });
      await markConnectionFailed(this.db, row.id, 'expired', detail, now);
      return { connectionId: row.id, status: 'expired', message: detail };
    }
  }
}

/** Whether a connection's token is within its lead of expiry (or already past it). */
export function isDue(row: ConnectionRow, now: number): boolean {
  if (row.expires_at === null || row.status === 'revoked') return false;
  if (row.refresh_expires_at !== null && row.refresh_expires_at <= now) return false;
  const issued = row.refreshed_at ?? row.created_at;
  return row.expires_at - refreshLeadMs(issued, row.expires_at) <= now;
}
