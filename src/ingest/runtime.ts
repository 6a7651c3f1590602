// The ingestion runtime: finds due feeds, polls each through its connector
// (fetch first, no transaction open), writes the posts in short upsert
// transactions, then records the new cursor and schedule. Runs on a periodic
// tick inside `serve` or `worker`, or once for `ingest --once`.
//
// Crash safety: posts are upserted before the cursor moves, each batch in its
// own transaction, so a kill at any point loses nothing already stored, and
// the next poll re-reads from the old cursor into the same (feed, upstream
// id) rows — no duplicates. A lease on the feed's state row keeps two pollers
// (serve + an `ingest --once`, or several instances) off the same feed.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { ChangeBus } from '../store/changes.js';
import {
  claimFeed,
  dueFeedIds,
  ensureIngestStates,
  loadFeedToPoll,
  pollableFeedIds,
  recentPostTimes,
  recordFailure,
  recordSuccess,
  releaseFeed,
  removeWithheldPosts,
  storedExternalIds,
  touchFeed,
  upsertPosts,
  type FeedToPoll,
  type IngestedPost,
  type IngestStateRow,
} from '../store/ingest.js';
import type { Database } from '../store/schema.js';
import { arrivalOf, historyOf } from './arrival.js';
import { upstreamHash } from './upstream-hash.js';
import type { IngestConfig } from '../config.js';
import { connectorProblem, type ConnectorSettings } from '../schemas/connectors.js';
import {
  PollHttp,
  errorMessage,
  type Connector,
  type ConnectorEnv,
  type ParseFn,
  type PollOutput,
  type Validators,
} from './connector.js';
import { createFetcher, type Fetcher } from '../net/fetcher.js';
import { HostPausedError } from '../net/host-limiter.js';
import { LeasedJobs } from '../jobs/leased-jobs.js';
import type { WorkerLogger } from '../jobs/log.js';
import { workerDefaults, type WorkerOptions } from '../jobs/worker-options.js';
import { ParsePool } from './parse-pool.js';
import { pruneChangeLog } from '../store/change-log.js';
import { connectorFor } from './registry.js';
import { CredentialError, ConnectorSetupError, type ConnectorCredential } from './connector.js';
import { findConnection, markConnectionFailed } from '../store/connections.js';
import { credentialOf } from '../connections/secrets.js';
import { connectionStatusOf, isUsable, type ConnectionFailedStatus } from '../domain/connections.js';
import { adaptiveIntervalS, nextPollAfterFailure, nextPollAfterSuccess, type SchedulePolicy } from './scheduler.js';
import { whereFrom } from './url-parts.js';

export interface IngestRuntimeOptions extends WorkerOptions {
  db: Kysely<Database>;
  changes: ChangeBus;
  config: IngestConfig;
  /** default: an SSRF-guarded fetcher made from `config` (closed by stop()) */
  fetcher?: Fetcher;
  /** how often the tick looks for due feeds (ms, default 5000) */
  tickMs?: number;
  /** feeds polled at the same time (default 4) */
  feedConcurrency?: number;
  /** pages one poll may read (default 5) */
  maxPages?: number;
  /** how long a poller holds a feed (ms, default timeout × (maxPages + 5), at least 1 min); a poll is cut at 80 % of it */
  leaseMs?: number;
  /** the secret box key connections' secrets are sealed with (null: stored plain) */
  secretKey?: Buffer | null;
  /** a connection's status just changed because its network refused it (announce it: `connection.failed`) */
  onConnectionFailed?: (event: ConnectionFailure) => void;
}

export interface ConnectionFailure {
  connectionId: number;
  accountId: number;
  feedId: number;
  status: ConnectionFailedStatus;
  detail: string;
}

export type PollStatus = 'ok' | 'not_modified' | 'failed' | 'deferred' | 'skipped';

export interface PollReport {
  feedId: number;
  wallId: number | null;
  kind: string | null;
  status: PollStatus;
  inserted: number;
  updated: number;
  /** upstream items left out because they could not be read */
  skippedItems: number;
  /** what was read but not as it should be (unreadable dates, …): also in the feed's ingestion status */
  warnings: string[];
  /** upstream posts left out (and removed if stored before) because their authors asked not to be shown publicly */
  withheldItems: number;
  /** the error (failed), or why the feed was not polled (skipped, deferred) */
  message: string | null;
  nextPollAt: number | null;
  durationMs: number;
}

