// accounts list / get / create / update / delete / usage.
import type { Command } from 'commander';
import { AccountCreateBody, AccountPatchBody } from '../http/manage/schemas.js';
import {
  accountUsage,
  createAccount,
  deleteAccount,
  getAccount,
  listAccounts,
  updateAccount,
  type AccountInput,
  type AccountPatch,
} from '../store/manage/accounts.js';
import { databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  jsonOption,
  numberish,
  pageFrom,
  pageOptions,
  printList,
  printPage,
  printRecord,
  type OutputOptions,
} from './output.js';

type Options = StoreOptions & OutputOptions;

const COLUMNS = ['id', 'name', 'plan', 'dailyCallLimit', 'createdAt'];

export function registerAccountCommands(program: Command) {
  const accounts = program.command('accounts').description('accounts: plan, daily call limit, usage');

  accounts
    .command('list')
    .description('list accounts, oldest first')
    .option(...pageOptions[0])
    .option(...pageOptions[1])
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & { limit?: string; cursor?: string }) => {
      const page = pageFrom(options);
      await withStore(options, async (store) =>
        printPage(await attempt(() => listAccounts(store.db, page)), COLUMNS, options),
      );
    });

  accounts
    .command('get')
    .description('show an account')
    .argument('<id>', 'account id', positiveInt('account id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options) => {
      await withStore(options, async (store) => printRecord(await attempt(() => getAccount(store.db, id)), options));
    });

  accounts
    .command('create')
    .description('create an account')
    .requiredOption('--name <name>', 'account name')
    .requiredOption('--plan <plan>', 'free, widget, commerce or enterprise')
    .option('--daily-call-limit <n>', 'calls per UTC day (default 1000)')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & { name: string; plan: string; dailyCallLimit?: string }) => {
      const body = checkBody<AccountInput>(
        AccountCreateBody,
        given({ name: options.name, plan: options.plan, dailyCallLimit: numberish(options.dailyCallLimit) }),
      );
      await withStore(options, async (store) =>
        printRecord(await attempt(() => createAccount(cliOp(store), body)), options),
      );
    });

  accounts
    .command('update')
    .description('change an account’s name, plan or daily call limit')
    .argument('<id>', 'account id', positiveInt('account id'))
    .option('--name <name>', 'account name')
    .option('--plan <plan>', 'free, widget, commerce or enterprise')
    .option('--daily-call-limit <n>', 'calls per UTC day')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options & { name?: string; plan?: string; dailyCallLimit?: string }) => {
      const body = checkBody<AccountPatch>(
        AccountPatchBody,
        given({ name: options.name, plan: options.plan, dailyCallLimit: numberish(options.dailyCallLimit) }),
      );
      await withStore(options, async (store) =>
        printRecord(await attempt(() => updateAccount(cliOp(store), id, body)), options),
      );
    });

  accounts
    .command('delete')
    .description('delete an account with its keys and products (refused while it has walls)')
    .argument('<id>', 'account id', positiveInt('account id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options) => {
      await withStore(options, async (store) => {
        const gone = await attempt(() => deleteAccount(cliOp(store), id));
        if (options.json) printRecord(gone, options);
        else process.stdout.write(`account ${id} deleted\n`);
      });
    });

  accounts
    .command('usage')
    .description('calls per UTC day for the last 30 days')
    .argument('<id>', 'account id', positiveInt('account id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options) => {
      await withStore(options, async (store) => {
        const usage = await attempt(() => accountUsage(store.db, id, Date.now()));
        if (options.json) printRecord(usage, options);
        else printList(usage.days, ['day', 'calls'], options);
      });
    });
}
