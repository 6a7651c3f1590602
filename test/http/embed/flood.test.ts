// A flood, bounded and on loopback only: twelve client addresses
// (127.0.0.2–13, every one a real source address of its own) spend their own
// budgets on a wall's key — the first page every visitor reads, made-up
// cursors the cache cannot answer — and one of them tries to hold more
// streams than one client may. A visitor at 127.0.0.50 is still served the
// wall, its first page and a stream. Before the cache answered first, the
// flood spent the key's budget and the visitor was refused (429).
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { encodeEmbedCursor } from '../../../src/http/embed/cursor.js';
import { describeSample } from '../../helpers/sample.js';
import { EMBED, embedError, startEmbedServer, type EmbedServer } from './helpers.js';
import { openSse, type SseStream } from './sse-client.js';

const WALL = 7011;
const ATTACKERS = Array.from({ length: 12 }, (_, i) => `127.0.0.${i + 2}`);
const VISITOR = '127.0.0.50';
const PER_CLIENT = 60;
const PER_KEY = 200;
const STREAMS_PER_CLIENT = 3;

describeSample('an embed flood from twelve addresses', () => {
  let s: EmbedServer;
  let key: string;
  const agents = new Map<string, Agent>();
  const streams: SseStream[] = [];

  /** A GET of the embed API from `address` (node:http: undici's connect options drop localAddress). */
  function from(address: string, path: string, query: Record<string, string> = {}) {
    let agent = agents.get(address);
    if (!agent) agents.set(address, (agent = new Agent({ keepAlive: true, localAddress: address })));
    const qs = new URLSearchParams({ key, ...query });
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${s.srv.baseUrl}${EMBED}${path}?${qs}`, { agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  beforeAll(async () => {
    s = await startEmbedServer({
      embed: {
        rateLimitPerIp: PER_CLIENT,
        rateLimitPerKey: PER_KEY,
        rateLimitWindowMs: 600_000,
        maxStreams: 50,
        maxStreamsPerClient: STREAMS_PER_CLIENT,
      },
    });
    key = (await s.makeKey(WALL)).key;
  });
  afterAll(async () => {
    for (const st of streams) st.close();
    for (const agent of agents.values()) agent.destroy();
    await s?.close();
  });

  it('spends the attackers’ own budgets and leaves a visitor served: the wall, its first page, a stream', async () => {
    // every attacker at once: its whole budget and more, on cached pages and on made-up cursors
    const statuses = await Promise.all(
      ATTACKERS.map(async (address, a) => {
        const seen: number[] = [];
        for (let i = 0; i < PER_CLIENT + 10; i++) {
          const made = encodeEmbedCursor({ pin: 0, createdAt: 1_700_000_000_000 - i * 1000, id: a * 1000 + i });
          const res =
            i % 3 === 0
              ? await from(address, `/walls/${WALL}`)
              : i % 3 === 1
                ? await from(address, `/walls/${WALL}/posts`)
                : await from(address, `/walls/${WALL}/posts`, { cursor: made });
          seen.push(res.status);
        }
        return seen;
      }),
    );
    const all = statuses.flat();
    // each address was cut off at its own limit
    for (const seen of statuses) expect(seen.slice(PER_CLIENT).every((st) => st === 429)).toBe(true);
    expect(all.length).toBe(ATTACKERS.length * (PER_CLIENT + 10));
    // the made-up cursors did spend the key's budget: a new one from a fresh address is refused
    const spent = await from('127.0.0.40', `/walls/${WALL}/posts`, {
      cursor: encodeEmbedCursor({ pin: 0, createdAt: 1, id: 1 }),
    });
    expect(spent.status).toBe(429);

    // one address tries to hold more streams than one client may: the extra ones are refused, in the envelope
    const url = `${s.srv.baseUrl}${EMBED}/walls/${WALL}/stream?key=${key}`;
    for (let i = 0; i < STREAMS_PER_CLIENT + 2; i++) streams.push(await openSse(url, {}, '127.0.0.60'));
    expect(streams.map((st) => st.status)).toEqual([200, 200, 200, 429, 429]);
    const refused = JSON.parse(await streams[3]!.body()) as Record<string, unknown>;
    expect(refused).toEqual({
      responseCode: 429,
      responseStatus: 'error',
      responseMessage: 'too many open streams from this address: poll the posts URL instead',
    });
    expect(s.srv.app.embedStreams.openStreams).toBe(STREAMS_PER_CLIENT);

    // the visitor: the wall, its first page and a live stream
    const wall = await from(VISITOR, `/walls/${WALL}`);
    expect(wall.status, wall.text).toBe(200);
    const page = await from(VISITOR, `/walls/${WALL}/posts`);
    expect(page.status, page.text).toBe(200);
    expect((JSON.parse(page.text) as { posts: unknown[] }).posts.length).toBeGreaterThan(0);
    const live = await openSse(url, {}, VISITOR);
    streams.push(live);
    expect(live.status).toBe(200);
  });

  it('a /64 is one IPv6 client; another /64 is another (behind a trusted proxy)', async () => {
    const p = await startEmbedServer({
      embed: { rateLimitPerIp: 2, rateLimitPerKey: 1000, rateLimitWindowMs: 600_000 },
      trustProxy: ['127.0.0.1'],
    });
    try {
      const k = (await p.makeKey(WALL)).key;
      const as = (ip: string) => p.embed(`/walls/${WALL}`, { key: k }, { 'x-forwarded-for': ip });
      expect((await as('2001:db8:1:2::a')).status).toBe(200);
      expect((await as('2001:db8:1:2:ffff:1:2:3')).status).toBe(200);
      // a third address of the same /64 is the same client
      embedError(await as('2001:db8:1:2::b'), 429);
      expect((await as('2001:db8:1:3::a')).status).toBe(200);
    } finally {
      await p.close();
    }
  });
});
