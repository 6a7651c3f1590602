#!/usr/bin/env node
// The `wallery` command.
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError } from '../config.js';
import { registerDataCommands } from './data.js';
import { registerIngestCommands } from './ingest.js';
import { registerKeyCommands } from './keys.js';
import { registerServeCommands } from './serve.js';
import { registerWallCommands } from './walls.js';
import { registerAccountCommands } from './accounts.js';
import { registerAuditCommands } from './audit.js';
import { registerFeedCommands } from './feeds.js';
import { registerPostCommands } from './posts.js';
import { registerProductCommands } from './products.js';
import { registerTokenCommands } from './tokens.js';

const program = new Command('wallery')
  .description('Wallery — self-hosted social walls behind the Wall and Gallery Content API v2')
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });

registerServeCommands(program);
registerDataCommands(program);
registerKeyCommands(program);
registerWallCommands(program);
registerTokenCommands(program);
registerAccountCommands(program);
registerFeedCommands(program);
registerPostCommands(program);
registerProductCommands(program);
registerAuditCommands(program);
registerIngestCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (
    err instanceof ConfigError ||
    err instanceof InvalidArgumentError ||
    (err as Error)?.name === 'CliError' ||
    (err as Error)?.name === 'DataFileError'
  ) {
    process.stderr.write(`wallery: ${(err as Error).message}\n`);
    process.exit(1);
  }
  throw err;
}
