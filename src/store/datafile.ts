// The data file of contract §8: import (one transaction, ids kept, the first
// problem named by its JSON path) and export (what import reads back).
//
// Import streams: a file is read record by record (datafile/reader.ts) and
// loaded as it is read (datafile/loader.ts), inside one transaction, so
// memory stays flat whatever the file's size and a file with a problem
// anywhere — or an import stopped halfway — leaves the store unchanged.
// Sections are loaded in the order the file has them; a reference to an
// account or product of a section still to come (a file whose sections are
// not in the order accounts, products, walls) makes the import start over,
// in the same transaction, reading the file once per section in that order.
import type { DialectHandle } from './dialect.js';
import { resetIdSequences } from './dialect.js';
import { SECTIONS, sectionOf, type DataEvent, type Section } from './datafile/format.js';
import { IdConflict, Loader, SectionsOutOfOrder, type ImportCounts } from './datafile/loader.js';
import { eventsOfValue, readDataFileAside } from './datafile/reader.js';

export { DataFileError, DataFileSchema, jsonPath, type DataFile } from './datafile/format.js';
export { DataFileSyntaxError } from './datafile/reader.js';
export { DEFAULT_DAILY_CALL_LIMIT, type ImportCounts } from './datafile/loader.js';
export { exportDataFile } from './datafile/export.js';

/** Posts loaded so far, and how far through the file (0–1) the reading is. */
export type Progress = (postsDone: number, fraction: number) => void;

export interface ImportOptions {
  /**
   * The posts' pictures are not fetched (`skipped`: they show their original
   * URLs): `wallery import --skip-media`. Otherwise they are queued for the
   * media worker.
   */
  skipMedia?: boolean;
}

/** The events of one reading of the file: all sections, or only one. */
type EventSource = (only?: Section) => AsyncIterable<DataEvent[]> | Iterable<DataEvent[]>;

/** Imports a data file already in memory. */
export async function importDataFile(
  store: DialectHandle,
  data: unknown,
  now: number,
  onProgress?: Progress,
  options: ImportOptions = {},
): Promise<ImportCounts> {
  const events = [...eventsOfValue(data)];
  const source: EventSource = (only) => [
    only === undefined ? events : events.filter((e) => [only, null].includes(sectionOf(e))),
  ];
  const total = countPosts(data);
  return load(store, source, now, options, onProgress && ((done) => onProgress(done, done / total)));
}

/** Imports a data file, reading it as a stream. */
export async function importDataFileFrom(
  store: DialectHandle,
  path: string,
  now: number,
  onProgress?: Progress,
  options: ImportOptions = {},
): Promise<ImportCounts> {
  let fraction = 0;
  const source: EventSource = (only) =>
    readDataFileAside(path, {
      sections: only === undefined ? SECTIONS : [only],
      onBytes: (read, total) => (fraction = total === 0 ? 1 : read / total),
    });
  return load(store, source, now, options, onProgress && ((done) => onProgress(done, fraction)));
}

function countPosts(data: unknown): number {
  const walls = (data as { walls?: { feeds?: { posts?: unknown[] }[] }[] } | null)?.walls;
  if (!Array.isArray(walls)) return 1;
  let n = 0;
  for (const w of walls) for (const f of Array.isArray(w?.feeds) ? w.feeds : []) n += f?.posts?.length ?? 0;
  return Math.max(n, 1);
}

/** One transaction; read again section by section when the file's sections are out of order. */
async function load(
  store: DialectHandle,
  source: EventSource,
  now: number,
  options: ImportOptions,
  onPosts?: (done: number) => void,
): Promise<ImportCounts> {
  let counts: ImportCounts;
  try {
    counts = await loadOnce(store, source, now, options, [undefined], onPosts);
  } catch (err) {
    if (!(err instanceof SectionsOutOfOrder)) throw err;
    counts = await loadOnce(store, source, now, options, SECTIONS, onPosts);
  }
  await resetIdSequences(store, ['accounts', 'user_keys', 'walls', 'feeds', 'posts', 'products']);
  return counts;
}

async function loadOnce(
  store: DialectHandle,
  source: EventSource,
  now: number,
  options: ImportOptions,
  passes: readonly (Section | undefined)[],
  onPosts?: (done: number) => void,
): Promise<ImportCounts> {
  try {
    return await store.db.transaction().execute(async (trx) => {
      const loader = new Loader(trx, now, onPosts, { skip: options.skipMedia === true });
      for (const only of passes) {
        if (only !== undefined) loader.startPass(only);
        for await (const events of source(only))
          for (const event of events) {
            const writing = loader.handle(event);
            if (writing) await writing;
          }
      }
      return loader.finish();
    });
  } catch (err) {
    // told apart once the transaction is gone: an id the store had, or one the file repeats
    if (err instanceof IdConflict) throw await err.explain(store.db);
    throw err;
  }
}
