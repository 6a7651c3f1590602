// The same-shaped ceiling of `serve --workers N`: Fastify hello-world as N
// node:cluster workers on one listening socket (N = argv[2]; 1 is a single
// process, no cluster). Prints READY <port> once every worker listens.
import cluster from 'node:cluster';
import Fastify from 'fastify';

const workers = Number(process.argv[2] ?? 1);

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === workers) process.stdout.write(`READY ${address.port}\n`);
  });
  // port 0 in every worker: the primary picks one free port and shares it
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  const app = Fastify();
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (!cluster.isWorker) process.stdout.write(`READY ${(app.server.address() as { port: number }).port}\n`);
}
