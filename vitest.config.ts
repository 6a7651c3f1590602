// Two projects run the same API suite: `sqlite` (every test) and `postgres`
// (the store-facing suites again with WALLERY_TEST_STORE=postgres, plus the
// multi-instance and fault tests that need PostgreSQL and Redis). Without
// PostgreSQL or Redis the `postgres` project is skipped with one line — except
// in CI (CI=true), where their absence must fail the run, so it stays in.
import { readdirSync } from 'node:fs';
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

/**
 * The folders whose suites run in one process per worker, their modules
 * loaded once (`isolate: false`): vitest otherwise starts every file in a
 * fresh process, and importing the server's module graph again cost about
 * 1.4 s a file — 465 s of a CI run (the whole suite run shared: 77 s). Their
 * files make and close their own servers, stores and fixture upstreams.
 * test/ingest joined them on 2026-11-29: its 62 file × store runs spent 220 s
 * importing, 55 s shared, and 416 s of CPU in all, 312 s shared (both stores,
 * two workers, on a 2-core machine loaded by other runs); a probe that
 * compared each file's start with the first file's of its process found no
 * handle, listener, patched global or environment change left behind.
 */
const SHARED_DIRS = [
  'http',
  'store',
  'rights',
  'connections',
  'domain',
  'webhooks',
  'quota',
  'jobs',
  'redis',
  'ingest',
];
/**
 * Files of those folders that keep a process of their own: they start the
 * media pipeline or decode pictures, and sharp's loader blocks
 * (src/media/media-worker.ts) hold for the whole process — or, as noted,
 * measure the process itself.
 */
const OWN_PROCESS = [
  'test/domain/image-rules.test.ts',
  'test/http/embed/media.test.ts',
  'test/http/embed/posts.test.ts',
  'test/http/manage/submissions.test.ts',
  'test/http/media/serve.test.ts',
  'test/http/submit/uploads.test.ts',
  'test/http/web/page-csp.test.ts',
  'test/ingest/image-moderation.test.ts',
  // watches this thread's event loop while a 5 MB feed is parsed: the heap
  // and the garbage of the files before it would count against it
  'test/ingest/parse-pool.test.ts',
  'test/store/datafile.test.ts',
];
const isShared = (glob: string) => SHARED_DIRS.some((d) => glob.startsWith(`test/${d}/`));
/** The other folders of test/, each file in a process of its own (browsers, the CLI, other processes, media). */
const OWN_DIRS = readdirSync(new URL('./test/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !SHARED_DIRS.includes(d.name) && d.name !== 'scale')
  .map((d) => `test/${d.name}/**/*.test.ts`);

/** What the postgres project runs (see below), split the same way. */
const POSTGRES = [
  'test/http/**/*.test.ts',
  'test/store/**/*.test.ts',
  'test/ingest/{runtime,cli,moderation,manage-status,text-signals,spam,moderation-automatic,moderation-provider,image-moderation}.test.ts',
  // the connectors that read with an account's connection, each against its fixture upstream
  'test/ingest/networks/**/*.test.ts',
  'test/connections/**/*.test.ts',
  // rights requests and answers against local networks: asked, answers heard, states and holds written
  'test/rights/**/*.test.ts',
  'test/scale/**/*.test.ts',
  'test/cluster/**/*.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/cli/backup.test.ts',
  // the media worker's queue, fetching and commands (test/media's processing suites need no store)
  'test/media/{runtime,pipeline,demo-seed,image-check}.test.ts',
  'test/cli/media.test.ts',
  // a real Varnish in front of a server, purged on every kind of change
  'test/cdn/**/*.test.ts',
];
const POSTGRES_EXCLUDE = ['test/http/{xss,params,conformance,cors,logging,malformed,xml-form}.test.ts'];
const postgresEnv = { WALLERY_TEST_STORE: 'postgres' };
/** A glob of POSTGRES as the files or folders it names (its `{a,b}` list spelt out). */
const alternatives = (glob: string) => {
  const list = /\{([^}]*)\}/.exec(glob);
  return list ? list[1]!.split(',').map((name) => glob.replace(list[0], name)) : [glob];
};
/** Whether a file of a shared folder is one the postgres project runs. */
const underPostgres = (file: string) =>
  POSTGRES.filter(isShared)
    .flatMap(alternatives)
    .some((g) => (g.endsWith('/**/*.test.ts') ? file.startsWith(g.replace('**/*.test.ts', '')) : file === g));

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
        test: { name: 'sqlite', include: ['test/*.test.ts', ...OWN_DIRS, ...OWN_PROCESS] },
      },
      {
        extends: true as const,
        test: {
          name: 'sqlite-shared',
          include: SHARED_DIRS.map((d) => `test/${d}/**/*.test.ts`),
          exclude: OWN_PROCESS,
          isolate: false,
        },
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
                include: [...POSTGRES.filter((g) => !isShared(g)), ...OWN_PROCESS.filter((f) => underPostgres(f))],
                exclude: POSTGRES_EXCLUDE,
                env: postgresEnv,
              },
            },
            {
              extends: true as const,
              test: {
                name: 'postgres-shared',
                include: POSTGRES.filter(isShared),
                exclude: [...POSTGRES_EXCLUDE, ...OWN_PROCESS],
                env: postgresEnv,
                isolate: false,
              },
            },
          ]
        : []),
    ],
  },
});
