// A second connection to a test server's store whose queries can be held
// back: `beforeQuery` runs (and is awaited) before each statement, so a test
// can let another actor finish its work at an exact point between two
// statements — a race made deterministic.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
} from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/store/schema.js';
import { testDatabaseUrl } from './services.js';

export type BeforeQuery = (query: CompiledQuery) => Promise<void> | void;

function hookConnection(conn: DatabaseConnection, beforeQuery: BeforeQuery): DatabaseConnection {
  return new Proxy(conn, {
    get(target, prop) {
      if (prop === 'executeQuery') {
        return async (q: CompiledQuery) => {
          await beforeQuery(q);
          return target.executeQuery(q);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function hookDialect(inner: Dialect, beforeQuery: BeforeQuery): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver(): Driver {
      const driver = inner.createDriver();
      return new Proxy(driver, {
        get(target, prop) {
          if (prop === 'acquireConnection') {
            return async () => hookConnection(await target.acquireConnection(), beforeQuery);
          }
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
}

/** Opens the store of the test server made in `dir` (SQLite file or PostgreSQL database) with a query hook. */
export function openHookedStore(dir: string, beforeQuery: BeforeQuery): Kysely<Database> {
  const marker = join(dir, 'postgres-database');
  const inner: Dialect = existsSync(marker)
    ? new PostgresDialect({
        pool: new pg.Pool({ connectionString: testDatabaseUrl(readFileSync(marker, 'utf8').trim()), max: 2 }),
      })
    : new SqliteDialect({ database: new SqliteDatabase(join(dir, 'wallery.db')) });
  return new Kysely<Database>({ dialect: hookDialect(inner, beforeQuery) });
}
