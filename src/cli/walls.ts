// walls list / get / create / update / delete / restore / purge
// (contract §7: only an operator undoes or completes a delete).
import type { Command } from 'commander';
import { WallCreateBody, WallListQuery, WallPatchBody } from '../http/manage/schemas.js';
import { ManageError } from '../store/manage/op.js';
import {
  createWall,
  deleteWall,
  getWall,
  listWalls,
  purgeWall,
  restoreWall,
  updateWall,
  type WallInput,
  type WallPatch,
  type WallState,
} from '../store/manage/walls.js';
import { CliError, databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  jsonOption,
  numberish,
  pageFrom,
  pageOptions,
  printPage,
  printRecord,
  type OutputOptions,
} from './output.js';

type Options = StoreOptions & OutputOptions;

const COLUMNS = ['id', 'accountId', 'name', 'url', 'profanity', 'deleted', 'feedCount', 'postCount', 'createdAt'];

interface WallFields {
  name?: string;
  url?: string;
  profanity?: boolean;
}

export function registerWallCommands(program: Command) {
  const walls = program.command('walls').description('walls: create, change, delete, restore, purge');

  walls
    .command('list')
    .description('list walls (deleted ones too, unless --state live)')
    .option('--account <id>', 'only this account’s walls')
    .option('--state <state>', 'live, deleted or all (default all)')
    .option(...pageOptions[0])
    .option(...pageOptions[1])
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & { account?: string; state?: string; limit?: string; cursor?: string }) => {
      const page = pageFrom(options, WallListQuery, given({ accountId: options.account, state: options.state }));
      const filter = {
        accountId: options.account === undefined ? undefined : Number(options.account),
        state: options.state as WallState | undefined,
      };
      await withStore(options, async (store) =>
        printPage(await attempt(() => listWalls(store.db, filter, page)), COLUMNS, options),
      );
    });

  walls
    .command('get')
    .description('show a wall')
    .argument('<id>', 'wall id', positiveInt('wall id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options) => {
      await withStore(options, async (store) => printRecord(await attempt(() => getWall(store.db, id)), options));
    });

  walls
    .command('create')
    .description('create a wall (its URL slug must be unique within the account)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'wall name')
    .requiredOption('--url <slug>', 'URL slug: lowercase letters, digits, - and _')
    .option('--profanity', 'turn the profanity flag on')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (options: Options & WallFields & { account: string }) => {
      const body = checkBody<WallInput>(
        WallCreateBody,
        given({
          accountId: numberish(options.account),
          name: options.name,
          url: options.url,
          profanity: options.profanity,
        }),
      );
      await withStore(options, async (store) =>
        printRecord(await attempt(() => createWall(cliOp(store), body)), options),
      );
    });

  walls
    .command('update')
    .description('change a wall’s name, URL slug or profanity flag')
    .argument('<id>', 'wall id', positiveInt('wall id'))
    .option('--name <name>', 'wall name')
    .option('--url <slug>', 'URL slug')
    .option('--profanity', 'turn the profanity flag on')
    .option('--no-profanity', 'turn the profanity flag off')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (id: number, options: Options & WallFields) => {
      const body = checkBody<WallPatch>(
        WallPatchBody,
        given({ name: options.name, url: options.url, profanity: options.profanity }),
      );
      await withStore(options, async (store) =>
        printRecord(await attempt(() => updateWall(cliOp(store), id, body)), options),
      );
    });

  walls
    .command('delete')
    .description('delete a wall (soft delete: 404 on the public API until restored)')
    .argument('<id>', 'wall id', positiveInt('wall id'))
    .option(...databaseOption)
    .action(async (id: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        await attempt(() => deleteWall(cliOp(store), id));
        process.stdout.write(`wall ${id} deleted (restore with: wallery walls restore ${id})\n`);
      });
    });

  walls
    .command('restore')
    .description('bring back a deleted wall with everything it had')
    .argument('<id>', 'wall id', positiveInt('wall id'))
    .option(...databaseOption)
    .action(async (id: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        try {
          await restoreWall(cliOp(store), id);
        } catch (err) {
          if (err instanceof ManageError && err.status === 404) throw new CliError(`no wall ${id}`);
          if (err instanceof ManageError && err.status === 409) throw new CliError(`wall ${id} is not deleted`);
          throw err;
        }
        process.stdout.write(`wall ${id} restored\n`);
      });
    });

  walls
    .command('purge')
    .description('erase a deleted wall, its feeds and posts for good')
    .argument('<id>', 'wall id', positiveInt('wall id'))
    .option(...databaseOption)
    .action(async (id: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        try {
          await purgeWall(cliOp(store), id);
        } catch (err) {
          if (err instanceof ManageError && err.status === 404) throw new CliError(`no wall ${id}`);
          if (err instanceof ManageError && err.status === 409)
            throw new CliError(`wall ${id} is live; delete it first (wallery walls delete ${id})`);
          throw err;
        }
        process.stdout.write(`wall ${id} purged\n`);
      });
    });
}
