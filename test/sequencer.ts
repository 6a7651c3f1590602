// The order test files start in. Two workers share the run: a long file that
// starts last makes the whole run wait for it (the 1,000,000-post import alone
// takes two minutes in CI). Vitest orders by the durations of earlier runs,
// which a fresh clone does not have, and then by file size; so the files known
// to take longest (measured in CI) start first, heaviest first, and the rest
// follow in vitest's own order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Paths from the repository root, heaviest first (measured in a CI run of
 * 2026-11-28, 2 cores: 144 s down to 25 s); `project:` limits an entry to one
 * project. The two imports of large files are kept apart: each runs two
 * threads of its own.
 */
const SLOWEST = [
  'sqlite:test/store/datafile-memory.test.ts',
  'test/web/wall-serve.test.ts',
  // every layout × theme × width in Chromium (36 pages): 100 s on a loaded machine
  'test/web/layouts.test.ts',
  // builds and starts the container's install in a fresh directory
  'test/ops/container.test.ts',
  'postgres:test/store/datafile-memory.test.ts',
  'postgres:test/cli/backup.test.ts',
  'test/web/console.test.ts',
  'test/cli/manage.test.ts',
  'test/http/staleness.test.ts',
  'postgres:test/ingest/runtime.test.ts',
  'test/web/console-catalog.test.ts',
  // halved since the CLI is a bundle (it starts in a third of the CPU time)
  'test/cli/cli.test.ts',
  'postgres:test/http/quota.test.ts',
  'postgres:test/http/writes.test.ts',
  'sqlite:test/cli/backup.test.ts',
  'test/ingest/mastodon.test.ts',
  'postgres:test/store/migrations.test.ts',
  'test/scale/rolling-restart.test.ts',
  'test/cli/concurrent-writes.test.ts',
  'test/scale/multi-instance.test.ts',
  'test/scale/faults.test.ts',
  'test/scale/workers.test.ts',
  'test/web/console-webhooks.test.ts',
  'test/cli/wall-keys.test.ts',
  'test/web/live.test.ts',
  'test/cli/errors.test.ts',
  'test/ingest/parse-pool-memory.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((entry) => {
        // a store's shared-process project (vitest.config.ts) is that store's
        const store = f.project.name.replace(/-shared$/, '');
        const [project, path] = entry.includes(':') ? entry.split(':') : [store, entry];
        return project === store && f.moduleId.endsWith(`/${path}`);
      });
      return i === -1 ? SLOWEST.length : i;
    };
    const sorted = await super.sort(files);
    // stable: equal ranks keep vitest's order
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
