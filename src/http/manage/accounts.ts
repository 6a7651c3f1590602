// Accounts, their usage and their user keys.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  accountUsage,
  createAccount,
  createUserKey,
  deleteAccount,
  getAccount,
  getUserKey,
  listAccounts,
  listUserKeys,
  revokeUserKey,
  updateAccount,
} from '../../manage/accounts.js';
import { access, scopeOf } from './access.js';
import { opOf } from './auth.js';
import { created, db, doc, num, ok } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import {
  AccountCreateBody,
  AccountPatchBody,
  AccountRecord,
  NewUserKeyRecord,
  UsageRecord,
  UserKeyRecord,
} from '../../schemas/accounts.js';
import { AccountParams, Created, KeyParams, Ok, PageOf, responses } from './schemas.js';
import { PageQuery } from '../../schemas/fields.js';

export async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: accounts';

  app.get(
    '/accounts',
    {
      config: access('viewer', 'filtered'),
      schema: {
        ...doc(tag, 'List accounts', 'Oldest first, cursor-paginated.'),
        querystring: PageQuery,
        response: responses({ 200: Ok(PageOf(AccountRecord), 'a page of accounts') }),
      },
    },
    async (request) => ok(await listAccounts(db(request), pageRequest(request.query), scopeOf(request))),
  );

  app.post(
    '/accounts',
    {
      config: access('admin', 'unscoped'),
      schema: {
        ...doc(tag, 'Create an account'),
        body: AccountCreateBody,
        response: responses({ 201: Created(AccountRecord, 'the new account') }, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createAccount(opOf(request), request.body));
    },
  );

  app.get(
    '/accounts/:accountId',
    {
      config: access('viewer', 'account'),
      schema: {
        ...doc(tag, 'Get an account'),
        params: AccountParams,
        response: responses({ 200: Ok(AccountRecord, 'the account') }, 404),
      },
    },
    async (request) => ok(await getAccount(db(request), num(request.params.accountId))),
  );

  app.patch(
    '/accounts/:accountId',
    {
      config: access('admin', 'unscoped'),
      schema: {
        ...doc(tag, 'Change an account’s name, plan or daily call limit', 'Takes effect on the next public API call.'),
        params: AccountParams,
        body: AccountPatchBody,
        response: responses({ 200: Ok(AccountRecord, 'the account after the change') }, 404, 409),
      },
    },
    async (request) => ok(await updateAccount(opOf(request), num(request.params.accountId), request.body)),
  );

  app.delete(
    '/accounts/:accountId',
    {
      config: access('admin', 'unscoped'),
      schema: {
        ...doc(
          tag,
          'Delete an account',
          'Deletes the account with its keys, products and usage. Refused (409) while it still has walls, live or deleted: delete and purge them first.',
        ),
        params: AccountParams,
        response: responses({ 200: Ok(AccountRecord, 'the account as it was') }, 404, 409),
      },
    },
    async (request) => ok(await deleteAccount(opOf(request), num(request.params.accountId))),
  );

  app.get(
    '/accounts/:accountId/usage',
    {
      config: access('viewer', 'account'),
      schema: {
        ...doc(tag, 'Calls per UTC day for the last 30 days'),
        params: AccountParams,
        response: responses({ 200: Ok(UsageRecord, 'the account’s usage') }, 404),
      },
    },
    async (request) =>
      ok(
        await accountUsage(
          db(request),
          num(request.params.accountId),
          request.server.ctx.now(),
          request.server.ctx.quota,
        ),
      ),
  );

  const keyTag = 'manage: user keys';

  app.get(
    '/accounts/:accountId/keys',
    {
      config: access('viewer', 'account'),
      schema: {
        ...doc(
          keyTag,
          'List the user keys of an account',
          'Revoked keys included. Only a prefix of each key is known.',
        ),
        params: AccountParams,
        querystring: PageQuery,
        response: responses({ 200: Ok(PageOf(UserKeyRecord), 'a page of keys') }, 404),
      },
    },
    async (request) => ok(await listUserKeys(db(request), num(request.params.accountId), pageRequest(request.query))),
  );

  app.post(
    '/accounts/:accountId/keys',
    {
      config: access('editor', 'account'),
      schema: {
        ...doc(keyTag, 'Make a user key', 'The plaintext `key` is in this response only; Wallery stores its SHA-256.'),
        params: AccountParams,
        response: responses({ 201: Created(NewUserKeyRecord, 'the new key, with its plaintext') }, 404, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createUserKey(opOf(request), num(request.params.accountId)));
    },
  );

  app.get(
    '/accounts/:accountId/keys/:keyId',
    {
      config: access('viewer', 'account'),
      schema: {
        ...doc(keyTag, 'Get a user key'),
        params: KeyParams,
        response: responses({ 200: Ok(UserKeyRecord, 'the key') }, 404),
      },
    },
    async (request) => ok(await getUserKey(db(request), num(request.params.accountId), num(request.params.keyId))),
  );

  app.delete(
    '/accounts/:accountId/keys/:keyId',
    {
      config: access('editor', 'account'),
      schema: {
        ...doc(
          keyTag,
          'Revoke a user key',
          'Calls with the key are 401 from the next call on. A revoked key stays listed.',
        ),
        params: KeyParams,
        response: responses({ 200: Ok(UserKeyRecord, 'the revoked key') }, 404, 409),
      },
    },
    async (request) => ok(await revokeUserKey(opOf(request), num(request.params.accountId), num(request.params.keyId))),
  );
}
