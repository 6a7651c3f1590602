// posts list / queue / get / approve / reject / hide / unhide / pin / unpin /
// highlight / unhighlight / cta / edit / tags / tag / untag: moderation from
// the command line. The actions on several posts are one atomic bulk action.
import type { Command } from 'commander';
import { BulkBody, PostListQuery, PostPatchBody, TagPostBody } from '../schemas/posts.js';
import type { MediaKind } from '../domain/lists.js';
import * as manage from '../manage/posts.js';
import {
  type BulkInput,
  type PostListState,
  type PostPatch,
  type PostStatus,
  type RightsListState,
} from '../schemas/posts.js';
import { type BulkAction } from '../schemas/posts.js';
import { cliMediaBase, databaseOption, idArgument, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  idFilter,
  numberish,
  table,
  type PagedOptions,
  type PrintOptions,
} from './output.js';
import { pageCommand, recordCommand, type Call } from './resource.js';

const COLUMNS = [
  'id',
  'feedId',
  'media',
  'state',
  'hidden',
  'pinned',
  'highlighted',
  'createdAt',
  'authorName',
  'content',
];
const TAG_COLUMNS = ['position', 'productId', 'productName', 'left', 'top'];

const postIds = (value: string, previous: number[] | undefined) => [...(previous ?? []), positiveInt('post id')(value)];

const WALL = idArgument('wall');
/** The arguments of a `posts` subcommand about one post of a wall: `<wall> <post>`. */
const ONE_POST = [WALL, idArgument('post')] as const;
/** A post's product tags as a table (or JSON with --json). */
const tagTable = (tags: object[]) => table(tags as Record<string, unknown>[], TAG_COLUMNS);

type ListOptions = PagedOptions & { status?: string; state?: string; feed?: string; media?: string; rights?: string };

/** A `posts` subcommand about several posts of a wall, all or nothing: `<wall> <posts...>`. */
function severalPosts(posts: Command, name: string, description: string): Command {
  return posts
    .command(name)
    .description(description)
    .argument(...WALL)
    .argument('<posts...>', 'post ids', postIds);
}

/** Runs a bulk action and prints what it did. */
async function bulk(options: StoreOptions, wallId: number, body: BulkInput): Promise<void> {
  await withStore(options, async (store) => {
    const done = await attempt(() => manage.bulkModerate(cliOp(store), wallId, body));
    process.stdout.write(`${body.action}: ${done.postIds.length} posts, ${done.changed} changed\n`);
  });
}

