// An account's connections to networks: the operator's own tokens and API
// keys that feeds read with. The secrets go in and never come out.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  updateConnection,
  type ConnectionKeyring,
} from '../../manage/connections.js';
import { pageRequest } from '../../manage/paging.js';
import { ConnectionCreateBody, ConnectionPatchBody, ConnectionRecord } from '../../schemas/connections.js';
import { opOf } from './auth.js';
import { db, num } from './common.js';
import { manageResource } from './resource.js';
import { AccountParams, ConnectionParams } from './schemas.js';

const keyringOf = (request: FastifyRequest): ConnectionKeyring => ({
  secretKey: request.server.ctx.connectionKey ?? null,
});

const SECRET_NOTE =
  'The secret fields (`accessToken`, `refreshToken`, `apiKey`, `apiSecret`) are encrypted at once (SECRET_KEY, else the instance’s key file) ' +
  'and never answered, logged or written to the audit log: a record shows only `tokenHint`, their last 4 characters.';

const STATUS_NOTE =
  '`status`: active; failing (the network refused a call: a permission missing, a key not valid — tried again on the next poll); ' +
  'expired or revoked (feeds stop until it is reconnected). `statusText` says it in words ("expires in 5 days").';

export async function connectionRoutes(app: FastifyInstance) {
  const connections = manageResource(app, 'manage: connections', {
    record: [ConnectionRecord, 'connection'],
    collection: ['/accounts/:accountId/connections', AccountParams],
    item: ['/connections/:connectionId', ConnectionParams],
  });
  const editors = ['editor', 'connection'] as const;

  connections.list(
    {
      access: ['viewer', 'account'],
      summary: 'List the connections of an account',
      description: `Oldest first, with the feeds that read with each (\`usedBy\`). ${STATUS_NOTE}`,
    },
    async (request) =>
      await listConnections(
        db(request),
        num(request.params.accountId),
        pageRequest(request.query),
        keyringOf(request),
        request.server.ctx.now(),
      ),
  );

  connections.create(
    {
      access: ['editor', 'account'],
      summary: 'Store a connection',
      description:
        'A token (`authKind: token`: an access token, bearer token or personal access token) or an API key (`authKind: api_key`) for a network, ' +
        `for the account's feeds to read with (their connector's \`connectionId\`). ${SECRET_NOTE} ` +
        '409 when the instance has no key to encrypt it with (PostgreSQL without SECRET_KEY).',
      body: ConnectionCreateBody,
    },
    async (request) =>
      await createConnection(opOf(request), num(request.params.accountId), request.body, keyringOf(request)),
  );

  connections.get(
    { access: ['viewer', 'connection'], summary: 'Get a connection', description: STATUS_NOTE },
    async (request) =>
      await getConnection(db(request), num(request.params.connectionId), keyringOf(request), request.server.ctx.now()),
  );

  connections.update(
    {
      access: editors,
      summary: 'Rename or reconnect a connection',
      description:
        'A new `name`, `expiresAt`, `instance` or account fields; any secret field reconnects: the secret is replaced by the fields given ' +
        `and the status is active again (the feeds read with it from their next poll). ${SECRET_NOTE}`,
      body: ConnectionPatchBody,
    },
    async (request) =>
      await updateConnection(opOf(request), num(request.params.connectionId), request.body, keyringOf(request)),
  );

  connections.remove(
    {
      access: editors,
      summary: 'Delete a connection',
      description:
        'Its secrets go with it. Refused (409, naming the feeds) while feeds read with it: give them another connection first.',
    },
    async (request) => await deleteConnection(opOf(request), num(request.params.connectionId), keyringOf(request)),
  );
}
