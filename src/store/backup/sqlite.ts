// Backup and restore of an SQLite store with SQLite's online backup API.
//
// The backup reads the live database through a read-only connection of its
// own: in WAL mode a reader sees one committed state and never blocks the
// server's or ingestion's writers, and nothing is written to the source (no
// migration, no checkpoint). All pages are copied in one step, under one read
// transaction, so the copy is the database as it was when that step began; a
// copy made in many small steps would start over after every commit of
// another process and might never finish while writes keep coming.
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { isSqliteBusy } from '../dialect.js';
import { openStore } from '../store.js';
import { schemaTooNew } from '../migrations.js';
import {
  describeSqliteObject,
  dropSqliteObjects,
  foreignObjectsRefused,
  foreignSqliteObjects,
  type SqliteObject,
} from './foreign-objects.js';
import {
  BackupError,
  commitPartial,
  createPrivatePartial,
  partialPathFor,
  removePartial,
  requireBackupFile,
  requireFolderOf,
} from './files.js';

/** Pages per backup step: all of them (better-sqlite3 caps the number at 2^31 - 1). */
const ALL_PAGES = 0x7fffffff;

/** What a finished backup or restore holds. */
export interface StoreSnapshot {
  /** size of the file written, in bytes */
  bytes: number;
  posts: number;
  /** the latest migration applied (the schema version) */
  schema: string;
  /** SQLite: `PRAGMA integrity_check` on the written file, 'ok' (anything else is refused); null: not checked */
  integrity: 'ok' | null;
}

/** Copies the SQLite store at `source` to `file`, consistent while others write; `file` appears only when done. */
export async function backupSqlite(source: string, file: string): Promise<StoreSnapshot> {
  if (source === ':memory:') throw new BackupError('an in-memory database cannot be backed up');
  if (!existsSync(source)) throw new BackupError(`no database at ${source}: nothing to back up`);
  if (resolve(source) === resolve(file)) throw new BackupError('the backup file must not be the database itself');
  requireFolderOf(file);

  const db = openReadOnly(source);
  const partial = partialPathFor(file);
  try {
    requireWalleryDatabase(db, source);
    // SQLite would create the file 0644 (less the umask); it writes into this one and keeps its mode
    createPrivatePartial(partial);
    await db.backup(partial, { progress: () => ALL_PAGES });
    const snapshot = finishCopy(partial, 'delete');
    commitPartial(partial, file);
    return { ...snapshot, bytes: statSync(file).size };
  } catch (err) {
    removePartial(partial);
    throw err;
  } finally {
    db.close();
  }
}

export interface RestoreResult extends StoreSnapshot {
  /** migrations run on the restored copy: the backup was made by an older version */
  migrated: string[];
  /** schema objects of the backup no migration creates, left out (`dropForeign`) */
  dropped: string[];
}

export interface RestoreChoices {
  /** replace a store that holds accounts, walls or posts */
  force: boolean;
  /** restore a backup holding schema objects no migration creates without them, instead of refusing it */
  dropForeign: boolean;
}

/**
 * Replaces the SQLite store at `target` with the backup `file`. Refused when
 * the store holds any account, wall or post (unless `force`), when the backup
 * holds schema objects no migration creates (unless `dropForeign`), and while
 * another process has it open. The backup is copied beside the target,
 * migrated and checked there; the target is replaced by a rename, so it is
 * either the old store or the restored one, never half of each.
 */
export async function restoreSqlite(
  file: string,
  target: string,
  { force, dropForeign }: RestoreChoices,
): Promise<RestoreResult> {
  if (target === ':memory:') throw new BackupError('cannot restore into an in-memory database');
  requireBackupFile(file, 'sqlite');
  const backup = openReadOnly(file);
  const partial = partialPathFor(target, 'restoring');
  try {
    requireWalleryDatabase(backup, file);
    const applied = (backup.prepare('select name from kysely_migration').all() as { name: string }[]).map(
      (r) => r.name,
    );
    const tooNew = schemaTooNew(applied, 'sqlite');
    if (tooNew) throw new BackupError(`${file} cannot be restored by this version: ${tooNew.message}`);
    const problems = integrityProblems(backup);
    if (problems) throw new BackupError(`${file} is damaged: integrity check: ${problems}`);
    const foreign = await foreignSqliteObjects(backup, applied.sort().at(-1) ?? null);
    if (foreign.length > 0 && !dropForeign) throw foreignObjectsRefused(file, foreign.map(describeSqliteObject));
    if (!force && existsSync(target)) refuseNonEmpty(target);

    mkdirSync(dirname(resolve(target)), { recursive: true });
    // the store's data is never in a file others can read; the store replaced keeps the mode it had
    createPrivatePartial(partial);
    if (existsSync(target)) chmodSync(partial, statSync(target).mode & 0o777);
    await backup.backup(partial, { progress: () => ALL_PAGES });
    backup.close();
    if (foreign.length > 0) dropFrom(partial, foreign);
    const migrated = await migrateCopy(partial, file);
    // the store's own journal mode, as `wallery serve` would set it
    const snapshot = finishCopy(partial, 'wal');
    if (existsSync(target)) takeOver(target);
    // a -wal left by a process that died belongs to the old file and must never meet the new one
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true });
    commitPartial(partial, target);
    return { ...snapshot, bytes: statSync(target).size, migrated, dropped: foreign.map(describeSqliteObject) };
  } catch (err) {
    removePartial(partial);
    throw err;
  } finally {
    if (backup.open) backup.close();
  }
}

