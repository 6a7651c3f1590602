// Live walls over Server-Sent Events. One hub per instance holds, per wall
// with open streams, the last snapshot of the wall's first page of visible
// posts (a hash per post). The change bus — which also hears the other
// instances' and processes' writes (PostgreSQL notifications; SQLite's
// data_version, polled here while streams are open) — says when a wall may
// have changed; the hub then reads that page once for all of the wall's
// streams, diffs it against the snapshot and sends `upsert` / `remove`
// events, numbered per wall, kept in a bounded buffer for Last-Event-ID.
// The posts name Wallery's copies of their pictures by absolute URLs whose
// base may be the origin a stream was opened at (no PUBLIC_URL): streams
// are grouped by wall and base, each group with its own snapshot.
// The wall's live screen state (src/http/embed/screen.ts) is read with the
// page and sent as a `screen` event whenever it differs from the last one
// sent: to every stream of the wall, and first of all to a stream that
// (re)connects. It carries the whole state, so it is not numbered or
// replayed: the newest is all a screen needs.
// At scale (10,000 streams, bench/sse.ts) every event is serialised and
// encoded once per wall and base, not once per stream: the same bytes are
// written to each of its sockets. The heartbeat is one timer for all
// streams, and each of its ticks pings a slice of them: writing to every
// socket at once would hold the event loop (about 150 ms for 10,000) every
// interval.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import type { EmbedPost } from '../../presenters/embed.js';
import { findWall } from '../../store/walls.js';
import { listVisiblePostsAfter, stillVisible } from '../../store/posts.js';
import type { PublishableKeyCache } from './key-cache.js';
import { embedFilterOf, presentPosts } from './present.js';
import { presentScreen, type ScreenBody } from './screen.js';
import { iso } from '../../domain/dates.js';

export interface StreamHubOptions {
  maxStreams: number;
  /** open streams per client (0: no limit) */
  maxStreamsPerClient?: number;
  heartbeatMs: number;
  replayEvents: number;
  /** how many of the wall's first posts are watched */
  windowSize?: number;
  /** how long a wall's snapshot and event buffer outlive its last stream (reconnects resume), ms */
  graceMs?: number;
  /** how often another process's SQLite commits are looked for while streams are open, ms */
  externalPollMs?: number;
  log?: { warn(obj: object, msg?: string): void };
}

/** One open stream: the response it writes to and the key it was opened with. */
export interface Stream {
  res: ServerResponse;
  wallId: number;
  /** the publishable key (plaintext, kept in memory only) — checked again after every change of the wall */
  key: string;
  /** the client that opened it (access.ts `clientOf`): an IPv4 address or an IPv6 /64 */
  client: string;
  /** the base of Wallery's URLs in its posts (src/http/self-url.ts) */
  base: string;
  /** which of the heartbeat's ticks pings it (set by the hub) */
  slice?: number;
}

interface BufferedEvent {
  id: number;
  /** the frame, encoded once for all of the wall's streams */
  bytes: Buffer;
}

/** A slow reader whose unsent output passes this is cut off (it reconnects and resumes). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export const frame = (event: string, id: number | null, data: unknown) =>
  `event: ${event}\n${id === null ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;

const PING = Buffer.from(': ping\n\n');

/** The heartbeat ticks at most this often, each tick pinging 1 / n of the streams. */
const HEARTBEAT_TICK_MS = 1000;
const MAX_HEARTBEAT_SLICES = 16;

