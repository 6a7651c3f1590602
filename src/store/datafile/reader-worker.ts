// The worker thread that reads a data file (reader.ts) for the import, so
// that tokenizing the text runs beside the loading, on another core. It
// sends the events in batches and never runs more than READ_AHEAD_MESSAGES
// batches ahead of what the loader has taken (memory stays flat).
import { once } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import type { DataEvent } from './format.js';
import { READ_AHEAD_MESSAGES, readDataFile, type FromReader, type ReadOptions } from './reader.js';

const EVENTS_PER_MESSAGE = 256;

const port = parentPort!;
const { path, sections } = workerData as { path: string; sections: ReadOptions['sections'] };
let credits = READ_AHEAD_MESSAGES;
port.on('message', () => credits++);
let read = 0;
let total = 0;
let batch: DataEvent[] = [];
const send = async () => {
  while (credits === 0) await once(port, 'message');
  credits--;
  port.postMessage({ kind: 'events', events: batch, read, total } satisfies FromReader);
  batch = [];
};
try {
  for await (const events of readDataFile(path, { sections, onBytes: (r, t) => ((read = r), (total = t)) })) {
    batch.push(...events);
    // fewer, larger messages: each one costs the loader's thread a little
    if (batch.length >= EVENTS_PER_MESSAGE) await send();
  }
  if (batch.length > 0) await send();
  port.postMessage({ kind: 'done' } satisfies FromReader);
} catch (err) {
  const e = err as Error;
  port.postMessage({ kind: 'error', name: e.name, message: e.message } satisfies FromReader);
}
