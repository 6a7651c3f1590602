// Backup and restore of a PostgreSQL store with PostgreSQL's own tools,
// pg_dump and pg_restore, run as child processes.
//
// The dump reads a snapshot this process exports from a read-only
// repeatable-read transaction, so the posts counted here are exactly the
// posts in the file. The password never goes on a command line or into a
// message: the tools get the URL without it, and the password in PGPASSWORD.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql, type Kysely } from 'kysely';
import pRetry from 'p-retry';
import { LISTENER_APPLICATION_NAME } from '../change-listener.js';
import { schemaTooNew } from '../migrations.js';
import type { Database } from '../schema.js';
import {
  BackupError,
  commitPartial,
  createPrivatePartial,
  partialPathFor,
  PRIVATE_FILE_MODE,
  removePartial,
  requireBackupFile,
  requireFolderOf,
} from './files.js';
import {
  describeTocEntries,
  foreignObjectsRefused,
  foreignTocEntries,
  listWithout,
  tocEntries,
} from './foreign-objects.js';
import type { RestoreChoices, RestoreResult, StoreSnapshot } from './sqlite.js';

const run = promisify(execFile);

export interface PgToolOptions {
  /** the folder holding pg_dump and pg_restore (PG_BIN_DIR); null: found on PATH */
  binDir: string | null;
  /** tells the operator what is being run */
  say: (line: string) => void;
}

/** The URL without its password (fit to show and to pass as an argument), and the environment that carries it. */
export function pgConnection(url: string): { dbname: string; env: Record<string, string>; hasPassword: boolean } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {}, hasPassword: password !== '' };
}

/**
 * A command line as a POSIX shell reads it back: arguments of only safe
 * characters as they are, any other in single quotes (as Python's shlex.quote).
 */
export function shellCommand(args: string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'"'"'`)}'`)).join(' ');
}

/** The tool's path and major version; null when it is not installed. */
async function findTool(name: string, binDir: string | null): Promise<{ path: string; major: number } | null> {
  const path = binDir ? join(binDir, name) : name;
  try {
    const { stdout } = await run(path, ['--version']);
    const major = /\(PostgreSQL\)\s+(\d+)/.exec(stdout)?.[1];
    if (!major) throw new BackupError(`${path} --version did not name a PostgreSQL version: ${stdout.trim()}`);
    return { path, major: Number(major) };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'EACCES') return null;
    throw err;
  }
}

function missingTool(
  name: string,
  binDir: string | null,
  serverMajor: number,
  command: string[],
  hasPassword: boolean,
) {
  const where = binDir ? `in PG_BIN_DIR (${binDir})` : 'on PATH (or set PG_BIN_DIR to the folder that holds it)';
  const password = hasPassword ? ' with PGPASSWORD set to the password in DATABASE_URL' : '';
  return new BackupError(
    `${name} was not found ${where}: install the PostgreSQL client tools, version ${serverMajor} or later ` +
      `(Debian/Ubuntu: apt install postgresql-client-${serverMajor}), or run it yourself${password}: ${shellCommand(command)}`,
  );
}

async function serverMajor(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  return Math.floor(Number(rows[0]!.server_version_num) / 10_000);
}

async function hasTable(db: Kysely<Database>, table: string): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(db);
  return rows[0]!.found !== null;
}

async function snapshotOf(db: Kysely<Database>): Promise<{ posts: number; schema: string }> {
  const posts = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
    db,
  );
  return { posts: Number(posts.n), schema: rows[0]?.name ?? '(none)' };
}

/** The last lines a tool wrote on stderr, as one line. */
function toolError(err: unknown): string {
  const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim();
  return (stderr || (err as Error).message).split('\n').slice(-3).join(' ');
}