class WallFeed {
  readonly streams = new Set<Stream>();
  private snapshot: Map<string, string> | null = null;
  private readonly events: BufferedEvent[] = [];
  /** the id of the last event sent; ids start high (time-based) so that ids of an earlier hub are told apart */
  private lastId = Date.now() * 1000;
  private running: Promise<void> | null = null;
  private dirty = false;
  /**
   * the wall's screen state as last read, its text (what tells a change) and
   * its frame as sent to the streams there were at that read (`serverNow` then)
   */
  private screen: { body: ScreenBody; text: string; bytes: Buffer } | null = null;
  /** the screen state's text each stream was sent last */
  private readonly screenSent = new WeakMap<Stream, string>();
  graceTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly wallId: number,
    readonly base: string,
    private readonly hub: StreamHub,
  ) {}

  /** Re-read the wall now, or right after the read under way. */
  changed(): void {
    if (this.running) {
      this.dirty = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.dirty = false;
          await this.refresh();
        } while (this.dirty);
      } catch (err) {
        this.hub.options.log?.warn({ err, wallId: this.wallId }, 'embed stream: could not read the wall');
      } finally {
        this.running = null;
      }
    })();
  }

  /** Resolves once no read is under way (tests, benchmarks). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async refresh(): Promise<void> {
    const { db } = this.hub.ctx.store;
    const wall = await findWall(db, this.wallId, { live: true });
    if (!wall) {
      for (const s of this.streams) this.hub.end(s);
      return;
    }
    const filter = embedFilterOf(wall, Boolean(this.hub.ctx.media));
    const rows = await listVisiblePostsAfter(db, this.wallId, this.hub.windowSize, null, filter);
    const posts = await presentPosts(db, rows, this.base);
    const next = new Map(posts.map((p) => [p.id, createHash('sha1').update(JSON.stringify(p)).digest('base64url')]));
    const before = this.snapshot;
    this.snapshot = next;
    if (before) {
      const gone = [...before.keys()].filter((id) => !next.has(id));
      // a post that only fell off the watched page (newer ones came) is still there: no event
      const visible = await stillVisible(db, this.wallId, gone.map(Number), filter);
      for (const id of gone) if (!visible.has(Number(id))) this.emit('remove', { id });
      // oldest first, so a client appending in arrival order still ends newest-last
      for (const post of [...posts].reverse()) if (before.get(post.id) !== next.get(post.id)) this.emit('upsert', post);
    }
    const screen = await presentScreen(db, this.wallId, this.base);
    this.screen = { body: screen, text: JSON.stringify(screen), bytes: this.screenFrame(screen) };
    for (const s of this.streams) this.sendScreen(s, this.screen.bytes);
    await this.recheckKeys();
  }

  private screenFrame(body: ScreenBody): Buffer {
    return Buffer.from(frame('screen', null, { ...body, serverNow: iso(this.hub.ctx.now()) }));
  }

  /**
   * The current screen state to a stream that has not been sent it yet: the
   * frame of the last read (all streams at once), or one made now for a
   * stream that opens later (its `serverNow` is the time it is sent).
   */
  sendScreen(s: Stream, bytes?: Buffer): void {
    if (!this.screen || this.screenSent.get(s) === this.screen.text) return;
    this.screenSent.set(s, this.screen.text);
    this.hub.write(s, bytes ?? this.screenFrame(this.screen.body));
  }

  /** A key revoked (or moved to another wall) ends the streams opened with it. */
  private async recheckKeys(): Promise<void> {
    const byKey = new Map<string, Stream[]>();
    for (const s of this.streams) {
      const same = byKey.get(s.key);
      if (same) same.push(s);
      else byKey.set(s.key, [s]);
    }
    for (const [key, streams] of byKey) {
      const grant = await this.hub.keys.lookup(this.hub.ctx.store.db, key);
      if (!grant || grant.wallId !== this.wallId) for (const s of streams) this.hub.end(s);
    }
  }

  private emit(event: 'upsert' | 'remove', data: EmbedPost | { id: string }): void {
    const id = ++this.lastId;
    const bytes = Buffer.from(frame(event, id, data));
    this.events.push({ id, bytes });
    if (this.events.length > this.hub.options.replayEvents) this.events.shift();
    for (const s of this.streams) this.hub.write(s, bytes);
  }

  /** What a stream reconnecting with `lastEventId` needs: the events after it, or a reset. */
  resume(s: Stream, lastEventId: string | undefined): void {
    if (lastEventId === undefined || lastEventId === '') return;
    const last = /^\d{1,16}$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : NaN;
    const oldest = this.events[0]?.id ?? this.lastId + 1;
    if (last === this.lastId) return;
    if (Number.isSafeInteger(last) && last >= oldest - 1 && last < this.lastId) {
      for (const e of this.events) if (e.id > last) this.hub.write(s, e.bytes);
      return;
    }
    this.hub.write(s, frame('reset', this.lastId, {}));
  }

  /** Loads the first snapshot when the wall's first stream opens. */
  start(): void {
    if (this.snapshot === null) this.changed();
  }
}

export class StreamHub {
  /** wall id → base → its feed */
  private readonly walls = new Map<number, Map<string, WallFeed>>();
  private readonly all = new Set<Stream>();
  /** open streams per client */
  private readonly perClient = new Map<string, number>();
  private readonly unsubscribe: () => void;
  private readonly heartbeat: NodeJS.Timeout;
  /** each stream is pinged every `heartbeatMs`, by one of this many ticks (all of them when 1) */
  private readonly slices: number;
  private tick = 0;
  private attached = 0;
  private readonly externalPoll: NodeJS.Timeout | null;
  private closed = false;
  readonly windowSize: number;

