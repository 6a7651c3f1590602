// The primary of `wallery serve --workers N` (node:cluster): it serves no
// request itself. It forks N workers that share the one listening socket
// (the primary accepts and hands connections round-robin), and:
//
// - restarts a worker that died (at once the first time, then with the
//   jobs' backoff while it keeps dying young: src/jobs/backoff.ts);
// - on SIGHUP, restarts the workers one at a time: the replacement listens
//   before the old one is told to leave (it takes no new connection, answers
//   what it has, exits), so the socket never lacks a worker;
// - on SIGTERM/SIGINT, drains every worker (src/cli/shutdown.ts) and exits 0
//   once they all did; a second signal ends them at once;
// - relays each worker's writes to its siblings (their caches drop at once);
// - without Redis, counts the daily quota (src/quota/quota-broker.ts) and the
//   rate limits (src/cluster/rate-counters.ts) for all of them, so they stay
//   exact; with Redis the workers count there.
import cluster, { type Worker } from 'node:cluster';
import { constants } from 'node:os';
import type { ShutdownConfig } from '../config.js';
import { backoffDelayS } from '../jobs/backoff.js';
import type { WorkerLogger } from '../jobs/log.js';
import { QuotaBroker } from '../quota/quota-broker.js';
import type { StoreQuota } from '../quota/store-quota.js';
import type { WorkerMetrics } from '../metrics/metrics.js';
import { isWorkerMessage, type PrimaryMessage, type WorkerMessage } from './messages.js';
import { RateCounters } from './rate-counters.js';

export interface PrimaryOptions {
  workers: number;
  shutdown: ShutdownConfig;
  log: WorkerLogger;
  /** the machine's quota, counted here (no Redis); null: the workers count in Redis */
  quota: StoreQuota | null;
  /** told once every worker listens, with the port they share */
  onListening(port: number): void;
  /** closes what the primary opened (the store), after the quota was written */
  close(): Promise<void>;
}

/** a worker that lived this long before dying is restarted at once again */
const HEALTHY_AFTER_MS = 30_000;
const RESTART_BACKOFF = { minIntervalS: 1, maxIntervalS: 30 };
/** how long a worker has to hand back quota calls before it is counted as having none */
const RECALL_TIMEOUT_MS = 2_000;
/** how long a scrape waits for a worker's metrics before answering without them */
const METRICS_TIMEOUT_MS = 3_000;

interface Slot {
  worker: Worker | null;
  startedAt: number;
  /** deaths in a row, each young */
  failures: number;
}

export class Primary {
  private readonly slots: Slot[];
  /** workers told to leave (rolling restart, shutdown): their exit is expected */
  private readonly leaving = new Set<Worker>();
  private readonly rates = new RateCounters();
  private readonly broker: QuotaBroker | null;
  private readonly recalls = new Map<number, (calls: number) => void>();
  private nextRecall = 1;
  private readonly metricParts = new Map<number, (metrics: WorkerMetrics) => void>();
  private stopping = false;
  private rolling: Promise<void> | null = null;
  private rollAgain = false;
  private exitCode = 0;

  constructor(private readonly options: PrimaryOptions) {
    this.slots = Array.from({ length: options.workers }, () => ({ worker: null, startedAt: 0, failures: 0 }));
    this.broker = options.quota
      ? new QuotaBroker(options.quota, {
          count: () => this.live().length,
          recall: (accountId, day, except) => this.recall(accountId, day, except),
        })
      : null;
  }

