// A restore takes back only the schema objects this version's migrations
// create. A backup holds a whole schema: anything else in it — a trigger that
// copies every new post somewhere, a function, a table, a view — was put
// there outside Wallery (a tampered file, or an operator's own addition) and
// would come back with the data and run with it. So a backup holding any is
// refused, naming them, unless the operator asks for them to be dropped.
//
// What is expected is not a hand list: it is read from a store freshly
// migrated to the backup's own last migration (an in-memory SQLite database;
// on PostgreSQL a scratch schema built in a transaction that is rolled back),
// so the objects of an older backup that a later migration replaces are
// expected too, and a new migration needs nothing added here.
import { randomBytes } from 'node:crypto';
import type SqliteDatabase from 'better-sqlite3';
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE, NO_MIGRATIONS, sql, type Kysely } from 'kysely';
import { migrateTo, runMigrationsUpTo } from '../migrations.js';
import type { Database } from '../schema.js';
import { openStore } from '../store.js';
import { BackupError } from './files.js';

/** The refusal of a backup holding `objects` (as `describe…` names them). */
export function foreignObjectsRefused(file: string, objects: readonly string[]): BackupError {
  const shown =
    objects.length > MAX_NAMED ? [...objects.slice(0, MAX_NAMED), `${objects.length - MAX_NAMED} more`] : objects;
  return new BackupError(
    `${file} holds schema objects that no migration of this version creates: ${shown.join(', ')}; ` +
      'nothing was restored: restore a backup without them, or add --drop-foreign to restore this one without them',
  );
}

/** Objects named in a refusal; the rest are counted. */
const MAX_NAMED = 10;

// ---- SQLite -----------------------------------------------------------------

/** A row of sqlite_master: a table, index, view or trigger. */
export interface SqliteObject {
  type: 'table' | 'index' | 'view' | 'trigger';
  name: string;
  tbl_name: string;
}

/** Every object of the database but SQLite's own (`sqlite_…`: internal indexes, sqlite_sequence, sqlite_stat1). */
function sqliteObjects(db: SqliteDatabase.Database): SqliteObject[] {
  return db
    .prepare(
      "select type, name, tbl_name from sqlite_master where name not like 'sqlite\\_%' escape '\\' order by name",
    )
    .all() as SqliteObject[];
}

const sqliteKey = (o: SqliteObject) => `${o.type} ${o.name} ${o.tbl_name}`;

/** The objects of the SQLite database `db` that a store freshly migrated to `last` (null: none) does not have. */
export async function foreignSqliteObjects(db: SqliteDatabase.Database, last: string | null): Promise<SqliteObject[]> {
  const fresh = openStore({ kind: 'sqlite', path: ':memory:' });
  let expected: Set<string>;
  try {
    await migrateTo(fresh.db as never, 'sqlite', last ?? NO_MIGRATIONS);
    expected = new Set(sqliteObjects(fresh.sqlite!).map(sqliteKey));
  } finally {
    await fresh.close();
  }
  return sqliteObjects(db).filter((o) => !expected.has(sqliteKey(o)));
}

export function describeSqliteObject(o: SqliteObject): string {
  return o.type === 'index' || o.type === 'trigger' ? `${o.type} ${o.name} on ${o.tbl_name}` : `${o.type} ${o.name}`;
}

/** Drops `objects` from the SQLite database `db` (a copy being restored), in one transaction. */
export function dropSqliteObjects(db: SqliteDatabase.Database, objects: readonly SqliteObject[]): void {
  const order: SqliteObject['type'][] = ['trigger', 'view', 'index', 'table'];
  const sorted = [...objects].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  // a foreign table another foreign table references is dropped without deleting through the reference
  db.pragma('foreign_keys = off');
  db.transaction(() => {
    for (const o of sorted) {
      if (!order.includes(o.type)) throw new Error(`unexpected SQLite object type ${String(o.type)}`);
      // dropping a table drops its triggers and indexes: those may be gone already
      db.exec(`drop ${o.type} if exists "${o.name.replace(/"/g, '""')}"`);
    }
  })();
}

// ---- PostgreSQL ---------------------------------------------------------------

/** One entry of `pg_restore --list`: its line, and the line without dump id, oids and owner ("TRIGGER public posts x"). */
export interface TocEntry {
  line: string;
  key: string;
}

