// The `wallery` command's subcommands (loaded by main.ts once tracing, if any, is on).
import { createProgram } from './commands.js';
import { reportError } from './errors.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (err) {
  reportError(err);
  process.exit(1);
}
