// What backups have in common: the error they are refused with, what kind of
// backup a file is (by its first bytes), and writing one beside its final
// name so that name only ever holds a finished backup, readable by its owner
// only (the data export writes its file the same way).
import {
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** A backup or restore refused for a reason the operator can act on; its message is shown as it is. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export type BackupKind = 'sqlite' | 'postgres';

/** Every SQLite database file starts with these 16 bytes. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** pg_dump's custom format (`--format=custom`) starts with these 5 bytes. */
const PG_DUMP_MAGIC = Buffer.from('PGDMP', 'latin1');

/** The kind of backup `file` holds, by its first bytes; null when it is neither. */
export function backupKindOf(file: string): BackupKind | null {
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const fd = openSync(file, 'r');
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    if (read >= SQLITE_MAGIC.length && head.equals(SQLITE_MAGIC)) return 'sqlite';
    if (read >= PG_DUMP_MAGIC.length && head.subarray(0, PG_DUMP_MAGIC.length).equals(PG_DUMP_MAGIC)) return 'postgres';
    return null;
  } finally {
    closeSync(fd);
  }
}

const KIND_NAMES: Record<BackupKind, string> = {
  sqlite: 'an SQLite backup',
  postgres: 'a PostgreSQL backup (pg_dump custom format)',
};

/**
 * Checks `file` is a readable backup for a store of kind `store`: a missing
 * file, a file that is no backup and a backup of the other kind of store are
 * each refused with their own message.
 */
export function requireBackupFile(file: string, store: BackupKind): void {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new BackupError(`${file} is not a file`);
    size = stat.size;
  } catch (err) {
    if (err instanceof BackupError) throw err;
    if ((err as { code?: unknown }).code === 'ENOENT') throw new BackupError(`${file} does not exist`);
    throw new BackupError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const kind = size === 0 ? null : backupKindOf(file);
  if (kind === null)
    throw new BackupError(`${file} is not a Wallery backup (neither an SQLite database nor a pg_dump archive)`);
  if (kind !== store) {
    const target = store === 'sqlite' ? 'an SQLite store' : 'a PostgreSQL store';
    const hint =
      kind === 'postgres'
        ? 'restore it with DATABASE_URL (or --database) set to a postgres:// URL'
        : 'restore it with DATABASE_URL (or --database) set to an SQLite file, then move the data over with `wallery export` and `wallery import`';
    throw new BackupError(`${file} is ${KIND_NAMES[kind]}, not one for ${target}: ${hint}`);
  }
}

/** Refuses a backup file whose folder does not exist (before any work is done). */
export function requireFolderOf(file: string): void {
  if (!existsSync(dirname(resolve(file)))) throw new BackupError(`cannot write ${file}: its folder does not exist`);
}

/** The file a backup is written to before it is renamed to `file`: in the same folder, so the rename is atomic. */
export function partialPathFor(file: string, what = 'partial'): string {
  return join(dirname(file), `.${basename(file)}.${what}-${process.pid}`);
}

/**
 * Backups, dumps and exports hold the whole store (key hashes, webhook
 * secrets, every post): readable and writable by their owner only.
 */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the file `path` (which must not exist: a link planted there is not
 * followed) with mode 0600 whatever the umask, and returns it open for
 * writing. A tool that then writes into it (SQLite, pg_dump) keeps the mode:
 * the data is never in a file others can read, not even for a moment.
 */
export function createPrivateFile(path: string): number {
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  try {
    // open() applies the umask: 0600 under a umask of 077, 0400 under 277 (which SQLite could not write)
    fchmodSync(fd, PRIVATE_FILE_MODE);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** Creates an empty `partial` (removing what an earlier run left there) with mode 0600, for a tool to write into. */
export function createPrivatePartial(partial: string): void {
  removePartial(partial);
  closeSync(createPrivateFile(partial));
}

/** Removes a partial file and the journal files SQLite may have left beside it. */
export function removePartial(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

/** Puts the finished `partial` in place as `file`: flushed to disk first, then renamed, then the folder flushed. */
export function commitPartial(partial: string, file: string): void {
  const fd = openSync(partial, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  syncFolder(dirname(file));
}

function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // some file systems cannot sync a folder; the rename itself has happened
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
