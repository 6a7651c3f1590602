// Operator tokens of the management API, for unscoped admins: list, make
// (plaintext once), revoke. The same operations as `wallery tokens`.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  createOperatorToken,
  getOperatorToken,
  listOperatorTokenPage,
  revokeOperatorToken,
} from '../../manage/tokens.js';
import { pageRequest } from '../../manage/paging.js';
import { IdString, PageQuery } from '../../schemas/fields.js';
import { NewTokenRecord, TokenCreateBody, TokenRecord } from '../../schemas/tokens.js';
import { access } from './access.js';
import { opOf } from './auth.js';
import { created, db, doc, ok } from './common.js';
import { Created, Ok, PageOf, responses } from './schemas.js';

const TokenParams = Type.Object({ tokenId: IdString('tokenId') });

export async function tokenRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: operator tokens';

  app.get(
    '/tokens',
    {
      config: access('admin', 'unscoped'),
      schema: {
        ...doc(
          tag,
          'List operator tokens',
          'Oldest first, revoked ones included. Only a prefix of each token is known.',
        ),
        querystring: PageQuery,
        response: responses({ 200: Ok(PageOf(TokenRecord), 'a page of tokens') }),
      },
    },
    async (request) => ok(await listOperatorTokenPage(db(request), pageRequest(request.query))),
  );

  // Who am I: any token may read its own record (the console decides what to show from its role and accounts).
  app.get(
    '/tokens/current',
    {
      config: access('viewer', 'filtered'),
      schema: {
        ...doc(
          tag,
          'The token of this call',
          'Its name, role and the accounts it is limited to: what a client such as the console shows and allows. Any token may read its own.',
        ),
        response: responses({ 200: Ok(TokenRecord, 'the calling token') }),
      },
    },
    async (request) => ok(await getOperatorToken(db(request), opOf(request).actor.tokenId!)),
  );

  app.post(
    '/tokens',
    {
      config: access('admin', 'unscoped'),
      schema: {
        ...doc(
          tag,
          'Make an operator token',
          'With a role (default admin) and the accounts it is limited to (none: every account; each must exist, 404 otherwise). ' +
            'The plaintext `token` is in this response only; Wallery stores its SHA-256.',
        ),
        body: TokenCreateBody,
        response: responses({ 201: Created(NewTokenRecord, 'the new token, with its plaintext') }, 404, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createOperatorToken(opOf(request), request.body));
    },
  );

  app.delete(
    '/tokens/:tokenId',
    {
      config: access('admin', 'unscoped'),
      schema: {
        ...doc(
          tag,
          'Revoke an operator token',
          'Calls with it are 401 from the next call on. A revoked token stays listed.',
        ),
        params: TokenParams,
        response: responses({ 200: Ok(TokenRecord, 'the revoked token') }, 404, 409),
      },
    },
    async (request) => ok(await revokeOperatorToken(opOf(request), String(Number(request.params.tokenId)))),
  );
}
