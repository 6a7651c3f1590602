// Suites that need ../shared/fixtures/sample-data.json skip, with the reason
// in their name, when it is absent.
import { describe } from 'vitest';
import type { SampleData } from './expect.js';
import { hasSampleData, loadSampleData, SKIP_NO_SAMPLE } from './server.js';

/** `describe`, skipped with SKIP_NO_SAMPLE in its name when the sample data is absent. */
export function describeSample(name: string, fn: () => void): void {
  describe.skipIf(!hasSampleData)(hasSampleData ? name : `${name} (${SKIP_NO_SAMPLE})`, fn);
}

/** The sample data, typed; only call it inside a describeSample suite. */
export function sample(): SampleData {
  return loadSampleData() as SampleData;
}

/** A fixed clock for deterministic tests: Thu 15 Jan 2026, 12:00:00 UTC. */
export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
