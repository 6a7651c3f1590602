// A `wallery serve` (SQLite, no Redis, no ingestion) with one wall whose
// submission page is on: what the upload benches send to.
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { saveSubmission } from '../src/store/uploads.js';
import { openStore } from '../src/store/store.js';
import { writeDataFile, type WallSpec } from './generate.js';
import { node, runToEnd, waitFor } from './process.js';

export interface SubmissionServer {
  child: ChildProcess;
  port: number;
  base: string;
}

/** Imports `wall` into `dir`/bench.db, turns its submission page on and serves it on a free port. */
export async function serveSubmissionWall(dir: string, wall: WallSpec): Promise<SubmissionServer> {
  const db = join(dir, 'bench.db');
  const file = join(dir, 'data.json');
  await writeDataFile(file, [wall], true);
  await runToEnd(node(['dist/cli/main.js', 'import', file], { DATABASE_URL: db }));
  const store = openStore({ kind: 'sqlite', path: db });
  await store.migrate();
  await saveSubmission(store.db, wall.id, { enabled: true }, 'b'.repeat(64), Date.now());
  await store.close();
  const child = node(['dist/cli/main.js', 'serve'], {
    DATABASE_URL: db,
    REDIS_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INGEST: 'off',
    MEDIA_DIR: join(dir, 'media'),
  });
  const port = Number((await waitFor(child, /wallery listening on http:\/\/[^:]+:(\d+)/))[1]);
  return { child, port, base: `http://127.0.0.1:${port}` };
}
