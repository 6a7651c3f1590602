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
}

/** Runs the graceful shutdown on the first SIGTERM/SIGINT; a second one exits at once. */
export function handleShutdownSignals(options: ShutdownOptions): void {
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      options.log.error({ signal }, 'shutdown: second signal, exiting now');
      process.exit(128 + constants.signals[signal]);
    }
    shuttingDown = true;
    void shutdown(signal, options);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutdown(signal: NodeJS.Signals, { config, log, drain, close }: ShutdownOptions): Promise<void> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  drain?.unready();
  log.info(
    { signal, delayMs: config.delayMs, timeoutMs: config.timeoutMs },
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