  /** Forks every worker; resolves once all listen. */
  async start(): Promise<void> {
    const ports = await Promise.all(this.slots.map((_, i) => this.fork(i)));
    this.options.onListening(ports[0] ?? 0);
    process.on('SIGHUP', () => this.roll());
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        this.options.log.error({ signal }, 'cluster: second signal, ending the workers now');
        for (const worker of this.all()) worker.process.kill('SIGKILL');
        process.exit(128 + constants.signals[signal]);
      }
      signalled = true;
      void this.stop(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  private all(): Worker[] {
    return Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  }

  /** the workers that take connections (not the ones leaving) */
  private live(): Worker[] {
    return this.slots.flatMap((s) => (s.worker && !this.leaving.has(s.worker) ? [s.worker] : []));
  }

  /** Forks the worker of slot `i`; resolves with its port once it listens, rejects if it dies first. */
  private fork(i: number): Promise<number> {
    const slot = this.slots[i]!;
    const worker = cluster.fork();
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (message: unknown) => {
      if (isWorkerMessage(message)) void this.onMessage(worker, i, message);
    });
    worker.on('exit', (code: number | null, signal: string | null) => this.onExit(worker, i, code, signal));
    return new Promise((resolve, reject) => {
      const onListening = (address: { port: number }) => {
        worker.off('exit', onEarlyExit);
        resolve(address.port);
      };
      const onEarlyExit = (code: number | null) => {
        worker.off('listening', onListening);
        reject(new Error(`cluster: worker ${i + 1} exited (${code}) before listening`));
      };
      worker.once('listening', onListening);
      worker.once('exit', onEarlyExit);
    });
  }

  private send(worker: Worker, message: PrimaryMessage): void {
    if (!worker.isConnected()) return;
    try {
      worker.send(message);
    } catch {
      // the channel closed meanwhile: the worker is leaving
    }
  }

  private async onMessage(from: Worker, i: number, message: WorkerMessage): Promise<void> {
    switch (message.wallery) {
      case 'hello':
        return this.send(from, { wallery: 'role', id: message.id, slot: i + 1, jobs: i === 0 });
      case 'change':
        for (const worker of this.all()) if (worker !== from) this.send(worker, message);
        return;
      case 'quota-take': {
        const { id, accountId, day, limit } = message;
        const grant = this.broker
          ? await this.broker.take(from.id, accountId, day, limit).catch((err: unknown) => {
              this.options.log.error({ err }, 'cluster: the quota could not be counted');
              return { granted: 0, used: limit };
            })
          : { granted: 0, used: limit };
        return this.send(from, { wallery: 'quota-grant', id, ...grant });
      }
      case 'quota-return':
        await this.broker?.giveBack(message.accountId, message.day, message.calls).catch(() => undefined);
        return;
      case 'quota-recalled':
        this.recalls.get(message.id)?.(message.calls);
        return;
      case 'quota-today': {
        const { id, accountId, day, stored } = message;
        const calls = this.broker ? await this.broker.today(accountId, day, stored).catch(() => stored) : stored;
        return this.send(from, { wallery: 'quota-today', id, calls });
      }
      case 'metrics-gather':
        return this.send(from, { wallery: 'metrics-gathered', id: message.id, parts: await this.collectMetrics() });
      case 'metrics-part':
        this.metricParts.get(message.id)?.(message.metrics);
        return;
      case 'rate': {
        const answer = await this.rates.count(message).catch(() => ({ current: 0, ttl: message.timeWindow }));
        return this.send(from, { wallery: 'rate', id: message.id, answer });
      }
    }
  }

  /** Every live worker's metrics (a worker that does not answer in time, or leaves, is left out). */
  private async collectMetrics(): Promise<WorkerMetrics[]> {
    const parts = await Promise.all(
      this.live().map(async (worker) => {
        const id = this.nextRecall++;
        const part = await new Promise<WorkerMetrics | null>((resolve) => {
          const timer = setTimeout(() => resolve(null), METRICS_TIMEOUT_MS);
          this.metricParts.set(id, (metrics) => {
            clearTimeout(timer);
            resolve(metrics);
          });
          worker.once('exit', () => resolve(null));
          this.send(worker, { wallery: 'metrics-collect', id });
        });
        this.metricParts.delete(id);
        return part;
      }),
    );
    return parts.filter((p): p is WorkerMetrics => p !== null);
  }