export function registerPostCommands(program: Command) {
  const posts = program.command('posts').description('moderation: the posts of a wall, hidden ones included');

  pageCommand(posts, {
    name: 'list',
    description: 'the moderation view: newest first, hidden posts included',
    arguments: [WALL],
    options: (c) =>
      c
        .option('--status <status>', 'visible (what the public API shows), hidden or all (default all)')
        .option('--state <state>', 'pending (oldest first), approved, rejected, hidden or all (default all)')
        .option('--feed <id>', 'only this feed’s posts')
        .option('--media <kind>', 'image, video or text')
        .option(
          '--rights <state>',
          'a rights state (requested, granted, declined, expired, revoked), none (never asked) or held (kept off its wall for want of rights)',
        ),
    columns: COLUMNS,
    query: PostListQuery,
    filters: (options: ListOptions) => ({
      status: options.status,
      state: options.state,
      feedId: options.feed,
      media: options.media,
      rights: options.rights,
    }),
    run: ({ store, config, page, args: [wallId], options }) => {
      const filter = {
        status: options.status as PostStatus | undefined,
        state: options.state as PostListState | undefined,
        feedId: idFilter(options.feed),
        media: options.media as MediaKind | undefined,
        rights: options.rights as RightsListState | undefined,
      };
      return manage.listModerationPosts(store.db, wallId, filter, page, cliMediaBase(config));
    },
  });

  pageCommand(posts, {
    name: 'queue',
    description: 'the approval queue: the pending posts of a wall, oldest first',
    arguments: [WALL],
    columns: COLUMNS,
    query: PostListQuery,
    filters: () => ({ state: 'pending' }),
    run: ({ store, config, page, args: [wallId] }) =>
      manage.listModerationPosts(store.db, wallId, { state: 'pending' }, page, cliMediaBase(config)),
  });

  const decisions: [BulkAction, string][] = [
    ['approve', 'approve posts: they appear in the public API (unless hidden)'],
    ['reject', 'reject posts: they never appear, and are not ingested again'],
  ];
  for (const [action, description] of decisions) {
    severalPosts(posts, action, `${description} (several posts: all or nothing)`)
      .option('--reason <text>', 'why: kept with the decision and in the audit log')
      .option(...databaseOption)
      .action(async (wallId: number, ids: number[], options: StoreOptions & { reason?: string }) => {
        await bulk(
          options,
          wallId,
          checkBody<BulkInput>(BulkBody, given({ postIds: ids, action, reason: options.reason })),
        );
      });
  }

  recordCommand(posts, {
    name: 'get',
    description: 'show a post with its moderation state and product tags',
    arguments: ONE_POST,
    run: ({ store, config, args: [wallId, postId] }) =>
      manage.getModerationPost(store.db, wallId, postId, cliMediaBase(config)),
  });

  const actions: [BulkAction, string][] = [
    ['hide', 'hide posts: they leave the public API'],
    ['unhide', 'show hidden posts again'],
    ['pin', 'pin posts: they come first'],
    ['unpin', 'unpin posts'],
    ['highlight', 'highlight posts'],
    ['unhighlight', 'remove the highlight'],
  ];
  for (const [action, description] of actions) {
    severalPosts(posts, action, `${description} (several posts: all or nothing)`)
      .option(...databaseOption)
      .action(async (wallId: number, ids: number[], options: StoreOptions) => {
        await bulk(options, wallId, checkBody<BulkInput>(BulkBody, { postIds: ids, action }));
      });
  }

  severalPosts(posts, 'cta', 'set (or --clear) the call-to-action of posts (several posts: all or nothing)')
    .option('--color <hex>', 'text colour, e.g. #ffffff')
    .option('--background <hex>', 'background colour, e.g. #0a7cff')
    .option('--status <n>', 'CTAStatus, 0 or 1', '1')
    .option('--url <url>', 'where it leads')
    .option('--text <text>', 'its label')
    .option('--clear', 'remove the call-to-action')
    .option(...databaseOption)
    .action(
      async (
        wallId: number,
        ids: number[],
        options: StoreOptions & {
          color?: string;
          background?: string;
          status: string;
          url?: string;
          text?: string;
          clear?: boolean;
        },
      ) => {
        const body = checkBody<BulkInput>(
          BulkBody,
          options.clear
            ? { postIds: ids, action: 'clearCta' }
            : {
                postIds: ids,
                action: 'setCta',
                cta: given({
                  color: options.color,
                  background: options.background,
                  status: numberish(options.status),
                  url: options.url,
                  text: options.text,
                }),
              },
        );
        await bulk(options, wallId, body);
      },
    );

  recordCommand(posts, {
    name: 'edit',
    description: 'replace the text of a post',
    arguments: ONE_POST,
    options: (c) => c.requiredOption('--content <text>', 'the new text'),
    body: (options: PrintOptions & { content: string }) =>
      checkBody<PostPatch>(PostPatchBody, { content: options.content }),
    run: ({ op, config, body, args: [wallId, postId] }) =>
      manage.updatePost(op, wallId, postId, body, cliMediaBase(config)),
  });

  recordCommand(posts, {
    name: 'tags',
    description: 'the products tagged on a post, in tag order',
    arguments: ONE_POST,
    run: ({ store, args: [wallId, postId] }) => manage.listTags(store.db, wallId, postId),
    text: tagTable,
  });

  recordCommand(posts, {
    name: 'tag',
    description: 'tag a product on a post, with its hotspot',
    arguments: ONE_POST,
    options: (c) =>
      c
        .requiredOption('--product <id>', 'product id (a product of the wall’s account)')
        .requiredOption('--left <percent>', 'hotspot from the left, 0–100')
        .requiredOption('--top <percent>', 'hotspot from the top, 0–100')
        .option('--position <n>', 'place in the tag order, from 0 (default: last)'),
    body: (options: PrintOptions & { product: string; left: string; top: string; position?: string }) =>
      checkBody<manage.TagInput & { position?: number }>(
        TagPostBody,
        given({
          productId: numberish(options.product),
          left: numberish(options.left),
          top: numberish(options.top),
          position: numberish(options.position),
        }),
      ),
    run: ({ op, body, args: [wallId, postId] }) => manage.addTag(op, wallId, postId, body),
    text: tagTable,
  });

  recordCommand(posts, {
    name: 'untag',
    description: 'remove a product tag from a post',
    arguments: ONE_POST,
    options: (c) => c.requiredOption('--product <id>', 'product id', positiveInt('--product')),
    run: ({ op, args: [wallId, postId], options }: Call<PrintOptions & { product: number }, typeof ONE_POST>) =>
      manage.removeTag(op, wallId, postId, options.product),
    text: tagTable,
  });
}
