// SQLite's write-ahead log made durable off the event loop.
//
// With `synchronous = FULL` SQLite fsyncs the WAL inside every commit, on the
// thread that commits: Node's main thread, where every read waits behind it.
// With `synchronous = NORMAL` a commit only write()s its frames to the WAL
// (the OS page cache: it survives a crash of the process, not a power loss).
// The store opens SQLite with NORMAL and, before any write is acknowledged,
// has the WAL file fdatasync'ed here, in libuv's thread pool. One sync
// covers every commit written before it started, so writes that arrive while
// a sync runs share the next one (group commit of the fsync).
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Raised when the sync fails: an I/O error, so the store counts as unavailable (a 503, not a 500). */
export class WalSyncError extends Error {
  readonly code = 'SQLITE_IOERR';
  constructor(cause: unknown) {
    super(`could not sync the SQLite write-ahead log: ${(cause as Error).message}`, { cause });
  }
}

export class WalSync {
  #running: Promise<void> | null = null;
  #next: Promise<void> | null = null;
  #directorySynced = false;

  /** `databasePath`: the SQLite file; its log is `<path>-wal`. */
  constructor(private readonly databasePath: string) {}

  /** Resolves once everything committed to the log before the call is on disk. */
  flush(): Promise<void> {
    if (!this.#running) return this.#start();
    // The running sync may have begun before this caller's commit: the next
    // one is needed, and every caller until it starts shares it.
    this.#next ??= this.#running.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    return this.#next;
  }

  #startNext(): Promise<void> {
    this.#next = null;
    return this.#start();
  }

  #start(): Promise<void> {
    const running = this.#sync().finally(() => {
      if (this.#running === running) this.#running = null;
    });
    this.#running = running;
    return running;
  }

  async #sync(): Promise<void> {
    try {
      await syncFile(`${this.databasePath}-wal`);
      // SQLite's FULL syncs the directory once after creating the log, so its
      // name survives a power loss too: the same here, on the first sync.
      if (!this.#directorySynced) {
        await syncFile(dirname(this.databasePath)).catch((err: { code?: string }) => {
          // platforms that cannot open or sync a directory (Windows) have nothing to do here
          if (!['EISDIR', 'EPERM', 'EINVAL', 'EACCES'].includes(err.code ?? '')) throw err;
        });
        this.#directorySynced = true;
      }
    } catch (err) {
      // no log: a checkpoint moved its frames into the database (synced) and removed it
      if ((err as { code?: string }).code === 'ENOENT') return;
      throw new WalSyncError(err);
    }
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}
