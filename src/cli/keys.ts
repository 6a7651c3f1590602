// keys create / revoke.
import type { Command } from 'commander';
import { createUserKey, revokeUserKey } from '../store/keys.js';
import { CliError, databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';

export function registerKeyCommands(program: Command) {
  const keys = program.command('keys').description('user keys of the public API');

  keys
    .command('create')
    .description('make a new user key for an account and print it (shown once; only its hash is stored)')
    .requiredOption('--account <id>', 'account id', positiveInt('--account'))
    .option(...databaseOption)
    .action(async (options: StoreOptions & { account: number }) => {
      await withStore(options, async (store) => {
        const account = await store.db.selectFrom('accounts').select('id').where('id', '=', options.account).executeTakeFirst();
        if (!account) throw new CliError(`no account ${options.account}`);
        process.stdout.write(`${await createUserKey(store.db, options.account, Date.now())}\n`);
      });
    });

  keys
    .command('revoke')
    .description('revoke a user key; calls with it get 401 from then on')
    .argument('<key>', 'the plaintext key')
    .option(...databaseOption)
    .action(async (key: string, options: StoreOptions) => {
      await withStore(options, async (store) => {
        if (!(await revokeUserKey(store.db, key, Date.now()))) throw new CliError('no such active key');
        process.stdout.write('key revoked\n');
      });
    });
}
