// walls restore / purge (contract §7: only an operator undoes or completes a delete).
import type { Command } from 'commander';
import { purgeWall, restoreWall } from '../store/walls.js';
import { CliError, databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';

export function registerWallCommands(program: Command) {
  const walls = program.command('walls').description('operator actions on walls');

  walls
    .command('restore')
    .description('bring back a deleted wall with everything it had')
    .argument('<id>', 'wall id', positiveInt('wall id'))
    .option(...databaseOption)
    .action(async (id: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        const result = await restoreWall(store.db, id);
        if (result === 'not_found') throw new CliError(`no wall ${id}`);
        if (result === 'not_deleted') throw new CliError(`wall ${id} is not deleted`);
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
        const result = await purgeWall(store.db, id);
        if (result === 'not_found') throw new CliError(`no wall ${id}`);
        if (result === 'not_deleted') throw new CliError(`wall ${id} is live; delete it through the API first`);
        process.stdout.write(`wall ${id} purged\n`);
      });
    });
}
