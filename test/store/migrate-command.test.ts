// `wallery migrate --dry-run` and the refusal of a schema newer than the code,
// through the real CLI on a real store (SQLite; PostgreSQL in the postgres
// project).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knownMigrations, MIGRATION_DESCRIPTIONS } from '../../src/store/migrations.js';
import { cliArgs, ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { dumpRows, dumpSchema } from '../helpers/schema-dump.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { testStoreKind } from '../helpers/services.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

const kind = testStoreKind();
const MIGRATIONS = knownMigrations(kind);
const LATEST = MIGRATIONS.at(-1)!;
const NOW = Date.UTC(2025, 5, 1);

let dir: string;
/** the store under test, opened by each test */
let opened: TestStore | undefined;

beforeEach(() => {
  dir = makeTempDir();
});
afterEach(async () => {
  await opened?.close();
  opened = undefined;
  removeDir(dir);
});

/** The SQLite file with the write-ahead log's committed pages copied into it. */
function checkpointedFile(): Buffer {
  const test = opened!;
  test.store.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
  return readFileSync(test.database);
}

/** Everything a migration could change: the schema and every row. */
async function snapshot() {
  return { schema: await dumpSchema(opened!.store), rows: await dumpRows(opened!.store) };
}

describe(`wallery migrate --dry-run (${kind})`, () => {
  it('prints the pending migrations and their SQL, changes nothing, and migrate then applies exactly those', async () => {
    // a store of version 0010 holding an account and a wall
    const test = (opened = await openTestStore(dir, 'wallery', '0010_operator_roles'));
    await sql`insert into accounts (id, name, plan, daily_call_limit, created_at) values (1, 'Acme', 'enterprise', 10, ${NOW})`.execute(
      test.store.db,
    );
    await sql`insert into walls (id, account_id, name, url, profanity, created_at) values (1, 1, 'Main', 'main', 0, ${NOW})`.execute(
      test.store.db,
    );
    const before = await snapshot();
    const fileBefore = kind === 'sqlite' ? checkpointedFile() : null;

    const dry = await runCli(['migrate', '--dry-run', '--database', test.database]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toBe('');
    const pending = MIGRATIONS.slice(MIGRATIONS.indexOf('0010_operator_roles') + 1);
    const listed = [...dry.stdout.matchAll(/^(\d{4}_\w+): (.+)$/gm)].map((m) => [m[1], m[2]]);
    expect(listed).toEqual(pending.map((name) => [name, MIGRATION_DESCRIPTIONS[name]]));
    expect(dry.stdout).toMatch(new RegExp(`^${pending.length} pending migrations \\(dry run: nothing changed\\):`));
    // the SQL each would run, under its name
    const section = (name: string) => dry.stdout.slice(dry.stdout.indexOf(`${name}: `)).split('\n\n')[0]!;
    expect(section('0011_moderation')).toContain(
      `alter table "walls" add column "moderation" text default 'auto' not null;`,
    );
    expect(section('0017_webhooks')).toContain('create table "webhooks"');
    expect(section('0016_analytics')).not.toContain('webhooks');

    expect(await snapshot()).toEqual(before);
    // on SQLite the file too, byte for byte, with every committed write in it
    if (fileBefore) expect(checkpointedFile().equals(fileBefore)).toBe(true);

    const applied = await runCli(['migrate', '--database', test.database]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout.trim()).toBe(`applied: ${pending.join(', ')}`);

    const again = await runCli(['migrate', '--dry-run', '--database', test.database]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`schema is up to date (${LATEST}): nothing to do\n`);
  });
});

describe(`a schema newer than this Wallery (${kind})`, () => {
  const FUTURE = '0099_from_a_later_wallery';
  const REFUSAL =
    `wallery: the database schema is newer than this Wallery: it has migration ${FUTURE}, from a later version; ` +
    `this version knows migrations up to ${LATEST}: upgrade Wallery or restore a backup\n`;

  it('is refused by serve, worker, migrate and every other command, before they change anything', async () => {
    const test = (opened = await openTestStore(dir));
    // what a later version leaves: its migration recorded, its table made
    await sql`insert into kysely_migration (name, timestamp) values (${FUTURE}, '2030-01-01T00:00:00.000Z')`.execute(
      test.store.db,
    );
    await sql`create table later_feature (id integer primary key)`.execute(test.store.db);
    const before = await snapshot();

    const results = await Promise.all([
      runUntilServing(['serve', '--database', test.database], { PORT: '0', HOST: '127.0.0.1' }),
      runUntilServing(['worker', '--database', test.database], {}),
      runCli(['migrate', '--database', test.database]),
      runCli(['migrate', '--dry-run', '--database', test.database]),
      runCli(['accounts', 'list', '--database', test.database]),
    ]);
    for (const r of results) {
      expect(r.code).toBe(1);
      // one line, no stack
      expect(r.stderr).toBe(REFUSAL);
      expect(r.stdout).toBe('');
    }
    expect(await snapshot()).toEqual(before);
  });
});

/**
 * Runs a long-running command; if it ever says it serves (the refusal
 * failed), it is stopped so the test fails at once instead of hanging.
 */
function runUntilServing(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (/listening|worker/i.test(stdout)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
