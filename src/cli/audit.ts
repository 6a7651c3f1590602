// audit: the log of management writes (API and CLI), newest first.
import type { Command } from 'commander';
import { AuditListQuery } from '../http/manage/schemas.js';
import { listAudit } from '../store/manage/audit.js';
import { databaseOption, withStore, type StoreOptions } from './common.js';
import { attempt, given, jsonOption, pageFrom, pageOptions, printPage, type OutputOptions } from './output.js';

export function registerAuditCommands(program: Command) {
  program
    .command('audit')
    .description('the audit log: every management write, newest first')
    .option('--action <action>', 'only this action, e.g. wall.update')
    .option('--target-type <type>', 'account, user_key, wall, feed, post, product or operator_token')
    .option('--target-id <id>', 'only this target')
    .option('--token-name <name>', 'only writes made with this token (cli for the CLI)')
    .option(...pageOptions[0])
    .option(...pageOptions[1])
    .option(...jsonOption)
    .option(...databaseOption)
    .action(
      async (
        options: StoreOptions &
          OutputOptions & {
            action?: string;
            targetType?: string;
            targetId?: string;
            tokenName?: string;
            limit?: string;
            cursor?: string;
          },
      ) => {
        const filter = given({
          action: options.action,
          targetType: options.targetType,
          targetId: options.targetId,
          tokenName: options.tokenName,
        });
        const page = pageFrom(options, AuditListQuery, filter);
        await withStore(options, async (store) => {
          const result = await attempt(() =>
            listAudit(
              store.db,
              { ...filter, targetId: options.targetId === undefined ? undefined : Number(options.targetId) },
              page,
            ),
          );
          printPage(result, ['id', 'at', 'tokenName', 'action', 'targetType', 'targetId', 'summary'], options);
        });
      },
    );
}
