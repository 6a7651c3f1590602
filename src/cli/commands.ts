// The `wallery` command's definition: every subcommand, argument and option
// with its description. program.ts parses the command line with it;
// scripts/docs-gen.ts walks it to write docs/reference/cli.md.
import { Command } from 'commander';
import { registerBackupCommands } from './backup.js';
import { registerDataCommands } from './data.js';
import { registerIngestCommands } from './ingest.js';
import { registerKeyCommands } from './keys.js';
import { registerMediaCommands } from './media.js';
import { registerServeCommands } from './serve.js';
import { registerWallCommands } from './walls.js';
import { registerWallKeyCommands } from './wall-keys.js';
import { registerAccountCommands } from './accounts.js';
import { registerAnalyticsCommands } from './analytics.js';
import { registerAuditCommands } from './audit.js';
import { registerFeedCommands } from './feeds.js';
import { registerPostCommands } from './posts.js';
import { registerProductCommands } from './products.js';
import { registerTokenCommands } from './tokens.js';
import { registerWebhookCommands } from './webhooks.js';
import { registerConnectionCommands } from './connections.js';
import { registerRightsCommands } from './rights.js';

export function createProgram(): Command {
  const program = new Command('wallery')
    .description('Wallery — self-hosted social walls behind the Wall and Gallery Content API v2')
    // a usage error is one line too, like every other error
    .configureOutput({
      outputError: (text, write) => write(`wallery: ${text.replace(/^error: /, '').trim()} (see --help)\n`),
    });

  registerServeCommands(program);
  registerDataCommands(program);
  registerBackupCommands(program);
  registerKeyCommands(program);
  registerWallCommands(program);
  registerWallKeyCommands(program.commands.find((c) => c.name() === 'walls')!);
  registerTokenCommands(program);
  registerAccountCommands(program);
  registerFeedCommands(program);
  registerPostCommands(program);
  registerProductCommands(program);
  registerAuditCommands(program);
  registerAnalyticsCommands(program);
  registerWebhookCommands(program);
  registerConnectionCommands(program);
  registerRightsCommands(program);
  registerIngestCommands(program);
  registerMediaCommands(program);
  return program;
}
