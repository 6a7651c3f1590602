// What the connect routes of one server share: the connect context of a
// request (its settings from AppContext.oauth, the base URL of this instance
// for the redirect URI) and one guarded fetcher per server, closed with it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConnectContext, ConnectSettings } from '../../connections/oauth-flow.js';
import { createFetcher } from '../../net/fetcher.js';
import { perServer } from '../per-server.js';
import { requestBase } from '../self-url.js';

const NO_APPS: ConnectSettings = { config: { apps: {} }, allowPrivateNetworks: false };

export const settingsOf = (app: FastifyInstance): ConnectSettings => app.ctx.oauth ?? NO_APPS;

/** The server's fetcher for token endpoints and federated servers (made on first use, closed with the server). */
const connectFetcher = perServer(
  (app) =>
    createFetcher({
      allowPrivateNetworks: settingsOf(app).allowPrivateNetworks,
      timeoutMs: 20_000,
      maxBytes: 256 * 1024,
      hostConcurrency: 4,
      userAgent: 'Wallery/0.1 (self-hosted social wall; connecting a network)',
    }),
  (fetcher) => fetcher.close(),
);

/** Closes the server's fetcher, if one was made (an onClose hook of the root server). */
export const closeConnectFetcher = connectFetcher.close;

export function connectContext(request: FastifyRequest): ConnectContext {
  const app = request.server;
  const settings = settingsOf(app);
  return {
    db: app.ctx.store.db,
    oauth: settings.config,
    secretKey: app.ctx.connectionKey ?? null,
    fetcher: connectFetcher.of(app),
    now: app.ctx.now,
    base: requestBase(request),
  };
}
