// Two projects run the same API suite: `sqlite` (every test) and `postgres`
// (the store-facing suites again with WALLERY_TEST_STORE=postgres, plus the
// multi-instance and fault tests that need PostgreSQL and Redis). Without
// PostgreSQL or Redis the `postgres` project is skipped with one line — except
// in CI (CI=true), where their absence must fail the run, so it stays in.
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/sequencer.js';
import { postgresReachable, redisReachable, TEST_PG_URL, TEST_REDIS_URL } from './test/helpers/services.js';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const [pgUp, redisUp] = await Promise.all([postgresReachable(), redisReachable()]);
const runPostgres = ci || (pgUp && redisUp);
if (!runPostgres) {
  const missing = [!pgUp && `PostgreSQL (${TEST_PG_URL})`, !redisUp && `Redis (${TEST_REDIS_URL})`]
    .filter(Boolean)
    .join(' and ');
  console.warn(`[wallery] skipping the postgres test project: ${missing} not reachable`);
}

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // every answer an API suite receives is held against the OpenAPI document
    setupFiles: ['test/helpers/conformance-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // each file gets its own databases; two workers match the 2-core machines
    pool: 'forks' as const,
    maxWorkers: 2,
    // the longest files first, so none of them ends the run alone (test/sequencer.ts)
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        extends: true as const,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/scale/**'] },
      },
      ...(runPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                // What reaches the store: reads, writes, quota, the management
                // and embed APIs, the data file, ingestion's write path, the
                // media worker, the multi-instance suites. Suites that never touch the store
                // differently (validation before it, sanitizing, logging,
                // CORS, the connectors' parsing of upstream payloads) run once,
                // in the sqlite project.
                include: [
                  'test/http/**/*.test.ts',
                  'test/store/**/*.test.ts',
                  'test/ingest/{runtime,cli,moderation,manage-status,text-signals,spam,moderation-automatic,moderation-provider,image-moderation}.test.ts',
                  // the connectors that read with an account's connection, each against its fixture upstream
                  'test/ingest/networks/**/*.test.ts',
                  'test/connections/**/*.test.ts',
                  // rights requests: asked, answers heard, states and holds written
                  'test/rights/**/*.test.ts',
                  'test/scale/**/*.test.ts',
                  'test/cluster/**/*.test.ts',
                  'test/webhooks/**/*.test.ts',
                  // rights requests and answers against local networks, on both stores
                  'test/rights/**/*.test.ts',
                  'test/cli/backup.test.ts',
                  // the media worker's queue, fetching and commands (test/media's processing suites need no store)
                  'test/media/{runtime,pipeline,demo-seed,image-check}.test.ts',
                  'test/cli/media.test.ts',
                  // a real Varnish in front of a server, purged on every kind of change
                  'test/cdn/**/*.test.ts',
                ],
                exclude: ['test/http/{xss,params,conformance,cors,logging,malformed,xml-form}.test.ts'],
                env: { WALLERY_TEST_STORE: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
