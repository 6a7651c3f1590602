// accounts list / get / create / update / delete / usage.
import type { Command } from 'commander';
import { AccountCreateBody, AccountPatchBody } from '../schemas/accounts.js';
import {
  accountUsage,
  createAccount,
  deleteAccount,
  getAccount,
  listAccounts,
  updateAccount,
} from '../manage/accounts.js';
import { type AccountInput, type AccountPatch } from '../schemas/accounts.js';
import { idArgument, withStore } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  numberish,
  pagedOptions,
  pageFrom,
  printList,
  printOptions,
  printRecord,
  showPage,
  showRecord,
  type PagedOptions,
  type PrintOptions,
} from './output.js';

const COLUMNS = ['id', 'name', 'plan', 'dailyCallLimit', 'createdAt'];

interface AccountFields {
  name?: string;
  plan?: string;
  dailyCallLimit?: string;
}

/** The account fields given as options, shaped as an API body. */
const accountBody = (options: AccountFields) =>
  given({ name: options.name, plan: options.plan, dailyCallLimit: numberish(options.dailyCallLimit) });

export function registerAccountCommands(program: Command) {
  const accounts = program.command('accounts').description('accounts: plan, daily call limit, usage');

  pagedOptions(accounts.command('list').description('list accounts, oldest first')).action(
    async (options: PagedOptions) => {
      const page = pageFrom(options);
      await showPage(options, COLUMNS, (store) => listAccounts(store.db, page));
    },
  );

  printOptions(
    accounts
      .command('get')
      .description('show an account')
      .argument(...idArgument('account', 'id')),
  ).action(async (id: number, options: PrintOptions) => {
    await showRecord(options, (store) => getAccount(store.db, id));
  });

  printOptions(
    accounts
      .command('create')
      .description('create an account')
      .requiredOption('--name <name>', 'account name')
      .requiredOption('--plan <plan>', 'free, widget, commerce or enterprise')
      .option('--daily-call-limit <n>', 'calls per UTC day (default 1000)'),
  ).action(async (options: PrintOptions & AccountFields) => {
    const body = checkBody<AccountInput>(AccountCreateBody, accountBody(options));
    await showRecord(options, (store) => createAccount(cliOp(store), body));
  });

  printOptions(
    accounts
      .command('update')
      .description('change an account’s name, plan or daily call limit')
      .argument(...idArgument('account', 'id'))
      .option('--name <name>', 'account name')
      .option('--plan <plan>', 'free, widget, commerce or enterprise')
      .option('--daily-call-limit <n>', 'calls per UTC day'),
  ).action(async (id: number, options: PrintOptions & AccountFields) => {
    const body = checkBody<AccountPatch>(AccountPatchBody, accountBody(options));
    await showRecord(options, (store) => updateAccount(cliOp(store), id, body));
  });

  printOptions(
    accounts
      .command('delete')
      .description('delete an account with its keys and products (refused while it has walls)')
      .argument(...idArgument('account', 'id')),
  ).action(async (id: number, options: PrintOptions) => {
    await withStore(options, async (store) => {
      const gone = await attempt(() => deleteAccount(cliOp(store), id));
      if (options.json) printRecord(gone, options);
      else process.stdout.write(`account ${id} deleted\n`);
    });
  });

  printOptions(
    accounts
      .command('usage')
      .description('calls per UTC day for the last 30 days')
      .argument(...idArgument('account', 'id')),
  ).action(async (id: number, options: PrintOptions) => {
    await withStore(options, async (store) => {
      const usage = await attempt(() => accountUsage(store.db, id, Date.now()));
      if (options.json) printRecord(usage, options);
      else printList(usage.days, ['day', 'calls'], options);
    });
  });
}
