// The bench's request mixes (bench/load.ts): what the generators send is
// what the mix describes — every request one of its kinds, every drawn value
// in range, a var drawn once per request (the same wall in path and body) —
// and the sequence is the same for the same seed.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasWrk, mixRequests, runCase, type Mix } from '../../bench/load.js';

const WALLS = [7, 8, 9];
const MIX: Mix = {
  seed: 42,
  requests: [
    {
      weight: 1,
      path: '/posts/{wall}?key=k&offset={offset}&limit={limit}',
      vars: { wall: { oneOf: WALLS }, offset: { int: [0, 40] }, limit: { int: [10, 100] } },
    },
    {
      weight: 1,
      method: 'POST',
      path: '/create?key=k',
      headers: { 'content-type': 'application/json' },
      body: '{"wallId":{wall},"content":"x {wall}"}',
      vars: { wall: { oneOf: WALLS } },
    },
  ],
};

interface Seen {
  method: string;
  url: string;
  type?: string;
  body: string;
}

/** Holds one request against the mix; returns its kind. */
function check(r: Seen): 'get' | 'post' {
  if (r.method === 'GET') {
    const m = /^\/posts\/(\d+)\?key=k&offset=(\d+)&limit=(\d+)$/.exec(r.url);
    expect(m, r.url).not.toBeNull();
    const [wall, offset, limit] = m!.slice(1).map(Number) as [number, number, number];
    expect(WALLS).toContain(wall);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(40);
    expect(limit).toBeGreaterThanOrEqual(10);
    expect(limit).toBeLessThanOrEqual(100);
    expect(r.body).toBe('');
    return 'get';
  }
  expect(r.method).toBe('POST');
  expect(r.url).toBe('/create?key=k');
  expect(r.type).toBe('application/json');
  const body = JSON.parse(r.body) as { wallId: number; content: string };
  expect(WALLS).toContain(body.wallId);
  expect(body.content).toBe(`x ${body.wallId}`);
  return 'post';
}

describe('mixRequests (the autocannon side)', () => {
  it('draws every request from the mix, the same sequence for the same seed', () => {
    const a = mixRequests(MIX);
    const b = mixRequests(MIX);
    const first = Array.from({ length: 500 }, () => a());
    expect(Array.from({ length: 500 }, () => b())).toEqual(first);
    const kinds = first.map((r) =>
      check({ method: r.method, url: r.path, type: r.headers['content-type'], body: r.body ?? '' }),
    );
    expect(kinds).toContain('get');
    expect(kinds).toContain('post');
    expect(new Set(first.map((r) => r.path)).size).toBeGreaterThan(100);
    expect(mixRequests({ ...MIX, seed: 7 })()).not.toEqual(first[0]);
  });

  it('refuses a template naming an undeclared var, and an empty mix', () => {
    expect(() => mixRequests({ seed: 1, requests: [{ weight: 1, path: '/{nope}' }] })).toThrow(/nope/);
    expect(() => mixRequests({ seed: 1, requests: [] })).toThrow(/at least one/);
  });
});

describe.skipIf(!hasWrk())('the wrk script of a mix', () => {
  let server: Server;
  const seen: Seen[] = [];
  let url = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, type: req.headers['content-type'], body });
        // POSTs answer 404, so the summary's status count is exercised too
        res.writeHead(req.method === 'POST' ? 404 : 200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends only requests of the mix, drawn per request, and counts the non-2xx answers', async () => {
    const result = await runCase({ url, mix: MIX, seconds: 1, warmupSeconds: 0, connections: 2 }, 'wrk');
    expect(result.generator).toBe('wrk');
    expect(result.requests).toBeGreaterThan(0);
    // wrk's own CPU time, read from the shell that ran it: some, and less than its one thread can spend
    expect(result.generatorCores).toBeGreaterThan(0);
    expect(result.generatorCores).toBeLessThan(1.5);
    expect(seen.length).toBeGreaterThanOrEqual(result.requests);
    const kinds = seen.map(check);
    expect(kinds).toContain('get');
    expect(kinds).toContain('post');
    expect(result.non2xx).toBeGreaterThan(0);
    expect(result.non2xx).toBeLessThanOrEqual(kinds.filter((k) => k === 'post').length);
    expect(new Set(seen.map((r) => r.url)).size).toBeGreaterThan(1);
  });
});
