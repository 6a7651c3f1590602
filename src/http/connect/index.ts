// GET /connect/callback — where a network's sign-in comes back (the redirect
// URI registered with each OAuth app: <PUBLIC_URL>/connect/callback). A page
// for browsers, left out of the OpenAPI document like the hosted wall page:
// on success a 303 to the console's Connections screen; on a refusal (a
// forged, expired or reused state, the network's `error=access_denied`, a
// failed exchange) a page that says what happened, and nothing is stored.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ConnectRefusal, CALLBACK_PATH, finishConnect } from '../../connections/oauth-flow.js';
import { requestBase } from '../self-url.js';
import { escapeHtml } from '../web/page.js';
import { closeConnectFetcher, connectContext } from './settings.js';

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The console's Connections screen of an account (a hash route of the console). */
export const connectionsScreen = (base: string, accountId: number | null, connected?: number): string =>
  `${base}/console/#/connections${accountId ? `/${accountId}` : ''}${connected ? `?connected=${connected}` : ''}`;

function refusalPage(reply: FastifyReply, message: string, back: string) {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>Not connected — Wallery</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}h1{font-size:1.5rem}a{color:#0b57d0}</style></head>
<body><main><h1>Not connected</h1><p id="why">${escapeHtml(message)}</p><p><a href="${escapeHtml(back)}">Back to Connections</a></p></main></body>
</html>`;
  return reply
    .code(400)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

export async function registerConnect(app: FastifyInstance) {
  app.addHook('onClose', closeConnectFetcher);
  app.get(CALLBACK_PATH, { schema: { hide: true } }, async (request, reply) => {
    const base = requestBase(request);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    try {
      const done = await finishConnect(connectContext(request), new URLSearchParams(query));
      request.log.info(
        { accountId: done.accountId, connectionId: done.connectionId, network: done.network },
        done.reconnected ? 'connection reconnected' : 'connection made',
      );
      return reply
        .code(303)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(connectionsScreen(base, done.accountId, done.connectionId), 303);
    } catch (err) {
      if (!(err instanceof ConnectRefusal)) throw err;
      request.log.info({ accountId: err.accountId, reason: err.message }, 'connection refused');
      return refusalPage(reply, err.message, connectionsScreen(base, err.accountId));
    }
  });
}
