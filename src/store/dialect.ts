// Everything that differs between SQLite and PostgreSQL lives here; the rest
// of the store is written once against Kysely.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type ColumnDefinitionBuilder,
  type DatabaseConnection,
  type LogEvent,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import pRetry, { type Options as PRetryOptions } from 'p-retry';
import { DEFAULT_DATABASE_OPTIONS, type DatabaseOptions, type StoreUrl } from '../config.js';
import type { Database } from './schema.js';
import { WalSync } from './wal-sync.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DialectHandle {
  name: DialectName;
  db: Kysely<Database>;
  /** SQLite only: the raw connection, for pragmas and checkpoints */
  sqlite?: SqliteDatabase.Database;
  /** PostgreSQL only: the connection pool (its counts are metrics) */
  pool?: pg.Pool;
}

/** Told of every statement the store ran (Kysely's `log`): what kind of tree it was, how long it took. */
export type QueryObserver = (queryNodeKind: string, durationMs: number) => void;

export function openDialect(
  url: StoreUrl,
  options: DatabaseOptions = DEFAULT_DATABASE_OPTIONS,
  onQuery?: QueryObserver,
): DialectHandle {
  const log = onQuery ? (event: LogEvent) => onQuery(event.query.query.kind, event.queryDurationMillis) : undefined;
  if (url.kind === 'sqlite') {
    if (url.path !== ':memory:') mkdirSync(dirname(url.path), { recursive: true });
    const sqlite = new SqliteDatabase(url.path);
    sqlite.pragma('journal_mode = WAL');
    // A commit is on disk before it is acknowledged, so an accepted post
    // survives even a power loss: SQLite's FULL would fsync the log inside
    // the commit, on the event loop; NORMAL only writes it, and the driver
    // has it synced off the loop (wal-sync.ts) before the write returns.
    // An in-memory database has nothing to sync.
    const memory = url.path === ':memory:';
    sqlite.pragma(memory ? 'synchronous = FULL' : 'synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // SQLite's busy handler sleeps inside the call, freezing the event loop:
    // keep each wait short and do the rest of the waiting between attempts.
    sqlite.pragma(`busy_timeout = ${Math.min(BUSY_SLICE_MS, options.busyTimeoutMs)}`);
    const walSync = memory ? null : new WalSync(url.path);
    const dialect = new SqliteWritersDialect(
      { database: withStatementCache(sqlite) },
      sqlite,
      options.busyTimeoutMs,
      walSync,
    );
    const db = new Kysely<Database>({ dialect, ...(log ? { log } : {}) });
    return { name: 'sqlite', db, sqlite };
  }
  // int8 (bigint) columns hold epoch milliseconds and ids, all well inside
  // Number.MAX_SAFE_INTEGER; parse them as numbers like SQLite does.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  pg.types.setTypeParser(pg.types.builtins.FLOAT8, (v) => Number(v));
  const pool = new pg.Pool({
    connectionString: url.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs || undefined,
    application_name: 'wallery',
  });
  // A connection the server drops (restart, pg_terminate_backend) emits
  // 'error'; unheard, that would crash the process. Idle ones are removed by
  // the pool; one in use fails its query (the request answers 503) and is
  // discarded on release because it is no longer queryable.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
  return { name: 'postgres', db, pool };
}

/**
 * The longest one SQLite statement blocks the thread waiting for another
 * process's write lock. The whole wait (DATABASE_BUSY_TIMEOUT_MS, 5 s by
 * default, for the server and the CLI alike) is made of such slices with
 * pauses between them. Write transactions last milliseconds, so 5 s is many
 * of them; past it the API answers 503 and the CLI says the database is busy.
 */
const BUSY_SLICE_MS = 50;
/** Pauses between those slices: doubling from min up to max, randomized so two waiters do not keep step. */
const BUSY_PAUSE_MS = { min: 5, max: 50 };

/** True when SQLite gave up waiting for a lock another connection (process) holds. */
export function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  '57P01', // admin_shutdown
  '57P02',
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
]);

/** PostgreSQL or SQLite unreachable or going away: a 503, not a 500 (Redis: src/redis/client.ts). */
export function isStoreUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; name?: string } | null;
  if (!e) return false;
  if ((e.code && UNAVAILABLE_CODES.has(e.code)) || isSqliteBusy(e)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    e.message ?? '',
  );
}

/**
 * Kysely's SQLite dialect with transactions that start as writers, and
 * waits for another process's write lock that leave the event loop free.
 *
 * Kysely begins a transaction with a deferred `begin`: it reads under a
 * shared lock and asks for the write lock at its first write. When another
 * process holds that lock then, SQLite fails at once with SQLITE_BUSY: it
 * does not wait on a lock upgrade, since once the other writer commits, what
 * this transaction read is stale and it could not write anyway. The whole
 * transaction would have to start over. `begin immediate` takes the write lock
 * first, where waiting is safe. Every transaction here writes, so all of them
 * begin immediate; one asked for as `read only` stays deferred, since reads
 * never wait for a writer in WAL mode.
 */
class SqliteWritersDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly sqlite: SqliteDatabase.Database,
    private readonly busyTimeoutMs: number,
    private readonly walSync: WalSync | null,
  ) {
    super(config);
  }

  override createDriver() {
    return new SqliteWritersDriver(this.config, this.sqlite, this.busyTimeoutMs, this.walSync);
  }
}

