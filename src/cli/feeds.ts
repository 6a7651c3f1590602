// feeds list / get / create / update / enable / disable / delete.
import type { Command } from 'commander';
import { FeedCreateBody, FeedPatchBody } from '../schemas/feeds.js';
import { createFeed, deleteFeed, getFeed, listFeeds, updateFeed } from '../manage/walls.js';
import { type FeedInput, type FeedPatch } from '../schemas/feeds.js';
import { CliError, databaseOption, idArgument, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  pagedOptions,
  pageFrom,
  printOptions,
  showPage,
  showRecord,
  type PagedOptions,
  type PrintOptions,
} from './output.js';

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

/** The feed fields given as options, shaped as an API body. */
function feedBody(options: FeedFields, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return given({
    name: options.name,
    source: options.source,
    sourceType: options.sourceType,
    connector: connectorOption(options.connector),
    ...extra,
  });
}

export function registerFeedCommands(program: Command) {
  const feeds = program.command('feeds').description('feeds of a wall and their connector settings');

  pagedOptions(
    feeds
      .command('list')
      .description('list the feeds of a wall')
      .argument(...idArgument('wall')),
  ).action(async (wallId: number, options: PagedOptions) => {
    const page = pageFrom(options);
    await showPage(options, COLUMNS, (store) => listFeeds(store.db, wallId, page));
  });

  printOptions(
    feeds
      .command('get')
      .description('show a feed')
      .argument(...idArgument('feed')),
  ).action(async (feedId: number, options: PrintOptions) => {
    await showRecord(options, (store) => getFeed(store.db, feedId));
  });

  printOptions(
    feeds
      .command('create')
      .description('add a feed to a wall')
      .argument(...idArgument('wall'))
      .requiredOption('--name <name>', 'feed name')
      .requiredOption('--source <source>', 'network name, e.g. Mastodon')
      .requiredOption('--source-type <type>', 'kind of feed on that network, e.g. hashtag')
      .option('--connector <json>', 'connector setting as JSON (what ingestion collects)')
      .option('--disabled', 'create it disabled (no ingestion)'),
  ).action(async (wallId: number, options: PrintOptions & FeedFields & { disabled?: boolean }) => {
    const body = checkBody<FeedInput>(
      FeedCreateBody,
      feedBody(options, { enabled: options.disabled ? false : undefined }),
    );
    await showRecord(options, (store) => createFeed(cliOp(store), wallId, body));
  });

  printOptions(
    feeds
      .command('update')
      .description('change a feed')
      .argument(...idArgument('feed'))
      .option('--name <name>', 'feed name')
      .option('--source <source>', 'network name')
      .option('--source-type <type>', 'kind of feed on that network')
      .option('--connector <json>', 'connector setting as JSON, or null for none'),
  ).action(async (feedId: number, options: PrintOptions & FeedFields) => {
    const body = checkBody<FeedPatch>(FeedPatchBody, feedBody(options));
    await showRecord(options, (store) => updateFeed(cliOp(store), feedId, body));
  });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    feeds
      .command(name)
      .description(enabled ? 'resume ingestion for a feed' : 'stop ingestion for a feed (its posts stay)')
      .argument(...idArgument('feed'))
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
    .argument(...idArgument('feed'))
    .option(...databaseOption)
    .action(async (feedId: number, options: StoreOptions) => {
      await withStore(options, async (store) => {
        const gone = await attempt(() => deleteFeed(cliOp(store), feedId));
        process.stdout.write(`feed ${feedId} deleted with its ${gone.postCount} posts\n`);
      });
    });
}
