// compose.yaml: Wallery (API instances and a worker) on PostgreSQL and
// Redis. No Docker engine runs here, so what can be checked is checked:
// every environment variable of the Wallery services is one of the
// configuration reference's (docs/reference/configuration.md, generated from
// the code) and Wallery's own configuration accepts their values;
// the database and Redis URLs name the services and the credentials the
// PostgreSQL service is given; the PostgreSQL and Redis services use only
// their images' documented variables, keep their data in volumes, and are
// healthy before Wallery starts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { ROOT } from '../helpers/cli.js';

interface Service {
  image?: string;
  build?: string;
  init?: boolean;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
}

// `<<:` merge keys, as Docker Compose reads them
const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const { services } = compose;

/** The variables the configuration reference's tables list: the names in backticks of each row's first cell. */
const configured = (() => {
  const reference = readFileSync(join(ROOT, 'docs', 'reference', 'configuration.md'), 'utf8');
  const firstCells = [...reference.matchAll(/^\|([^|\n]*)\|/gm)].map((m) => m[1]!);
  return new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!)));
})();

/** Compose's `${NAME:-default}` with nothing set: the default (`docker compose config` without a .env). */
const withDefaults = (value: string) => value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');

/** What the official images document (hub.docker.com/_/postgres, /_/redis). */
const POSTGRES_IMAGE_VARIABLES = [
  'POSTGRES_PASSWORD',
  'POSTGRES_USER',
  'POSTGRES_DB',
  'POSTGRES_INITDB_ARGS',
  'POSTGRES_INITDB_WALDIR',
  'POSTGRES_HOST_AUTH_METHOD',
  'PGDATA',
];

describe('compose.yaml', () => {
  it('runs Wallery API instances, a worker, PostgreSQL and Redis', () => {
    expect(Object.keys(services).sort()).toEqual(['postgres', 'redis', 'wallery', 'worker']);
    expect(services.postgres!.image).toMatch(/^postgres:1[5-7]$/);
    expect(services.redis!.image).toMatch(/^redis:[6-8]$/);
    for (const name of ['wallery', 'worker']) {
      const s = services[name]!;
      expect(s.build, name).toBe('.');
      // a PID 1 that reaps and forwards signals (docs/operations/running.md: Running in a container)
      expect(s.init, name).toBe(true);
      expect(s.depends_on, name).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    // the API instances leave feeds and webhooks to the worker
    expect(services.wallery!.environment).toMatchObject({ INGEST: 'off', WEBHOOKS: 'off' });
    expect(services.wallery!.command).toBeUndefined();
    expect(services.worker!.command).toEqual(['node', 'dist/cli/main.js', 'worker']);
    // the worker serves no API: its health check asks its /metrics port instead of the image's /healthz
    const port = services.worker!.environment!.METRICS_PORT;
    expect(port).toMatch(/^\d+$/);
    expect(services.worker!.healthcheck!.test!.join(' ')).toContain(`fetch('http://127.0.0.1:${port}/metrics')`);
  });

  it('reads the variables of the configuration reference', () => {
    for (const v of ['DATABASE_URL', 'REDIS_URL', 'INGEST', 'WEBHOOKS', 'METRICS_PORT', 'WALLERY_DEBUG'])
      expect(configured.has(v), v).toBe(true);
  });

  it.each(['wallery', 'worker'])('gives %s only variables of the configuration table, with valid values', (name) => {
    const env = services[name]!.environment!;
    const unknown = Object.keys(env).filter((v) => !configured.has(v));
    expect(unknown, `not in the configuration table of docs/reference/configuration.md`).toEqual([]);
    const config = loadConfig(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, withDefaults(String(v))])));
    expect(config.store.kind).toBe('postgres');
    expect(config.redisUrl).toBe('redis://redis:6379');
  });

  it('points Wallery at the PostgreSQL service with the credentials it is given', () => {
    const pg = services.postgres!.environment!;
    expect(Object.keys(pg).filter((v) => !POSTGRES_IMAGE_VARIABLES.includes(v))).toEqual([]);
    const url = new URL(withDefaults(services.wallery!.environment!.DATABASE_URL!));
    expect([url.hostname, url.port, decodeURIComponent(url.username), decodeURIComponent(url.password)]).toEqual([
      'postgres',
      '5432',
      pg.POSTGRES_USER,
      withDefaults(pg.POSTGRES_PASSWORD!),
    ]);
    expect(url.pathname).toBe(`/${pg.POSTGRES_DB}`);
    expect(services.worker!.environment!.DATABASE_URL).toBe(services.wallery!.environment!.DATABASE_URL);
  });

  it('keeps PostgreSQL and Redis data in volumes and checks their health', () => {
    expect(services.postgres!.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(services.redis!.volumes).toEqual(['redis-data:/data']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['postgres-data', 'redis-data']);
    expect(services.postgres!.healthcheck!.test!.join(' ')).toMatch(/pg_isready -U wallery -d wallery/);
    expect(services.redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(services.redis!.environment).toBeUndefined();
  });
});
