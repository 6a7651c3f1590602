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
import { checkBody, given, numberish, table, type PrintOptions } from './output.js';
import { recordCommand, resourceCommands } from './resource.js';

const COLUMNS = ['id', 'name', 'plan', 'dailyCallLimit', 'createdAt'];

interface AccountFields {
  name?: string;
  plan?: string;
  dailyCallLimit?: string;
}

/** The account fields given as options, shaped as an API body. */
const accountBody = (options: AccountFields) =>
  given({ name: options.name, plan: options.plan, dailyCallLimit: numberish(options.dailyCallLimit) });

/** --name, --plan, --daily-call-limit: the first two required to create, every one optional to update. */
function withAccountOptions(c: Command, write: 'create' | 'update'): Command {
  const creating = write === 'create';
  const option = (flags: string, description: string) =>
    creating ? c.requiredOption(flags, description) : c.option(flags, description);
  option('--name <name>', 'account name');
  option('--plan <plan>', 'free, widget, commerce or enterprise');
  return c.option('--daily-call-limit <n>', creating ? 'calls per UTC day (default 1000)' : 'calls per UTC day');
}

export function registerAccountCommands(program: Command) {
  const accounts = resourceCommands(program, {
    name: 'accounts',
    description: 'accounts: plan, daily call limit, usage',
    noun: 'account',
  });

  accounts.list({
    description: 'list accounts, oldest first',
    columns: COLUMNS,
    run: ({ store, page }) => listAccounts(store.db, page),
  });

  accounts.get('show an account', (store, id) => getAccount(store.db, id));

  accounts.create({
    description: 'create an account',
    options: (c) => withAccountOptions(c, 'create'),
    body: (options: PrintOptions & AccountFields) => checkBody<AccountInput>(AccountCreateBody, accountBody(options)),
    run: ({ op, body }) => createAccount(op, body),
  });

  accounts.update({
    description: 'change an account’s name, plan or daily call limit',
    options: (c) => withAccountOptions(c, 'update'),
    body: (options: PrintOptions & AccountFields) => checkBody<AccountPatch>(AccountPatchBody, accountBody(options)),
    run: ({ op, body, args: [id] }) => updateAccount(op, id, body),
  });

  // prints the deleted account with --json, else one line
  recordCommand(accounts.group, {
    name: 'delete',
    description: 'delete an account with its keys and products (refused while it has walls)',
    arguments: [accounts.id],
    run: ({ op, args: [id] }) => deleteAccount(op, id),
    text: (_gone, { args: [id] }) => `account ${id} deleted\n`,
  });

  recordCommand(accounts.group, {
    name: 'usage',
    description: 'calls per UTC day for the last 30 days',
    arguments: [accounts.id],
    run: ({ store, args: [id] }) => accountUsage(store.db, id, Date.now()),
    text: (usage) => table(usage.days, ['day', 'calls']),
  });
}
