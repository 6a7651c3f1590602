// walls list / get / create / update / delete / restore / purge
// (contract §7: only an operator undoes or completes a delete).
import type { Command } from 'commander';
import { WallCreateBody, WallListQuery, WallPatchBody } from '../schemas/walls.js';
import { wallChanges } from '../manage/changes.js';
import { ChangesQuery } from '../schemas/changes.js';
import { createWall, deleteWall, getWall, listWalls, purgeWall, restoreWall, updateWall } from '../manage/walls.js';
import { type WallInput, type WallPatch, type WallState } from '../schemas/walls.js';
import { cliMediaBase, withStore } from './common.js';
import {
  attempt,
  checkBody,
  given,
  idFilter,
  numberish,
  printList,
  printOptions,
  printRecord,
  type PagedOptions,
  type PrintOptions,
} from './output.js';
import { lineCommand, resourceCommands } from './resource.js';

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
  mediaWait?: boolean;
}

type ListOptions = PagedOptions & { account?: string; state?: string };

/** The wall fields given as options, shaped as an API body (`given` drops the absent ones). */
const wallFields = (options: WallFields) => ({
  name: options.name,
  url: options.url,
  profanity: options.profanity,
  moderation: options.moderation,
  allowFraming: options.allowFraming,
  mediaWait: options.mediaWait,
});

export function registerWallCommands(program: Command) {
  const walls = resourceCommands(program, {
    name: 'walls',
    description: 'walls: create, change, delete, restore, purge',
    noun: 'wall',
  });

  walls.list({
    description: 'list walls (deleted ones too, unless --state live)',
    options: (c) =>
      c
        .option('--account <id>', 'only this account’s walls')
        .option('--state <state>', 'live, deleted or all (default all)'),
    columns: COLUMNS,
    query: WallListQuery,
    filters: (options: ListOptions) => ({ accountId: options.account, state: options.state }),
    run: ({ store, page, options }) =>
      listWalls(
        store.db,
        { accountId: idFilter(options.account), state: options.state as WallState | undefined },
        page,
      ),
  });

  walls.get('show a wall', (store, id) => getWall(store.db, id));

  walls.create({
    description: 'create a wall (its URL slug must be unique within the account)',
    options: (c) =>
      c
        .requiredOption('--account <id>', 'account id')
        .requiredOption('--name <name>', 'wall name')
        .requiredOption('--url <slug>', 'URL slug: lowercase letters, digits, - and _')
        .option('--profanity', 'turn the profanity flag on')
        .option('--moderation <mode>', 'auto (default) or manual: ingested posts wait for an approval')
        .option('--allow-framing', 'any site may frame the hosted page of a key that names no origins')
        .option('--media-wait', 'show a new post only once its pictures are fetched (default: at once)'),
    body: (options: PrintOptions & WallFields & { account: string }) =>
      checkBody<WallInput>(WallCreateBody, given({ accountId: numberish(options.account), ...wallFields(options) })),
    run: ({ op, body }) => createWall(op, body),
  });

  walls.update({
    description: 'change a wall’s name, URL slug, profanity flag, moderation mode, framing or waiting for pictures',
    options: (c) =>
      c
        .option('--name <name>', 'wall name')
        .option('--url <slug>', 'URL slug')
        .option('--profanity', 'turn the profanity flag on')
        .option('--no-profanity', 'turn the profanity flag off')
        .option('--moderation <mode>', 'auto or manual (ingested posts wait for an approval)')
        .option('--allow-framing', 'any site may frame the hosted page of a key that names no origins')
        .option('--no-allow-framing', 'only the origins of the page’s key may frame the hosted page (default)')
        .option('--media-wait', 'show a new post only once its pictures are fetched')
        .option('--no-media-wait', 'show new posts at once, their pictures following (default)'),
    body: (options: PrintOptions & WallFields) => checkBody<WallPatch>(WallPatchBody, given(wallFields(options))),
    run: ({ op, body, args: [id] }) => updateWall(op, id, body),
  });

  walls.delete(
    'delete a wall (soft delete: 404 on the public API until restored)',
    deleteWall,
    (id) => `wall ${id} deleted (restore with: wallery walls restore ${id})`,
  );

  lineCommand(walls.group, {
    name: 'restore',
    description: 'bring back a deleted wall with everything it had',
    arguments: [walls.id],
    run: ({ op, args: [id] }) => restoreWall(op, id),
    refusals: ([id]) => ({ 404: `no wall ${id}`, 409: `wall ${id} is not deleted` }),
    done: ([id]) => `wall ${id} restored`,
  });

  printOptions(
    walls.group
      .command('changes')
      .description('what changed on a wall after a cursor, in commit order (the change feed)')
      .argument(...walls.id)
      .option('--since <cursor>', 'the cursor the last call printed; latest: just the cursor of now')
      .option('--limit <n>', 'most changes to show, 1–200 (default 50)'),
  ).action(async (id: number, options: PrintOptions & { since?: string; limit?: string }) => {
    const query = checkBody<{ since?: string; limit?: string }>(
      ChangesQuery,
      given({ since: options.since, limit: options.limit }),
    );
    await withStore(options, async (store, config) => {
      const page = await attempt(() =>
        wallChanges(store.db, id, { since: query.since, limit: idFilter(query.limit) }, cliMediaBase(config)),
      );
      if (options.json) return printRecord(page, options);
      printList(
        page.changes.map((c) => ({ ...c, post: undefined })),
        ['cursor', 'kind', 'postId', 'visible', 'at'],
        options,
      );
      process.stderr.write(`${page.hasMore ? 'more' : 'next'}: add --since ${page.cursor}\n`);
    });
  });

  lineCommand(walls.group, {
    name: 'purge',
    description: 'erase a deleted wall, its feeds and posts for good',
    arguments: [walls.id],
    run: ({ op, args: [id] }) => purgeWall(op, id),
    refusals: ([id]) => ({
      404: `no wall ${id}`,
      409: `wall ${id} is live; delete it first (wallery walls delete ${id})`,
    }),
    done: ([id]) => `wall ${id} purged`,
  });
}
