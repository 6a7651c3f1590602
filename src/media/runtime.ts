// The media worker: a periodic tick finds the pictures due (src/store/media-queue.ts),
// and for each source URL — every post's picture of that URL at once, so a
// picture many posts show is fetched once — claims them under a lease,
// fetches the URL through the SSRF-guarded fetcher (its own size cap, time
// cap and per-host concurrency), has the processor make the upright,
// metadata-free master, renditions and placeholder (worker threads), writes
// the files to the storage under the hash of the bytes (a file there already
// is not written again) and marks the pictures ready. Runs wherever feed
// ingestion runs (`serve` with INGEST on, `wallery worker`), or once
// (`wallery media fetch --once`, tests' runOnce()).
//
// Outcomes: a picture that is not one Wallery takes (not an image, SVG, too
// many pixels, too large, an address the guard refuses) is `refused`, never
// retried; a failed attempt (network, timeout, HTTP error) is retried with
// backoff, `failed` after MEDIA_MAX_ATTEMPTS; past the account's quota a
// picture is `failed` at once. Each failure is one log line. A stop cancels
// the fetches in flight and gives their leases back.
import type { Kysely } from 'kysely';
import type { MediaConfig, PrivateNetworks } from '../config.js';
import { backoffDelayS } from '../jobs/backoff.js';
import { LeasedJobs } from '../jobs/leased-jobs.js';
import type { WorkerLogger } from '../jobs/log.js';
import { workerDefaults, type WorkerOptions } from '../jobs/worker-options.js';
import { FetchError } from '../net/errors.js';
import { createFetcher, type Fetcher, type FetchResponse } from '../net/fetcher.js';
import { HostPausedError } from '../net/host-limiter.js';
import type { ChangeBus } from '../store/changes.js';
import {
  accountHasBlob,
  accountMediaBytes,
  claimSource,
  completePictures,
  dueSources,
  failPictures,
  postsWithoutMediaState,
  releasePictures,
  settlePictures,
  syncPostMedia,
  type ClaimedPicture,
  type Settled,
} from '../store/media-queue.js';
import type { Database } from '../store/schema.js';
import { mediaKey } from './names.js';
import { ImageCheckRunner } from './image-check.js';
import { ImageCheckPool, type ImageChecker } from './image-check-pool.js';
import {
  DEFAULT_PROCESS_OPTIONS,
  type MediaServices,
  type MediaStorage,
  type ProcessOptions,
  type ProcessResult,
} from './types.js';

export const MEDIA_USER_AGENT = 'Wallery/0.1 (self-hosted social wall; media)';

/** What a picture request asks for: the formats processing takes. */
const ACCEPT = 'image/avif,image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.5';

/** Posts whose media state is unknown (stored before migration 0020) synced per tick. */
const BACKFILL_BATCH = 500;
/** Once the backfill found nothing, how long before it looks again (a path that wrote posts without syncing). */
const BACKFILL_AGAIN_MS = 600_000;
/** Source URLs one tick starts at most (the rest wait in the queue for the next). */
const DUE_PER_TICK = 200;

export interface MediaRuntimeOptions extends WorkerOptions {
  db: Kysely<Database>;
  changes: ChangeBus;
  config: MediaConfig;
  /** the storage and the processor, shared with the server (not closed by stop()) */
  services: MediaServices;
  /** which non-global addresses pictures may come from: feeds' INGEST_ALLOW_PRIVATE_NETWORKS */
  allowPrivateNetworks: PrivateNetworks;
  /** default: an SSRF-guarded fetcher made from `config` (closed by stop()) */
  fetcher?: Fetcher;
  /** how long a worker holds a URL's pictures (ms; default 4 × MEDIA_TIMEOUT_MS, at least 5 min) */
  leaseMs?: number;
  /** rendition widths (default DEFAULT_PROCESS_OPTIONS.widths) */
  widths?: readonly number[];
  /** the image check's classifier (default: an ImageCheckPool of one thread, made on first need, closed by stop()) */
  imageChecker?: ImageChecker;
}

