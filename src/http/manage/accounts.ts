// Accounts, their usage and their user keys.
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
import { scopeOf } from './access.js';
import { opOf } from './auth.js';
import { manageRoute } from './route.js';
import { db, num } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import {
  AccountCreateBody,
  AccountPatchBody,
  AccountRecord,
  NewUserKeyRecord,
  UsageRecord,
  UserKeyRecord,
} from '../../schemas/accounts.js';
import { AccountParams, KeyParams, PageOf } from './schemas.js';
import { PageQuery } from '../../schemas/fields.js';

export async function accountRoutes(app: FastifyInstance) {
  accountRecordRoutes(app);
  accountUsageRoute(app);
  userKeyRoutes(app);
}

/** Accounts themselves: read by any role, written by admins. */
function accountRecordRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: accounts');

  route.get(
    '/accounts',
    {
      access: ['viewer', 'filtered'],
      summary: 'List accounts',
      description: 'Oldest first, cursor-paginated.',
      query: PageQuery,
      ok: [200, PageOf(AccountRecord), 'a page of accounts'],
    },
    async (request) => listAccounts(db(request), pageRequest(request.query), scopeOf(request)),
  );

  route.post(
    '/accounts',
    {
      access: ['admin', 'unscoped'],
      summary: 'Create an account',
      body: AccountCreateBody,
      ok: [201, AccountRecord, 'the new account'],
      errors: [409],
    },
    async (request) => {
      return createAccount(opOf(request), request.body);
    },
  );

  route.get(
    '/accounts/:accountId',
    {
      access: ['viewer', 'account'],
      summary: 'Get an account',
      params: AccountParams,
      ok: [200, AccountRecord, 'the account'],
      errors: [404],
    },
    async (request) => getAccount(db(request), num(request.params.accountId)),
  );

  route.patch(
    '/accounts/:accountId',
    {
      access: ['admin', 'unscoped'],
      summary: 'Change an account’s name, plan or daily call limit',
      description: 'Takes effect on the next public API call.',
      params: AccountParams,
      body: AccountPatchBody,
      ok: [200, AccountRecord, 'the account after the change'],
      errors: [404, 409],
    },
    async (request) => updateAccount(opOf(request), num(request.params.accountId), request.body),
  );

  route.delete(
    '/accounts/:accountId',
    {
      access: ['admin', 'unscoped'],
      summary: 'Delete an account',
      description:
        'Deletes the account with its keys, products and usage. Refused (409) while it still has walls, live or deleted: delete and purge them first.',
      params: AccountParams,
      ok: [200, AccountRecord, 'the account as it was'],
      errors: [404, 409],
    },
    async (request) => deleteAccount(opOf(request), num(request.params.accountId)),
  );
}

/** An account's public API calls per day, against its plan. */
function accountUsageRoute(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: accounts');
  route.get(
    '/accounts/:accountId/usage',
    {
      access: ['viewer', 'account'],
      summary: 'Calls per UTC day for the last 30 days',
      params: AccountParams,
      ok: [200, UsageRecord, 'the account’s usage'],
      errors: [404],
    },
    async (request) =>
      await accountUsage(
        db(request),
        num(request.params.accountId),
        request.server.ctx.now(),
        request.server.ctx.quota,
      ),
  );
}

/** An account's user keys (the keys of the public API): list, make, read, revoke. */
function userKeyRoutes(app: FastifyInstance) {
  const route = manageRoute(app, 'manage: user keys');

  route.get(
    '/accounts/:accountId/keys',
    {
      access: ['viewer', 'account'],
      summary: 'List the user keys of an account',
      description: 'Revoked keys included. Only a prefix of each key is known.',
      params: AccountParams,
      query: PageQuery,
      ok: [200, PageOf(UserKeyRecord), 'a page of keys'],
      errors: [404],
    },
    async (request) => listUserKeys(db(request), num(request.params.accountId), pageRequest(request.query)),
  );

  route.post(
    '/accounts/:accountId/keys',
    {
      access: ['editor', 'account'],
      summary: 'Make a user key',
      description: 'The plaintext `key` is in this response only; Wallery stores its SHA-256.',
      params: AccountParams,
      ok: [201, NewUserKeyRecord, 'the new key, with its plaintext'],
      errors: [404, 409],
    },
    async (request) => {
      return createUserKey(opOf(request), num(request.params.accountId));
    },
  );

  route.get(
    '/accounts/:accountId/keys/:keyId',
    {
      access: ['viewer', 'account'],
      summary: 'Get a user key',
      params: KeyParams,
      ok: [200, UserKeyRecord, 'the key'],
      errors: [404],
    },
    async (request) => getUserKey(db(request), num(request.params.accountId), num(request.params.keyId)),
  );

  route.delete(
    '/accounts/:accountId/keys/:keyId',
    {
      access: ['editor', 'account'],
      summary: 'Revoke a user key',
      description: 'Calls with the key are 401 from the next call on. A revoked key stays listed.',
      params: KeyParams,
      ok: [200, UserKeyRecord, 'the revoked key'],
      errors: [404, 409],
    },
    async (request) => revokeUserKey(opOf(request), num(request.params.accountId), num(request.params.keyId)),
  );
}
