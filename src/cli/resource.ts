// The management commands built from what differs between them: a name, a
// description, arguments and options, how the options become an API body,
// and the management operation. The builders add the common options in one
// order (--limit/--cursor, --json, --database), check the options before the
// store is opened, run the operation (a refusal becomes a one-line error) and
// print. `resourceCommands` binds them to one resource: `wallery walls list|get|…`.
import type { Command } from 'commander';
import type { TSchema } from 'typebox';
import type { Config } from '../config.js';
import { ManageError } from '../domain/errors.js';
import type { Op } from '../manage/op.js';
import type { Page, PageRequest } from '../manage/paging.js';
import type { Store } from '../store/store.js';
import { CliError, databaseOption, idArgument, withStore, type StoreOptions } from './common.js';
import {
  attempt,
  cliOp,
  given,
  pagedOptions,
  pageFrom,
  printOptions,
  printPage,
  printRecord,
  type PagedOptions,
  type PrintOptions,
} from './output.js';

/** A positional argument as commander takes it: `<name>`, its description, and its parser. */
export type ArgumentSpec = readonly [name: string, description: string, parse?: (value: string) => unknown];
type Specs = readonly ArgumentSpec[];

/** The values of positional arguments: what their parsers return (ids are numbers), else the text. */
export type ArgValues<S extends Specs> = {
  -readonly [K in keyof S]: S[K] extends readonly [string, string, (value: string) => infer V] ? V : string;
};

/** What tells one command from another besides what it does. */
export interface CommandShape<S extends Specs> {
  name: string;
  description: string;
  arguments?: S;
  /** its own options, added before the common ones */
  options?: (command: Command) => Command;
}

/**
 * What an operation runs with: the open store, the configuration, the store
 * as a CLI operation (audited as `cli`), the command's options and arguments,
 * and its `body` (the options checked before the store was opened).
 */
export interface Call<O, S extends Specs = [], B = undefined> {
  store: Store;
  config: Config;
  op: Op;
  options: O;
  args: ArgValues<S>;
  body: B;
}

/** A refusal's status → the line the CLI says instead of the service's message. */
export type Refusals = Partial<Record<number, string>>;

/** Declares the command and runs `action` with its options and parsed arguments. */
function declare<O, S extends Specs>(
  parent: Command,
  shape: CommandShape<S>,
  commonOptions: (command: Command) => Command,
  action: (options: O, args: ArgValues<S>) => Promise<void>,
): void {
  const command = parent.command(shape.name).description(shape.description);
  for (const [name, description, parse] of shape.arguments ?? []) {
    if (parse) command.argument(name, description, parse);
    else command.argument(name, description);
  }
  // commander passes the arguments, then the options, then the command
  commonOptions(shape.options ? shape.options(command) : command).action((...params: unknown[]) =>
    action(params[params.length - 2] as O, params.slice(0, -2) as ArgValues<S>),
  );
}

/** Opens the store and runs the operation; a refusal becomes a one-line error (`refusals` words some). */
function runCall<O extends StoreOptions, S extends Specs, B, T>(
  options: O,
  args: ArgValues<S>,
  body: B,
  refusals: Refusals | undefined,
  run: (call: Call<O, S, B>) => Promise<T>,
): Promise<T> {
  return withStore(options, (store, config) => {
    const call = { store, config, op: cliOp(store), options, args, body };
    return refusals ? refusing(refusals, () => run(call)) : attempt(() => run(call));
  });
}

/** Runs an operation; a refusal that `refusals` names becomes that error, any other error is thrown as it is. */
async function refusing<T>(refusals: Refusals, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const line = err instanceof ManageError ? refusals[err.status] : undefined;
    throw line === undefined ? err : new CliError(line);
  }
}

export interface RecordCommand<O, S extends Specs, B, R> extends CommandShape<S> {
  /** checks the options, shaped as an API body, before the store is opened */
  body?: (options: O, args: ArgValues<S>) => B;
  run: (call: Call<O, S, B>) => Promise<R>;
  /** what is printed unless --json (default: the record as `field  value` lines) */
  text?: (record: R, call: Call<O, S, B>) => string;
  /** after printing (a note on stderr, the exit code) */
  after?: (record: R) => void;
  refusals?: (options: O, args: ArgValues<S>) => Refusals;
}

/** A command that prints the record its operation returns (`--json`, `--database`). */
export function recordCommand<O extends PrintOptions, const S extends Specs, B, R extends object>(
  parent: Command,
  spec: RecordCommand<O, S, B, R>,
): void {
  declare<O, S>(parent, spec, printOptions, async (options, args) => {
    const body = spec.body?.(options, args) as B;
    await runCall(options, args, body, spec.refusals?.(options, args), async (call) => {
      const record = await spec.run(call);
      if (options.json || !spec.text) printRecord(record, options);
      else process.stdout.write(spec.text(record, call));
      spec.after?.(record);
    });
  });
}