export type MediaOutcome = 'ready' | 'failed' | 'refused' | 'deferred' | 'skipped';

export interface MediaReport {
  url: string;
  status: MediaOutcome;
  /** pictures (of posts) settled by this fetch */
  pictures: number;
  /** the stored picture's hash (ready) */
  hash: string | null;
  /** why it failed, was refused, deferred or skipped */
  message: string | null;
  /** failed: given up (MEDIA_MAX_ATTEMPTS reached, or the quota) rather than to be retried */
  gaveUp: boolean;
}

export interface MediaStats {
  /** fetches of a source URL by outcome */
  fetches: Record<MediaOutcome, number>;
  /** bytes of files this process wrote to the storage */
  bytesWritten: number;
  /** pictures of posts made ready (one fetch may serve many) */
  picturesReady: number;
}

export class MediaRuntime {
  private readonly db: Kysely<Database>;
  private readonly config: MediaConfig;
  private readonly services: MediaServices;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly log: WorkerLogger;
  readonly owner: string;
  private readonly fetcher: Fetcher;
  private readonly ownsFetcher: boolean;
  private readonly jobs: LeasedJobs<MediaReport>;
  private readonly leaseMs: number;
  private readonly processOptions: ProcessOptions;
  /** URLs with a job in flight in this process, and their job's id */
  private readonly inFlight = new Map<string, number>();
  private nextJobId = 1;
  /** the jobs started and not settled yet */
  private readonly running = new Set<Promise<MediaReport>>();
  private nextBackfillAt = 0;
  /** the image check: pictures of walls with picture rules classified, posts waiting for it decided */
  readonly imageCheck: ImageCheckRunner;
  private ownChecker: ImageChecker | null = null;
  readonly stats: MediaStats = {
    fetches: { ready: 0, failed: 0, refused: 0, deferred: 0, skipped: 0 },
    bytesWritten: 0,
    picturesReady: 0,
  };

  constructor(private readonly options: MediaRuntimeOptions) {
    const { config } = options;
    this.db = options.db;
    this.config = config;
    this.services = options.services;
    const { now, random, log, owner } = workerDefaults(options);
    this.now = now;
    this.random = random;
    this.log = log;
    this.owner = owner;
    this.ownsFetcher = options.fetcher === undefined;
    this.fetcher =
      options.fetcher ??
      createFetcher({
        allowPrivateNetworks: options.allowPrivateNetworks,
        maxBytes: config.maxBytes,
        timeoutMs: config.timeoutMs,
        hostConcurrency: config.hostConcurrency,
        userAgent: MEDIA_USER_AGENT,
        resolve: options.resolve,
        now: this.now,
      });
    this.jobs = new LeasedJobs(config.concurrency);
    this.leaseMs = options.leaseMs ?? Math.max(300_000, config.timeoutMs * 4);
    this.processOptions = {
      maxPixels: config.maxPixels,
      maxFrames: config.maxFrames,
      widths: options.widths ?? DEFAULT_PROCESS_OPTIONS.widths,
    };
    this.imageCheck = new ImageCheckRunner({
      db: this.db,
      storage: this.services.storage,
      checker: () => options.imageChecker ?? (this.ownChecker ??= new ImageCheckPool()),
      now: this.now,
      log: this.log,
      announce: (wallId) => this.options.changes.wallChanged(wallId),
      signal: this.jobs.signal,
    });
  }

  /** Fetches due pictures on a periodic tick until stop(). */
  start(): void {
    const started = this.jobs.startTicking(
      this.config.tickMs,
      () => this.tick(),
      (err) => this.log.error({ err }, 'media tick failed'),
    );
    if (started) this.log.info({ owner: this.owner }, 'media fetching started');
  }

  /** Stops the tick, cancels the fetches in flight, waits for the jobs to settle (their leases given back). */
  async stop(): Promise<void> {
    if (!(await this.jobs.stop())) return;
    await this.imageCheck.kick().catch(() => undefined);
    if (this.ownChecker) await this.ownChecker.close();
    if (this.ownsFetcher) await this.fetcher.close();
    if (this.jobs.ticking) this.log.info({}, 'media fetching stopped');
  }

