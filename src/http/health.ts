// Liveness and readiness probes for load balancers and orchestrators.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

// Documentation (OpenAPI) and serialization: a status, then one `ok`/`down`
// field per component the probe checks (redis only when the quota uses it).
const Component = Type.Enum(['ok', 'down']);
const LIVENESS = {
  summary: 'Liveness: the process is up',
  tags: ['health'],
  response: {
    200: Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false, description: '{"status":"ok"}' }),
  },
};
const Readiness = (status: 'ready' | 'unavailable', description: string) =>
  Type.Object(
    {
      status: Type.Literal(status),
      store: Component,
      redis: Type.Optional(Component),
      ...(status === 'unavailable' ? { shutdown: Type.Optional(Type.Literal('draining')) } : {}),
    },
    { additionalProperties: false, description },
  );
const READINESS = {
  summary: 'Readiness: the store (and Redis, when configured) answer, and the instance is not shutting down',
  tags: ['health'],
  response: {
    200: Readiness('ready', 'ready: every component ok'),
    503: Readiness(
      'unavailable',
      'unavailable: the component that is down says "down"; `shutdown: "draining"` while the instance shuts down',
    ),
  },
};

export async function registerHealth(app: FastifyInstance) {
  app.get('/healthz', { schema: LIVENESS }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send({ status: 'ok' }),
  );
  app.get('/readyz', { schema: READINESS }, async (_request, reply) => {
    const redisQuota = app.ctx.quota?.backend === 'redis';
    const [store, redis] = await Promise.all([app.ctx.store.ping(), redisQuota ? app.ctx.quota!.ping() : true]);
    // a stopping instance is not ready, whatever its components say: balancers stop sending here
    const draining = app.drain.phase !== 'serving';
    const ready = store && redis && !draining;
    const body: Record<string, string> = { status: ready ? 'ready' : 'unavailable', store: store ? 'ok' : 'down' };
    if (redisQuota) body.redis = redis ? 'ok' : 'down';
    if (draining) body.shutdown = 'draining';
    return reply
      .code(ready ? 200 : 503)
      .type('application/json; charset=utf-8')
      .send(body);
  });
}