/**
 * Entries that are no object and are not restored: grants and comments
 * (restore runs with --no-privileges --no-comments). Kysely's bookkeeping
 * tables are Wallery's own though no migration creates them.
 */
const NOT_OBJECTS = /^(ACL|DEFAULT ACL|COMMENT) /;
const BOOKKEEPING = [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE].flatMap((t) => [
  `TABLE public ${t}`,
  `TABLE DATA public ${t}`,
  `CONSTRAINT public ${t} ${t}_pkey`,
]);
/** What any dump of a PostgreSQL database may list: the public schema, and the language of Wallery's functions. */
const BUILT_IN = ['SCHEMA - public', 'EXTENSION - plpgsql'];

/** The entries of a `pg_restore --list` listing. */
export function tocEntries(listing: string): TocEntry[] {
  const entries: TocEntry[] = [];
  for (const line of listing.split('\n')) {
    const body = /^\d+; \d+ \d+ (.*)$/.exec(line)?.[1];
    if (body === undefined) continue;
    // the owner is the last word (empty for an entry without one)
    entries.push({ line, key: body.slice(0, Math.max(body.lastIndexOf(' '), 0)) });
  }
  return entries;
}

/** The entries of `entries` that a database freshly migrated to `last` (null: none) would not list. */
export async function foreignTocEntries(
  db: Kysely<Database>,
  entries: readonly TocEntry[],
  last: string | null,
): Promise<TocEntry[]> {
  const expected = new Set([...(await expectedTocKeys(db, last)), ...BOOKKEEPING, ...BUILT_IN]);
  return entries.filter((e) => !NOT_OBJECTS.test(e.key) && !expected.has(e.key));
}

/** pg_restore's multi-word kinds of entry, longest first (the others are one word). */
const MULTI_WORD_KINDS = [
  'MATERIALIZED VIEW DATA',
  'MATERIALIZED VIEW',
  'SEQUENCE OWNED BY',
  'SEQUENCE SET',
  'TABLE DATA',
  'TABLE ATTACH',
  'INDEX ATTACH',
  'FK CONSTRAINT',
  'CHECK CONSTRAINT',
  'EVENT TRIGGER',
  'FOREIGN TABLE',
  'FOREIGN DATA WRAPPER',
  'USER MAPPING',
  'ROW SECURITY',
  'SECURITY LABEL',
  'LARGE OBJECT',
  'OPERATOR CLASS',
  'OPERATOR FAMILY',
  'PROCEDURAL LANGUAGE',
  'ACCESS METHOD',
  'PUBLICATION TABLE',
];
/** Kinds whose entries follow no object of their own: named through the object they belong to. */
const DATA_KINDS = ['TABLE DATA', 'SEQUENCE SET', 'SEQUENCE OWNED BY', 'MATERIALIZED VIEW DATA'];
/** Kinds whose name is "table name". */
const ON_TABLE_KINDS = ['TRIGGER', 'CONSTRAINT', 'FK CONSTRAINT', 'CHECK CONSTRAINT', 'DEFAULT', 'POLICY', 'RULE'];

/** The objects of foreign entries as an operator reads them ("trigger leak on posts", "table stolen"). */
export function describeTocEntries(entries: readonly TocEntry[]): string[] {
  const parsed = entries.map((e) => {
    const kind = MULTI_WORD_KINDS.find((k) => e.key.startsWith(`${k} `)) ?? e.key.split(' ')[0]!;
    const [schema, ...tag] = e.key.slice(kind.length + 1).split(' ');
    return { kind, where: schema === 'public' || schema === '-' ? '' : `${schema}.`, tag };
  });
  // a foreign table's data, constraints and triggers go with it unnamed
  const tables = new Set(parsed.filter((p) => p.kind === 'TABLE').map((p) => `${p.where}${p.tag.join(' ')}`));
  const named = parsed.flatMap(({ kind, where, tag }) => {
    if (DATA_KINDS.includes(kind)) return [];
    if (ON_TABLE_KINDS.includes(kind) && tag.length >= 2) {
      const table = `${where}${tag[0]}`;
      return tables.has(table) ? [] : [`${kind.toLowerCase()} ${tag.slice(1).join(' ')} on ${table}`];
    }
    return [`${kind.toLowerCase()} ${where}${tag.join(' ')}`];
  });
  return named.length > 0 ? named : entries.map((e) => e.key);
}

