// Reading a data file as a stream of records (format.ts `DataEvent`s), so
// that memory stays flat whatever the file's size. stream-json tokenizes the
// text; its Assembler builds one record at a time (an account, a product, a
// post). Walls and feeds are read field by field: their fields before
// `feeds` / `posts` are handed over first, then their children one by one.
// A wall or feed whose required fields are not all read when its children
// start (an unusual key order) is kept whole and handed over at its end.
import { createReadStream, existsSync } from 'node:fs';
import { on } from 'node:events';
import { Worker } from 'node:worker_threads';
import { stat } from 'node:fs/promises';
import chain from 'stream-chain';
import fun from 'stream-chain/fun.js';
import Assembler from 'stream-json/assembler.js';
import parser from 'stream-json/parser.js';
import { headComplete, SECTIONS, type DataEvent, type Section } from './format.js';

interface Token {
  name: string;
  value?: unknown;
}

/** One level of the document being read; it gets every token until it pops itself. */
interface Frame {
  token(t: Token): void;
}

const isStart = (t: Token) => t.name === 'startObject' || t.name === 'startArray';
const isEnd = (t: Token) => t.name === 'endObject' || t.name === 'endArray';

/** Turns tokens into data-file events; `events` collects them until the caller takes them. */
class EventBuilder {
  readonly events: DataEvent[] = [];
  private readonly stack: Frame[] = [];

  constructor(private readonly sections: ReadonlySet<Section>) {
    this.stack.push({ token: (t) => this.top(t) });
  }

  token(t: Token): void {
    this.stack[this.stack.length - 1]!.token(t);
  }

  private push(frame: Frame): void {
    this.stack.push(frame);
  }

  private pop(): void {
    this.stack.pop();
  }

  /** Builds the value that `first` starts, then calls `done` with it. */
  private value(first: Token, done: (value: unknown) => void): void {
    const asm = new Assembler();
    asm.consume(first as never);
    if (asm.done) return done(asm.current);
    this.push({
      token: (t) => {
        asm.consume(t as never);
        if (asm.done) {
          this.pop();
          done(asm.current);
        }
      },
    });
  }

  /** Reads past the value that `first` starts. */
  private skip(first: Token): void {
    if (!isStart(first)) return;
    let depth = 1;
    this.push({
      token: (t) => {
        if (isStart(t)) depth++;
        else if (isEnd(t) && --depth === 0) this.pop();
      },
    });
  }

  private top(t: Token): void {
    if (t.name !== 'startObject') return this.value(t, (value) => this.events.push({ kind: 'top', value }));
    let key = '';
    this.push({
      token: (t) => {
        if (t.name === 'keyValue') key = t.value as string;
        else if (t.name === 'endObject') this.pop();
        else this.field(key, t);
      },
    });
  }

  private field(key: string, first: Token): void {
    const section = SECTIONS.find((s) => s === key);
    if (section !== undefined && !this.sections.has(section)) return this.skip(first);
    if (section !== undefined && first.name === 'startArray') return this.section(section);
    if (key === 'version' || section !== undefined)
      return this.value(first, (value) => this.events.push({ kind: 'field', key, value }));
    this.skip(first); // not part of the format
  }

  private section(name: Section): void {
    this.events.push({ kind: 'sectionStart', name });
    let index = 0;
    this.push({
      token: (t) => {
        if (t.name === 'endArray') {
          this.pop();
          this.events.push({ kind: 'sectionEnd', name });
          return;
        }
        const i = index++;
        if (name === 'walls' && t.name === 'startObject') return this.container('wall', i);
        const kind = name === 'accounts' ? 'account' : name === 'products' ? 'product' : 'wall';
        this.value(t, (value) =>
          this.events.push(kind === 'wall' ? { kind, index: i, value, whole: true } : { kind, index: i, value }),
        );
      },
    });
  }

  /** A wall or a feed, read field by field; its children (feeds or posts) are streamed when its head is complete. */
  private container(kind: 'wall' | 'feed', index: number): void {
    const childKey = kind === 'wall' ? 'feeds' : 'posts';
    const head: Record<string, unknown> = {};
    let tail: Record<string, unknown> | null = null;
    let key = '';
    this.push({
      token: (t) => {
        if (t.name === 'keyValue') {
          key = t.value as string;
          return;
        }
        if (t.name === 'endObject') {
          this.pop();
          if (tail) this.events.push({ kind: kind === 'wall' ? 'wallEnd' : 'feedEnd', tail });
          else this.events.push({ kind, index, value: head, whole: true });
          return;
        }
        if (key === childKey && t.name === 'startArray' && tail === null && headComplete(kind, head)) {
          tail = {};
          this.events.push({ kind, index, value: head, whole: false });
          return this.children(kind);
        }
        const into = tail ?? head;
        const field = key;
        this.value(t, (value) => {
          into[field] = value;
        });
      },
    });
  }

