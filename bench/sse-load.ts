// The SSE bench's load process (bench/sse.ts starts it, IPC between them):
// holds thousands of embed streams open on raw `net` sockets — no HTTP
// client, no frame parser, a marker looked for in each chunk — so that what
// it costs stays far below the server's cost (the bench reports its CPU).
// Commands: `open` (the streams, in batches), `round` (one post per wall
// created with W3 at once; the ms from each wall's write to the post's
// `upsert` on each of its streams), `close`.
import { connect, type Socket } from 'node:net';

export interface LoadSpec {
  /** where the streams connect (the server, or nginx before it) */
  host: string;
  port: number;
  /** the server itself, for the writes (W3) */
  writeBase: string;
  userKey: string;
  walls: { id: number; key: string }[];
  streamsPerWall: number;
}

export type Command = { cmd: 'open' } | { cmd: 'round'; round: number } | { cmd: 'close' };

export type Reply =
  | { cmd: 'open'; opened: number; ms: number; cpuMs: number }
  | { cmd: 'round'; times: number[]; missing: number; cpuMs: number; wallMs: number }
  | { cmd: 'close' };

/** How many streams are being opened at once: below the listen backlog, so no SYN waits for a retransmit */
const OPEN_BATCH = 250;
/** How long a round may take before the streams still waiting are counted missing */
const ROUND_DEADLINE_MS = 60_000;
/** Characters kept of a chunk's end: a marker cut between two chunks is still found */
const TAIL = 80;

interface Held {
  socket: Socket;
  wall: number;
  tail: string;
  /** the marker this stream waits for, and when it got it */
  waiting: string | null;
  at: number;
}

const spec = JSON.parse(process.argv[2]!) as LoadSpec;
const held: Held[] = [];
let onArrival: ((h: Held) => void) | null = null;

function open(wallIndex: number): Promise<Held> {
  const wall = spec.walls[wallIndex]!;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: spec.host, port: spec.port });
    const h: Held = { socket, wall: wallIndex, tail: '', waiting: null, at: -1 };
    let head = true;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      if (head) {
        head = false;
        if (!chunk.startsWith('HTTP/1.1 200')) {
          reject(new Error(`stream on wall ${wall.id}: ${chunk.split('\r\n')[0]}`));
          socket.destroy();
          return;
        }
        resolve(h);
      }
      if (h.waiting === null) {
        h.tail = chunk.slice(-TAIL);
        return;
      }
      const text = h.tail + chunk;
      h.tail = text.slice(-TAIL);
      if (text.includes(h.waiting)) {
        h.waiting = null;
        h.at = performance.now();
        onArrival?.(h);
      }
    });
    socket.once('error', reject);
    socket.write(
      `GET /api/embed/v1/walls/${wall.id}/stream?key=${wall.key} HTTP/1.1\r\nHost: ${spec.host}:${spec.port}\r\nAccept: text/event-stream\r\n\r\n`,
    );
  });
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

async function openAll(): Promise<Reply> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const total = spec.walls.length * spec.streamsPerWall;
  for (let from = 0; from < total; from += OPEN_BATCH) {
    const batch = Array.from({ length: Math.min(OPEN_BATCH, total - from) }, (_, i) =>
      open((from + i) % spec.walls.length),
    );
    held.push(...(await Promise.all(batch)));
  }
  return { cmd: 'open', opened: held.length, ms: performance.now() - started, cpuMs: cpuMs(cpu) };
}

/** One post on every wall at once; each stream's ms from its wall's write to the post's arrival. */
async function round(n: number): Promise<Reply> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const markers = spec.walls.map((w) => `sse-bench round ${n} wall ${w.id} ${Date.now()}`);
  for (const h of held) {
    h.waiting = markers[h.wall]!;
    h.at = -1;
  }
  let left = held.length;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ROUND_DEADLINE_MS);
    onArrival = () => {
      if (--left === 0) {
        clearTimeout(timer);
        resolve();
      }
    };
  });
  const writtenAt = await Promise.all(
    spec.walls.map(async (w, i) => {
      const t0 = performance.now();
      const res = await fetch(`${spec.writeBase}/api/v2/widget/create-post?user_key=${spec.userKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallId: w.id, content: markers[i] }),
      });
      if (res.status !== 200) throw new Error(`W3 on wall ${w.id}: ${res.status} ${await res.text()}`);
      return t0;
    }),
  );
  await done;
  onArrival = null;
  const times = held.filter((h) => h.at >= 0).map((h) => h.at - writtenAt[h.wall]!);
  for (const h of held) h.waiting = null;
  return {
    cmd: 'round',
    times,
    missing: held.length - times.length,
    cpuMs: cpuMs(cpu),
    wallMs: performance.now() - started,
  };
}

process.on('message', (m: Command) => {
  const run = async (): Promise<Reply> => {
    if (m.cmd === 'open') return openAll();
    if (m.cmd === 'round') return round(m.round);
    for (const h of held) h.socket.destroy();
    held.length = 0;
    return { cmd: 'close' };
  };
  run().then(
    (reply) => process.send!(reply),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
});
