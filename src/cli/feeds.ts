// feeds list / get / create / update / enable / disable / delete.
import type { Command } from 'commander';
import { FeedCreateBody, FeedPatchBody } from '../http/manage/schemas.js';
import {
  createFeed,
  deleteFeed,
  getFeed,
  listFeeds,
  updateFeed,
  type FeedInput,
  type FeedPatch,
} from '../store/manage/walls.js';
import { CliError, databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  jsonOption,
  pageFrom,
  pageOptions,
  printPage,
  printRecord,
  type OutputOptions,
} from './output.js';

type Options = StoreOptions & OutputOptions;

const COLUMNS = ['id', 'wallId', 'name', 'source', 'sourceType', 'enabled', 'postCount', 'connector'];

interface FeedFields {
  name?: string;
  source?: string;
  sourceType?: string;
  connector?: string;
}

function connectorOption(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(
      '--connector must be JSON, e.g. \'{"kind":"rss","url":"https://example.com/feed.xml"}\', or null',
    );
  }
}

export function registerFeedCommands(program: Command) {
  const feeds = program.command('feeds').description('feeds of a wall and their connector settings');

  feeds
    .command('list')
    .description('list the feeds of a wall')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .option(...pageOptions[0])
    .option(...pageOptions[1])
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (wallId: number, options: Options & { limit?: string; cursor?: string }) => {
      const page = pageFrom(options);
      await withStore(options, async (store) =>
        printPage(await attempt(() => listFeeds(store.db, wallId, page)), COLUMNS, options),
      );
    });

  feeds
    .command('get')
    .description('show a feed')
    .argument('<feed>', 'feed id', positiveInt('feed id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (feedId: number, options: Options) => {
      await withStore(options, async (store) => printRecord(await attempt(() => getFeed(store.db, feedId)), options));
    });

  feeds
    .command('create')
    .description('add a feed to a wall')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .requiredOption('--name <name>', 'feed name')
    .requiredOption('--source <source>', 'network name, e.g. Mastodon')
    .requiredOption('--source-type <type>', 'kind of feed on that network, e.g. hashtag')
    .option('--connector <json>', 'connector setting as JSON (what ingestion collects)')
    .option('--disabled', 'create it disabled (no ingestion)')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (wallId: number, options: Options & FeedFields & { disabled?: boolean }) => {
      const body = checkBody<FeedInput>(
        FeedCreateBody,
        given({
          name: options.name,
          source: options.source,
          sourceType: options.sourceType,
          connector: connectorOption(options.connector),
          enabled: options.disabled ? false : undefined,
        }),
      );
      await withStore(options, async (store) =>
        printRecord(await attempt(() => createFeed(cliOp(store), wallId, body)), options),
      );
    });

  feeds
    .command('update')
    .description('change a feed')
    .argument('<feed>', 'feed id', positiveInt('feed id'))
    .option('--name <name>', 'feed name')
    .option('--source <source>', 'network name')
    .option('--source-type <type>', 'kind of feed on that network')
    .option('--connector <json>', 'connector setting as JSON, or null for none')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (feedId: number, options: Options & FeedFields) => {
      const body = checkBody<FeedPatch>(
        FeedPatchBody,
        given({
          name: options.name,
          source: options.source,
          sourceType: options.sourceType,
          connector: connectorOption(options.connector),
        }),
      );
      await withStore(options, async (store) =>
        printRecord(await attempt(() => updateFeed(cliOp(store), feedId, body)), options),
      );
    });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    feeds
      .command(name)
      .description(enabled ? 'resume ingestion for a feed' : 'stop ingestion for a feed (its posts stay)')
      .argument('<feed>', 'feed id', positiveInt('feed id'))
      .option(...databaseOption)
      .action(async (feedId: number, options: StoreOptions) => {
        await withStore(options, async (store) => {
          await attempt(() => updateFeed(cliOp(store), feedId, { enabled }));
          process.stdout.write(`feed ${feedId} ${enabled ? 'enabled' : 'disabled'}\n`);
        });
      });
  }

  feeds
    .command('delete')
    .description('delete a feed with its posts')
    .argument('<feed>', 'feed id', positiveInt('feed id'))
    .option(...databaseOption)
    .action(async (feedId: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        const gone = await attempt(() => deleteFeed(cliOp(store), feedId));
        process.stdout.write(`feed ${feedId} deleted with its ${gone.postCount} posts\n`);
      });
    });
}
