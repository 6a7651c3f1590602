// walls list / get / create / update / delete / restore / purge
// (contract §7: only an operator undoes or completes a delete).
import type { Command } from 'commander';
import { WallCreateBody, WallListQuery, WallPatchBody } from '../schemas/walls.js';
import { ManageError } from '../domain/errors.js';
import { wallChanges } from '../manage/changes.js';
import { ChangesQuery } from '../schemas/changes.js';
import { createWall, deleteWall, getWall, listWalls, purgeWall, restoreWall, updateWall } from '../manage/walls.js';
import { type WallInput, type WallPatch, type WallState } from '../schemas/walls.js';
import { CliError, databaseOption, idArgument, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  idFilter,
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

const COLUMNS = [
  'id',
  'accountId',
  'name',
  'url',
  'profanity',
  'moderation',
  'deleted',
  'feedCount',
  'postCount',
  'createdAt',
];

interface WallFields {
  name?: string;
  url?: string;
  profanity?: boolean;
  moderation?: string;
  allowFraming?: boolean;
}

export function registerWallCommands(program: Command) {
  const walls = program.command('walls').description('walls: create, change, delete, restore, purge');

  pagedOptions(
    walls
      .command('list')
      .description('list walls (deleted ones too, unless --state live)')
      .option('--account <id>', 'only this account’s walls')
      .option('--state <state>', 'live, deleted or all (default all)'),
  ).action(async (options: PagedOptions & { account?: string; state?: string }) => {
    const page = pageFrom(options, WallListQuery, given({ accountId: options.account, state: options.state }));
    const filter = { accountId: idFilter(options.account), state: options.state as WallState | undefined };
    await showPage(options, COLUMNS, (store) => listWalls(store.db, filter, page));
  });

  printOptions(
    walls
      .command('get')
      .description('show a wall')
      .argument(...idArgument('wall', 'id')),
  ).action(async (id: number, options: PrintOptions) => {
    await showRecord(options, (store) => getWall(store.db, id));
  });

  printOptions(
    walls
      .command('create')
      .description('create a wall (its URL slug must be unique within the account)')
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--name <name>', 'wall name')
      .requiredOption('--url <slug>', 'URL slug: lowercase letters, digits, - and _')
      .option('--profanity', 'turn the profanity flag on')
      .option('--moderation <mode>', 'auto (default) or manual: ingested posts wait for an approval')
      .option('--allow-framing', 'any site may frame the hosted page of a key that names no origins'),
  ).action(async (options: PrintOptions & WallFields & { account: string }) => {
    const body = checkBody<WallInput>(
      WallCreateBody,
      given({
        accountId: numberish(options.account),
        name: options.name,
        url: options.url,
        profanity: options.profanity,
        moderation: options.moderation,
        allowFraming: options.allowFraming,
      }),
    );
    await showRecord(options, (store) => createWall(cliOp(store), body));
  });

  printOptions(
    walls
      .command('update')
      .description('change a wall’s name, URL slug, profanity flag, moderation mode or framing')
      .argument(...idArgument('wall', 'id'))
      .option('--name <name>', 'wall name')
      .option('--url <slug>', 'URL slug')
      .option('--profanity', 'turn the profanity flag on')
      .option('--no-profanity', 'turn the profanity flag off')
      .option('--moderation <mode>', 'auto or manual (ingested posts wait for an approval)')
      .option('--allow-framing', 'any site may frame the hosted page of a key that names no origins')
      .option('--no-allow-framing', 'only the origins of the page’s key may frame the hosted page (default)'),
  ).action(async (id: number, options: PrintOptions & WallFields) => {
    const body = checkBody<WallPatch>(
      WallPatchBody,
      given({
        name: options.name,
        url: options.url,
        profanity: options.profanity,
        moderation: options.moderation,
        allowFraming: options.allowFraming,
      }),
    );
    await showRecord(options, (store) => updateWall(cliOp(store), id, body));
  });

  walls
    .command('delete')
    .description('delete a wall (soft delete: 404 on the public API until restored)')
    .argument(...idArgument('wall', 'id'))
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
    .argument(...idArgument('wall', 'id'))
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

  printOptions(
    walls
      .command('changes')
      .description('what changed on a wall after a cursor, in commit order (the change feed)')
      .argument(...idArgument('wall', 'id'))
      .option('--since <cursor>', 'the cursor the last call printed; latest: just the cursor of now')
      .option('--limit <n>', 'most changes to show, 1–200 (default 50)'),
  ).action(async (id: number, options: PrintOptions & { since?: string; limit?: string }) => {
    const query = checkBody<{ since?: string; limit?: string }>(
      ChangesQuery,
      given({ since: options.since, limit: options.limit }),
    );
    await withStore(options, async (store) => {
      const page = await attempt(() => wallChanges(store.db, id, { since: query.since, limit: idFilter(query.limit) }));
      if (options.json) return printRecord(page, options);
      printList(
        page.changes.map((c) => ({ ...c, post: undefined })),
        ['cursor', 'kind', 'postId', 'visible', 'at'],
        options,
      );
      process.stderr.write(`${page.hasMore ? 'more' : 'next'}: add --since ${page.cursor}\n`);
    });
  });

  walls
    .command('purge')
    .description('erase a deleted wall, its feeds and posts for good')
    .argument(...idArgument('wall', 'id'))
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