class SqliteWritersDriver extends SqliteDriver {
  #connection: DatabaseConnection | undefined;
  /** Whether a statement that writes ran since the connection was acquired. */
  readonly #wrote = { value: false };

  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly sqlite: SqliteDatabase.Database,
    private readonly busyTimeoutMs: number,
    private readonly walSync: WalSync | null,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#connection ??= waitingForWriters(
      noticingWrites(connection, this.config.database as SqliteDatabase.Database, this.#wrote),
      this.sqlite,
      this.busyTimeoutMs,
    );
    return this.#connection;
  }

  /**
   * The connection is handed on first (the next query, a read, runs at once),
   * then the caller waits for the log to be on disk when what it ran wrote and
   * committed: its write is acknowledged durable, and no read waited for that.
   */
  override async releaseConnection(): Promise<void> {
    const mustSync = this.#wrote.value && !this.sqlite.inTransaction && this.walSync !== null;
    if (!this.sqlite.inTransaction) this.#wrote.value = false;
    await super.releaseConnection();
    if (mustSync) await this.walSync!.flush();
  }

  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(
      CompiledQuery.raw(settings?.accessMode === 'read only' ? 'begin' : 'begin immediate'),
    );
  }
}

/**
 * A statement that fails with SQLITE_BUSY while no transaction is open (a
 * `begin immediate`, or a statement on its own) has done nothing, so it is
 * tried again, with pauses in which the event loop runs, until about
 * `busyTimeoutMs` has passed. Inside a transaction that began immediate a
 * statement cannot meet a busy lock: it already holds the write lock. So no
 * transaction ever needs to be run again, only its `begin immediate`.
 */
function waitingForWriters(
  connection: DatabaseConnection,
  sqlite: SqliteDatabase.Database,
  busyTimeoutMs: number,
): DatabaseConnection {
  const untilFree: PRetryOptions = {
    retries: Number.POSITIVE_INFINITY,
    maxRetryTime: busyTimeoutMs,
    minTimeout: BUSY_PAUSE_MS.min,
    maxTimeout: BUSY_PAUSE_MS.max,
    randomize: true,
    shouldRetry: ({ error }) => isSqliteBusy(error),
  };
  return {
    async executeQuery(query) {
      if (sqlite.inTransaction || busyTimeoutMs === 0) return connection.executeQuery(query);
      // the first try costs nothing extra: most statements never meet a lock
      try {
        return await connection.executeQuery(query);
      } catch (err) {
        if (!isSqliteBusy(err)) throw err;
      }
      await delay(BUSY_PAUSE_MS.min);
      return pRetry(() => connection.executeQuery(query), untilFree);
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

const BEGIN = /^\s*begin\b/i;

/**
 * Marks `wrote` when a statement that may change the database runs (SQLite
 * says so of each statement; its prepared form comes from the cache).
 * Transaction control (`commit`) counts as read-only: the writes before it
 * marked the flag. SQLite counts `begin immediate` as a write (it takes the
 * lock); it writes nothing itself, so a transaction that only read needs no sync.
 */
function noticingWrites(
  connection: DatabaseConnection,
  database: SqliteDatabase.Database,
  wrote: { value: boolean },
): DatabaseConnection {
  return {
    executeQuery(query) {
      if (query.query.kind !== 'SelectQueryNode' && !BEGIN.test(query.sql) && !database.prepare(query.sql).readonly)
        wrote.value = true;
      return connection.executeQuery(query);
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

/**
 * Kysely prepares every query anew; SQLite's compile step then costs more
 * than running a small query. Queries are built from fixed shapes with bound
 * parameters, so a statement per distinct SQL text can be kept and reused.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, max = 500): SqliteDatabase.Database {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return new Proxy(sqlite, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (source: string) => {
          let stmt = statements.get(source);
          if (!stmt) {
            if (statements.size >= max) statements.clear();
            stmt = target.prepare(source);
            statements.set(source, stmt);
          }
          return stmt;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A function that answers true once each time another connection (another
 * process) has committed to the SQLite file since the last call. It asks
 * SQLite at most once per `intervalMs` (the question costs ~4 µs, every
 * v2 call asks it): a commit is noticed by the first call after it, or at
 * most `intervalMs` later when calls come thick and fast.
 */
export function externalWriteDetector(sqlite: SqliteDatabase.Database, intervalMs = 1): () => boolean {
  const stmt = sqlite.prepare('PRAGMA data_version').pluck();
  let version = stmt.get() as number;
  let askedAt = -Infinity;
  return () => {
    const at = performance.now();
    if (at - askedAt < intervalMs) return false;
    askedAt = at;
    const now = stmt.get() as number;
    if (now === version) return false;
    version = now;
    return true;
  };
}

/** An auto-assigned integer primary key that still accepts explicit ids (import keeps ids). */
export function idColumnType(name: DialectName): 'integer' | 'bigserial' {
  return name === 'sqlite' ? 'integer' : 'bigserial';
}

export function idColumn(name: DialectName) {
  return (col: ColumnDefinitionBuilder) => (name === 'sqlite' ? col.primaryKey().autoIncrement() : col.primaryKey());
}

/**
 * After rows were inserted with explicit ids, make the next generated id
 * larger than any present. SQLite's AUTOINCREMENT already does this.
 */
export async function resetIdSequences(handle: DialectHandle, tables: readonly (keyof Database)[]): Promise<void> {
  if (handle.name !== 'postgres') return;
  for (const table of tables) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
      handle.db,
    );
  }
}

/** True for a unique-constraint violation in either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}

/** True for a foreign-key violation in either dialect (a referenced row went away meanwhile). */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || e?.code === '23503';
}

/** What a database error means to a caller: the store is away, or a constraint refused a concurrent change. */
export type DbErrorKind = 'unavailable' | 'unique' | 'foreign-key';

/** The one classifier of database errors: null for anything else. */
export function classifyDbError(err: unknown): DbErrorKind | null {
  if (isStoreUnavailable(err)) return 'unavailable';
  if (isUniqueViolation(err)) return 'unique';
  if (isForeignKeyViolation(err)) return 'foreign-key';
  return null;
}
