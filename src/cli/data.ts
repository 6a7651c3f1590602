// migrate, import, export.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { Command } from 'commander';
import { DataFileSyntaxError, exportDataFile, importDataFileFrom } from '../store/datafile.js';
import { openStore } from '../store/store.js';
import { CliError, configFrom, databaseOption, withStore, type StoreOptions } from './common.js';

/** Files with fewer posts import quietly. */
const PROGRESS_FROM_POSTS = 10_000;

export function registerDataCommands(program: Command) {
  program
    .command('migrate')
    .description('create or upgrade the database schema')
    .option(...databaseOption)
    .action(async (options: StoreOptions) => {
      const config = configFrom(options);
      const store = openStore(config.store, config.database);
      try {
        await store.waitUntilReachable(config.database.connectRetries);
        const applied = await store.migrate();
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
      } finally {
        await store.close();
      }
    });

  program
    .command('import')
    .description('load a data file (contract §8) keeping every id; all or nothing; read as a stream')
    .argument('<file>', 'data file (JSON)')
    .option(...databaseOption)
    .action(async (file: string, options: StoreOptions) => {
      try {
        await access(file, constants.R_OK);
      } catch (err) {
        throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
      }
      await withStore(options, async (store) => {
        const started = Date.now();
        let lastShown = 0;
        let counts;
        try {
          counts = await importDataFileFrom(store, file, Date.now(), (done, fraction) => {
            // progress only where it helps: large files, at most every 5 % of the file
            if (done < PROGRESS_FROM_POSTS || (fraction < 1 && fraction - lastShown < 0.05)) return;
            lastShown = fraction;
            process.stderr.write(`import: ${done} posts (${Math.floor(100 * fraction)}% of the file)\n`);
          });
        } catch (err) {
          if (err instanceof DataFileSyntaxError) throw new CliError(`cannot read ${file}: ${err.message}`);
          throw err;
        }
        const seconds = (Date.now() - started) / 1000;
        process.stdout.write(
          `imported ${counts.accounts} accounts, ${counts.userKeys} keys, ${counts.products} products, ` +
            `${counts.walls} walls, ${counts.feeds} feeds, ${counts.posts} posts in ${seconds.toFixed(2)} s\n`,
        );
      });
    });

  program
    .command('export')
    .description('write the whole store as a data file that import reads back')
    .argument('<file>', 'output file')
    .option(...databaseOption)
    .action(async (file: string, options: StoreOptions) => {
      await withStore(options, async (store) => {
        const counts = await exportDataFile(store.db, file);
        process.stdout.write(
          `exported ${counts.accounts} accounts, ${counts.walls} walls, ${counts.feeds} feeds, ${counts.posts} posts to ${file}\n`,
        );
      });
    });
}
