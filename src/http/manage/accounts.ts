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
import { manageResource } from './resource.js';
import { db, num, onlyPrefixKnown, plaintextOnce } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import {
  AccountCreateBody,
  AccountPatchBody,
  AccountRecord,
  NewUserKeyRecord,
  UsageRecord,
  UserKeyRecord,
} from '../../schemas/accounts.js';
import { AccountParams, KeyParams } from './schemas.js';

export async function accountRoutes(app: FastifyInstance) {
  accountRecordRoutes(app);
  accountUsageRoute(app);
  userKeyRoutes(app);
}

/** Accounts themselves: read by any role, written by admins. */
function accountRecordRoutes(app: FastifyInstance) {
  const accounts = manageResource(app, 'manage: accounts', {
    record: [AccountRecord, 'account'],
    collection: ['/accounts'],
    item: ['/accounts/:accountId', AccountParams],
  });
  const admins = ['admin', 'unscoped'] as const;

  accounts.list(
    { access: ['viewer', 'filtered'], summary: 'List accounts', description: 'Oldest first, cursor-paginated.' },
    async (request) => listAccounts(db(request), pageRequest(request.query), scopeOf(request)),
  );

  // No 404: the new account names nothing that could be missing.
  accounts.create(
    { access: admins, summary: 'Create an account', body: AccountCreateBody, errors: [409] },
    async (request) => createAccount(opOf(request), request.body),
  );

  accounts.get({ access: ['viewer', 'account'], summary: 'Get an account' }, async (request) =>
    getAccount(db(request), num(request.params.accountId)),
  );

  accounts.update(
    {
      access: admins,
      summary: 'Change an account’s name, plan or daily call limit',
      description: 'Takes effect on the next public API call.',
      body: AccountPatchBody,
    },
    async (request) => updateAccount(opOf(request), num(request.params.accountId), request.body),
  );

  accounts.remove(
    {
      access: admins,
      summary: 'Delete an account',
      description:
        'Deletes the account with its keys, products and usage. Refused (409) while it still has walls, live or deleted: delete and purge them first.',
    },
    async (request) => deleteAccount(opOf(request), num(request.params.accountId)),
  );
}

/** An account's public API calls per day, against its plan. */
function accountUsageRoute(app: FastifyInstance) {
  manageRoute(app, 'manage: accounts').get(
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
  const keys = manageResource(app, 'manage: user keys', {
    record: [UserKeyRecord, 'key'],
    collection: ['/accounts/:accountId/keys', AccountParams],
    item: ['/accounts/:accountId/keys/:keyId', KeyParams],
  });

  keys.list(
    {
      access: ['viewer', 'account'],
      summary: 'List the user keys of an account',
      description: `Revoked keys included. ${onlyPrefixKnown('key')}`,
    },
    async (request) => listUserKeys(db(request), num(request.params.accountId), pageRequest(request.query)),
  );

  keys.create(
    {
      access: ['editor', 'account'],
      summary: 'Make a user key',
      description: plaintextOnce('key'),
      ok: [NewUserKeyRecord, 'the new key, with its plaintext'],
    },
    async (request) => createUserKey(opOf(request), num(request.params.accountId)),
  );

  keys.get({ access: ['viewer', 'account'], summary: 'Get a user key' }, async (request) =>
    getUserKey(db(request), num(request.params.accountId), num(request.params.keyId)),
  );

  keys.remove(
    {
      access: ['editor', 'account'],
      summary: 'Revoke a user key',
      description: 'Calls with the key are 401 from the next call on. A revoked key stays listed.',
      answer: 'the revoked key',
    },
    async (request) => revokeUserKey(opOf(request), num(request.params.accountId), num(request.params.keyId)),
  );
}
