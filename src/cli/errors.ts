// How the CLI reports an error that stopped a command: one line on stderr,
// never a stack trace (WALLERY_DEBUG=1 adds it, for a bug report).
import { isSqliteBusy } from '../store/dialect.js';
import { visibleLine } from './terminal.js';

export const BUSY_MESSAGE = 'the database is busy (another process is writing); try again';

/** Errors whose message is written for the operator as it is. */
const OPERATOR_ERRORS = new Set([
  'CliError',
  'ConfigError',
  'InvalidArgumentError',
  'DataFileError',
  'ManageError',
  'SchemaTooNewError',
  'BackupError',
  'RedisUnavailableError',
]);

/** The line (without `wallery: `) that describes `err`. */
export function errorLine(err: unknown): string {
  if (isSqliteBusy(err)) return BUSY_MESSAGE;
  if (!(err instanceof Error)) return `${oneLine(String(err))} (WALLERY_DEBUG=1 shows where)`;
  // a refused connection to PostgreSQL is an AggregateError of one per address, without a message
  const cause = err instanceof AggregateError && !err.message && err.errors[0] instanceof Error ? err.errors[0] : err;
  const message = oneLine(cause.message) || cause.name;
  if (OPERATOR_ERRORS.has(cause.name)) return message;
  const code = (cause as { code?: unknown }).code;
  if (typeof code !== 'string') return `${message} (WALLERY_DEBUG=1 shows where)`;
  // SQLite's result codes and PostgreSQL's SQLSTATEs; a system error (ECONNREFUSED…) names itself
  if (code.startsWith('SQLITE_') || /^[0-9A-Z]{5}$/.test(code)) return `database error: ${message}`;
  return message;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Writes the error line (and with WALLERY_DEBUG set, the stack) to stderr. */
export function reportError(err: unknown, env: NodeJS.ProcessEnv = process.env): void {
  // a message may quote a value from the store or from upstream
  process.stderr.write(`wallery: ${visibleLine(errorLine(err))}\n`);
  const debug = env.WALLERY_DEBUG?.trim();
  if (debug && debug !== '0' && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
}
