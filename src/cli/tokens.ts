// tokens create / list / revoke: operator tokens of the management API.
import type { Command } from 'commander';
import { createOperatorToken, listOperatorTokens, revokeOperatorToken, TOKEN_NAME_PATTERN } from '../manage/tokens.js';
import { isRole, ROLES, type Role } from '../domain/roles.js';
import { CliError, withStore } from './common.js';
import { attempt, cliOp, printList, printOptions, printRecord, type PrintOptions } from './output.js';
import { visibleLine } from './terminal.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The account ids of `--account`, each a positive integer. */
function accountIds(given: string[] | undefined): number[] | null {
  if (given === undefined) return null;
  return given.map((text) => {
    if (!/^[1-9]\d{0,14}$/.test(text.trim())) throw new CliError(`--account must be an account id, not "${text}"`);
    return Number(text.trim());
  });
}

export function registerTokenCommands(program: Command) {
  const tokens = program.command('tokens').description('operator tokens of the management API (/api/manage/v1)');

  printOptions(
    tokens
      .command('create')
      .description('make an operator token and print it (shown once; only its SHA-256 is stored)')
      .option('--name <name>', 'a name for the token, shown in the audit log (default: operator)')
      .option('--role <role>', `what the token may do: ${ROLES.join(', ')} (default: admin)`)
      .option('--account <id>', 'limit the token to this account (repeat for more); without: every account', collect),
  ).action(async (options: PrintOptions & { name?: string; role?: string; account?: string[] }) => {
    const name = options.name ?? 'operator';
    if (!TOKEN_NAME_PATTERN.test(name))
      throw new CliError('--name must be 1 to 100 printable characters, not starting or ending with a space');
    const role = options.role ?? 'admin';
    if (!isRole(role)) throw new CliError(`--role must be one of ${ROLES.join(', ')}`);
    const accounts = accountIds(options.account);
    await withStore(options, async (store) => {
      const made = await attempt(() => createOperatorToken(cliOp(store), { name, role: role as Role, accounts }));
      if (options.json) {
        printRecord(made, options);
        return;
      }
      process.stdout.write(`${made.token}\n`);
      process.stderr.write(
        `operator token ${made.id} "${visibleLine(made.name)}" (${made.role}, ${scopeText(made.accounts)}) created; it is shown only this once\n`,
      );
    });
  });

  printOptions(tokens.command('list').description('list operator tokens (never their plaintext)')).action(
    async (options: PrintOptions) => {
      await withStore(options, async (store) => {
        const tokens = await listOperatorTokens(store.db);
        if (options.json) {
          printList(tokens, [], options);
          return;
        }
        printList(
          tokens.map((t) => ({ ...t, scope: scopeText(t.accounts) })),
          ['id', 'name', 'role', 'scope', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
          options,
        );
      });
    },
  );

  printOptions(
    tokens
      .command('revoke')
      .description('revoke an operator token; calls with it get 401 from then on')
      .argument('<id-or-token>', 'the token id (see `tokens list`) or the token itself'),
  ).action(async (idOrToken: string, options: PrintOptions) => {
    await withStore(options, async (store) => {
      const revoked = await attempt(() => revokeOperatorToken(cliOp(store), idOrToken));
      if (options.json) printRecord(revoked, options);
      else process.stdout.write(`operator token ${revoked.id} "${visibleLine(revoked.name)}" revoked\n`);
    });
  });
}

/** A token's scope in words: `all accounts`, or `accounts 7001,7002`. */
const scopeText = (accounts: readonly number[] | null) =>
  accounts === null
    ? 'all accounts'
    : accounts.length === 1
      ? `account ${accounts[0]}`
      : `accounts ${accounts.join(',')}`;
