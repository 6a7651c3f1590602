// Ingestion settings from the environment, checked at start like the rest of
// the configuration: a bad value throws a ConfigError naming the variable.
import ipaddr from 'ipaddr.js';
import { ConfigError } from '../config.js';

/** `true` allows every address; a list allows only addresses in those CIDR ranges. */
export type PrivateNetworks = boolean | readonly string[];

export interface IngestConfig {
  /** INGEST: poll feeds inside `serve` (the worker always does) */
  enabled: boolean;
  /** INGEST_MIN_INTERVAL / INGEST_MAX_INTERVAL: bounds of the adaptive per-feed interval, seconds */
  minIntervalS: number;
  maxIntervalS: number;
  /** INGEST_ALLOW_PRIVATE_NETWORKS: lift the SSRF guard for private/loopback/… addresses */
  allowPrivateNetworks: PrivateNetworks;
  /** INGEST_MAX_BYTES: largest upstream response body (after decompression) */
  maxBytes: number;
  /** INGEST_TIMEOUT_MS: time cap of one upstream request (all redirect hops) */
  timeoutMs: number;
  /** INGEST_HOST_CONCURRENCY: requests in flight to one host at a time */
  hostConcurrency: number;
  /** INGEST_MAX_ITEMS: most posts one poll of a feed keeps (the newest) */
  maxItems: number;
  /** INGEST_PARSE_THREADS: worker threads that parse upstream responses off the serving thread */
  parseThreads: number;
  /** BLUESKY_IDENTIFIER / BLUESKY_APP_PASSWORD: for Bluesky hashtag search */
  bluesky: { identifier: string; appPassword: string } | null;
}

export const INGEST_DEFAULTS = {
  minIntervalS: 300,
  maxIntervalS: 21_600,
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 15_000,
  hostConcurrency: 2,
  maxItems: 500,
  parseThreads: 1,
} as const;

function intSetting(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  const raw = (value ?? '').trim();
  if (raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

const TRUE = ['1', 'true', 'on', 'yes'];
const FALSE = ['0', 'false', 'off', 'no'];

function boolSetting(value: string | undefined, name: string, fallback: boolean): boolean {
  const raw = (value ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (TRUE.includes(raw)) return true;
  if (FALSE.includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off`);
}

/** `true`/`1`/`on` → all; `false`/`0`/`off`/empty → none; otherwise a comma-separated list of CIDR ranges. */
export function parsePrivateNetworks(
  value: string | undefined,
  name = 'INGEST_ALLOW_PRIVATE_NETWORKS',
): PrivateNetworks {
  const raw = (value ?? '').trim();
  if (raw === '' || FALSE.includes(raw.toLowerCase())) return false;
  if (TRUE.includes(raw.toLowerCase())) return true;
  const ranges = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const range of ranges) {
    try {
      ipaddr.parseCIDR(range);
    } catch {
      throw new ConfigError(`${name} must be on, off or a comma-separated list of CIDR ranges (bad: ${range})`);
    }
  }
  return ranges;
}

export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env): IngestConfig {
  const minIntervalS = intSetting(
    env.INGEST_MIN_INTERVAL,
    'INGEST_MIN_INTERVAL',
    INGEST_DEFAULTS.minIntervalS,
    30,
    86_400,
  );
  const maxIntervalS = intSetting(
    env.INGEST_MAX_INTERVAL,
    'INGEST_MAX_INTERVAL',
    INGEST_DEFAULTS.maxIntervalS,
    30,
    7 * 86_400,
  );
  if (maxIntervalS < minIntervalS) {
    throw new ConfigError(`INGEST_MAX_INTERVAL must not be below INGEST_MIN_INTERVAL (${minIntervalS})`);
  }
  const identifier = (env.BLUESKY_IDENTIFIER ?? '').trim();
  const appPassword = (env.BLUESKY_APP_PASSWORD ?? '').trim();
  if (identifier !== '' && appPassword === '')
    throw new ConfigError('BLUESKY_APP_PASSWORD must be set when BLUESKY_IDENTIFIER is');
  if (appPassword !== '' && identifier === '')
    throw new ConfigError('BLUESKY_IDENTIFIER must be set when BLUESKY_APP_PASSWORD is');
  return {
    enabled: boolSetting(env.INGEST, 'INGEST', true),
    minIntervalS,
    maxIntervalS,
    allowPrivateNetworks: parsePrivateNetworks(env.INGEST_ALLOW_PRIVATE_NETWORKS),
    maxBytes: intSetting(env.INGEST_MAX_BYTES, 'INGEST_MAX_BYTES', INGEST_DEFAULTS.maxBytes, 1024, 1024 * 1024 * 1024),
    timeoutMs: intSetting(env.INGEST_TIMEOUT_MS, 'INGEST_TIMEOUT_MS', INGEST_DEFAULTS.timeoutMs, 100, 600_000),
    hostConcurrency: intSetting(
      env.INGEST_HOST_CONCURRENCY,
      'INGEST_HOST_CONCURRENCY',
      INGEST_DEFAULTS.hostConcurrency,
      1,
      64,
    ),
    maxItems: intSetting(env.INGEST_MAX_ITEMS, 'INGEST_MAX_ITEMS', INGEST_DEFAULTS.maxItems, 1, 10_000),
    parseThreads: intSetting(env.INGEST_PARSE_THREADS, 'INGEST_PARSE_THREADS', INGEST_DEFAULTS.parseThreads, 1, 32),
    bluesky: identifier === '' ? null : { identifier, appPassword },
  };
}
