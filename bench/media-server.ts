// The server of the media serving benchmark (bench/media-serve.ts), in its own
// process: Wallery's HTTP server as `wallery serve` builds it (buildServer,
// metrics on, logging off) on a fresh SQLite store, with a folder media
// storage holding one picture processed as the media worker does. Prints
// `READY <port> <hash> <storage dir>` once listening.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { buildServer } from '../src/http/server.js';
import { FolderStorage } from '../src/media/folder-storage.js';
import { mediaKey } from '../src/media/names.js';
import { processPicture, renderRendition } from '../src/media/process.js';
import { DEFAULT_PROCESS_OPTIONS } from '../src/media/types.js';
import { ChangeBus } from '../src/store/changes.js';
import { recordBlob } from '../src/store/media-queue.js';
import { openStore } from '../src/store/store.js';

const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'wallery-bench-media-'));
const store = openStore({ kind: 'sqlite', path: join(dir, 'bench.db') });
await store.migrate();
const storage = new FolderStorage(join(dir, 'media'));

// a photo-like picture (noise, softened): 1600 × 1067, renditions at 320/640/1080/1600
const source = await sharp({
  create: {
    width: 1600,
    height: 1067,
    channels: 3,
    background: '#7a8c9e',
    noise: { type: 'gaussian', mean: 128, sigma: 40 },
  },
})
  .blur(1.5)
  .jpeg({ quality: 90 })
  .toBuffer();
const result = await processPicture(source, DEFAULT_PROCESS_OPTIONS);
if (!result.ok) throw new Error(result.reason);
for (const file of result.files) await storage.put(mediaKey(result.hash, file.name), file.bytes, file.contentType);
await recordBlob(store.db, result, Date.now());

const processor = {
  process: processPicture,
  render: renderRendition,
  close: async () => undefined,
};
const app = await buildServer({ store, now: Date.now, changes: new ChangeBus(), media: { storage, processor } });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
process.stdout.write(`READY ${port} ${result.hash} ${storage.dir}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => store.close().then(() => process.exit(0)));
});
