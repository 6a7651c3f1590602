// The rights watcher: beside feed ingestion (`serve` with INGEST on,
// `wallery worker`), a periodic tick
// 1. expires requests unanswered past their expiry,
// 2. asks for the posts the walls' asking rules pick (walls.rights_auto),
//    through a reply only, within the account's daily limits,
// 3. listens to the requests due (src/rights/service.ts listenTo), each
//    leased to this worker so two workers never apply one answer twice.
// The watcher ticks every RIGHTS_TICK_SECONDS (RIGHTS_TICK_MS by default); a
// request waiting for its answer is listened to every RIGHTS_LISTEN_SECONDS
// (LISTEN_MS by default; a network's slower pace, listenEveryMs, wins): the
// author's answer shows on a "rights required" wall within one tick of being heard.
import type { Kysely } from 'kysely';
import type { PrivateNetworks } from '../config.js';
import { LeasedJobs } from '../jobs/leased-jobs.js';
import type { WorkerLogger } from '../jobs/log.js';
import { workerDefaults, type WorkerOptions } from '../jobs/worker-options.js';
import type { Fetcher } from '../net/fetcher.js';
import type { ChangeBus } from '../store/changes.js';
import type { Database } from '../store/schema.js';
import {
  autoRequestCandidates,
  expiredRequests,
  leaseDueListens,
  refreshHolds,
  updatePostRights,
  wallsRequiringRights,
} from '../store/rights.js';
import { DAY_MS } from '../domain/rights.js';
import type { RightsChannel } from './channels/channel.js';
import { rightsFetcher } from './fetcher.js';
import {
  CHANNELS,
  expireRequests,
  listenTo,
  requestRights,
  type ListenResult,
  type RequestOutcome,
  type RightsDeps,
} from './service.js';

/** How often the watcher ticks. */
export const RIGHTS_TICK_MS = 30_000;
/** How long a worker holds a request while listening to it. */
const LEASE_MS = 60_000;
/** Most requests listened to, asked and expired in one tick. */
const PER_TICK = 50;
/** The asking rule asks about posts made this recently only. */
export const AUTO_REQUEST_WITHIN_MS = 30 * DAY_MS;
/**
 * How often the holds of the walls that require rights are checked against
 * their posts: every writer keeps them (the rights service, product tags, a
 * wall's requirement, arrival); this catches what none of them saw (a
 * product deleted with its tags, a data file imported, a write racing a
 * change of requirement).
 */
const RECONCILE_MS = 10 * 60_000;
/** A post the asking rule was refused for (opt-out, limits) is not tried again for this long. */
const AUTO_RETRY_MS = 6 * 60 * 60_000;

export interface WatcherOptions extends WorkerOptions {
  db: Kysely<Database>;
  secretKey: Buffer | null;
  /** which addresses networks may be at (INGEST_ALLOW_PRIVATE_NETWORKS) */
  allowPrivateNetworks: PrivateNetworks;
  /** a fetcher of the caller's (tests); default: a guarded one of its own */
  fetcher?: Fetcher;
  channels?: readonly RightsChannel[];
  /** how often the watcher ticks (RIGHTS_TICK_SECONDS); default RIGHTS_TICK_MS */
  tickMs?: number;
  /** how often a waiting request is read (RIGHTS_LISTEN_SECONDS); default LISTEN_MS (src/rights/service.ts) */
  listenMs?: number;
  /** this process's change bus: a wall whose posts' rights changed is announced on it (the v2 cache, the embed's stream) */
  changes?: ChangeBus;
}

/** What one pass did. */
export interface WatchReport {
  expired: number;
  asked: RequestOutcome[];
  heard: ListenResult[];
}

export class RightsWatcher {
  private readonly deps: RightsDeps;
  private readonly log: WorkerLogger;
  readonly owner: string;
  private readonly ownFetcher: boolean;
  private readonly jobs = new LeasedJobs<ListenResult | null>(4);
  private readonly tickMs: number;
  /** posts the asking rule was refused for: post id → not before */
  private readonly autoSkip = new Map<number, number>();
  private reconciledAt = Number.NEGATIVE_INFINITY;

