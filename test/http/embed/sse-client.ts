// A minimal Server-Sent Events reader for tests: opens the stream over real
// HTTP, splits frames, and waits for events by condition (never by time).
import { request, type IncomingMessage } from 'node:http';

export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
  /** performance.now() when the event was received */
  at: number;
}

export interface SseStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** the raw text received so far */
  text(): string;
  events: SseEvent[];
  /** resolves with the first event (from `from` on) that `match` accepts; rejects after `withinMs` */
  next(match: (e: SseEvent) => boolean, withinMs?: number, from?: number): Promise<SseEvent>;
  /** the body, for answers that are not streams */
  body(): Promise<string>;
  close(): void;
}

export function parseFrames(text: string): Omit<SseEvent, 'at'>[] {
  const events: Omit<SseEvent, 'at'>[] = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    let any = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const [field, ...rest] = line.split(': ');
      const value = rest.join(': ');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
      else continue;
      any = true;
    }
    if (any && (data.length > 0 || id !== null)) events.push({ event, id, data: data.join('\n') });
  }
  return events;
}

/** `localAddress`: the address the client connects from (any of 127.0.0.0/8 on loopback) */
export function openSse(url: string, headers: Record<string, string> = {}, localAddress?: string): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const options = { headers: { accept: 'text/event-stream', ...headers }, ...(localAddress ? { localAddress } : {}) };
    const req = request(url, options, (res) => {
      let text = '';
      const waiters = new Set<() => void>();
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => text,
        events: [],
        next(match, withinMs = 10_000, from = 0) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = stream.events.slice(from).find(match);
              if (found) {
                waiters.delete(check);
                clearTimeout(timer);
                ok(found);
                return true;
              }
              return false;
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event within ${withinMs} ms; received:\n${text}`));
            }, withinMs);
            if (!check()) waiters.add(check);
          });
        },
        body: () =>
          new Promise((ok) => {
            if (res.complete) ok(text);
            else res.once('end', () => ok(text));
          }),
        close: () => {
          req.destroy();
        },
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        const now = performance.now();
        const parsed = parseFrames(text);
        // events already seen keep their arrival time
        for (let i = stream.events.length; i < parsed.length; i++) stream.events.push({ ...parsed[i]!, at: now });
        for (const w of [...waiters]) w();
      });
      res.on('error', () => undefined);
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}
