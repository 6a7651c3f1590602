// The base of the URLs this instance gives of itself, for a request
// (src/domain/self-url.ts has the rule): PUBLIC_URL, else the origin the
// request came to — its Host, or X-Forwarded-Host/-Proto from a proxy
// TRUST_PROXY believes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listenUrl, requestOrigin, selfBase, type SelfUrl } from '../domain/self-url.js';

/** Where a server listens, from its socket (0 before it listens). */
function listeningPort(app: FastifyInstance): number {
  const address = app.server.address();
  return address !== null && typeof address === 'object' ? address.port : 0;
}

/** The context's SelfUrl, or — a bare context (tests) — no PUBLIC_URL and this server's listen address. */
export function serverSelfUrl(app: FastifyInstance): SelfUrl {
  return app.ctx.self ?? { publicUrl: null, listening: () => listenUrl(listeningPort(app)) };
}

/** The base of this instance's URLs in the answer to `request`. */
export function requestBase(request: FastifyRequest): string {
  const self = serverSelfUrl(request.server);
  return self.publicUrl ?? selfBase(self, requestOrigin(request.protocol, request.host));
}
