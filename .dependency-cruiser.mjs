// @ts-check
// The layers of Wallery and what each may import, checked by `npm run lint`
// (dependency-cruiser) and by test/architecture.test.ts. Paths are relative to
// the repository root; rules on folders that do not exist yet are on purpose:
// they hold from the first file put there. Known violations of today are in
// .dependency-cruiser-known-violations.json (to be shrunk to empty).

/** Node built-ins that do I/O or reach outside the process. */
const NODE_IO = [
  'fs',
  'net',
  'http',
  'https',
  'http2',
  'tls',
  'dgram',
  'dns',
  'child_process',
  'cluster',
  'worker_threads',
  'readline',
  'repl',
  'inspector',
];
/** npm packages that talk to a database, a socket or a worker pool. */
const NPM_IO = [
  'pg',
  'better-sqlite3',
  'ioredis',
  'undici',
  'kysely',
  'fastify',
  '@fastify/[^/]+',
  'find-my-way',
  'piscina',
];

const nodeIo = `^(?:node:)?(?:${NODE_IO.join('|')})(?:/|$)`;
// unanchored so it also matches when the cruise starts in a sub-folder (the test fixtures)
const npmIo = `(?:^|/)node_modules/(?:${NPM_IO.join('|')})/`;
/** A layer by name: its folder `src/<name>/`, or its single module `src/<name>.ts` (runtime, config). */
const layer = (/** @type {string[]} */ names) => `^src/(?:${names.join('|')})(?:/|[.]ts$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: modules that load each other half-initialised. Break it with a lower module.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file: a typo, or a resolution the rules below would silently miss.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'src/domain holds pure rules: nothing from the layers with I/O (http, store, ingest, cli, manage, quota, ' +
        'redis, analytics, webhooks, net, jobs, moderation, presenters, runtime, config), no Node I/O module, no package that ' +
        'talks to a database or the network.',
      from: { path: '^src/domain/' },
      to: {
        path: [
          layer([
            'http',
            'store',
            'ingest',
            'cli',
            'manage',
            'quota',
            'redis',
            'analytics',
            'webhooks',
            'net',
            'jobs',
            'moderation',
            'presenters',
            'runtime',
            'config',
          ]),
          nodeIo,
          npmIo,
        ],
      },
    },
    {
      name: 'schemas-only-typebox-and-domain',
      severity: 'error',
      comment: 'src/schemas (the one source of every shape) imports only typebox and src/domain.',
      from: { path: '^src/schemas/' },
      to: { pathNot: ['^src/(?:schemas|domain)/', '(?:^|/)node_modules/typebox/'] },
    },
    {
      name: 'store-not-to-http-cli-ingest-services',
      severity: 'error',
      comment:
        'src/store (queries, migrations) imports nothing from http, cli, ingest, analytics, moderation, the presenters or the ' +
        'service layer.',
      from: { path: '^src/store/' },
      to: { path: layer(['http', 'cli', 'ingest', 'analytics', 'webhooks', 'manage', 'presenters', 'moderation']) },
    },
    {
      name: 'infrastructure-below-features',
      severity: 'error',
      comment:
        'src/net (the guarded outbound fetch) and src/jobs (leased jobs, the tick, retry backoff, the worker ' +
        'logger) are infrastructure under the features: from src/ they take only src/domain, config and each other.',
      from: { path: '^src/(?:net|jobs)/' },
      to: { path: '^src/', pathNot: ['^src/(?:net|jobs|domain)/', '^src/config[.]ts$'] },
    },
    {
      name: 'presenters-below-services',
      severity: 'error',
      comment:
        'src/presenters (store rows → wire records, shared by the APIs and the webhook payloads) sit under every ' +
        'service that renders through them: nothing from http, cli, manage, ingest, webhooks, analytics or runtime.',
      from: { path: '^src/presenters/' },
      to: { path: layer(['http', 'cli', 'manage', 'ingest', 'webhooks', 'analytics', 'runtime']) },
    },
    {
      name: 'services-not-to-http-cli',
      severity: 'error',
      comment: 'The service layer (src/manage) imports nothing from http or cli.',
      from: { path: '^src/manage/' },
      to: { path: layer(['http', 'cli']) },
    },
    {
      name: 'ingest-not-to-http-cli',
      severity: 'error',
      comment: 'src/ingest imports nothing from http or cli.',
      from: { path: '^src/ingest/' },
      to: { path: layer(['http', 'cli']) },
    },
    {
      name: 'webhooks-not-to-http-cli-ingest-manage',
      comment:
        'The webhook worker is a service of its own: it renders through src/presenters and fetches through ' +
        'src/net, never through the server, the CLI, ingestion or the service layer.',
      severity: 'error',
      from: { path: '^src/webhooks/' },
      to: { path: layer(['http', 'cli', 'ingest', 'manage']) },
    },
    {
      name: 'http-not-to-cli',
      severity: 'error',
      comment: 'src/http imports nothing from cli.',
      from: { path: '^src/http/' },
      to: { path: layer(['cli']) },
    },
    {
      name: 'cli-to-http-only-to-serve',
      severity: 'error',
      comment:
        'The CLI runs the operations of src/manage itself; from src/http it takes only the server and its logger (serve).',
      from: { path: '^src/cli/' },
      to: { path: '^src/http/', pathNot: '^src/http/(?:server|logger)[.]ts$' },
    },
    {
      name: 'web-only-schemas-and-domain',
      severity: 'error',
      comment: 'Browser code (web/) takes from src/ only src/schemas and src/domain, and only their types.',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: '^src/(?:schemas|domain)/' },
    },
    {
      name: 'web-type-only-from-src',
      severity: 'error',
      comment:
        'Browser code (web/) imports src/schemas and src/domain with `import type` only — but for the pure, ' +
        'import-free rules the console must run exactly as the server does (src/domain/rights.ts: the request ' +
        'text a template makes, shown as a preview before it is sent).',
      from: { path: '^web/' },
      to: {
        path: '^src/(?:schemas|domain)/',
        pathNot: '^src/domain/rights[.]ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    moduleSystems: ['es6'],
    // see `import type` too: a type-only import still ties one layer to another
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
  },
};
