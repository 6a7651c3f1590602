// keys create / list / revoke: user keys of the public API.
import type { Command } from 'commander';
import { createUserKey, listUserKeys, revokeUserKeyByPlaintext } from '../manage/accounts.js';
import { ManageError } from '../domain/errors.js';
import { CliError, databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  cliOp,
  pagedOptions,
  pageFrom,
  printOptions,
  printRecord,
  showPage,
  type PagedOptions,
  type PrintOptions,
} from './output.js';

export function registerKeyCommands(program: Command) {
  const keys = program.command('keys').description('user keys of the public API');

  printOptions(
    keys
      .command('create')
      .description('make a new user key for an account and print it (shown once; only its hash is stored)')
      .requiredOption('--account <id>', 'account id', positiveInt('--account')),
  ).action(async (options: PrintOptions & { account: number }) => {
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

  pagedOptions(
    keys
      .command('list')
      .description('list the keys of an account (prefix, created, last used, revoked)')
      .requiredOption('--account <id>', 'account id', positiveInt('--account')),
  ).action(async (options: PagedOptions & { account: number }) => {
    const page = pageFrom(options);
    await showPage(options, ['id', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'], (store) =>
      listUserKeys(store.db, options.account, page),
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
