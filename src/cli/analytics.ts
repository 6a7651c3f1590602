// analytics WALL: a wall's analytics over a range of UTC days, as the
// management API reports it — tables for people, --json (the API's
// responseData), or --csv (the days, as the API's text/csv answer).
import type { Command } from 'commander';
import { analyticsCsv, CSV_COLUMNS, wallAnalytics } from '../manage/analytics.js';
import { AnalyticsQuery } from '../schemas/analytics.js';
import { fieldErrorsOf } from '../schemas/validate.js';
import { CliError, idArgument, withStore } from './common.js';
import { attempt, details, given, printOptions, printRecord, table, type PrintOptions } from './output.js';

type AnalyticsOptions = PrintOptions & { from?: string; to?: string; csv?: boolean };

export function registerAnalyticsCommands(program: Command) {
  printOptions(
    program
      .command('analytics')
      .description('a wall’s wall loads, impressions, clicks and CTR per UTC day, top posts and products')
      .argument(...idArgument('wall'))
      .option('--from <day>', 'first UTC day, YYYY-MM-DD (default: 29 days before --to)')
      .option('--to <day>', 'last UTC day, YYYY-MM-DD, inclusive (default: today)')
      .option('--csv', 'print the days as CSV (a header row, then one row per day)'),
  ).action(async (wallId: number, options: AnalyticsOptions) => {
    const query = given({ from: options.from, to: options.to }) as { from?: string; to?: string };
    // checked like the API's query: every problem at once
    const errors = fieldErrorsOf(AnalyticsQuery, query, 'query');
    if (errors.length > 0) throw new CliError(errors.map((e) => e.message).join('; '));
    if (options.csv && options.json) throw new CliError('--csv and --json cannot be used together');
    await withStore(options, async (store) => {
      const report = await attempt(() => wallAnalytics(store.db, wallId, query, Date.now()));
      if (options.csv) return void process.stdout.write(analyticsCsv(report));
      if (options.json) return printRecord(report, options);
      process.stdout.write(
        `wall ${report.wallId}, ${report.from} to ${report.to} (UTC)\n\n` +
          details(report.totals) +
          '\n' +
          table(report.days, [...CSV_COLUMNS]) +
          (report.topPosts.length > 0
            ? `\ntop posts\n${table(report.topPosts, ['postId', 'impressions', 'clicks', 'ctaClicks', 'productClicks', 'ctr'])}`
            : '') +
          (report.topProducts.length > 0
            ? `\ntop products\n${table(report.topProducts, ['productId', 'name', 'productClicks'])}`
            : ''),
      );
    });
  });
}
