// Operator tokens of the management API, for unscoped admins: list, make
// (plaintext once), revoke. The same operations as `wallery tokens`.
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
import { opOf } from './auth.js';
import { manageRoute } from './route.js';
import { db } from './common.js';
import { PageOf } from './schemas.js';

const TokenParams = Type.Object({ tokenId: IdString('tokenId') });

export async function tokenRoutes(app: FastifyInstance) {
  const tag = 'manage: operator tokens';
  const route = manageRoute(app, tag);

  route.get(
    '/tokens',
    {
      access: ['admin', 'unscoped'],
      summary: 'List operator tokens',
      description: 'Oldest first, revoked ones included. Only a prefix of each token is known.',
      query: PageQuery,
      ok: [200, PageOf(TokenRecord), 'a page of tokens'],
    },
    async (request) => listOperatorTokenPage(db(request), pageRequest(request.query)),
  );

  // Who am I: any token may read its own record (the console decides what to show from its role and accounts).
  route.get(
    '/tokens/current',
    {
      access: ['viewer', 'filtered'],
      summary: 'The token of this call',
      description:
        'Its name, role and the accounts it is limited to: what a client such as the console shows and allows. Any token may read its own.',
      ok: [200, TokenRecord, 'the calling token'],
    },
    async (request) => getOperatorToken(db(request), opOf(request).actor.tokenId!),
  );

  route.post(
    '/tokens',
    {
      access: ['admin', 'unscoped'],
      summary: 'Make an operator token',
      description:
        'With a role (default admin) and the accounts it is limited to (none: every account; each must exist, 404 otherwise). ' +
        'The plaintext `token` is in this response only; Wallery stores its SHA-256.',
      body: TokenCreateBody,
      ok: [201, NewTokenRecord, 'the new token, with its plaintext'],
      errors: [404, 409],
    },
    async (request) => {
      return createOperatorToken(opOf(request), request.body);
    },
  );

  route.delete(
    '/tokens/:tokenId',
    {
      access: ['admin', 'unscoped'],
      summary: 'Revoke an operator token',
      description: 'Calls with it are 401 from the next call on. A revoked token stays listed.',
      params: TokenParams,
      ok: [200, TokenRecord, 'the revoked token'],
      errors: [404, 409],
    },
    async (request) => revokeOperatorToken(opOf(request), String(Number(request.params.tokenId))),
  );
}
