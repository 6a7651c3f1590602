// Shutting down without failing a request (the sequence: src/cli/shutdown.ts).
//
// - `unready`: /readyz answers 503 so that balancers stop sending here, and
//   every answer carries `Connection: close`, so keep-alive clients move to a
//   new connection (which the balancer sends elsewhere). Requests are still
//   served: a balancer that has not noticed yet loses nothing.
// - `closing`: the server is about to stop. A request that still reaches it
//   (on a connection opened before) gets a 503 in its API's envelope with
//   `Retry-After` and `Connection: close` — safe to retry on another
//   instance, as the handler never ran. Fastify's own `return503OnClosing`
//   would answer in Fastify's error shape instead, so it is off.
//
// Closing a keep-alive connection while its client may be sending on it is
// what turns into connection resets (HTTP/1.1 has no way to announce it).
// From the signal on, every answer says `Connection: close`, so no busy
// connection is reused; idle ones are closed (and new ones refused) only
// after SHUTDOWN_DELAY_MS, by when a balancer watching /readyz routes
// nothing here any more.
import type { FastifyInstance } from 'fastify';
import { ApiError, MESSAGES } from './errors.js';

export type DrainPhase = 'serving' | 'unready' | 'closing';

/** seconds a refused client is told to wait before it tries again (another instance answers at once) */
export const RETRY_AFTER_S = 1;

/** the probes answer on their own terms while draining: the process is alive, and not ready */
const PROBES = new Set(['/healthz', '/readyz']);

export class Drain {
  private current: DrainPhase = 'serving';

  get phase(): DrainPhase {
    return this.current;
  }

  /** /readyz answers 503 from now on; requests are still served, each answer closing its connection. */
  unready(): void {
    if (this.current === 'serving') this.current = 'unready';
  }

  /** Requests arriving from now on are refused with a 503 (the server is about to close). */
  close(): void {
    this.current = 'closing';
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** where this server is in a graceful shutdown */
    drain: Drain;
  }
}

/** Registers the drain hooks; before every route, so that a refused request runs none of its handlers. */
export function registerDrain(app: FastifyInstance): void {
  const drain = new Drain();
  app.decorate('drain', drain);
  app.addHook('onRequest', (request, reply, done) => {
    if (drain.phase !== 'closing' || PROBES.has(request.url.split('?')[0] ?? '')) return done();
    reply.header('Retry-After', String(RETRY_AFTER_S));
    // the route's own error handler renders it: the v2, management or embed envelope
    done(new ApiError(503, MESSAGES.shuttingDown));
  });
  // however the server comes to close (app.close() without the shutdown
  // sequence too), what still arrives is refused in the envelope
  app.addHook('preClose', (done) => {
    drain.close();
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (drain.phase !== 'serving') reply.header('Connection', 'close');
    done(null, payload);
  });
}