  /** Asks every worker but `except` for its unanswered calls of the day; they go back to the quota. */
  private async recall(accountId: number, day: number, except: number | null): Promise<void> {
    const targets = this.all().filter((w) => w.id !== except && w.isConnected());
    await Promise.all(
      targets.map(async (worker) => {
        const id = this.nextRecall++;
        const calls = await new Promise<number>((resolve) => {
          const timer = setTimeout(() => resolve(0), RECALL_TIMEOUT_MS);
          this.recalls.set(id, (n) => {
            clearTimeout(timer);
            resolve(n);
          });
          worker.once('exit', () => resolve(0));
          this.send(worker, { wallery: 'quota-recall', id, accountId, day });
        });
        this.recalls.delete(id);
        await this.broker?.giveBack(accountId, day, calls);
      }),
    );
  }

  private onExit(worker: Worker, i: number, code: number | null, signal: string | null): void {
    const slot = this.slots[i]!;
    const expected = this.leaving.delete(worker);
    if (slot.worker === worker) slot.worker = null;
    if (this.stopping) {
      if (code !== 0) this.exitCode = 1;
      if (this.all().length === 0) void this.finish();
      return;
    }
    if (expected) return;
    // died on its own: another in its place
    slot.failures = Date.now() - slot.startedAt > HEALTHY_AFTER_MS ? 1 : slot.failures + 1;
    const delayMs = slot.failures <= 1 ? 0 : backoffDelayS(RESTART_BACKOFF, slot.failures - 1, Math.random) * 1000;
    this.options.log.error(
      { worker: i + 1, code, signal, restartInMs: delayMs },
      'cluster: a worker died; restarting it',
    );
    setTimeout(() => {
      if (this.stopping || slot.worker) return;
      this.fork(i).catch((err: unknown) => this.options.log.error({ err, worker: i + 1 }, 'cluster: restart failed'));
    }, delayMs).unref();
  }

  /** SIGHUP: every worker replaced, one at a time; a SIGHUP meanwhile rolls once more afterwards. */
  roll(): void {
    if (this.stopping) return;
    if (this.rolling) {
      this.rollAgain = true;
      return;
    }
    this.rolling = (async () => {
      do {
        this.rollAgain = false;
        this.options.log.info({ workers: this.slots.length }, 'cluster: rolling restart started');
        for (let i = 0; i < this.slots.length && !this.stopping; i++) await this.replace(i);
        this.options.log.info({}, 'cluster: rolling restart done');
      } while (this.rollAgain && !this.stopping);
    })()
      .catch((err: unknown) => this.options.log.error({ err }, 'cluster: rolling restart stopped'))
      .finally(() => (this.rolling = null));
  }

  private async replace(i: number): Promise<void> {
    const old = this.slots[i]!.worker;
    if (old) this.leaving.add(old);
    try {
      await this.fork(i);
    } catch (err) {
      // the old one stays: better the old code than no worker
      if (old) this.leaving.delete(old);
      this.slots[i]!.worker = old;
      throw err;
    }
    if (old) await this.dismiss(old, { wallery: 'retire' });
  }

  /** Tells a worker to leave and waits for its exit; past the shutdown's delay and timeout (and a margin), kills it. */
  private async dismiss(worker: Worker, message: PrimaryMessage): Promise<void> {
    if (worker.process.exitCode !== null || worker.isDead()) return;
    this.leaving.add(worker);
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.send(worker, message);
    const { delayMs, timeoutMs } = this.options.shutdown;
    const kill = setTimeout(() => worker.process.kill('SIGKILL'), delayMs + timeoutMs + 5_000);
    await exited;
    clearTimeout(kill);
  }

  private async stop(signal: NodeJS.Signals): Promise<void> {
    this.stopping = true;
    this.options.log.info({ signal, workers: this.all().length }, 'cluster: shutdown started, draining every worker');
    const workers = this.all();
    if (workers.length === 0) return this.finish();
    await Promise.all(workers.map((w) => this.dismiss(w, { wallery: 'shutdown' })));
  }

  private finished = false;

  private async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    try {
      await this.broker?.close();
      await this.options.close();
    } catch (err) {
      this.options.log.error({ err }, 'cluster: closing failed');
      this.exitCode = 1;
    }
    this.options.log.info({ code: this.exitCode }, 'cluster: every worker stopped');
    process.exit(this.exitCode);
  }
}