/** What a paged list's operation runs with: a call and the page asked for. */
export type PageCall<O, S extends Specs = []> = Call<O, S> & { page: PageRequest };

export interface PageCommand<O, S extends Specs> extends CommandShape<S> {
  columns: string[];
  /** the query schema that checks `--limit`, `--cursor` and what `filters` gives (default: just the page) */
  query?: TSchema;
  /** the filter options, shaped as the API's query */
  filters?: (options: O) => Record<string, unknown>;
  run: (call: PageCall<O, S>) => Promise<Page<object>>;
}

/** A paged list (`--limit`, `--cursor`, `--json`, `--database`); the next page's cursor goes to stderr. */
export function pageCommand<O extends PagedOptions, const S extends Specs>(
  parent: Command,
  spec: PageCommand<O, S>,
): void {
  declare<O, S>(parent, spec, pagedOptions, async (options, args) => {
    const page = pageFrom(options, spec.query, spec.filters ? given(spec.filters(options)) : undefined);
    await runCall(options, args, undefined, undefined, async (call) =>
      printPage(await spec.run({ ...call, page }), spec.columns, options),
    );
  });
}

export interface LineCommand<O, S extends Specs, R> extends CommandShape<S> {
  run: (call: Call<O, S>) => Promise<R>;
  /** the line it says when done */
  done: (args: ArgValues<S>, result: R) => string;
  refusals?: (args: ArgValues<S>) => Refusals;
}

const storeOption = (command: Command) => command.option(...databaseOption);

/** A command that acts and says so in one line (`--database` only: it prints no record). */
export function lineCommand<O extends StoreOptions, const S extends Specs, R>(
  parent: Command,
  spec: LineCommand<O, S, R>,
): void {
  declare<O, S>(parent, spec, storeOption, async (options, args) => {
    await runCall(options, args, undefined, spec.refusals?.(args), async (call) => {
      const result = await spec.run(call);
      process.stdout.write(`${spec.done(args, result)}\n`);
    });
  });
}

export interface ResourceSpec {
  /** the group command: `walls` */
  name: string;
  description: string;
  /** what one is called in descriptions and messages: `wall` */
  noun: string;
  /** the id argument's name in usage lines (default `id`) */
  idName?: string;
}

/**
 * The group command of a resource (`wallery walls`) and builders of its usual
 * subcommands: `list`, `create`, and `get`, `update`, `delete` on one `<id>`.
 * Its other subcommands are built with `recordCommand`, `pageCommand` or
 * `lineCommand` on `group`, with `id` as their argument.
 */
export function resourceCommands(program: Command, spec: ResourceSpec) {
  const group = program.command(spec.name).description(spec.description);
  const id = idArgument(spec.noun, spec.idName ?? 'id');
  type OnId = readonly [typeof id];
  return {
    group,
    id,
    list<O extends PagedOptions, const S extends Specs = []>(list: Omit<PageCommand<O, S>, 'name'>) {
      pageCommand(group, { name: 'list', ...list });
    },
    get(description: string, read: (store: Store, id: number) => Promise<object>) {
      recordCommand(group, {
        name: 'get',
        description,
        arguments: [id],
        run: ({ store, args }) => read(store, args[0]),
      });
    },
    /** `create`: the options checked as a body, then the record the operation made printed */
    create<O extends PrintOptions, B, const S extends Specs = []>(
      create: Omit<RecordCommand<O, S, B, object>, 'name' | 'body'> & { body: (options: O) => B },
    ) {
      recordCommand(group, { name: 'create', ...create });
    },
    /** `update <id>`: the options checked as a patch, then the changed record printed */
    update<O extends PrintOptions, B>(
      update: Omit<RecordCommand<O, OnId, B, object>, 'name' | 'arguments' | 'body'> & { body: (options: O) => B },
    ) {
      recordCommand(group, { name: 'update', arguments: [id] as const, ...update });
    },
    /** `delete <id>`: says `<noun> <id> deleted` unless `done` says otherwise */
    delete<R>(
      description: string,
      remove: (op: Op, id: number) => Promise<R>,
      done: (id: number, result: R) => string = (id) => `${spec.noun} ${id} deleted`,
    ) {
      lineCommand(group, {
        name: 'delete',
        description,
        arguments: [id],
        run: ({ op, args }) => remove(op, args[0]),
        done: ([id], result) => done(id, result),
      });
    },
  };
}
