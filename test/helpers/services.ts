// PostgreSQL and Redis for tests. The API suite runs once per store: the
// vitest project `postgres` sets WALLERY_TEST_STORE=postgres, and every test
// server then gets a fresh PostgreSQL database instead of a SQLite file.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_DB_PREFIX = 'wallery_t_';

export type TestStoreKind = 'sqlite' | 'postgres';

export function testStoreKind(): TestStoreKind {
  return process.env.WALLERY_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
}

function urlFor(database: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database; returns its URL. */
export async function createTestDatabase(): Promise<{ name: string; url: string }> {
  const name = `${TEST_DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  return { name, url: urlFor(name) };
}

export function testDatabaseUrl(name: string): string {
  return urlFor(name);
}

export async function dropTestDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`drop database if exists ${name} with (force)`));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Removes databases left by earlier runs whose test process is gone. */
export async function dropStaleTestDatabases(): Promise<void> {
  await admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      `select datname from pg_database where datname like '${TEST_DB_PREFIX}%'`,
    );
    for (const r of rows) {
      const pid = Number(r.datname.slice(TEST_DB_PREFIX.length).split('_')[0]);
      if (!alive(pid)) await c.query(`drop database if exists ${r.datname} with (force)`);
    }
  });
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await admin((c) => c.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

export async function redisReachable(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const r = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}
