// The OAuth connect flow's management routes: what the console's Connections
// screen is told of each network (which have a Connect button, which ask
// for a pasted token or key, and its fields), and the start of a sign-in.
// The callback is a page for browsers: src/http/connect/.
import type { FastifyInstance } from 'fastify';
import { networkOffers, startConnect, STATE_TTL_MS } from '../../connections/oauth-flow.js';
import { notFound } from '../../domain/errors.js';
import { ConnectStartBody, ConnectStartRecord, NetworkOfferRecord } from '../../schemas/connect.js';
import { findAccount } from '../../store/accounts.js';
import { Type } from 'typebox';
import { connectContext, settingsOf } from '../connect/settings.js';
import { opOf } from './auth.js';
import { db, num } from './common.js';
import { manageRoute } from './route.js';
import { AccountParams } from './schemas.js';

const TAG = 'manage: connections';

export async function connectRoutes(app: FastifyInstance) {
  const route = manageRoute(app, TAG);

  route.get(
    '/accounts/:accountId/connect/networks',
    {
      access: ['viewer', 'account'],
      summary: 'How each network can be connected',
      description:
        "Every network Wallery reads with a connection: whether it has a Connect button (`oauth`: `app` when this instance's OAuth app for it is configured, `instance` for a federated network whose servers register Wallery at sign-in), the settings that would give it one, and the fields of a pasted token or API key.",
      params: AccountParams,
      ok: [200, Type.Array(NetworkOfferRecord), 'the networks'],
      errors: [404],
    },
    async (request) => {
      const accountId = num(request.params.accountId);
      if (!(await findAccount(db(request), accountId))) throw notFound('account', accountId);
      return networkOffers(settingsOf(request.server).config);
    },
  );

  route.post(
    '/accounts/:accountId/connect',
    {
      access: ['editor', 'account'],
      summary: 'Start connecting a network (OAuth)',
      description:
        `Answers the network's sign-in page (\`authorizationUrl\`): open it in the browser. The sign-in comes back to \`<PUBLIC_URL>/connect/callback\` within ${STATE_TTL_MS / 60_000} minutes, which stores the connection (sealed) and sends the browser to the console's Connections screen. ` +
        '`state` is random and kept hashed on the server with the PKCE verifier (S256, where the network takes PKCE); it is good once. ' +
        '`instance`: the server of a federated network (Pixelfed, Misskey). `connectionId`: reconnect that connection (its tokens are replaced). ' +
        'The audit log names this token for what the callback stores (`connection.create`, or `connection.update` when reconnecting). ' +
        '409 when this instance has no secret key to seal connections with.',
      params: AccountParams,
      body: ConnectStartBody,
      ok: [200, ConnectStartRecord, 'where to sign in'],
      errors: [404, 409],
    },
    async (request) => {
      const accountId = num(request.params.accountId);
      if (!(await findAccount(db(request), accountId))) throw notFound('account', accountId);
      const started = await startConnect(connectContext(request), {
        accountId,
        actor: opOf(request).actor,
        network: request.body.network,
        ...(request.body.name !== undefined ? { name: request.body.name } : {}),
        ...(request.body.instance !== undefined ? { instance: request.body.instance } : {}),
        ...(request.body.connectionId !== undefined ? { connectionId: request.body.connectionId } : {}),
      });
      return { authorizationUrl: started.authorizationUrl, expiresAt: new Date(started.expiresAt).toISOString() };
    },
  );
}
