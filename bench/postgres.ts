// PostgreSQL and Redis for the bench: whether they answer, a fresh database
// of the bench's own (created, then dropped), and a Redis key prefix of its
// own (its keys deleted at the end), so the bench never touches other data.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function redisClient() {
  return new Redis(REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
}

/** null when both answer; otherwise what does not, in a few words. */
export async function unreachable(): Promise<string | null> {
  const missing: string[] = [];
  try {
    await admin((c) => c.query('select 1'));
  } catch (err) {
    missing.push(`PostgreSQL (${PG_URL}: ${(err as Error).message})`);
  }
  const redis = redisClient();
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    missing.push(`Redis (${REDIS_URL}: ${(err as Error).message})`);
  } finally {
    redis.disconnect();
  }
  return missing.length ? missing.join(' and ') : null;
}

/** A new empty database and a Redis prefix for one bench run; `drop` removes both. */
export async function benchServices() {
  const id = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const database = `wallery_bench_${id}`;
  await admin((c) => c.query(`create database ${database}`));
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  const prefix = `wallery-bench-${id}`;
  return {
    env: { DATABASE_URL: url.toString(), REDIS_URL, REDIS_KEY_PREFIX: prefix },
    async drop() {
      await admin((c) => c.query(`drop database if exists ${database} with (force)`));
      const redis = redisClient();
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
          if (keys.length) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
