// Live updates: Server-Sent Events on the wall's stream, reconnecting with
// backoff; when the stream is refused (503 over the cap, or any answer that is
// not a stream) the first page is polled instead until the stream takes again.
import type { EmbedPost } from './types.js';

/** reconnections left to the browser before the feed polls and backs off itself */
const MAX_BROWSER_RETRIES = 3;

export type LiveState = 'connecting' | 'live' | 'polling' | 'offline';

export interface LiveHandlers {
  upsert(post: EmbedPost): void;
  remove(id: string): void;
  /** read the first page again (after `reset`, after a gap, and each poll) */
  resync(): Promise<void>;
  state(state: LiveState): void;
  /** the host's control of the screen: the whole state (screen.ts) */
  screen?(data: unknown): void;
}

export interface LiveOptions {
  pollMs: number;
  /** first retry of a refused or dropped stream; doubles up to maxRetryMs */
  retryMs?: number;
  maxRetryMs?: number;
}

export class LiveFeed {
  private source: EventSource | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  /** errors of the current EventSource since it last opened */
  private drops = 0;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly on: LiveHandlers,
    private readonly options: LiveOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.source?.close();
    this.source = null;
    clearTimeout(this.retryTimer);
    this.stopPolling();
  }

  private connect(): void {
    if (this.stopped) return;
    this.on.state(this.pollTimer ? 'polling' : 'connecting');
    this.drops = 0;
    const source = new EventSource(this.url);
    this.source = source;
    source.addEventListener('open', () => {
      this.failures = 0;
      this.drops = 0;
      this.stopPolling();
      this.on.state('live');
      // events sent while no stream was open are not replayed to a new
      // EventSource: read the first page once to close the gap
      void this.on.resync().catch(() => undefined);
    });
    source.addEventListener('upsert', (event) => {
      const post = parse<EmbedPost>(event);
      if (post?.id) this.on.upsert(post);
    });
    source.addEventListener('remove', (event) => {
      const gone = parse<{ id?: string }>(event);
      if (gone?.id) this.on.remove(String(gone.id));
    });
    source.addEventListener('screen', (event) => {
      const data = parse<unknown>(event);
      if (data) this.on.screen?.(data);
    });
    source.addEventListener('reset', () => void this.on.resync().catch(() => undefined));
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED && ++this.drops < MAX_BROWSER_RETRIES) {
        // a dropped connection: the browser reconnects by itself (after the
        // server's `retry`, sending Last-Event-ID so missed events replay)
        this.on.state('connecting');
        return;
      }
      // refused (503 over the stream cap, 4xx, not an event stream) or down
      // for a while: poll, and try the stream again with growing pauses
      source.close();
      this.source = null;
      this.failures++;
      this.startPolling();
      const base = this.options.retryMs ?? 5_000;
      const max = this.options.maxRetryMs ?? 300_000;
      const delay = Math.min(max, base * 2 ** (this.failures - 1));
      this.retryTimer = setTimeout(() => this.connect(), delay * (0.75 + Math.random() * 0.5));
    });
  }

  private startPolling(): void {
    this.on.state('polling');
    if (this.pollTimer || this.stopped) return;
    const tick = async () => {
      try {
        await this.on.resync();
      } catch {
        // the next tick tries again
      }
      if (this.pollTimer) this.pollTimer = setTimeout(tick, this.options.pollMs);
    };
    this.pollTimer = setTimeout(tick, this.options.pollMs);
  }

  private stopPolling(): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }
}

function parse<T>(event: Event): T | null {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as T;
  } catch {
    return null;
  }
}
