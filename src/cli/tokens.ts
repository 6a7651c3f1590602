// tokens create / list / revoke: operator tokens of the management API.
import type { Command } from 'commander';
import { createOperatorToken, listOperatorTokens, revokeOperatorToken, TOKEN_NAME_PATTERN } from '../manage/tokens.js';
import { CliError, withStore } from './common.js';
import { attempt, cliOp, printList, printOptions, printRecord, type PrintOptions } from './output.js';

export function registerTokenCommands(program: Command) {
  const tokens = program.command('tokens').description('operator tokens of the management API (/api/manage/v1)');

  printOptions(
    tokens
      .command('create')
      .description('make an operator token and print it (shown once; only its SHA-256 is stored)')
      .option('--name <name>', 'a name for the token, shown in the audit log (default: operator)'),
  ).action(async (options: PrintOptions & { name?: string }) => {
    const name = options.name ?? 'operator';
    if (!TOKEN_NAME_PATTERN.test(name))
      throw new CliError('--name must be 1 to 100 printable characters, not starting or ending with a space');
    await withStore(options, async (store) => {
      const made = await attempt(() => createOperatorToken(cliOp(store), name));
      if (options.json) {
        printRecord(made, options);
        return;
      }
      process.stdout.write(`${made.token}\n`);
      process.stderr.write(`operator token ${made.id} "${made.name}" created; it is shown only this once\n`);
    });
  });

  printOptions(tokens.command('list').description('list operator tokens (never their plaintext)')).action(
    async (options: PrintOptions) => {
      await withStore(options, async (store) => {
        printList(
          await listOperatorTokens(store.db),
          ['id', 'name', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
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
      else process.stdout.write(`operator token ${revoked.id} "${revoked.name}" revoked\n`);
    });
  });
}
