// perServer: one thing per server, shared by the server's encapsulated
// plugins, made on first use and closed once with the server.
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { perServer } from '../../src/http/per-server.js';

/** A bare server with a context object, as buildServer decorates it. */
function server(): FastifyInstance {
  const app = Fastify();
  app.decorate('ctx', {} as FastifyInstance['ctx']);
  return app;
}

describe('perServer', () => {
  it('makes one thing per server on first use, shared by its plugins, and closes it once with the server', async () => {
    const made: number[] = [];
    const closed: number[] = [];
    const counter = perServer(
      () => {
        made.push(made.length + 1);
        return made.length;
      },
      async (n) => {
        closed.push(n);
      },
    );
    const a = server();
    const b = server();
    const seen: number[] = [];
    a.addHook('onClose', counter.close);
    await a.register(async (plugin) => {
      plugin.get('/', async (request) => {
        seen.push(counter.of(request.server));
        return 'ok';
      });
    });
    await a.ready();
    await a.inject('/');
    await a.inject('/');
    expect(counter.of(a)).toBe(1);
    expect(counter.of(b)).toBe(2);
    expect(seen).toEqual([1, 1]);
    await a.close();
    expect(closed).toEqual([1]);
    // closed with its server: a server that never made one closes nothing
    await counter.close(a);
    expect(closed).toEqual([1]);
    await b.close();
  });
});