  /** One tick: a batch of the backfill when due, then jobs for the due URLs (not waiting for them). */
  async tick(): Promise<void> {
    if (this.jobs.stopped) return;
    if (this.now() >= this.nextBackfillAt) {
      const synced = await this.backfill(BACKFILL_BATCH);
      if (synced === 0) this.nextBackfillAt = this.now() + BACKFILL_AGAIN_MS;
    }
    for (const url of await dueSources(this.db, this.now(), DUE_PER_TICK)) {
      if (this.inFlight.has(url)) continue;
      void this.schedule(url);
    }
    void this.imageCheck.kick();
  }

  /**
   * The whole backfill, then every URL due now, fetched; waits for all and
   * reports each.
   */
  async runOnce(
    options: { onStart?: (urls: string[]) => void; onReport?: (r: MediaReport) => void } = {},
  ): Promise<MediaReport[]> {
    while ((await this.backfill(BACKFILL_BATCH)) > 0);
    const urls = await dueSources(this.db, this.now(), 100_000);
    options.onStart?.(urls);
    const reports = await Promise.all(
      urls.map(async (url) => {
        const report = await this.schedule(url);
        options.onReport?.(report);
        return report;
      }),
    );
    await this.imageCheck.runOnce();
    return reports;
  }

  /** Syncs up to `limit` posts whose media state is unknown; how many. */
  private async backfill(limit: number): Promise<number> {
    const ids = await postsWithoutMediaState(this.db, limit);
    if (ids.length === 0) return 0;
    const synced = await syncPostMedia(this.db, ids, this.now());
    this.announce(synced.walls);
    this.log.info({ posts: ids.length, pictures: synced.added }, 'media of earlier posts queued');
    return ids.length;
  }

  /** Resolves once every job started so far has settled (a tick does not wait for the jobs it starts). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private schedule(url: string): Promise<MediaReport> {
    const running = this.inFlight.get(url);
    const id = running ?? this.nextJobId++;
    this.inFlight.set(url, id);
    const job = this.jobs.run(
      id,
      async () => {
        try {
          return this.count(await this.fetchSource(url));
        } finally {
          this.inFlight.delete(url);
        }
      },
      (err): MediaReport => {
        this.inFlight.delete(url);
        this.log.error({ err, host: hostOf(url) }, 'picture fetch crashed');
        return this.count(report(url, 'failed', 0, { message: errorMessage(err) }));
      },
    );
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
    return job;
  }

  private count(r: MediaReport): MediaReport {
    this.stats.fetches[r.status]++;
    if (r.status === 'ready') this.stats.picturesReady += r.pictures;
    return r;
  }

  /** One source URL: claim its pictures, fetch, process, store, settle. Never throws for upstream trouble. */
  async fetchSource(url: string): Promise<MediaReport> {
    if (this.jobs.stopped) return report(url, 'skipped', 0, { message: 'media fetching is stopping' });
    const claimedAt = this.now();
    let claimed = await claimSource(this.db, url, this.owner, claimedAt, claimedAt + this.leaseMs);
    if (claimed.length === 0) return report(url, 'skipped', 0, { message: 'not due, or another worker holds it' });

    // accounts whose quota is used up get nothing more, fetched or not
    const quotaLeft = await this.quotaLeft(claimed);
    claimed = await this.overQuota(url, claimed, (p) => quotaLeft.get(p.accountId)! <= 0);
    if (claimed.length === 0) return report(url, 'failed', 0, { message: this.quotaReason(), gaveUp: true });

    // a fetch never outlives the lease: cut it well before another worker may take the URL
    const deadline = AbortSignal.timeout(Math.floor(this.leaseMs * 0.8));
    const signal = AbortSignal.any([this.jobs.signal, deadline]);
    let response: FetchResponse;
    try {
      response = await this.fetcher.fetch({ url, headers: { accept: ACCEPT }, signal });
    } catch (err) {
      return this.fetchFailed(url, claimed, err);
    }
    if (response.status < 200 || response.status > 299) {
      if (response.status === 429) this.pauseHost(url, response.headers['retry-after']);
      return this.failed(url, claimed, `HTTP ${response.status} from ${hostOf(url)}`);
    }

    let result: ProcessResult;
    try {
      result = await this.services.processor.process(response.bytes, this.processOptions);
    } catch (err) {
      if (this.jobs.stopped) return this.release(url, claimed, 'media fetching stopped during processing');
      return this.failed(url, claimed, `processing failed: ${errorMessage(err)}`);
    }
    if (!result.ok) return this.refused(url, claimed, result.reason);

    // the bytes this picture adds to each account (none to one that shows it already)
    const adds = new Map<number, number>();
    for (const accountId of new Set(claimed.map((p) => p.accountId)))
      adds.set(accountId, (await accountHasBlob(this.db, accountId, result.hash)) ? 0 : result.bytes);
    claimed = await this.overQuota(url, claimed, (p) => adds.get(p.accountId)! > quotaLeft.get(p.accountId)!);
    if (claimed.length === 0) return report(url, 'failed', 0, { message: this.quotaReason(), gaveUp: true });

    if (this.jobs.stopped) return this.release(url, claimed, 'media fetching stopped');
    try {
      await this.write(result);
    } catch (err) {
      return this.failed(url, claimed, `the media storage failed: ${errorMessage(err)}`);
    }
    const settled = await completePictures(
      this.db,
      claimed.map((p) => p.id),
      this.owner,
      result,
      this.now(),
    );
    this.announce(settled.touchedWalls);
    if (settled.pictures < claimed.length)
      this.log.warn({ host: hostOf(url), lost: claimed.length - settled.pictures }, 'picture changed while fetched');
    // its posts may wait for the image check: run it now rather than at the next tick
    if (!this.jobs.stopped) void this.imageCheck.kick();
    return report(url, 'ready', settled.pictures, { hash: result.hash });
  }

