// Liveness and readiness probes for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';

export async function registerHealth(app: FastifyInstance) {
  app.get('/healthz', async (_request, reply) => reply.type('application/json; charset=utf-8').send({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const store = await app.ctx.store.ping();
    return reply
      .code(store ? 200 : 503)
      .type('application/json; charset=utf-8')
      .send({ status: store ? 'ready' : 'unavailable', store: store ? 'ok' : 'down' });
  });
}
