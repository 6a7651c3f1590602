// Shared CLI plumbing: configuration, an open store, id arguments, errors.
import { InvalidArgumentError } from 'commander';
import { defaultSecretKeyFile, loadConfig, parseDatabaseUrl, type Config } from '../config.js';
import { openStore, type Store } from '../store/store.js';
import { fixedSelfUrl, selfBase } from '../domain/self-url.js';

export class CliError extends Error {
  override name = 'CliError';
}

export interface StoreOptions {
  database?: string;
}

export function configFrom(options: StoreOptions): Config {
  const config = loadConfig();
  if (options.database !== undefined) {
    config.store = parseDatabaseUrl(options.database, '--database');
    // the key file of connections goes with the database (unless SECRET_KEY_FILE names one)
    if (!process.env.SECRET_KEY_FILE?.trim()) config.connections.secretKeyFile = defaultSecretKeyFile(config.store);
  }
  return config;
}

/**
 * Opens and migrates the store, runs `fn`, always closes. Running instances
 * hear of the command's writes from the store itself (PostgreSQL's triggers
 * notify them; on SQLite they notice the commit), whatever this process's
 * environment.
 */
export function withStore<T>(options: StoreOptions, fn: (store: Store, config: Config) => Promise<T>): Promise<T> {
  return withUnmigratedStore(options, async (store, config) => {
    await store.migrate();
    return fn(store, config);
  });
}

/**
 * Opens the store as it is (no migration: `migrate --dry-run`, a backup
 * reading the schema it finds), runs `fn`, always closes.
 */
export async function withUnmigratedStore<T>(
  options: StoreOptions,
  fn: (store: Store, config: Config) => Promise<T>,
): Promise<T> {
  const config = configFrom(options);
  const store = openStore(config.store, config.database);
  try {
    await store.waitUntilReachable(config.database.connectRetries);
    return await fn(store, config);
  } finally {
    await store.close();
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

/**
 * The server and ingestion (Fastify, the API routes, the connectors), loaded
 * only by the commands that run them: every other command starts in about
 * half the time without them.
 */
export const loadRuntime = () => import('../runtime.js');

/** The base of Wallery's own URLs a command prints (copies of pictures): PUBLIC_URL, else the configured listen address. */
export const cliMediaBase = (config: Pick<Config, 'publicUrl' | 'port'>): string =>
  selfBase(fixedSelfUrl(config.publicUrl, config.port));
