// Work a long-running command does after a graceful shutdown has closed
// everything and before the process exits — e.g. the tracing SDK sending
// its last spans. Kept apart so that the shutdown knows nothing of what
// registers here (the SDK is loaded only when tracing is on).
import { setTimeout as sleep } from 'node:timers/promises';

type ExitHook = () => Promise<unknown>;

const hooks: ExitHook[] = [];

export function beforeExit(hook: ExitHook): void {
  hooks.push(hook);
}

/** How long the hooks get: an unreachable trace collector must not hold a stopping process. */
const EXIT_HOOKS_MS = 3000;

/** Runs every hook; one that fails does not stop the others, and none runs past EXIT_HOOKS_MS. */
export async function runExitHooks(): Promise<void> {
  if (hooks.length === 0) return;
  await Promise.race([
    Promise.allSettled(hooks.map((hook) => hook())),
    sleep(EXIT_HOOKS_MS, undefined, { ref: false }),
  ]);
}
