// Something a server's routes share and make on first use — a guarded
// fetcher, a runtime's memory — one per server, and closed with it. Keyed by
// the server's context, which every encapsulated plugin instance of one
// server shares (a plugin's own instance is not the one its onClose hook and
// its requests see).
import type { FastifyInstance } from 'fastify';

export interface PerServer<T> {
  /** the server's thing, made on first use */
  of(app: FastifyInstance): T;
  /** closes the server's thing, if one was made: an onClose hook */
  close(app: FastifyInstance): Promise<void>;
}

export function perServer<T>(make: (app: FastifyInstance) => T, close: (made: T) => Promise<void>): PerServer<T> {
  const made = new WeakMap<object, T>();
  return {
    of(app) {
      let thing = made.get(app.ctx);
      if (thing === undefined) {
        thing = make(app);
        made.set(app.ctx, thing);
      }
      return thing;
    },
    async close(app) {
      const thing = made.get(app.ctx);
      made.delete(app.ctx);
      if (thing !== undefined) await close(thing);
    },
  };
}
