// The two baselines, in their own process: Fastify hello-world, and the
// ceiling — a bare Fastify server answering with a precomputed body that is
// byte-identical to Wallery's answer for the same query. With
// BENCH_STATIC_DIR, also a bare static-file server of that folder under
// /static/ (@fastify/static, defaults): the ceiling of serving stored files.
import { readFileSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const bodies: Record<string, { body: Buffer; type: string }> = JSON.parse(process.env.BENCH_CEILINGS ?? '{}');
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
for (const [name, spec] of Object.entries(bodies)) {
  const body = readFileSync(spec.body as unknown as string);
  app.get(`/ceiling/${name}`, (_req, reply) => {
    void reply.type(spec.type).send(body);
  });
}
if (process.env.BENCH_STATIC_DIR)
  await app.register(fastifyStatic, { root: process.env.BENCH_STATIC_DIR, prefix: '/static/' });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);