  constructor(options: WatcherOptions) {
    const { log, now, owner } = workerDefaults(options);
    this.log = log;
    this.owner = owner;
    this.ownFetcher = options.fetcher === undefined;
    const fetcher = options.fetcher ?? rightsFetcher(options.allowPrivateNetworks, options.resolve);
    this.deps = {
      db: options.db,
      secretKey: options.secretKey,
      fetcher,
      memory: new Map(),
      now,
      ...(options.channels ? { channels: options.channels } : {}),
      ...(options.listenMs !== undefined ? { listenMs: options.listenMs } : {}),
      signal: this.jobs.signal,
      ...(options.changes ? { announce: (wallId: number) => options.changes!.wallChanged(wallId) } : {}),
    };
    this.tickMs = options.tickMs ?? RIGHTS_TICK_MS;
  }

  start(): void {
    const started = this.jobs.startTicking(
      this.tickMs,
      async () => {
        await this.pass(false);
      },
      (err) => this.log.error({ err }, 'rights watcher tick failed'),
    );
    if (started) this.log.info({ owner: this.owner }, 'rights watcher started');
  }

  async stop(): Promise<void> {
    if ((await this.jobs.stop()) && this.ownFetcher) await this.deps.fetcher.close();
  }

  /** One pass, waited for to the end (tests, `wallery rights watch --once`). */
  runOnce(): Promise<WatchReport> {
    return this.pass(true);
  }

  private async pass(wait: boolean): Promise<WatchReport> {
    const report: WatchReport = { expired: 0, asked: [], heard: [] };
    if (this.jobs.stopped) return report;
    const now = this.deps.now();
    if (now - this.reconciledAt >= RECONCILE_MS) {
      this.reconciledAt = now;
      for (const wallId of await wallsRequiringRights(this.deps.db)) await refreshHolds(this.deps.db, wallId);
    }
    report.expired = await expireRequests(this.deps, await expiredRequests(this.deps.db, now, PER_TICK));
    report.asked = await this.autoRequest(now);
    const due = await leaseDueListens(this.deps.db, this.owner, now, now + LEASE_MS, PER_TICK);
    const runs = due.map((row) =>
      this.jobs.run(
        row.post_id,
        async () => {
          try {
            const result = await listenTo(this.deps, row);
            if (result.changed) this.log.info({ postId: row.post_id, state: result.state }, 'rights answer heard');
            else if (result.error)
              this.log.warn({ postId: row.post_id, error: result.error }, 'rights answer not read');
            return result;
          } finally {
            await updatePostRights(this.deps.db, row.post_id, { lease_owner: null, lease_until: null });
          }
        },
        (err) => {
          this.log.error({ err, postId: row.post_id }, 'listening for a rights answer crashed');
          return null;
        },
      ),
    );
    if (wait) report.heard = (await Promise.all(runs)).filter((r): r is ListenResult => r !== null);
    return report;
  }

  /** The walls' asking rules: requests by reply for the posts they pick, a refused post left alone for a while. */
  private async autoRequest(now: number): Promise<RequestOutcome[]> {
    for (const [id, until] of this.autoSkip) if (until <= now) this.autoSkip.delete(id);
    const networks = (this.deps.channels ?? CHANNELS).flatMap((c) => c.postNetworks);
    const ids = await autoRequestCandidates(this.deps.db, {
      networks,
      since: now - AUTO_REQUEST_WITHIN_MS,
      limit: PER_TICK,
      exclude: [...this.autoSkip.keys()],
    });
    if (ids.length === 0) return [];
    const outcomes = await requestRights(this.deps, ids, { actor: 'rule', onlyByReply: true });
    for (const o of outcomes) if (!o.ok) this.autoSkip.set(o.postId, now + AUTO_RETRY_MS);
    return outcomes;
  }
}
