// keys create / list / revoke: user keys of the public API.
import type { Command } from 'commander';
import { createUserKey, listUserKeys, revokeUserKeyByPlaintext } from '../manage/accounts.js';
import { positiveInt } from './common.js';
import type { PagedOptions, PrintOptions } from './output.js';
import { lineCommand, pageCommand, recordCommand, type Call, type PageCall } from './resource.js';

type AccountOption = { account: number };

export function registerKeyCommands(program: Command) {
  const keys = program.command('keys').description('user keys of the public API');

  // prints the key alone (or the record with --json): what a script keeps
  recordCommand(keys, {
    name: 'create',
    description: 'make a new user key for an account and print it (shown once; only its hash is stored)',
    options: (c) => c.requiredOption('--account <id>', 'account id', positiveInt('--account')),
    run: ({ op, options }: Call<PrintOptions & AccountOption>) => createUserKey(op, options.account),
    refusals: (options) => ({ 404: `no account ${options.account}` }),
    text: (made) => `${made.key}\n`,
  });

  pageCommand(keys, {
    name: 'list',
    description: 'list the keys of an account (prefix, created, last used, revoked)',
    options: (c) => c.requiredOption('--account <id>', 'account id', positiveInt('--account')),
    columns: ['id', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
    run: ({ store, page, options }: PageCall<PagedOptions & AccountOption>) =>
      listUserKeys(store.db, options.account, page),
  });

  lineCommand(keys, {
    name: 'revoke',
    description: 'revoke a user key; calls with it get 401 from then on',
    arguments: [['<key>', 'the plaintext key']],
    run: ({ op, args: [key] }) => revokeUserKeyByPlaintext(op, key),
    refusals: () => ({ 404: 'no such active key', 409: 'no such active key' }),
    done: () => 'key revoked',
  });
}
