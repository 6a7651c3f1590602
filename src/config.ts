// Configuration from the environment, validated once at start.
// A bad value throws a ConfigError whose message names the variable; the CLI
// prints that one line and exits non-zero.

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type StoreUrl =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

export interface Config {
  store: StoreUrl;
  port: number;
  host: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const DEFAULT_DATABASE_PATH = './data/wallery.db';

/** `file:` URL or plain path → SQLite; `postgres://` / `postgresql://` → PostgreSQL. */
export function parseDatabaseUrl(value: string | undefined, name = 'DATABASE_URL'): StoreUrl {
  const raw = (value ?? '').trim();
  if (raw === '') return { kind: 'sqlite', path: DEFAULT_DATABASE_PATH };
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`${name} is not a valid PostgreSQL URL`);
    }
    return { kind: 'postgres', url: raw };
  }
  if (raw.startsWith('file:')) {
    const path = raw.startsWith('file://') ? decodeURIComponent(new URL(raw).pathname) : raw.slice(5);
    if (path === '') throw new ConfigError(`${name} file: URL has no path`);
    return { kind: 'sqlite', path };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError(`${name} must be a file path, a file: URL or a postgres:// URL`);
  }
  return { kind: 'sqlite', path: raw };
}

export function parsePort(value: string | undefined, name = 'PORT', fallback = 3000): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+$/.test(value.trim())) throw new ConfigError(`${name} must be an integer from 0 to 65535`);
  const port = Number(value.trim());
  if (port > 65535) throw new ConfigError(`${name} must be an integer from 0 to 65535`);
  return port;
}

export function parseHost(value: string | undefined, name = 'HOST'): string {
  if (value === undefined || value.trim() === '') return '0.0.0.0';
  const host = value.trim();
  if (/\s|\//.test(host)) throw new ConfigError(`${name} must be a host name or IP address`);
  return host;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const level = (env.LOG_LEVEL ?? 'info').trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    store: parseDatabaseUrl(env.DATABASE_URL),
    port: parsePort(env.PORT),
    host: parseHost(env.HOST),
    logLevel: level as Config['logLevel'],
  };
}
