// PostgreSQL announces every committed write itself: triggers (migration
// 0006_change_notifications) send a NOTIFY in the writing transaction, so an
// instance, a worker, the CLI or a manual SQL edit all reach every instance,
// whatever their own settings. This is the listening end: one dedicated
// connection (never one from the query pool, which would lose its LISTEN on
// release) per instance, re-established with backoff whenever it drops.
// Messages sent while no connection listened are gone, so every (re)connect
// announces `all`: the caches start over.
import pg from 'pg';
import pRetry from 'p-retry';
import type { Change, ChangeBus } from './changes.js';

/** The channel the triggers notify on; a new value needs a new migration. */
export const CHANGE_CHANNEL = 'wallery_changes';

/** Seen by operators in pg_stat_activity (and by tests that cut the connection). */
export const LISTENER_APPLICATION_NAME = 'wallery-listen';

/**
 * The changes a notification payload names. The triggers send
 * `{"walls": [ids], "accounts": [ids]}`, or `{"all": true}` for a statement
 * that touched very many; anything else is read as `all` (never miss one).
 */
export function parseChangeNotification(payload: string | undefined): Change[] {
  let message: unknown;
  try {
    message = JSON.parse(payload ?? '');
  } catch {
    return [{ kind: 'all' }];
  }
  if (typeof message !== 'object' || message === null) return [{ kind: 'all' }];
  const { walls, accounts, all } = message as { walls?: unknown; accounts?: unknown; all?: unknown };
  const ids = (list: unknown) => (Array.isArray(list) && list.every((n) => Number.isSafeInteger(n)) ? list : null);
  const wallIds = ids(walls ?? []);
  const accountIds = ids(accounts ?? []);
  if (all !== undefined || !wallIds || !accountIds || wallIds.length + accountIds.length === 0)
    return [{ kind: 'all' }];
  return [
    ...wallIds.map((wallId: number) => ({ kind: 'wall' as const, wallId })),
    ...accountIds.map((accountId: number) => ({ kind: 'account' as const, accountId })),
  ];
}

export interface ListenerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ChangeListenerOptions {
  /** PostgreSQL URL of the store */
  url: string;
  connectTimeoutMs: number;
  log?: ListenerLog;
}

export class ChangeListener {
  private client: pg.Client | null = null;
  /** the connection dropped and is not back yet */
  private lost = false;
  private readonly stopping = new AbortController();

  constructor(
    private readonly bus: ChangeBus,
    private readonly options: ChangeListenerOptions,
  ) {}

  /** Resolves once listening; rejects when `retries` attempts to connect all failed. */
  async start(retries: number): Promise<void> {
    await this.connect(retries);
  }

  async close(): Promise<void> {
    this.stopping.abort();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connect(retries: number): Promise<void> {
    return pRetry(() => this.listen(), {
      retries,
      minTimeout: 100,
      maxTimeout: 2000,
      signal: this.stopping.signal,
      unref: true,
      onFailedAttempt: ({ error, attemptNumber }) =>
        this.options.log?.warn({ err: error, attempt: attemptNumber }, 'change notifications: cannot listen yet'),
    });
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      // a peer that vanished without a word is noticed, and the connection made anew
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // an error on an open connection is followed by 'end', handled below
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopping.signal.aborted) {
      await client.end().catch(() => undefined);
      return;
    }
    client.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      for (const change of parseChangeNotification(message.payload)) this.bus.publish(change, 'store');
    });
    client.once('end', () => {
      if (this.client === client) this.client = null;
      if (this.stopping.signal.aborted) return;
      this.lost = true;
      this.options.log?.warn({}, 'change notifications: connection lost; reconnecting');
      this.connect(Infinity).catch(() => undefined); // only an abort (close) ends it
    });
    const reconnected = this.lost;
    this.client = client;
    this.lost = false;
    // whatever was committed while nobody listened is unknown: start over
    this.bus.publish({ kind: 'all' }, 'store');
    if (reconnected) this.options.log?.info({}, 'change notifications: listening again');
  }
}