const WRITE_BATCH = 50;
/** the change log is pruned by each worker at most this often (a prune another worker did finds nothing) */
const PRUNE_EVERY_MS = 3_600_000;
/** Due feeds one tick starts at most; with more due, the next batch follows as the polls run short. */
const TICK_BATCH = 100;

export class IngestRuntime {
  readonly policy: SchedulePolicy;
  private readonly db: Kysely<Database>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly log: WorkerLogger;
  private readonly fetcher: Fetcher;
  private readonly ownsFetcher: boolean;
  private readonly owner: string;
  private readonly env: ConnectorEnv;
  private readonly jobs: LeasedJobs<PollReport>;
  private readonly leaseMs: number;
  private readonly maxPages: number;
  private readonly parsePool: ParsePool;
  private nextPruneAt = 0;
  private readonly feedConcurrency: number;
  /** the tick in progress (ticks never overlap) */
  private ticking: Promise<void> | null = null;
  /** the last tick found more due feeds than it starts at once */
  private backlog = false;
  /** polls by result and items written, read by the metrics on scrape */
  readonly stats = {
    polls: { ok: 0, not_modified: 0, failed: 0, deferred: 0, skipped: 0 } satisfies Record<PollStatus, number>,
    itemsNew: 0,
    itemsUpdated: 0,
  };

  constructor(private readonly options: IngestRuntimeOptions) {
    const { config } = options;
    this.db = options.db;
    const { now, random, log, owner, failingAfter } = workerDefaults(options);
    this.now = now;
    this.random = random;
    this.log = log;
    this.owner = owner;
    this.policy = { minIntervalS: config.minIntervalS, maxIntervalS: config.maxIntervalS, failingAfter };
    this.ownsFetcher = options.fetcher === undefined;
    this.fetcher =
      options.fetcher ??
      createFetcher({
        allowPrivateNetworks: config.allowPrivateNetworks,
        maxBytes: config.maxBytes,
        timeoutMs: config.timeoutMs,
        hostConcurrency: config.hostConcurrency,
        resolve: options.resolve,
        now: this.now,
      });
    this.env = { bluesky: config.bluesky, memory: new Map() };
    this.feedConcurrency = options.feedConcurrency ?? 4;
    this.jobs = new LeasedJobs(this.feedConcurrency);
    this.parsePool = new ParsePool({ threads: config.parseThreads, maxBytes: config.maxBytes });
    this.maxPages = options.maxPages ?? 5;
    this.leaseMs = options.leaseMs ?? Math.max(60_000, config.timeoutMs * (this.maxPages + 5));
  }

  /** Polls due feeds on a periodic tick until stop(). */
  start(): void {
    const started = this.jobs.startTicking(
      this.options.tickMs ?? 5000,
      () => this.tick(),
      (err) => this.log.error({ err }, 'ingest tick failed'),
    );
    if (started) this.log.info({ owner: this.owner }, 'ingestion started');
  }

  /** Stops the tick, cancels requests in flight, waits for running polls to settle (their leases are released). */
  async stop(): Promise<void> {
    if (!(await this.jobs.stop())) return;
    await this.parsePool.close();
    if (this.ownsFetcher) await this.fetcher.close();
    if (this.jobs.ticking) this.log.info({}, 'ingestion stopped');
  }

