// Everything that differs between SQLite and PostgreSQL lives here; the rest
// of the store is written once against Kysely.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type ColumnDefinitionBuilder } from 'kysely';
import pg from 'pg';
import { DEFAULT_DATABASE_OPTIONS, type DatabaseOptions, type StoreUrl } from '../config.js';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DialectHandle {
  name: DialectName;
  db: Kysely<Database>;
  /** SQLite only: the raw connection, for pragmas and checkpoints */
  sqlite?: SqliteDatabase.Database;
}

export function openDialect(url: StoreUrl, options: DatabaseOptions = DEFAULT_DATABASE_OPTIONS): DialectHandle {
  if (url.kind === 'sqlite') {
    if (url.path !== ':memory:') mkdirSync(dirname(url.path), { recursive: true });
    const sqlite = new SqliteDatabase(url.path);
    sqlite.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before it is acknowledged, so an accepted post
    // survives even a power loss (NORMAL would only survive a process crash).
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
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
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { name: 'postgres', db };
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
 * process) has committed to the SQLite file since the last call.
 */
export function externalWriteDetector(sqlite: SqliteDatabase.Database): () => boolean {
  const stmt = sqlite.prepare('PRAGMA data_version').pluck();
  let version = stmt.get() as number;
  return () => {
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
