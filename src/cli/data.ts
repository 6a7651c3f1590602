// migrate, import, export.
import { constants, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Command } from 'commander';
import { DataFileSyntaxError, exportDataFile, importDataFileFrom } from '../store/datafile.js';
import type { DialectName } from '../store/dialect.js';
import { knownMigrations, type PendingMigration } from '../store/migrations.js';
import { CliError, databaseOption, withStore, withUnmigratedStore, type StoreOptions } from './common.js';

/** Files with fewer posts import quietly. */
const PROGRESS_FROM_POSTS = 10_000;

/**
 * An import keeps about 30 MB live whatever the file's size, but makes
 * garbage fast; left to itself V8 lets the heap grow to 4-5 times the live
 * set between full collections, more when the cores are busy (a million
 * posts peaked at 259 MB on an idle machine, 333-360 MB on a loaded one).
 * Growing the heap by at most half between collections keeps the peak near
 * 210 MB either way, for a few per cent more time spent collecting. The
 * import is its own process, so the setting touches nothing else.
 */
const IMPORT_HEAP_GROWING_PERCENT = 50;

export function registerDataCommands(program: Command) {
  program
    .command('migrate')
    .description('create or upgrade the database schema')
    .option('--dry-run', 'print the migrations that would run and their SQL; change nothing')
    .option(...databaseOption)
    .action(async (options: StoreOptions & { dryRun?: boolean }) => {
      await withUnmigratedStore(options, async (store) => {
        if (options.dryRun) {
          process.stdout.write(describePending(await store.pendingMigrations(), store.name));
          return;
        }
        const applied = await store.migrate();
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
      });
    });

  program
    .command('import')
    .description('load a data file (contract §8) keeping every id; all or nothing; read as a stream')
    .argument('<file>', 'data file (JSON)')
    .option(
      '--skip-media',
      "do not copy the posts' pictures: they show their original URLs (otherwise the media worker fetches them)",
    )
    .option(...databaseOption)
    .action(async (file: string, options: StoreOptions & { skipMedia?: boolean }) => {
      try {
        await access(file, constants.R_OK);
      } catch (err) {
        throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
      }
      setFlagsFromString(`--heap-growing-percent=${IMPORT_HEAP_GROWING_PERCENT}`);
      await withStore(options, async (store) => {
        const started = Date.now();
        let lastShown = 0;
        let counts;
        try {
          counts = await importDataFileFrom(
            store,
            file,
            Date.now(),
            (done, fraction) => {
              // progress only where it helps: large files, at most every 5 % of the file
              if (done < PROGRESS_FROM_POSTS || (fraction < 1 && fraction - lastShown < 0.05)) return;
              lastShown = fraction;
              process.stderr.write(`import: ${done} posts (${Math.floor(100 * fraction)}% of the file)\n`);
            },
            { skipMedia: options.skipMedia === true },
          );
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
    .description('write the whole store as a data file that import reads back (mode 0600)')
    .argument('<file>', 'output file (replaced only once the export is complete)')
    .option(...databaseOption)
    .action(async (file: string, options: StoreOptions) => {
      if (!existsSync(dirname(resolve(file)))) throw new CliError(`cannot write ${file}: its folder does not exist`);
      await withStore(options, async (store) => {
        const counts = await exportDataFile(store.db, file);
        process.stdout.write(
          `exported ${counts.accounts} accounts, ${counts.walls} walls, ${counts.feeds} feeds, ${counts.posts} posts to ${file}\n`,
        );
      });
    });
}

/** `migrate --dry-run`'s report: each pending migration, what it does and its SQL. */
function describePending(pending: PendingMigration[], dialect: DialectName): string {
  const latest = knownMigrations(dialect).at(-1);
  if (pending.length === 0) return `schema is up to date (${latest}): nothing to do\n`;
  const lines = [`${pending.length} pending migration${pending.length === 1 ? '' : 's'} (dry run: nothing changed):`];
  for (const m of pending) {
    lines.push('', `${m.name}: ${m.description}`, ...m.statements.map((s) => `  ${s};`));
  }
  lines.push('', `\`wallery migrate\` applies them, up to ${latest}.`);
  return `${lines.join('\n')}\n`;
}