/** Dumps the PostgreSQL store at `url` to `file` (pg_dump's custom format); `file` appears only when done. */
export async function backupPostgres(
  db: Kysely<Database>,
  url: string,
  file: string,
  options: PgToolOptions,
): Promise<StoreSnapshot> {
  requireFolderOf(file);
  const server = await serverMajor(db);
  if (!(await hasTable(db, 'kysely_migration')))
    throw new BackupError('the database has no Wallery schema (run `wallery migrate`): nothing to back up');
  const conn = pgConnection(url);
  const command = ['--format=custom', '--no-owner', '--file', file, '--dbname', conn.dbname];
  const tool = await findTool('pg_dump', options.binDir);
  if (!tool) throw missingTool('pg_dump', options.binDir, server, ['pg_dump', ...command], conn.hasPassword);
  if (tool.major < server)
    throw new BackupError(
      `${tool.path} is version ${tool.major}, older than the server (PostgreSQL ${server}), and cannot dump it: ` +
        `install the client tools of version ${server} or later and set PG_BIN_DIR to their folder`,
    );

  const partial = partialPathFor(file);
  try {
    // pg_dump would create its file 0644 (less the umask); it truncates and writes this one, which keeps 0600
    createPrivatePartial(partial);
    const snapshot = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        const counted = await snapshotOf(trx);
        options.say(`running: ${shellCommand([tool.path, ...command])}`);
        const args = ['--format=custom', '--no-owner', `--snapshot=${rows[0]!.id}`, '--file', partial];
        try {
          await run(tool.path, [...args, '--dbname', conn.dbname], { env: { ...process.env, ...conn.env } });
        } catch (err) {
          throw new BackupError(`pg_dump failed: ${toolError(err)}`);
        }
        return counted;
      });
    commitPartial(partial, file);
    return { ...snapshot, bytes: statSync(file).size, integrity: null };
  } catch (err) {
    removePartial(partial);
    throw err;
  }
}

/**
 * What pg_restore is run with: all or nothing; objects owned by the user of
 * DATABASE_URL; grants and comments in the archive left out (a backup never
 * grants anyone access; both are checked as no object).
 */
const RESTORE_OPTIONS = [
  '--clean',
  '--if-exists',
  '--no-owner',
  '--no-privileges',
  '--no-comments',
  '--single-transaction',
];

/**
 * Restores a pg_dump archive made by `wallery backup` into the PostgreSQL
 * store at `url`, in one transaction (all or nothing), then migrates it when
 * the backup is older than this version. Refused when the store holds any
 * account, wall or post, unless `force`, and when the archive holds schema
 * objects no migration creates, unless `dropForeign` (then they are left out).
 */
