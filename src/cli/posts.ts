// posts list / get / hide / unhide / pin / unpin / highlight / unhighlight /
// cta / edit / tags / tag / untag: moderation from the command line. The
// actions on several posts are one atomic bulk action.
import type { Command } from 'commander';
import { BulkBody, PostListQuery, PostPatchBody, TagPostBody } from '../http/manage/schemas.js';
import type { MediaKind } from '../store/schema.js';
import {
  addTag,
  bulkModerate,
  getModerationPost,
  listModerationPosts,
  listTags,
  removeTag,
  updatePost,
  type BulkAction,
  type BulkInput,
  type PostPatch,
  type PostStatus,
  type TagInput,
} from '../store/manage/posts.js';
import { databaseOption, positiveInt, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  checkBody,
  cliOp,
  given,
  jsonOption,
  numberish,
  pageFrom,
  pageOptions,
  printList,
  printPage,
  printRecord,
  type OutputOptions,
} from './output.js';

type Options = StoreOptions & OutputOptions;

const COLUMNS = ['id', 'feedId', 'media', 'hidden', 'pinned', 'highlighted', 'createdAt', 'authorName', 'content'];
const TAG_COLUMNS = ['position', 'productId', 'productName', 'left', 'top'];

const postIds = (value: string, previous: number[] | undefined) => [...(previous ?? []), positiveInt('post id')(value)];

export function registerPostCommands(program: Command) {
  const posts = program.command('posts').description('moderation: the posts of a wall, hidden ones included');

  posts
    .command('list')
    .description('the moderation view: newest first, hidden posts included')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .option('--status <status>', 'visible, hidden or all (default all)')
    .option('--feed <id>', 'only this feed’s posts')
    .option('--media <kind>', 'image, video or text')
    .option(...pageOptions[0])
    .option(...pageOptions[1])
    .option(...jsonOption)
    .option(...databaseOption)
    .action(
      async (
        wallId: number,
        options: Options & { status?: string; feed?: string; media?: string; limit?: string; cursor?: string },
      ) => {
        const page = pageFrom(
          options,
          PostListQuery,
          given({ status: options.status, feedId: options.feed, media: options.media }),
        );
        const filter = {
          status: options.status as PostStatus | undefined,
          feedId: options.feed === undefined ? undefined : Number(options.feed),
          media: options.media as MediaKind | undefined,
        };
        await withStore(options, async (store) =>
          printPage(await attempt(() => listModerationPosts(store.db, wallId, filter, page)), COLUMNS, options),
        );
      },
    );

  posts
    .command('get')
    .description('show a post with its moderation state and product tags')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .argument('<post>', 'post id', positiveInt('post id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (wallId: number, postId: number, options: Options) => {
      await withStore(options, async (store) =>
        printRecord(await attempt(() => getModerationPost(store.db, wallId, postId)), options),
      );
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
    posts
      .command(action)
      .description(`${description} (several posts: all or nothing)`)
      .argument('<wall>', 'wall id', positiveInt('wall id'))
      .argument('<posts...>', 'post ids', postIds)
      .option(...databaseOption)
      .action(async (wallId: number, ids: number[], options: StoreOptions) => {
        const body = checkBody<BulkInput>(BulkBody, { postIds: ids, action });
        await withStore(options, async (store) => {
          const done = await attempt(() => bulkModerate(cliOp(store), wallId, body));
          process.stdout.write(`${action}: ${done.postIds.length} posts, ${done.changed} changed\n`);
        });
      });
  }

  posts
    .command('cta')
    .description('set (or --clear) the call-to-action of posts (several posts: all or nothing)')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .argument('<posts...>', 'post ids', postIds)
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
        await withStore(options, async (store) => {
          const done = await attempt(() => bulkModerate(cliOp(store), wallId, body));
          process.stdout.write(`${body.action}: ${done.postIds.length} posts, ${done.changed} changed\n`);
        });
      },
    );

  posts
    .command('edit')
    .description('replace the text of a post')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .argument('<post>', 'post id', positiveInt('post id'))
    .requiredOption('--content <text>', 'the new text')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (wallId: number, postId: number, options: Options & { content: string }) => {
      const body = checkBody<PostPatch>(PostPatchBody, { content: options.content });
      await withStore(options, async (store) =>
        printRecord(await attempt(() => updatePost(cliOp(store), wallId, postId, body)), options),
      );
    });

  posts
    .command('tags')
    .description('the products tagged on a post, in tag order')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .argument('<post>', 'post id', positiveInt('post id'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (wallId: number, postId: number, options: Options) => {
      await withStore(options, async (store) =>
        printList(await attempt(() => listTags(store.db, wallId, postId)), TAG_COLUMNS, options),
      );
    });

  posts
    .command('tag')
    .description('tag a product on a post, with its hotspot')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .argument('<post>', 'post id', positiveInt('post id'))
    .requiredOption('--product <id>', 'product id (a product of the wall’s account)')
    .requiredOption('--left <percent>', 'hotspot from the left, 0–100')
    .requiredOption('--top <percent>', 'hotspot from the top, 0–100')
    .option('--position <n>', 'place in the tag order, from 0 (default: last)')
    .option(...jsonOption)
    .option(...databaseOption)
    .action(
      async (
        wallId: number,
        postId: number,
        options: Options & { product: string; left: string; top: string; position?: string },
      ) => {
        const body = checkBody<TagInput & { position?: number }>(
          TagPostBody,
          given({
            productId: numberish(options.product),
            left: numberish(options.left),
            top: numberish(options.top),
            position: numberish(options.position),
          }),
        );
        await withStore(options, async (store) =>
          printList(await attempt(() => addTag(cliOp(store), wallId, postId, body)), TAG_COLUMNS, options),
        );
      },
    );

  posts
    .command('untag')
    .description('remove a product tag from a post')
    .argument('<wall>', 'wall id', positiveInt('wall id'))
    .argument('<post>', 'post id', positiveInt('post id'))
    .requiredOption('--product <id>', 'product id', positiveInt('--product'))
    .option(...jsonOption)
    .option(...databaseOption)
    .action(async (wallId: number, postId: number, options: Options & { product: number }) => {
      await withStore(options, async (store) =>
        printList(await attempt(() => removeTag(cliOp(store), wallId, postId, options.product)), TAG_COLUMNS, options),
      );
    });
}