  /**
   * One tick: prune the change log when due, start polls of due feeds (not
   * waiting for them). Ticks never overlap: a tick asked for while one runs
   * joins it.
   */
  tick(): Promise<void> {
    this.ticking ??= this.startDuePolls().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async startDuePolls(): Promise<void> {
    if (this.jobs.stopped) return;
    if (this.now() >= this.nextPruneAt) {
      this.nextPruneAt = this.now() + PRUNE_EVERY_MS;
      await pruneChangeLog(this.db, this.now() - this.options.config.changesRetentionDays * 86_400_000);
    }
    await ensureIngestStates(this.db, this.policy.minIntervalS);
    const due = await dueFeedIds(this.db, this.now(), TICK_BATCH);
    // a full batch: more feeds are due than one tick starts; the next batch
    // is fetched as soon as the polls run short (see schedulePoll), not a tick later
    this.backlog = due.length === TICK_BATCH;
    for (const feedId of due) {
      if (this.jobs.has(feedId)) continue;
      void this.schedulePoll(feedId, false);
    }
  }

  /**
   * Polls due feeds once (or just `feedId`), waits for all, and reports each.
   * `force` polls feeds that are not due yet.
   */
  async runOnce(
    options: {
      feedId?: number;
      force?: boolean;
      onStart?: (feedIds: number[]) => void;
      onReport?: (r: PollReport) => void;
    } = {},
  ): Promise<PollReport[]> {
    await ensureIngestStates(this.db, this.policy.minIntervalS);
    let ids: number[];
    if (options.feedId !== undefined) ids = [options.feedId];
    else if (options.force) {
      ids = await pollableFeedIds(this.db);
    } else ids = await dueFeedIds(this.db, this.now(), 10_000);
    const force = options.force === true || options.feedId !== undefined;
    options.onStart?.(ids);
    return Promise.all(
      ids.map(async (id) => {
        const report = await this.schedulePoll(id, force);
        options.onReport?.(report);
        return report;
      }),
    );
  }

  private schedulePoll(feedId: number, force: boolean): Promise<PollReport> {
    return this.jobs.run(
      feedId,
      async () => {
        const report = await this.pollFeed(feedId, force);
        this.count(report);
        // with a backlog of due feeds, fewer polls left than can run at once: fetch the next batch now
        if (this.backlog && this.jobs.ticking && this.jobs.size <= this.feedConcurrency) void this.tick();
        return report;
      },
      (err): PollReport => {
        this.log.error({ err, feedId }, 'poll crashed');
        const report: PollReport = { ...emptyReport(feedId), status: 'failed', message: errorMessage(err) };
        this.count(report);
        return report;
      },
    );
  }

  private count(report: PollReport): void {
    this.stats.polls[report.status]++;
    this.stats.itemsNew += report.inserted;
    this.stats.itemsUpdated += report.updated;
  }

  /** Polls one feed: claim, fetch, write, record. Never throws for upstream trouble. */
  async pollFeed(feedId: number, force = false): Promise<PollReport> {
    const started = this.now();
    const report = emptyReport(feedId);
    const done = (r: Partial<PollReport>): PollReport => ({
      ...report,
      ...r,
      durationMs: Math.max(0, this.now() - started),
    });
    const claimed = await this.claim(feedId, force, report);
    if ('skipped' in claimed) return done({ status: 'skipped', ...claimed.skipped });

    const progress: PollProgress = { settings: null, http: null, written: { inserted: 0, updated: 0 } };
    // a poll never outlives its lease: cut it well before another poller may take the feed
    const deadline = AbortSignal.timeout(Math.floor(this.leaseMs * 0.8));
    const signal = AbortSignal.any([this.jobs.signal, deadline]);
    try {
      const fetched = await this.fetch(claimed, progress, report, signal);
      const stored = await this.write(claimed, fetched, progress, signal);
      return await this.recordPoll(claimed, fetched, progress, stored, done);
    } catch (err) {
      return this.fail(claimed, err, deadline, progress, done);
    }
  }

  /** Step 1: the checks that may skip the poll, then the lease on the feed. */
  private async claim(
    feedId: number,
    force: boolean,
    report: PollReport,
  ): Promise<ClaimedPoll | { skipped: Partial<PollReport> }> {
    const skip = (message: string, extra: Partial<PollReport> = {}) => ({ skipped: { message, ...extra } });
    if (this.jobs.stopped) return skip('ingestion is stopping');
    await ensureIngestStates(this.db, this.policy.minIntervalS);
    const feed = await loadFeedToPoll(this.db, feedId);
    if (!feed) return skip(`no feed ${feedId}`);
    report.wallId = feed.wallId;
    if (feed.connector === null) return skip('the feed has no connector');
    if (!feed.enabled) return skip('the feed is disabled');
    if (feed.wallDeleted) return skip('the wall is deleted');
    const state = feed.state;
    if (!state) return skip('no ingestion state');
    const settingChanged = state.cursor_for !== feed.connector;
    const now = this.now();
    if (!force && !settingChanged && state.next_poll_at > now)
      return skip('not due yet', { nextPollAt: state.next_poll_at });
    if (!(await claimFeed(this.db, feedId, this.owner, now, now + this.leaseMs, force ? null : state)))
      return skip('another poller holds this feed');
    return { feedId, feed, connector: feed.connector, state, settingChanged, now };
  }

  /** Step 2: the connector reads upstream (no transaction open); parsing runs in a worker. */
  private async fetch(
    claimed: ClaimedPoll,
    progress: PollProgress,
    report: PollReport,
    signal: AbortSignal,
  ): Promise<Fetched> {
    const { feed, state, settingChanged } = claimed;
    const settings = connectorSettingsOf(claimed.connector);
    progress.settings = settings;
    report.kind = settings.kind;
    const previous: Validators | null =
      !settingChanged && state.validators_url
        ? { url: state.validators_url, etag: state.etag, lastModified: state.last_modified }
        : null;
    const http = new PollHttp(this.fetcher, previous, signal, this.now);
    progress.http = http;
    const connector = connectorFor(settings);
    const credential = await this.credentialFor(settings, feed.accountId);
    progress.credential = credential;
    const out = await connector.poll({
      settings,
      cursor: settingChanged ? null : readCursor(state.cursor_json),
      http,
      parse: this.parser(settings, feed.wallProfanity, feed.rules, signal),
      env: this.env,
      credential,
      storedIds: (limit) => storedExternalIds(this.db, claimed.feedId, limit),
      now: claimed.now,
      maxPages: this.maxPages,
      maxItems: this.options.config.maxItems,
    });
    return { settings, connector, http, previous, out };
  }

  /**
   * The credential of the connection the feed names (null when it names none).
   * A connection of another account, or one its network already refused for
   * good (expired, revoked), is not used: the feed fails saying what to do.
   */
  private async credentialFor(settings: ConnectorSettings, accountId: number): Promise<ConnectorCredential | null> {
    const connectionId = (settings as { connectionId?: number }).connectionId;
    if (connectionId === undefined) return null;
    const row = await findConnection(this.db, connectionId);
    if (!row || row.account_id !== accountId) {
      throw new ConnectorSetupError(`the feed's connection ${connectionId} does not exist in its account`);
    }
    if (!isUsable(row.status)) {
      throw new ConnectorSetupError(
        `the ${row.network} connection “${row.name}” is ${row.status}${row.status_detail ? ` (${row.status_detail})` : ''}: reconnect it`,
      );
    }
    return credentialOf(row, this.options.secretKey ?? null);
  }

  /**
   * Step 3: the posts, in short transactions; new posts arrive as the wall's moderation
   * says, and a stored post is rewritten only when upstream's fingerprint of it changed.
   */
  private async write(
    claimed: ClaimedPoll,
    { settings, connector, out }: Fetched,
    progress: PollProgress,
    signal: AbortSignal,
  ): Promise<Stored> {
    const { feed, feedId, now } = claimed;
    const rows = uniqueRows(out.rows);
    const decisions = {
      fingerprint: upstreamHash,
      arrival: arrivalOf(feed.moderation),
      history: historyOf(feed.rules),
    };
    for (let i = 0; i < rows.length; i += WRITE_BATCH) {
      // SQLite writes synchronously, and awaiting its promises yields to no one:
      // give the event loop a turn between batches
      if (i > 0) await nextTurn();
      if (signal.aborted)
        throw new Error(this.jobs.signal.aborted ? 'ingestion is stopping' : 'the poll ran out of time');
      const r = await upsertPosts(this.db, feed.wallId, feedId, rows.slice(i, i + WRITE_BATCH), decisions, now);
      progress.written = {
        inserted: progress.written.inserted + r.inserted,
        updated: progress.written.updated + r.updated,
      };
    }
    const withheld = [...new Set(out.withheld ?? [])];
    const removed = await removeWithheldPosts(this.db, feedId, [...new Set([...withheld, ...(out.deleted ?? [])])]);
    const after = this.now();
    const changed = progress.written.inserted + progress.written.updated + removed > 0;
    const feedTouched = await touchFeed(this.db, feedId, {
      source: connector.network,
      sourceType: connector.sourceType(settings),
      updatedAt: changed ? after : null,
    });
    return { withheld: withheld.length, removed, feedTouched, after };
  }

  /** Step 4: the new cursor and schedule; the wall's readers are told of a change. */
  private async recordPoll(
    claimed: ClaimedPoll,
    { settings, http, previous, out }: Fetched,
    progress: PollProgress,
    { withheld, removed, feedTouched, after }: Stored,
    done: (r: Partial<PollReport>) => PollReport,
  ): Promise<PollReport> {
    const { feed, feedId, state, settingChanged } = claimed;
    const { written } = progress;
    const changed = written.inserted + written.updated + removed > 0;
    const intervalS = adaptiveIntervalS(
      this.policy,
      settingChanged ? null : state.interval_s,
      await recentPostTimes(this.db, feedId, 10),
      after,
    );
    const nextPollAt = nextPollAfterSuccess(this.policy, after, intervalS, http.notBefore);
    const kept = await recordSuccess(this.db, feedId, this.owner, {
      cursorJson: out.cursor === null || out.cursor === undefined ? null : JSON.stringify(out.cursor),
      cursorFor: claimed.connector,
      validators: out.notModified ? previous : http.validators,
      nextPollAt,
      intervalS,
      now: after,
      newPosts: written.inserted,
      updatedPosts: written.updated,
      warnings: out.notModified ? null : (out.warnings ?? []),
    });
    if (!kept) this.log.warn({ feedId }, 'lease lost during the poll; state not recorded');
    if (changed || feedTouched) this.options.changes.wallChanged(feed.wallId);
    const result = done({
      status: out.notModified ? 'not_modified' : 'ok',
      ...written,
      skippedItems: out.skipped,
      warnings: out.warnings ?? [],
      withheldItems: withheld,
      nextPollAt,
    });
    this.log.info(
      {
        feedId,
        kind: settings.kind,
        inserted: written.inserted,
        updated: written.updated,
        skipped: out.skipped,
        warnings: out.warnings,
        withheld,
        removed,
        nextPollAt,
      },
      'feed polled',
    );
    return result;
  }

  /** A poll that threw: what was written stays; the lease is released or the failure recorded. */
  private async fail(
    claimed: ClaimedPoll,
    err: unknown,
    deadline: AbortSignal,
    progress: PollProgress,
    done: (r: Partial<PollReport>) => PollReport,
  ): Promise<PollReport> {
    const { feed, feedId, state, settingChanged } = claimed;
    const { written } = progress;
    // whatever was written stays (and the wall's readers are told)
    if (written.inserted + written.updated > 0) this.options.changes.wallChanged(feed.wallId);
    const at = this.now();
    if (err instanceof HostPausedError) {
      await releaseFeed(this.db, feedId, this.owner, err.until);
      return done({ status: 'deferred', message: err.message, nextPollAt: err.until, ...written });
    }
    if (this.jobs.signal.aborted) {
      await releaseFeed(this.db, feedId, this.owner);
      return done({ status: 'skipped', message: 'ingestion stopped during the poll', ...written });
    }
    const message = deadline.aborted
      ? `the poll took longer than ${Math.floor(this.leaseMs * 0.8)} ms (${errorMessage(err)})`
      : errorMessage(err);
    // the network refused the connection: the feed fails at once, the connection is marked
    const refused = err instanceof CredentialError && progress.credential ? err : null;
    if (refused) await this.connectionRefused(claimed, progress.credential!, refused, at);
    const failuresSoFar = settingChanged ? 0 : state.consecutive_failures;
    const nextPollAt = nextPollAfterFailure(
      this.policy,
      at,
      failuresSoFar + 1,
      this.random,
      progress.http?.notBefore ?? null,
    );
    const failures = await recordFailure(this.db, feedId, this.owner, {
      error: message,
      nextPollAt,
      now: at,
      failingAfter: refused ? 1 : this.policy.failingAfter,
      cursorFor: claimed.connector,
    });
    this.log.warn({ feedId, kind: progress.settings?.kind, failures, error: message, nextPollAt }, 'feed poll failed');
    return done({ status: 'failed', message, nextPollAt, ...written });
  }

  private async connectionRefused(
    claimed: ClaimedPoll,
    credential: ConnectorCredential,
    err: CredentialError,
    at: number,
  ): Promise<void> {
    const status = connectionStatusOf(err.problem);
    if (await markConnectionFailed(this.db, credential.connectionId, status, err.message, at)) {
      this.log.warn({ connectionId: credential.connectionId, status, feedId: claimed.feedId }, 'connection refused');
      this.options.onConnectionFailed?.({
        connectionId: credential.connectionId,
        accountId: claimed.feed.accountId,
        feedId: claimed.feedId,
        status,
        detail: err.message,
      });
    }
  }

  /** The poll's `parse`: a response → rows, in a parse worker (the response's bytes move there). */
  private parser(settings: ConnectorSettings, wallProfanity: boolean, rules: string, signal: AbortSignal): ParseFn {
    return async <M>(res: Parameters<ParseFn>[0], document: string) => {
      const { url, status, headers, bytes } = res;
      const result = await this.parsePool.parse(
        {
          settings,
          document,
          response: { url, status, headers, bytes },
          maxItems: this.options.config.maxItems,
          wallProfanity,
          rules,
          now: this.now(),
        },
        signal,
      );
      if (result.leftOut > 0)
        this.log.debug({ host: whereFrom(url), leftOut: result.leftOut }, 'upstream posts left out');
      return {
        rows: result.rows,
        skipped: result.skipped,
        warnings: result.warnings,
        withheld: result.withheld,
        meta: result.meta as M,
      };
    };
  }
}

/** Each upstream id once, the first (newest page) wins: pages of one poll may overlap. */
function uniqueRows(rows: readonly IngestedPost[]): IngestedPost[] {
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.external_id) && seen.add(row.external_id));
}