export async function restorePostgres(
  db: Kysely<Database>,
  url: string,
  file: string,
  { force, dropForeign }: RestoreChoices,
  migrate: () => Promise<string[]>,
  options: PgToolOptions,
): Promise<RestoreResult> {
  requireBackupFile(file, 'postgres');
  const conn = pgConnection(url);
  const command = [...RESTORE_OPTIONS, '--dbname', conn.dbname, file];
  const tool = await findTool('pg_restore', options.binDir);
  if (!tool)
    throw missingTool(
      'pg_restore',
      options.binDir,
      await serverMajor(db),
      ['pg_restore', ...command],
      conn.hasPassword,
    );

  let contents: string;
  try {
    contents = (await run(tool.path, ['--list', file], { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    throw new BackupError(`${tool.path} cannot read ${file}: ${toolError(err)}`);
  }
  if (!/^\S+; \d+ \d+ TABLE \S+ kysely_migration\b/m.test(contents))
    throw new BackupError(`${file} is a pg_dump archive but not of a Wallery database (it has no schema migrations)`);
  const applied = await refuseNewerSchema(tool.path, file);
  const foreign = await foreignTocEntries(db, tocEntries(contents), applied.sort().at(-1) ?? null);
  if (foreign.length > 0 && !dropForeign) throw foreignObjectsRefused(file, describeTocEntries(foreign));
  if (!force) await refuseNonEmpty(db);
  await refuseInUse(db);

  // without the foreign objects: pg_restore restores the entries of a list in which they are commented out
  const listDir = foreign.length > 0 ? mkdtempSync(join(tmpdir(), 'wallery-restore-')) : null;
  try {
    const args = [...command];
    if (listDir) {
      const list = join(listDir, 'restore.list');
      writeFileSync(list, listWithout(contents, foreign), { mode: PRIVATE_FILE_MODE });
      args.splice(-1, 0, '--use-list', list);
    }
    options.say(`running: ${shellCommand([tool.path, ...args])}`);
    await run(tool.path, args, { env: { ...process.env, ...conn.env }, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    throw new BackupError(`pg_restore failed, the store is unchanged: ${toolError(err)}`);
  } finally {
    if (listDir) rmSync(listDir, { recursive: true, force: true });
  }
  let migrated: string[];
  try {
    migrated = await migrate();
  } catch (err) {
    throw new BackupError(
      `${file} was restored but cannot be brought to this version's schema (made by a newer Wallery?): ` +
        `${(err as Error).message}`,
    );
  }
  const dropped = describeTocEntries(foreign);
  return { ...(await snapshotOf(db)), bytes: statSync(file).size, integrity: null, migrated, dropped };
}

/**
 * Refuses, before anything is restored, an archive whose schema has a
 * migration this version does not know (made by a later Wallery): its
 * `kysely_migration` rows, which pg_restore prints as a COPY block, one name
 * per line before a tab.
 */
async function refuseNewerSchema(pgRestore: string, file: string): Promise<string[]> {
  let script: string;
  try {
    script = (
      await run(pgRestore, ['--data-only', '--table', 'kysely_migration', '--file', '-', file], {
        maxBuffer: 16 * 1024 * 1024,
      })
    ).stdout;
  } catch (err) {
    throw new BackupError(`${pgRestore} cannot read ${file}: ${toolError(err)}`);
  }
  const lines = script.split('\n');
  const start = lines.findIndex((l) => /^COPY \S*kysely_migration\b.* FROM stdin;$/.test(l));
  const applied: string[] = [];
  for (let i = start + 1; start >= 0 && i < lines.length && lines[i] !== '\\.'; i++)
    applied.push(lines[i]!.split('\t')[0]!);
  const tooNew = schemaTooNew(applied, 'postgres');
  if (tooNew) throw new BackupError(`${file} cannot be restored by this version: ${tooNew.message}`);
  return applied;
}

/**
 * Refuses while another Wallery process is connected to the database: a
 * server's change listener is connected as long as it runs, a worker's pool
 * while it works. (This process has one connection at this point, excluded.)
 * A command that has just ended may still be listed for a moment — its
 * server process ends after the client has gone — so a count above zero is
 * asked again for about two seconds before it refuses.
 */
async function refuseInUse(db: Kysely<Database>): Promise<void> {
  const others = async () => {
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and application_name in ('wallery', ${LISTENER_APPLICATION_NAME})`.execute(db);
    return Number(rows[0]!.n);
  };
  const still = await pRetry(
    async () => {
      const n = await others();
      if (n > 0) throw new ConnectionsOpen(n);
      return 0;
    },
    {
      retries: 6,
      minTimeout: 50,
      factor: 2,
      maxTimeout: 800,
      shouldRetry: ({ error }) => error instanceof ConnectionsOpen,
    },
  ).catch((err: unknown) => {
    if (err instanceof ConnectionsOpen) return err.count;
    throw err;
  });
  if (still > 0)
    throw new BackupError(
      `the database is in use by ${still} other Wallery connection${still === 1 ? '' : 's'} ` +
        '(a running `wallery serve` or `worker`?): stop them, then restore',
    );
}

class ConnectionsOpen extends Error {
  constructor(readonly count: number) {
    super(`${count} other Wallery connections`);
  }
}

async function refuseNonEmpty(db: Kysely<Database>): Promise<void> {
  const counts: Record<string, number> = {};
  for (const table of ['accounts', 'walls', 'posts'] as const) {
    counts[table] = (await hasTable(db, table))
      ? Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      : 0;
  }
  if (counts.accounts! + counts.walls! + counts.posts! > 0)
    throw new BackupError(
      `the store is not empty (${counts.accounts} accounts, ${counts.walls} walls, ${counts.posts} posts): ` +
        'add --force to replace it with the backup',
    );
}
