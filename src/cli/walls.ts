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
import { CALL_TO_POST_MAX, CARD_STYLES, FONTS, RADIUS_MAX } from '../domain/branding.js';

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
  rightsRequired?: string;
  rightsAuto?: string;
  accent?: string;
  background?: string;
  cardBackground?: string;
  textColor?: string;
  font?: string;
  radius?: string;
  cardStyle?: string;
  logo?: string;
  callToPost?: string;
  infoUrl?: string;
  var?: string[];
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
  rightsRequired: options.rightsRequired,
  rightsAuto: options.rightsAuto,
  branding: brandingFields(options),
});

/** `none` clears a branding option (the API's null: back to the theme's own). */
const orNone = (text: string | undefined) => (text === undefined ? undefined : text === 'none' ? null : text);

/**
 * The branding options as the API's `branding` change (undefined when none
 * is given): `--var NAME=VALUE` (repeatable; `NAME=none` removes one).
 */
function brandingFields(options: WallFields): Record<string, unknown> | undefined {
  const vars = options.var?.length
    ? Object.fromEntries(
        options.var.map((pair) => {
          const at = pair.indexOf('=');
          return at < 0 ? [pair, ''] : [pair.slice(0, at).trim(), orNone(pair.slice(at + 1).trim())];
        }),
      )
    : undefined;
  const radius = orNone(options.radius);
  const branding = given({
    accent: orNone(options.accent),
    background: orNone(options.background),
    cardBackground: orNone(options.cardBackground),
    text: orNone(options.textColor),
    font: orNone(options.font),
    radius: radius === null ? null : numberish(radius),
    cardStyle: orNone(options.cardStyle),
    logoUrl: orNone(options.logo),
    callToPost: orNone(options.callToPost),
    infoUrl: orNone(options.infoUrl),
    vars,
  });
  return Object.keys(branding).length > 0 ? branding : undefined;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The rights options of create and update (docs/guides/rights.md). */
function rightsOptions(c: Command): Command {
  return c
    .option(
      '--rights-required <what>',
      'none, shoppable (posts tagged with products) or all: need granted rights to show',
    )
    .option('--rights-auto <rule>', 'ask by a reply for approved posts: off, approved or shoppable (tagged ones)');
}

/** The branding options of create and update (src/domain/branding.ts checks their values, as the API does). */
function brandingOptions(c: Command): Command {
  return c
    .option('--accent <hex>', 'accent colour of links and buttons, e.g. #e4572e (none: the theme’s)')
    .option('--background <hex>', 'background colour of the wall and its hosted page (none: the theme’s)')
    .option('--card-background <hex>', 'background colour of the cards (none: the theme’s)')
    .option('--text-color <hex>', 'text colour of the cards (none: the theme’s); WCAG AA on the cards is checked')
    .option('--font <font>', `font: ${FONTS.join(', ')} (system fonts, nothing downloaded)`)
    .option('--radius <px>', `corner radius of the cards, 0 to ${RADIUS_MAX} px (none: the theme’s)`)
    .option('--card-style <style>', `cards: ${CARD_STYLES.join(', ')}`)
    .option('--logo <url>', 'URL of the wall’s logo, shown on the event screen (none: no logo)')
    .option('--call-to-post <text>', `the event screen’s call to post, at most ${CALL_TO_POST_MAX} characters`)
    .option('--info-url <url>', 'https URL the event screen’s QR code points to')
    .option(
      '--var <name=value>',
      'a custom CSS variable from the allow-list, e.g. --wallery-gap=16px (repeatable)',
      collect,
    );
}

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
      brandingOptions(
        rightsOptions(
          c
            .requiredOption('--account <id>', 'account id')
            .requiredOption('--name <name>', 'wall name')
            .requiredOption('--url <slug>', 'URL slug: lowercase letters, digits, - and _')
            .option('--profanity', 'turn the profanity flag on')
            .option('--moderation <mode>', 'auto (default) or manual: ingested posts wait for an approval')
            .option('--allow-framing', 'any site may frame the hosted page of a key that names no origins')
            .option('--media-wait', 'show a new post only once its pictures are fetched (default: at once)'),
        ),
      ),
    body: (options: PrintOptions & WallFields & { account: string }) =>
      checkBody<WallInput>(WallCreateBody, given({ accountId: numberish(options.account), ...wallFields(options) })),
    run: ({ op, body }) => createWall(op, body),
  });

  walls.update({
    description:
      'change a wall’s name, URL slug, profanity flag, moderation mode, framing, waiting for pictures, rights or branding ' +
      '(the branding options given change, the others stay)',
    options: (c) =>
      brandingOptions(
        rightsOptions(
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
        ),
      ),
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
