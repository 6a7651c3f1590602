// What SIGTERM and SIGINT do to a long-running process (`serve`, `worker`):
//
// 1. /readyz answers 503 at once (a balancer stops sending here); with
//    SHUTDOWN_DELAY_MS, requests are still served that long, for balancers
//    that learn of it late (Kubernetes endpoints).
// 2. New requests are refused with a 503 in the API's envelope, the server
//    stops accepting connections, SSE streams are told to reconnect and end,
//    in-flight requests finish. Meanwhile ingestion and webhook delivery
//    stop and give their leases back.
// 3. Analytics and quota counts are written, the store and Redis closed;
//    exit 0. Step 2 on is bounded by SHUTDOWN_TIMEOUT_MS: past it, exit 1.
//
// A second signal while this runs exits at once (128 + its number, as a
// shell reports a process killed by it): an operator's second Ctrl-C means now.
//
// A worker of `serve --workers N` is also told to leave by its primary
// (src/cluster/): the same sequence, started once however many ways it is
// asked (a terminal's Ctrl-C reaches the primary and the workers alike). In a
// rolling restart it first stops accepting connections — the siblings on the
// shared socket take them — and serves what it has.
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ShutdownConfig } from '../config.js';
import type { CloseStepListener } from '../runtime.js';
import { runExitHooks } from './exit-hooks.js';

interface ShutdownLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  config: ShutdownConfig;
  log: ShutdownLog;
  /** the HTTP server's drain state (`app.drain`, src/http/drain.ts, for `serve`); none for the worker */
  drain?: { unready(): void; close(): void };
  /** closes everything (Runtime.close) */
  close(onStep: CloseStepListener): Promise<void>;
  /** takes no new connection, leaving the open ones be (a cluster worker: src/cluster/worker.ts) */
  stopAccepting?: () => void;
}

export interface Shutdown {
  /**
   * Starts the sequence unless it runs already; `retire` first stops
   * accepting connections (a rolling restart of a cluster worker).
   */
  begin(reason: NodeJS.Signals, how?: { retire?: boolean }): void;
}

/** Runs the graceful shutdown on the first SIGTERM/SIGINT; a second one exits at once. */
export function handleShutdownSignals(options: ShutdownOptions): Shutdown {
  let shuttingDown = false;
  const begin: Shutdown['begin'] = (reason, how = {}) => {
    if (shuttingDown) return;
    shuttingDown = true;
    void shutdown(reason, options, how.retire === true);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      options.log.error({ signal }, 'shutdown: second signal, exiting now');
      process.exit(128 + constants.signals[signal]);
    }
    begin(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return { begin };
}

async function shutdown(
  signal: NodeJS.Signals,
  { config, log, drain, close, stopAccepting }: ShutdownOptions,
  retire: boolean,
): Promise<void> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  drain?.unready();
  if (retire && stopAccepting) stopAccepting();
  log.info(
    { signal, retire, delayMs: config.delayMs, timeoutMs: config.timeoutMs },
    drain ? 'shutdown: started, /readyz answers 503' : 'shutdown: started',
  );
  if (drain && config.delayMs > 0) {
    await sleep(config.delayMs);
    log.info({ ms: since() }, 'shutdown: SHUTDOWN_DELAY_MS over');
  }
  // nothing stuck may keep a stopping process alive
  setTimeout(() => {
    log.error({ timeoutMs: config.timeoutMs }, 'shutdown: SHUTDOWN_TIMEOUT_MS passed with work unfinished; exiting');
    process.exit(1);
  }, config.timeoutMs).unref();
  if (drain) {
    drain.close();
    log.info({ ms: since() }, 'shutdown: refusing new requests (503), closing the server');
  }
  try {
    await close((step, ms) => log.info({ ms }, `shutdown: ${step}`));
  } catch (err) {
    log.error({ err }, 'shutdown: closing failed');
    process.exit(1);
  }
  await runExitHooks();
  log.info({ ms: since() }, 'shutdown: done');
  process.exit(0);
}