  constructor(
    readonly ctx: AppContext,
    readonly keys: PublishableKeyCache,
    readonly options: StreamHubOptions,
  ) {
    this.windowSize = options.windowSize ?? 100;
    this.unsubscribe = ctx.changes.subscribe((change) => {
      if (change.kind === 'wall') for (const feed of this.walls.get(change.wallId)?.values() ?? []) feed.changed();
      else for (const feed of this.feeds()) feed.changed();
    });
    this.slices = Math.max(1, Math.min(MAX_HEARTBEAT_SLICES, Math.floor(options.heartbeatMs / HEARTBEAT_TICK_MS)));
    this.heartbeat = setInterval(() => {
      const slice = this.tick++ % this.slices;
      for (const s of this.all) if (s.slice === slice) this.write(s, PING);
    }, options.heartbeatMs / this.slices);
    this.heartbeat.unref();
    // another process's commit to the SQLite file shows only when looked for
    this.externalPoll = ctx.externalWrites
      ? setInterval(() => {
          if (this.all.size > 0 && ctx.externalWrites?.()) ctx.changes.publish({ kind: 'all' });
        }, options.externalPollMs ?? 500)
      : null;
    this.externalPoll?.unref();
  }

  private *feeds(): Iterable<WallFeed> {
    for (const byBase of this.walls.values()) yield* byBase.values();
  }

  get openStreams(): number {
    return this.all.size;
  }

  get full(): boolean {
    return this.all.size >= this.options.maxStreams;
  }

  /** Whether `client` holds as many streams as one client may. */
  clientFull(client: string): boolean {
    const cap = this.options.maxStreamsPerClient ?? 0;
    return cap > 0 && (this.perClient.get(client) ?? 0) >= cap;
  }

  /** Starts sending a wall's events to an open response (headers already written). */
  attach(stream: Stream, lastEventId: string | undefined): void {
    if (this.closed) {
      stream.res.end();
      return;
    }
    let byBase = this.walls.get(stream.wallId);
    if (!byBase) this.walls.set(stream.wallId, (byBase = new Map()));
    let feed = byBase.get(stream.base);
    if (!feed) {
      feed = new WallFeed(stream.wallId, stream.base, this);
      byBase.set(stream.base, feed);
    }
    if (feed.graceTimer) clearTimeout(feed.graceTimer);
    feed.graceTimer = null;
    stream.slice = this.attached++ % this.slices;
    feed.streams.add(stream);
    this.all.add(stream);
    this.perClient.set(stream.client, (this.perClient.get(stream.client) ?? 0) + 1);
    stream.res.once('close', () => this.detach(stream));
    // the screen's current state first: a reconnecting screen shows it at once
    feed.sendScreen(stream);
    feed.resume(stream, lastEventId);
    feed.start();
  }

  private detach(stream: Stream): void {
    if (!this.all.delete(stream)) return;
    const held = (this.perClient.get(stream.client) ?? 1) - 1;
    if (held > 0) this.perClient.set(stream.client, held);
    else this.perClient.delete(stream.client);
    const feed = this.walls.get(stream.wallId)?.get(stream.base);
    if (!feed || !feed.streams.delete(stream) || feed.streams.size > 0 || this.closed) return;
    feed.graceTimer = setTimeout(() => {
      const byBase = this.walls.get(feed.wallId);
      if (feed.streams.size > 0 || byBase?.get(feed.base) !== feed) return;
      byBase.delete(feed.base);
      if (byBase.size === 0) this.walls.delete(feed.wallId);
    }, this.options.graceMs ?? 60_000);
    feed.graceTimer.unref();
  }

  write(stream: Stream, text: string | Buffer): void {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      res.destroy();
      return;
    }
    res.write(text);
  }

  end(stream: Stream): void {
    if (!stream.res.writableEnded) stream.res.end();
  }

  /** Resolves once no wall read is under way (tests, benchmarks). */
  async settled(): Promise<void> {
    await Promise.all([...this.feeds()].map((f) => f.settled()));
  }

  /**
   * Ends every stream (server shutdown): clients reconnect elsewhere. With
   * `retryMs`, each stream is told first when to reconnect (SSE `retry`,
   * which EventSource honours), reconnecting through the balancer to another
   * instance; spread over [retryMs, 2 × retryMs) so that a wall's thousands
   * of viewers do not all arrive at the same instant.
   */
  close(retryMs?: number): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    clearInterval(this.heartbeat);
    if (this.externalPoll) clearInterval(this.externalPoll);
    for (const feed of this.feeds()) if (feed.graceTimer) clearTimeout(feed.graceTimer);
    for (const s of this.all) {
      if (retryMs !== undefined) this.write(s, `retry: ${retryMs + Math.floor(Math.random() * retryMs)}\n\n`);
      this.end(s);
    }
    this.all.clear();
    this.perClient.clear();
    this.walls.clear();
  }
}
