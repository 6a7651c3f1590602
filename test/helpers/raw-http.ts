// Raw HTTP/1.1 over a TCP socket, for requests no HTTP client would send
// (bad header bytes, unknown methods, lying lengths, oversized heads).
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/** An open connection: send bytes, read whole responses, see whether the server closed it. */
export interface RawConnection {
  send(bytes: string | Buffer): void;
  /** the next complete response (waits for it) */
  response(): Promise<RawResponse>;
  /** resolves once the server has closed the connection; rejects after the deadline */
  closed(): Promise<void>;
  /** responses still unread once the connection closed */
  leftover(): string;
  destroy(): void;
}

const DEADLINE_MS = 30_000;

export async function openRaw(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket: Socket = connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined); // a reset after the answer is expected
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffer = Buffer.alloc(0);
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake();
  });
  socket.on('close', () => {
    ended = true;
    wake();
  });

  /** Waits until `ready()` returns a value, or fails after the deadline. */
  const until = <T>(ready: () => T | undefined, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value !== undefined) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(value);
        } else if (ended) {
          waiters.delete(check);
          clearTimeout(timer);
          reject(new Error(`connection closed before ${what}; received: ${buffer.toString('latin1')}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} within ${DEADLINE_MS} ms; received: ${buffer.toString('latin1')}`));
      }, DEADLINE_MS);
      waiters.add(check);
      check();
    });

  return {
    send: (bytes) => void socket.write(bytes),
    response: () =>
      until(() => {
        const parsed = parseResponse(buffer);
        if (!parsed) return undefined;
        buffer = buffer.subarray(parsed.length);
        return parsed.response;
      }, 'complete response'),
    closed: () => until(() => (ended ? true : undefined), 'close').then(() => undefined),
    leftover: () => buffer.toString('latin1'),
    destroy: () => socket.destroy(),
  };
}

/** One response at the start of `buf` (Content-Length framed), or undefined while incomplete. */
function parseResponse(buf: Buffer): { response: RawResponse; length: number } | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = buf.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyStart = headEnd + 4;
  if (buf.length < bodyStart + length) return undefined;
  return {
    response: {
      status: Number(statusLine.split(' ')[1]),
      statusLine,
      headers,
      body: buf.subarray(bodyStart, bodyStart + length).toString('utf8'),
    },
    length: bodyStart + length,
  };
}