/** A stored cursor, or null when there is none or it cannot be read (the connector then starts afresh). */
function readCursor(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

function emptyReport(feedId: number): PollReport {
  return {
    feedId,
    wallId: null,
    kind: null,
    status: 'skipped',
    inserted: 0,
    updated: 0,
    skippedItems: 0,
    warnings: [],
    withheldItems: 0,
    message: null,
    nextPollAt: null,
    durationMs: 0,
  };
}

/** A feed this poller holds the lease of, with what the poll needs to know of it. */
interface ClaimedPoll {
  feedId: number;
  feed: FeedToPoll;
  /** the feed's connector setting (JSON), as read when claimed */
  connector: string;
  state: IngestStateRow;
  /** the setting differs from the one the cursor was made for: start afresh */
  settingChanged: boolean;
  now: number;
}

/** What the connector read, and with what: the steps after the fetch work from it. */
interface Fetched {
  settings: ConnectorSettings;
  connector: Connector;
  http: PollHttp;
  /** the validators the fetch was conditional on */
  previous: Validators | null;
  out: PollOutput;
}

/** What the write left: upstream's withheld items, the posts removed for them, the feed touched, when. */
interface Stored {
  withheld: number;
  removed: number;
  feedTouched: boolean;
  after: number;
}

/** What a poll has done so far: a failure's report and log say it. */
interface PollProgress {
  settings: ConnectorSettings | null;
  http: PollHttp | null;
  /** the connection's credential the poll used (for a refusal's bookkeeping) */
  credential?: ConnectorCredential | null;
  written: { inserted: number; updated: number };
}

/** The feed's connector setting, checked: a bad one fails the poll with a clear message. */
function connectorSettingsOf(json: string): ConnectorSettings {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('the connector setting is not valid JSON');
  }
  const problem = connectorProblem(parsed);
  if (problem) throw new Error(`the connector setting is invalid: ${problem}`);
  return parsed as ConnectorSettings;
}
