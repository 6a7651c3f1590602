// What the connect routes of one server share: the connect context of a
// request (its settings from AppContext.oauth, the base URL of this instance
// for the redirect URI) and one guarded fetcher per server, closed with it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConnectContext, ConnectSettings } from '../../connections/oauth-flow.js';
import { createFetcher, type Fetcher } from '../../net/fetcher.js';
import { requestBase } from '../self-url.js';

const NO_APPS: ConnectSettings = { config: { apps: {} }, allowPrivateNetworks: false };
const fetchers = new WeakMap<FastifyInstance, Fetcher>();

export const settingsOf = (app: FastifyInstance): ConnectSettings => app.ctx.oauth ?? NO_APPS;

/** The server's fetcher for token endpoints and federated servers (made on first use, closed with the server). */
function fetcherOf(app: FastifyInstance): Fetcher {
  let fetcher = fetchers.get(app);
  if (!fetcher) {
    fetcher = createFetcher({
      allowPrivateNetworks: settingsOf(app).allowPrivateNetworks,
      timeoutMs: 20_000,
      maxBytes: 256 * 1024,
      hostConcurrency: 4,
      userAgent: 'Wallery/0.1 (self-hosted social wall; connecting a network)',
    });
    fetchers.set(app, fetcher);
  }
  return fetcher;
}

/** Closes the server's fetcher, if one was made (an onClose hook of the root server). */
export async function closeConnectFetcher(app: FastifyInstance): Promise<void> {
  const fetcher = fetchers.get(app);
  fetchers.delete(app);
  await fetcher?.close();
}

export function connectContext(request: FastifyRequest): ConnectContext {
  const app = request.server;
  const settings = settingsOf(app);
  return {
    db: app.ctx.store.db,
    oauth: settings.config,
    secretKey: app.ctx.connectionKey ?? null,
    fetcher: fetcherOf(app),
    now: app.ctx.now,
    base: requestBase(request),
  };
}
