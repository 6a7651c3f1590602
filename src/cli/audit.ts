// audit: the log of management writes (API and CLI), newest first.
import type { Command } from 'commander';
import { AuditListQuery } from '../schemas/audit.js';
import { listAudit } from '../manage/audit.js';
import { given, idFilter, pagedOptions, pageFrom, showPage, type PagedOptions } from './output.js';

export function registerAuditCommands(program: Command) {
  pagedOptions(
    program
      .command('audit')
      .description('the audit log: every management write, newest first')
      .option('--action <action>', 'only this action, e.g. wall.update')
      .option('--target-type <type>', 'account, user_key, wall, feed, post, product, operator_token or publishable_key')
      .option('--target-id <id>', 'only this target')
      .option('--post <id>', 'the history of this post: its own changes and the bulk actions that included it')
      .option('--token-name <name>', 'only writes made with this token (cli for the CLI)')
      .option('--account <id>', 'only entries of this account (its walls, feeds, posts, products and keys)'),
  ).action(
    async (
      options: PagedOptions & {
        action?: string;
        targetType?: string;
        targetId?: string;
        post?: string;
        tokenName?: string;
        account?: string;
      },
    ) => {
      const filter = given({
        action: options.action,
        targetType: options.targetType,
        targetId: options.targetId,
        postId: options.post,
        tokenName: options.tokenName,
        accountId: options.account,
      });
      const page = pageFrom(options, AuditListQuery, filter);
      await showPage(options, ['id', 'at', 'tokenName', 'action', 'targetType', 'targetId', 'summary'], (store) =>
        listAudit(
          store.db,
          {
            ...filter,
            targetId: idFilter(options.targetId),
            postId: idFilter(options.post),
            accountId: idFilter(options.account),
          },
          page,
        ),
      );
    },
  );
}
