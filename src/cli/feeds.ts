// feeds list / get / create / update / enable / disable / delete.
import type { Command } from 'commander';
import { FeedCreateBody, FeedPatchBody } from '../schemas/feeds.js';
import { createFeed, deleteFeed, getFeed, listFeeds, updateFeed } from '../manage/walls.js';
import { type FeedInput, type FeedPatch } from '../schemas/feeds.js';
import { CliError, idArgument } from './common.js';
import { checkBody, given, type PrintOptions } from './output.js';
import { lineCommand, resourceCommands } from './resource.js';

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
  const feeds = resourceCommands(program, {
    name: 'feeds',
    description: 'feeds of a wall and their connector settings',
    noun: 'feed',
    idName: 'feed',
  });
  const wall = idArgument('wall');

  feeds.list({
    description: 'list the feeds of a wall',
    arguments: [wall],
    columns: COLUMNS,
    run: ({ store, page, args: [wallId] }) => listFeeds(store.db, wallId, page),
  });

  feeds.get('show a feed', (store, feedId) => getFeed(store.db, feedId));

  feeds.create({
    description: 'add a feed to a wall',
    arguments: [wall],
    options: (c) =>
      c
        .requiredOption('--name <name>', 'feed name')
        .requiredOption('--source <source>', 'network name, e.g. Mastodon')
        .requiredOption('--source-type <type>', 'kind of feed on that network, e.g. hashtag')
        .option('--connector <json>', 'connector setting as JSON (what ingestion collects)')
        .option('--disabled', 'create it disabled (no ingestion)'),
    body: (options: PrintOptions & FeedFields & { disabled?: boolean }) =>
      checkBody<FeedInput>(FeedCreateBody, feedBody(options, { enabled: options.disabled ? false : undefined })),
    run: ({ op, body, args: [wallId] }) => createFeed(op, wallId, body),
  });

  feeds.update({
    description: 'change a feed',
    options: (c) =>
      c
        .option('--name <name>', 'feed name')
        .option('--source <source>', 'network name')
        .option('--source-type <type>', 'kind of feed on that network')
        .option('--connector <json>', 'connector setting as JSON, or null for none'),
    body: (options: PrintOptions & FeedFields) => checkBody<FeedPatch>(FeedPatchBody, feedBody(options)),
    run: ({ op, body, args: [feedId] }) => updateFeed(op, feedId, body),
  });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    lineCommand(feeds.group, {
      name,
      description: enabled ? 'resume ingestion for a feed' : 'stop ingestion for a feed (its posts stay)',
      arguments: [feeds.id],
      run: ({ op, args: [feedId] }) => updateFeed(op, feedId, { enabled }),
      done: ([feedId]) => `feed ${feedId} ${enabled ? 'enabled' : 'disabled'}`,
    });
  }

  feeds.delete(
    'delete a feed with its posts',
    deleteFeed,
    (feedId, gone) => `feed ${feedId} deleted with its ${gone.postCount} posts`,
  );
}
