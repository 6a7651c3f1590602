// Shared CLI plumbing: configuration, an open store, id arguments, errors.
import { InvalidArgumentError } from 'commander';
import { loadConfig, parseDatabaseUrl, type Config } from '../config.js';
import { openStore, type Store } from '../store/store.js';
import { connectRedis, waitReady } from '../redis/client.js';

export class CliError extends Error {
  override name = 'CliError';
}

export interface StoreOptions {
  database?: string;
}

export function configFrom(options: StoreOptions): Config {
  const config = loadConfig();
  if (options.database !== undefined) config.store = parseDatabaseUrl(options.database, '--database');
  return config;
}

/** Opens and migrates the store, runs `fn`, always closes. */
export async function withStore<T>(
  options: StoreOptions,
  fn: (store: Store, config: Config) => Promise<T>,
): Promise<T> {
  const config = configFrom(options);
  const store = openStore(config.store, config.database);
  try {
    await store.waitUntilReachable(config.database.connectRetries);
    await store.migrate();
    const result = await fn(store, config);
    await announceToInstances(config);
    return result;
  } finally {
    await store.close();
  }
}

/**
 * A CLI command has no change bus of its own: when instances share Redis,
 * tell them that anything may have changed, so their caches start over.
 * (On SQLite, instances notice another process's commit by themselves.)
 */
async function announceToInstances(config: Config): Promise<void> {
  if (!config.redisUrl) return;
  const redis = connectRedis(config.redisUrl, `${config.redisPrefix}-cli`);
  try {
    await waitReady(redis, 5000);
    await redis.publish(`${config.redisPrefix}:changes`, JSON.stringify({ from: 'cli', change: { kind: 'all' } }));
  } catch {
    process.stderr.write('wallery: warning: could not reach Redis to tell running instances about this change\n');
  } finally {
    redis.disconnect();
  }
}

export function positiveInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < 1) {
      throw new InvalidArgumentError(`${name} must be a positive integer`);
    }
    return Number(value);
  };
}

/** A `<name>` argument holding the id of a `what`, e.g. `idArgument('wall')`: `<wall>`, "wall id". */
export function idArgument(what: string, name: string = what) {
  return [`<${name}>`, `${what} id`, positiveInt(`${what} id`)] as const;
}

export const databaseOption = [
  '--database <url>',
  'database file path or postgres:// URL (default: $DATABASE_URL or ./data/wallery.db)',
] as const;