/** pg_restore's list of `entries` with `foreign` commented out: what `--use-list` restores without them. */
export function listWithout(listing: string, foreign: readonly TocEntry[]): string {
  const skipped = new Set(foreign.map((e) => e.line));
  return listing
    .split('\n')
    .map((line) => (skipped.has(line) ? `;${line}` : line))
    .join('\n');
}

class RolledBack extends Error {}

/**
 * The entries `pg_restore --list` shows for a Wallery database migrated to
 * `last`, as keys ("TRIGGER public posts posts_revision"). The migrations run
 * in a scratch schema of this database, read from the catalogs, and are
 * rolled back: nothing is left, even if this process dies.
 */
async function expectedTocKeys(db: Kysely<Database>, last: string | null): Promise<string[]> {
  const scratch = `wallery_restore_check_${randomBytes(6).toString('hex')}`;
  let keys: string[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      await sql`create schema ${sql.id(scratch)}`.execute(trx);
      await sql`set local search_path to ${sql.id(scratch)}`.execute(trx);
      await runMigrationsUpTo(trx as never, 'postgres', last);
      keys = await catalogKeys(trx, scratch);
      throw new RolledBack();
    });
  } catch (err) {
    if (err instanceof RolledBack) return keys;
    if ((err as { code?: unknown }).code === '42501')
      throw new BackupError(
        "checking the backup's schema objects needs a scratch schema for a moment (rolled back at once): " +
          `the user of DATABASE_URL may not create one (${(err as Error).message}): grant it CREATE on the database`,
      );
    throw err;
  }
  return keys;
}

/** How pg_dump lists each object of the schema `schema`, as if it were `public`. */
async function catalogKeys(db: Kysely<Database>, schema: string): Promise<string[]> {
  const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
  const relations = await rows(sql<{ name: string; kind: string }>`
    select c.relname as name, c.relkind as kind from pg_class c
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema}`);
  const onTables = await rows(sql<{ kind: string; table: string; name: string }>`
    with tables as (
      select c.oid, c.relname from pg_class c
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${schema}
    )
    select 'CONSTRAINT' as kind, t.relname as "table", x.conname as name
      from pg_constraint x join tables t on t.oid = x.conrelid
    union all
    select 'DEFAULT', t.relname, a.attname
      from pg_attrdef d join tables t on t.oid = d.adrelid
      join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
    union all
    select 'TRIGGER', t.relname, g.tgname
      from pg_trigger g join tables t on t.oid = g.tgrelid where not g.tgisinternal`);
  const routines = await rows(sql<{ name: string; args: string; kind: string }>`
    select p.proname as name, oidvectortypes(p.proargtypes) as args, p.prokind as kind from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace where n.nspname = ${schema}`);
  const types = await rows(sql<{ name: string; kind: string }>`
    select t.typname as name, t.typtype as kind from pg_type t
    join pg_namespace n on n.oid = t.typnamespace
    where n.nspname = ${schema} and t.typtype in ('e', 'r', 'm', 'd')`);

  const keys: string[] = [];
  const add = (kinds: string[], tag: string) => keys.push(...kinds.map((k) => `${k} public ${tag}`));
  const relationKinds: Record<string, string[]> = {
    r: ['TABLE', 'TABLE DATA'],
    p: ['TABLE', 'TABLE DATA'],
    S: ['SEQUENCE', 'SEQUENCE OWNED BY', 'SEQUENCE SET'],
    i: ['INDEX'],
    I: ['INDEX'],
    v: ['VIEW'],
    m: ['MATERIALIZED VIEW', 'MATERIALIZED VIEW DATA'],
    c: ['TYPE'],
  };
  for (const r of relations) add(relationKinds[r.kind] ?? [], r.name);
  for (const o of onTables)
    add(
      o.kind === 'CONSTRAINT' ? ['CONSTRAINT', 'FK CONSTRAINT', 'CHECK CONSTRAINT'] : [o.kind],
      `${o.table} ${o.name}`,
    );
  const routineKinds: Record<string, string> = { f: 'FUNCTION', p: 'PROCEDURE', a: 'AGGREGATE' };
  for (const p of routines) add([routineKinds[p.kind] ?? 'FUNCTION'], `${p.name}(${p.args})`);
  for (const t of types) add([t.kind === 'd' ? 'DOMAIN' : 'TYPE'], t.name);
  return keys;
}
