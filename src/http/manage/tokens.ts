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
import { IdString } from '../../schemas/fields.js';
import { NewTokenRecord, TokenCreateBody, TokenRecord } from '../../schemas/tokens.js';
import { opOf } from './auth.js';
import { manageResource } from './resource.js';
import { db, onlyPrefixKnown, plaintextOnce } from './common.js';

const TokenParams = Type.Object({ tokenId: IdString('tokenId') });

export async function tokenRoutes(app: FastifyInstance) {
  const tokens = manageResource(app, 'manage: operator tokens', {
    record: [TokenRecord, 'token'],
    collection: ['/tokens'],
    item: ['/tokens/:tokenId', TokenParams],
  });
  const admins = ['admin', 'unscoped'] as const;

  tokens.list(
    {
      access: admins,
      summary: 'List operator tokens',
      description: `Oldest first, revoked ones included. ${onlyPrefixKnown('token')}`,
    },
    async (request) => listOperatorTokenPage(db(request), pageRequest(request.query)),
  );

  // Who am I: any token may read its own record (the console decides what to show from its role and accounts).
  tokens.route.get(
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

  tokens.create(
    {
      access: admins,
      summary: 'Make an operator token',
      description:
        'With a role (default admin) and the accounts it is limited to (none: every account; each must exist, 404 otherwise). ' +
        plaintextOnce('token'),
      body: TokenCreateBody,
      ok: [NewTokenRecord, 'the new token, with its plaintext'],
    },
    async (request) => createOperatorToken(opOf(request), request.body),
  );

  tokens.remove(
    {
      access: admins,
      summary: 'Revoke an operator token',
      description: 'Calls with it are 401 from the next call on. A revoked token stays listed.',
      answer: 'the revoked token',
    },
    async (request) => revokeOperatorToken(opOf(request), String(Number(request.params.tokenId))),
  );
}