function dropFrom(path: string, objects: readonly SqliteObject[]): void {
  const db = new SqliteDatabase(path, { fileMustExist: true });
  try {
    dropSqliteObjects(db, objects);
  } finally {
    db.close();
  }
}

function openReadOnly(path: string): SqliteDatabase.Database {
  try {
    return new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`cannot open ${path}: ${(err as Error).message}`);
  }
}

/** The latest migration applied; refuses a file that is no database or has no Wallery schema. */
function requireWalleryDatabase(db: SqliteDatabase.Database, path: string): string {
  let table: unknown;
  try {
    table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_NOTADB') throw new BackupError(`${path} is not an SQLite database`);
    throw err;
  }
  if (!table)
    throw new BackupError(`${path} is an SQLite database but not a Wallery one (it has no schema migrations)`);
  return latestMigration(db);
}

function latestMigration(db: SqliteDatabase.Database): string {
  const row = db.prepare('select name from kysely_migration order by name desc limit 1').get() as
    { name: string } | undefined;
  return row?.name ?? '(none)';
}

/** null when `PRAGMA integrity_check` finds nothing wrong, else what it found (the first few problems). */
function integrityProblems(db: SqliteDatabase.Database): string | null {
  const rows = db.pragma('integrity_check(5)', { simple: false }) as { integrity_check: string }[];
  const found = rows.map((r) => r.integrity_check);
  return found.length === 1 && found[0] === 'ok' ? null : found.join('; ');
}

/**
 * Checks a copy just written and sets its journal mode: `delete` makes a
 * backup one self-contained file; `wal` is what the store runs with.
 */
function finishCopy(path: string, journalMode: 'delete' | 'wal'): Omit<StoreSnapshot, 'bytes'> {
  const db = new SqliteDatabase(path, { fileMustExist: true });
  try {
    const problems = integrityProblems(db);
    if (problems) throw new BackupError(`the copy failed its integrity check: ${problems}`);
    db.pragma(`journal_mode = ${journalMode}`);
    const posts = (db.prepare('select count(*) as n from posts').get() as { n: number }).n;
    return { posts, schema: latestMigration(db), integrity: 'ok' };
  } finally {
    db.close();
  }
}

/** Brings a restored copy up to this version's schema; a backup from a newer version is refused. */
async function migrateCopy(path: string, file: string): Promise<string[]> {
  const store = openStore({ kind: 'sqlite', path });
  try {
    return await store.migrate();
  } catch (err) {
    throw new BackupError(
      `cannot bring ${file} to this version's schema (made by a newer Wallery?): ${(err as Error).message}`,
    );
  } finally {
    await store.close();
  }
}

/** Refuses to replace a store that holds data. */
function refuseNonEmpty(target: string): void {
  const db = openReadOnly(target);
  try {
    const counts = countData(db);
    if (counts.accounts + counts.walls + counts.posts > 0)
      throw new BackupError(
        `the store at ${target} is not empty (${counts.accounts} accounts, ${counts.walls} walls, ` +
          `${counts.posts} posts): add --force to replace it with the backup`,
      );
  } finally {
    db.close();
  }
}

function countData(db: SqliteDatabase.Database): { accounts: number; walls: number; posts: number } {
  const count = (table: string) => {
    const exists = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table);
    return exists ? (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n : 0;
  };
  return { accounts: count('accounts'), walls: count('walls'), posts: count('posts') };
}

/**
 * Makes sure no other process has the target open: a server or worker would
 * go on with the replaced file and lose what it writes. In WAL mode SQLite
 * refuses an exclusive lock while any other connection has the database
 * open, even an idle one. Closing this, then the last connection, also
 * checkpoints the target's -wal file into the old file it belongs to.
 */
function takeOver(target: string): void {
  const db = new SqliteDatabase(target, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = exclusive');
    db.exec('begin exclusive');
    db.exec('commit');
  } catch (err) {
    if (isSqliteBusy(err))
      throw new BackupError(
        `the store at ${target} is in use by another process (a running \`wallery serve\` or \`worker\`?): stop it, then restore`,
      );
    throw err;
  } finally {
    db.close();
  }
}
