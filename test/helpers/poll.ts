// Waiting for a condition instead of sleeping: `check` runs until it holds or
// the deadline passes. A check that started before the deadline counts even
// when a loaded machine makes it finish after.
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves with the milliseconds it took; rejects with `what` (and the last value seen) past `withinMs`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T>,
  holds: (value: T) => boolean,
  withinMs: number,
  intervalMs = 50,
): Promise<number> {
  const started = performance.now();
  let last: T | undefined;
  for (;;) {
    const attemptAt = performance.now();
    last = await probe();
    if (holds(last)) return performance.now() - started;
    if (attemptAt - started > withinMs) {
      throw new Error(`${what}: not within ${withinMs} ms (last seen: ${JSON.stringify(last)})`);
    }
    await sleep(intervalMs);
  }
}
