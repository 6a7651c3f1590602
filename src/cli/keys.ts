// keys create / list / revoke: user keys of the public API.
import type { Command } from 'commander';
import { createUserKey, listUserKeys, revokeUserKeyByPlaintext } from '../store/manage/accounts.js';
import { ManageError } from '../store/manage/op.js';
import { CliError, databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  cliOp,
  jsonOption,
  pageFrom,
  pageOptions,
  printPage,
  printRecord,
  type OutputOptions,
} from './output.js';

type Options = StoreOptions & OutputOptions;

export function registerKeyCommands(program: Command) {
  const keys = program.command('keys').description('user keys of the public API');

  keys
    .command('create')
    .description('make a new user key for an account and print it (shown once; only its hash is stored)')
    .requiredOption('--account <id>', 'account id', positiveInt('--account'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & { account: number }) => {
      await withStore(options, async (store) => {
        let made;
        try {
          made = await createUserKey(cliOp(store), options.account);
        } catch (err) {
          if (err instanceof ManageError && err.status === 404) throw new CliError(`no account ${options.account}`);
          throw err;
        }
        if (options.json) printRecord(made, options);
        else process.stdout.write(`${made.key}\n`);
      });
    });

  keys
    .command('list')
    .description('list the keys of an account (prefix, created, last used, revoked)')
    .requiredOption('--account <id>', 'account id', positiveInt('--account'))
    .option(...pageOptions[0])
    .option(...pageOptions[1])
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & { account: number; limit?: string; cursor?: string }) => {
      const page = pageFrom(options);
      await withStore(options, async (store) =>
        printPage(
          await attempt(() => listUserKeys(store.db, options.account, page)),
          ['id', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
          options,
        ),
      );
    });

  keys
    .command('revoke')
    .description('revoke a user key; calls with it get 401 from then on')
    .argument('<key>', 'the plaintext key')
    .option(...databaseOption)
    .action(async (key: string, options: StoreOptions) => {
      await withStore(options, async (store) => {
        try {
          await revokeUserKeyByPlaintext(cliOp(store), key);
        } catch (err) {
          if (err instanceof ManageError && (err.status === 404 || err.status === 409))
            throw new CliError('no such active key');
          throw err;
        }
        process.stdout.write('key revoked\n');
      });
    });
}
