// walls keys create / list / revoke: publishable keys (`pk_…`) of a wall,
// what a web page embeds to show it (the embed API).
import type { Command } from 'commander';
import { createPublishableKey, listPublishableKeys, revokePublishableKey } from '../manage/publishable-keys.js';
import { databaseOption, idArgument, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  cliOp,
  pagedOptions,
  pageFrom,
  printOptions,
  printRecord,
  showPage,
  type PagedOptions,
  type PrintOptions,
} from './output.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds `keys` under the `walls` command. */
export function registerWallKeyCommands(walls: Command) {
  const keys = walls.command('keys').description('publishable keys of a wall (pk_…), for pages that embed it');

  printOptions(
    keys
      .command('create')
      .description('make a publishable key for a wall and print it (shown once; only its hash is stored)')
      .argument(...idArgument('wall'))
      .option(
        '--origin <url>',
        'an origin allowed to use the key, e.g. https://shop.example (repeat; none: any)',
        collect,
      ),
  ).action(async (wall: number, options: PrintOptions & { origin?: string[] }) => {
    await withStore(options, async (store) => {
      const made = await attempt(() => createPublishableKey(cliOp(store), wall, { origins: options.origin ?? [] }));
      if (options.json) printRecord(made, options);
      else process.stdout.write(`${made.key}\n`);
    });
  });

  pagedOptions(
    keys
      .command('list')
      .description('list the publishable keys of a wall (prefix, origins, created, revoked)')
      .argument(...idArgument('wall')),
  ).action(async (wall: number, options: PagedOptions) => {
    const page = pageFrom(options);
    await showPage(options, ['id', 'prefix', 'origins', 'createdAt', 'revokedAt'], (store) =>
      listPublishableKeys(store.db, wall, page),
    );
  });

  keys
    .command('revoke')
    .description('revoke a publishable key; every instance refuses it from then on')
    .argument(...idArgument('wall'))
    .argument(...idArgument('key', 'keyId'))
    .option(...databaseOption)
    .action(async (wall: number, keyId: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        await attempt(() => revokePublishableKey(cliOp(store), wall, keyId));
        process.stdout.write(`publishable key ${keyId} revoked\n`);
      });
    });
}
