// Closed ports on 127.0.0.1, for "the service is down" done for real: a port
// this process listened on a moment ago and closed again, so a connection
// to it is refused.
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}
