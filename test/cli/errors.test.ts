// A failing `wallery` command says what went wrong in one line on stderr and
// exits 1: never a stack trace, whatever the error.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_MESSAGE, errorLine } from '../../src/cli/errors.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { closedPort } from '../helpers/ports.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { importSmallWall, SMALL_WALL } from '../helpers/wall-data.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeDir(dir));

/** Exit 1 and exactly one `wallery: …` line on stderr; returns that line. */
function oneLineFailure(r: CliResult): string {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr, 'one line on stderr').toMatch(/^wallery: [^\n]+\n$/);
  return r.stderr.slice('wallery: '.length, -1);
}

describe('a failing command prints one line', () => {
  it('when another process holds the write lock for longer than DATABASE_BUSY_TIMEOUT_MS', async () => {
    const db = await importSmallWall(dir, 3);
    const pin = ['posts', 'pin', String(SMALL_WALL.wall), '2', '--database', db];
    // another process in the middle of a write, for as long as the command runs
    const holder = new SqliteDatabase(db);
    holder.exec('begin immediate');
    try {
      const r = await runCli(pin, { DATABASE_BUSY_TIMEOUT_MS: '300' });
      expect(oneLineFailure(r)).toBe(BUSY_MESSAGE);
    } finally {
      holder.exec('rollback');
      holder.close();
    }
    // once the other write is over the same command goes through
    const again = await runCli(pin);
    expect(again.code, again.stderr).toBe(0);
  });

  it('when the database file is not a database (WALLERY_DEBUG=1 adds the stack)', async () => {
    const db = join(dir, 'not-a-database.db');
    writeFileSync(db, 'these bytes are not an SQLite database file\n'.repeat(100));
    const args = ['posts', 'list', '1', '--database', db];
    expect(oneLineFailure(await runCli(args))).toBe('database error: file is not a database');
    const debug = await runCli(args, { WALLERY_DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^wallery: database error: file is not a database\nSqliteError: [^\n]+\n\s+at /);
  });

  it('when Redis does not answer (REDIS_URL at a closed port): one line naming Redis, no stack', async () => {
    const port = await closedPort();
    const db = join(dir, 'redis-down.db');
    const r = await runCli(['ingest', '--once', '--database', db], { REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(oneLineFailure(r)).toBe(
      `Redis at 127.0.0.1:${port} does not answer (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });

  it('when an argument is invalid or missing, or the command is unknown', async () => {
    expect(oneLineFailure(await runCli(['posts', 'pin', 'abc', '1']))).toMatch(/wall id must be a positive integer/);
    expect(oneLineFailure(await runCli(['posts', 'pin', '1']))).toMatch(/missing required argument 'posts'/);
    expect(oneLineFailure(await runCli(['walls', 'explode']))).toMatch(/unknown command 'explode'/);
  });
});

describe('errorLine', () => {
  it('keeps messages meant for the operator, names database errors, flags the unexpected', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' });
    expect(errorLine(busy)).toBe(BUSY_MESSAGE);
    const config = Object.assign(new Error('PORT must be an integer'), { name: 'ConfigError' });
    expect(errorLine(config)).toBe('PORT must be an integer');
    const pg = Object.assign(new Error('database "x" does not exist'), { code: '3D000' });
    expect(errorLine(pg)).toBe('database error: database "x" does not exist');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(errorLine(new AggregateError([refused]))).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    expect(errorLine(new TypeError('x is not a function\n  more'))).toBe(
      'x is not a function more (WALLERY_DEBUG=1 shows where)',
    );
    expect(errorLine('thrown text')).toBe('thrown text (WALLERY_DEBUG=1 shows where)');
  });
});