  private async write(result: ProcessedPicture): Promise<void> {
    this.stats.bytesWritten += await writePicture(this.services.storage, result);
  }

  /** Bytes each claimed picture's account may still store (Infinity without a quota). */
  private async quotaLeft(claimed: ClaimedPicture[]): Promise<Map<number, number>> {
    const left = new Map<number, number>();
    for (const accountId of new Set(claimed.map((p) => p.accountId)))
      left.set(
        accountId,
        this.config.accountQuotaBytes > 0
          ? this.config.accountQuotaBytes - (await accountMediaBytes(this.db, accountId))
          : Infinity,
      );
    return left;
  }

  private quotaReason(): string {
    return `the account’s media quota (${Number((this.config.accountQuotaBytes / 1024 / 1024).toFixed(2))} MB) is used up`;
  }

  /** Gives up the pictures `over` picks (their account's quota); returns the others. */
  private async overQuota(
    url: string,
    claimed: ClaimedPicture[],
    over: (p: ClaimedPicture) => boolean,
  ): Promise<ClaimedPicture[]> {
    if (this.config.accountQuotaBytes <= 0) return claimed;
    const out = claimed.filter(over);
    if (out.length === 0) return claimed;
    const reason = this.quotaReason();
    const settled = await settlePictures(
      this.db,
      out.map((p) => p.id),
      this.owner,
      { state: 'failed', reason },
      this.now(),
    );
    this.announce(settled.touchedWalls);
    this.log.warn(
      { host: hostOf(url), pictures: out.length, accounts: [...new Set(out.map((p) => p.accountId))], reason },
      'picture not stored: quota used up',
    );
    return claimed.filter((p) => !over(p));
  }

