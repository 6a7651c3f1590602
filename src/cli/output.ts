// Output of the management commands: aligned tables for people, `--json`
// (the management API's `responseData`, byte for byte the same shape) for
// scripts; and the mapping of a refused operation onto a CLI error.
import type { Command } from 'commander';
import type { TSchema } from 'typebox';
import { pageRequest } from '../manage/paging.js';
import { PageQuery } from '../schemas/fields.js';
import { fieldErrorsOf } from '../schemas/validate.js';
import { CLI_ACTOR, type Op } from '../manage/op.js';
import { ManageError } from '../domain/errors.js';
import { type Page } from '../manage/paging.js';
import type { Store } from '../store/store.js';
import { CliError, databaseOption, withStore, type StoreOptions } from './common.js';
import { visibleJson, visibleLine } from './terminal.js';

export interface OutputOptions {
  json?: boolean;
}

/** The options of a command that prints: `--json` and `--database`. */
export type PrintOptions = StoreOptions & OutputOptions;

export const jsonOption = ['--json', 'print JSON (the management API’s responseData) instead of a table'] as const;

/** Adds `--json` then `--database`, the options of every command that prints a record or a list. */
export function printOptions(command: Command): Command {
  return command.option(...jsonOption).option(...databaseOption);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return visibleLine(value);
  if (typeof value === 'object') return visibleLine(JSON.stringify(value));
  return String(value);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Rows as an aligned table with a header line; each column at most 60 characters wide. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  const cells = rows.map((r) => columns.map((c) => truncate(cell(r[c]), 60)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n') + '\n';
}

/** One record as `field  value` lines. */
export function details(record: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(record).map((k) => k.length));
  return (
    Object.entries(record)
      .map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`)
      .join('\n') + '\n'
  );
}

export function printRecord(record: object, options: OutputOptions): void {
  process.stdout.write(options.json ? `${visibleJson(record)}\n` : details(record as Record<string, unknown>));
}

export function printList(records: object[], columns: string[], options: OutputOptions): void {
  process.stdout.write(
    options.json ? `${visibleJson(records)}\n` : table(records as Record<string, unknown>[], columns),
  );
}

/** A page: the table, and on stderr how to get the next one. */
export function printPage(page: Page<object>, columns: string[], options: OutputOptions): void {
  if (options.json) {
    process.stdout.write(`${visibleJson(page)}\n`);
    return;
  }
  process.stdout.write(table(page.data as Record<string, unknown>[], columns));
  if (page.nextCursor !== null) process.stderr.write(`more: add --cursor ${page.nextCursor}\n`);
}

/** Opens the store, runs a management operation (see `attempt`) and prints the page it returns. */
export function showPage(
  options: PrintOptions,
  columns: string[],
  operation: (store: Store) => Promise<Page<object>>,
): Promise<void> {
  return withStore(options, async (store) => printPage(await attempt(() => operation(store)), columns, options));
}

/** Runs an operation; a refusal (400/404/409) becomes a one-line CLI error naming every problem. */
export async function attempt<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ManageError) throw new CliError(err.message);
    throw err;
  }
}

/** Checks options (shaped as an API body) against the API's schema: every problem at once. */
export function checkBody<T>(schema: TSchema, body: Record<string, unknown>): T {
  const errors = fieldErrorsOf(schema, body, 'body');
  if (errors.length > 0) throw new CliError(errors.map((e) => e.message).join('; '));
  return body as T;
}

/** Drops the keys whose value is undefined (options not given). */
export function given(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** An id option the query schema has already checked, as a number; undefined when not given. */
export function idFilter(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number(text);
}

/** A numeric option: a number when the text is one, else the text itself (the schema then names the problem). */
export function numberish(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
}

/** `--limit` and `--cursor` of list commands, checked like the API's query. */
export const pageOptions = [
  ['--limit <n>', 'items per page, 1–200 (default 50)'],
  ['--cursor <c>', 'the cursor printed after the previous page'],
] as const;

/** The options of a paged list: `--limit`, `--cursor`, `--json` and `--database`. */
export type PagedOptions = PrintOptions & { limit?: string; cursor?: string };

/** Adds `--limit`, `--cursor`, `--json` then `--database`, the options of a paged list. */
export function pagedOptions(command: Command): Command {
  return printOptions(command.option(...pageOptions[0]).option(...pageOptions[1]));
}

/** Checks `--limit`/`--cursor` like the API's query does and turns them into a page request. */
export function pageFrom(
  options: { limit?: string; cursor?: string },
  schema: TSchema = PageQuery,
  extra: Record<string, unknown> = {},
) {
  const query = given({ limit: options.limit, cursor: options.cursor, ...extra });
  const errors = fieldErrorsOf(schema, query, 'query');
  if (errors.length > 0) throw new CliError(errors.map((e) => e.message).join('; '));
  return pageRequest(query as { limit?: string; cursor?: string });
}

/** A management operation made with the CLI: audited as `cli`, no running server to notify. */
export const cliOp = (store: Store): Op => ({ db: store.db, actor: CLI_ACTOR, now: Date.now() });