  private children(parent: 'wall' | 'feed'): void {
    let index = 0;
    this.push({
      token: (t) => {
        if (t.name === 'endArray') return this.pop();
        const i = index++;
        if (parent === 'wall' && t.name === 'startObject') return this.container('feed', i);
        this.value(t, (value) =>
          this.events.push(
            parent === 'wall' ? { kind: 'feed', index: i, value, whole: true } : { kind: 'post', index: i, value },
          ),
        );
      },
    });
  }
}

/** A data file that is not JSON: where the reading stopped. */
export class DataFileSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFileSyntaxError';
  }
}

export interface ReadOptions {
  /** sections to read (the others are skipped); default all */
  sections?: readonly Section[];
  /** told how far the reading is, after each chunk */
  onBytes?: (read: number, total: number) => void;
}

const CHUNK_BYTES = 16 * 1024;
const READ_AHEAD_BYTES = 128 * 1024;

/** Reads a data file, yielding its events chunk by chunk. */
export async function* readDataFile(path: string, options: ReadOptions = {}): AsyncGenerator<DataEvent[]> {
  const total = (await stat(path)).size;
  const builder = new EventBuilder(new Set(options.sections ?? SECTIONS));
  const tokenize = fun(parser({ streamValues: false }));
  let read = 0;
  const feed = (chunk: unknown) => {
    let tokens;
    try {
      tokens = chain.getManyValues(tokenize(chunk as string) as never) as Token[];
    } catch (err) {
      throw new DataFileSyntaxError(
        `not valid JSON near byte ${read}: ${(err as Error).message.replace(/^Parser /, '')}`,
      );
    }
    for (const t of tokens) builder.token(t);
  };
  // The stream reads ahead in large blocks while the events of the last one
  // are loaded; the tokenizer is fastest on smaller pieces.
  for await (const block of createReadStream(path, { highWaterMark: READ_AHEAD_BYTES })) {
    for (let at = 0; at < (block as Buffer).length; at += CHUNK_BYTES) {
      const chunk = (block as Buffer).subarray(at, at + CHUNK_BYTES);
      feed(chunk);
      read += chunk.length;
      options.onBytes?.(read, total);
      if (builder.events.length > 0) yield builder.events.splice(0);
    }
  }
  feed(chain.none);
  if (builder.events.length > 0) yield builder.events.splice(0);
}

/** What the reading worker (reader-worker.ts) sends. */
export type FromReader =
  | { kind: 'events'; events: DataEvent[]; read: number; total: number }
  | { kind: 'done' }
  | { kind: 'error'; name: string; message: string };

/** Batches of events (256 each) the worker reads ahead of the loader. */
export const READ_AHEAD_MESSAGES = 4;
const WORKER_YOUNG_GENERATION_MB = 4;

/**
 * `readDataFile` in a worker thread: tokenizing the text (the costly part)
 * runs beside the loading. Used where the compiled worker exists (the built
 * CLI); run from TypeScript sources (tests in-process) it reads in-thread.
 */
export async function* readDataFileAside(path: string, options: ReadOptions = {}): AsyncGenerator<DataEvent[]> {
  const script = new URL('./reader-worker.js', import.meta.url);
  if (!existsSync(script)) {
    yield* readDataFile(path, options);
    return;
  }
  const worker = new Worker(script, {
    workerData: { path, sections: options.sections },
    // It keeps little alive (a few batches) but makes much garbage: a small
    // young generation keeps its share of the process's memory small.
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  try {
    // a worker that exits before 'done' ends the loop: that must not pass for the end of the file
    for await (const [message] of on(worker, 'message', { close: ['exit'] })) {
      const m = message as FromReader;
      if (m.kind === 'done') return;
      if (m.kind === 'error')
        throw m.name === 'DataFileSyntaxError' ? new DataFileSyntaxError(m.message) : new Error(m.message);
      options.onBytes?.(m.read, m.total);
      worker.postMessage('more');
      yield m.events;
    }
    throw new Error('the reading of the data file stopped before its end');
  } finally {
    await worker.terminate();
  }
}

/** The events of a data file already in memory (sections in their load order). */
export function* eventsOfValue(data: unknown): Generator<DataEvent> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    yield { kind: 'top', value: data };
    return;
  }
  const file = data as Record<string, unknown>;
  if ('version' in file) yield { kind: 'field', key: 'version', value: file['version'] };
  for (const name of SECTIONS) {
    if (!(name in file)) continue;
    const list = file[name];
    if (!Array.isArray(list)) {
      yield { kind: 'field', key: name, value: list };
      continue;
    }
    yield { kind: 'sectionStart', name };
    for (const [index, value] of list.entries()) {
      if (name === 'walls') yield { kind: 'wall', index, value, whole: true };
      else yield { kind: name === 'accounts' ? 'account' : 'product', index, value };
    }
    yield { kind: 'sectionEnd', name };
  }
}