  /** A fetch that threw: refused (the guard, too large), deferred (the host asked to wait, or stopping), or failed. */
  private async fetchFailed(url: string, claimed: ClaimedPicture[], err: unknown): Promise<MediaReport> {
    if (err instanceof HostPausedError) {
      await releasePictures(
        this.db,
        claimed.map((p) => p.id),
        this.owner,
        err.until,
      );
      return report(url, 'deferred', 0, { message: err.message });
    }
    if (this.jobs.signal.aborted) return this.release(url, claimed, 'media fetching stopped during the fetch');
    if (err instanceof FetchError && (err.kind === 'refused' || err.kind === 'scheme'))
      return this.refused(url, claimed, err.message);
    if (err instanceof FetchError && err.kind === 'too_large')
      return this.refused(url, claimed, `larger than ${this.config.maxBytes} bytes (MEDIA_MAX_BYTES): ${err.message}`);
    return this.failed(url, claimed, errorMessage(err));
  }

  private async release(url: string, claimed: ClaimedPicture[], message: string): Promise<MediaReport> {
    await releasePictures(
      this.db,
      claimed.map((p) => p.id),
      this.owner,
    );
    return report(url, 'skipped', 0, { message });
  }

  private async refused(url: string, claimed: ClaimedPicture[], reason: string): Promise<MediaReport> {
    const settled = await settlePictures(
      this.db,
      claimed.map((p) => p.id),
      this.owner,
      { state: 'refused', reason },
      this.now(),
    );
    this.announce(settled.touchedWalls);
    this.log.warn({ host: hostOf(url), pictures: settled.pictures, reason }, 'picture refused');
    return report(url, 'refused', settled.pictures, { message: reason });
  }

  /** One more failed attempt for each picture: retried after a backoff, or given up at MEDIA_MAX_ATTEMPTS. */
  private async failed(url: string, claimed: ClaimedPicture[], message: string): Promise<MediaReport> {
    const at = this.now();
    const bounds = { minIntervalS: this.config.retryMinS, maxIntervalS: this.config.retryMaxS };
    let gaveUp = false;
    let nextAttemptAt: number | null = null;
    const settled: Settled = await failPictures(this.db, claimed, this.owner, message, at, (attempts) => {
      if (attempts >= this.config.maxAttempts) {
        gaveUp = true;
        return null;
      }
      const next = at + backoffDelayS(bounds, attempts, this.random) * 1000;
      nextAttemptAt = nextAttemptAt === null ? next : Math.min(nextAttemptAt, next);
      return next;
    });
    this.announce(settled.touchedWalls);
    this.log.warn(
      {
        host: hostOf(url),
        pictures: settled.pictures,
        attempts: Math.max(...claimed.map((p) => p.attempts + 1)),
        error: message,
        nextAttemptAt,
        gaveUp,
      },
      'picture fetch failed',
    );
    return report(url, 'failed', settled.pictures, { message, gaveUp });
  }

  /** A 429: every picture of the host waits (Retry-After seconds, else a minute). */
  private pauseHost(url: string, retryAfter: string | undefined): void {
    const seconds = /^\d+$/.test(retryAfter?.trim() ?? '') ? Number(retryAfter!.trim()) : 60;
    this.fetcher.limiter.pause(new URL(url).host, this.now() + Math.min(seconds, 3600) * 1000);
  }

  /** Readers of these walls are told (caches drop what they rendered of them). */
  private announce(walls: readonly number[]): void {
    for (const wallId of walls) this.options.changes.wallChanged(wallId);
  }
}

/** What processing a picture gave, when it was taken. */
export type ProcessedPicture = Extract<ProcessResult, { ok: true }>;

/**
 * A processed picture's files into the storage under its hash, each unless
 * there already (the same bytes stored before: content-addressed). Returns
 * the bytes written.
 */
export async function writePicture(storage: MediaStorage, result: ProcessedPicture): Promise<number> {
  let written = 0;
  for (const file of result.files) {
    const key = mediaKey(result.hash, file.name);
    if (await storage.has(key)) continue;
    await storage.put(key, file.bytes, file.contentType);
    written += file.bytes.byteLength;
  }
  return written;
}

function report(
  url: string,
  status: MediaOutcome,
  pictures: number,
  extra: { hash?: string; message?: string; gaveUp?: boolean } = {},
): MediaReport {
  return {
    url,
    status,
    pictures,
    hash: extra.hash ?? null,
    message: extra.message ?? null,
    gaveUp: extra.gaveUp ?? false,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function errorMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 500);
}
