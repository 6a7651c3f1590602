// tokens create / list / revoke: operator tokens of the management API.
import type { Command } from 'commander';
import { CLI_ACTOR } from '../store/manage/op.js';
import {
  createOperatorToken,
  listOperatorTokens,
  revokeOperatorToken,
  TOKEN_NAME_PATTERN,
} from '../store/manage/tokens.js';
import { CliError, databaseOption, withStore, type StoreOptions } from './common.js';
import { attempt, jsonOption, printList, printRecord, type OutputOptions } from './output.js';

type Options = StoreOptions & OutputOptions;

export function registerTokenCommands(program: Command) {
  const tokens = program.command('tokens').description('operator tokens of the management API (/api/manage/v1)');

  tokens
    .command('create')
    .description('make an operator token and print it (shown once; only its SHA-256 is stored)')
    .option('--name <name>', 'a name for the token, shown in the audit log (default: operator)')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & { name?: string }) => {
      const name = options.name ?? 'operator';
      if (!TOKEN_NAME_PATTERN.test(name))
        throw new CliError('--name must be 1 to 100 printable characters, not starting or ending with a space');
      await withStore(options, async (store) => {
        const made = await createOperatorToken({ db: store.db, actor: CLI_ACTOR, now: Date.now() }, name);
        if (options.json) {
          printRecord(made, options);
          return;
        }
        process.stdout.write(`${made.token}\n`);
        process.stderr.write(`operator token ${made.id} "${made.name}" created; it is shown only this once\n`);
      });
    });

  tokens
    .command('list')
    .description('list operator tokens (never their plaintext)')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options) => {
      await withStore(options, async (store) => {
        printList(
          await listOperatorTokens(store.db),
          ['id', 'name', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
          options,
        );
      });
    });

  tokens
    .command('revoke')
    .description('revoke an operator token; calls with it get 401 from then on')
    .argument('<id-or-token>', 'the token id (see `tokens list`) or the token itself')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (idOrToken: string, options: Options) => {
      await withStore(options, async (store) => {
        const revoked = await attempt(() =>
          revokeOperatorToken({ db: store.db, actor: CLI_ACTOR, now: Date.now() }, idOrToken),
        );
        if (options.json) printRecord(revoked, options);
        else process.stdout.write(`operator token ${revoked.id} "${revoked.name}" revoked\n`);
      });
    });
}
