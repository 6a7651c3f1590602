// Quota counted in Redis, shared by every instance: one atomic script per
// call (never past the limit, expires at the end of the UTC day). Totals are
// copied to the store every few seconds for the usage report, and a counter
// Redis lost (restart) is seeded from that copy, so counts survive both a
// Wallery and a Redis restart within the flush interval.
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { raiseUsage, usageFor } from '../store/usage.js';
import type { QuotaCounter, QuotaDecision } from './quota.js';

const DAY_S = 86_400;

// KEYS[1] counter; ARGV: limit, expire-at (epoch s), seed (or -1 = do not seed).
// Returns { allowed (1/0), used } or { -1, 0 } when the key is missing and no seed was given.
const CONSUME = `
local v = redis.call('GET', KEYS[1])
if not v then
  if tonumber(ARGV[3]) < 0 then return {-1, 0} end
  redis.call('SET', KEYS[1], ARGV[3], 'EXAT', ARGV[2], 'NX')
  v = redis.call('GET', KEYS[1])
end
local used = tonumber(v)
local limit = tonumber(ARGV[1])
if used >= limit then return {0, used} end
used = redis.call('INCR', KEYS[1])
return {1, used}
`;

export interface RedisQuotaOptions {
  flushIntervalMs?: number;
  prefix?: string;
}

export class RedisQuota implements QuotaCounter {
  readonly backend = 'redis' as const;
  private readonly dirty = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly db: Kysely<Database>,
    options: RedisQuotaOptions = {},
  ) {
    this.prefix = options.prefix ?? 'wallery:quota';
    redis.defineCommand('walleryQuota', { numberOfKeys: 1, lua: CONSUME });
    this.timer = setInterval(() => void this.flush().catch(() => undefined), options.flushIntervalMs ?? 5000);
    this.timer.unref();
  }

  private key(accountId: number, day: number) {
    return `${this.prefix}:${accountId}:${day}`;
  }

  async consume(accountId: number, day: number, limit: number): Promise<QuotaDecision> {
    if (limit <= 0) return { allowed: false, used: 0 };
    const key = this.key(accountId, day);
    const expireAt = (day + 1) * DAY_S + 60;
    const run = (seed: number) =>
      (
        this.redis as unknown as { walleryQuota(k: string, l: number, e: number, s: number): Promise<[number, number]> }
      ).walleryQuota(key, limit, expireAt, seed);
    let [state, used] = await run(-1);
    if (state === -1) {
      [state, used] = await run(await usageFor(this.db, accountId, day));
    }
    if (state === 1) this.dirty.add(`${accountId}:${day}`);
    return { allowed: state === 1, used: Number(used) };
  }

  /** Copies touched counters to usage_daily (never lowering a stored total). */
  async flush(): Promise<void> {
    const entries = [...this.dirty];
    this.dirty.clear();
    if (entries.length === 0) return;
    const values = await this.redis.mget(entries.map((e) => `${this.prefix}:${e}`));
    for (const [i, entry] of entries.entries()) {
      const calls = Number(values[i] ?? 0);
      if (!calls) continue;
      const [accountId, day] = entry.split(':').map(Number) as [number, number];
      await raiseUsage(this.db, accountId, day, calls);
    }
  }

  async todayCalls(accountId: number, day: number, stored: number): Promise<number> {
    const live = Number((await this.redis.get(this.key(accountId, day))) ?? 0);
    return Math.max(stored, Number.isFinite(live) ? live : 0);
  }

  async ping() {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }
}
