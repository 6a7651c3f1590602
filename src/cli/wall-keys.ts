// walls keys create / list / revoke: publishable keys (`pk_…`) of a wall,
// what a web page embeds to show it (the embed API).
import type { Command } from 'commander';
import { createPublishableKey, listPublishableKeys, revokePublishableKey } from '../manage/publishable-keys.js';
import { idArgument } from './common.js';
import type { PrintOptions } from './output.js';
import { lineCommand, pageCommand, recordCommand, type Call } from './resource.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
const WALL = idArgument('wall');

/** Adds `keys` under the `walls` command. */
export function registerWallKeyCommands(walls: Command) {
  const keys = walls.command('keys').description('publishable keys of a wall (pk_…), for pages that embed it');

  // prints the key alone (or the record with --json): what a page embeds
  recordCommand(keys, {
    name: 'create',
    description: 'make a publishable key for a wall and print it (shown once; only its hash is stored)',
    arguments: [WALL],
    options: (c) =>
      c.option(
        '--origin <url>',
        'an origin allowed to use the key, e.g. https://shop.example (repeat; none: any)',
        collect,
      ),
    run: ({ op, args: [wall], options }: Call<PrintOptions & { origin?: string[] }, [typeof WALL]>) =>
      createPublishableKey(op, wall, { origins: options.origin ?? [] }),
    text: (made) => `${made.key}\n`,
  });

  pageCommand(keys, {
    name: 'list',
    description: 'list the publishable keys of a wall (prefix, origins, created, revoked)',
    arguments: [WALL],
    columns: ['id', 'prefix', 'origins', 'createdAt', 'revokedAt'],
    run: ({ store, page, args: [wall] }) => listPublishableKeys(store.db, wall, page),
  });

  lineCommand(keys, {
    name: 'revoke',
    description: 'revoke a publishable key; every instance refuses it from then on',
    arguments: [WALL, idArgument('key', 'keyId')],
    run: ({ op, args: [wall, keyId] }) => revokePublishableKey(op, wall, keyId),
    done: ([, keyId]) => `publishable key ${keyId} revoked`,
  });
}
