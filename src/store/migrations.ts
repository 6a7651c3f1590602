// Schema migrations, kept in code so the compiled CLI carries them: their
// list (each is a file of its own under migrations/), running them (to the
// latest, to one of them, or as a rehearsal for a dry run), and the refusal
// of a store that a later Wallery migrated.
import {
  DEFAULT_MIGRATION_TABLE,
  Migrator,
  type NoMigrations,
  sql,
  type Kysely,
  type KyselyPlugin,
  type Migration,
  type MigrationProvider,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryExecutor,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { DialectName } from './dialect.js';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_feed_connectors.js';
import * as m0003 from './migrations/0003_management.js';
import * as m0004 from './migrations/0004_ingestion.js';
import * as m0005 from './migrations/0005_covering_list_index.js';
import * as m0006 from './migrations/0006_change_notifications.js';
import * as m0007 from './migrations/0007_ingest_warnings.js';
import * as m0008 from './migrations/0008_media_alt.js';
import * as m0009 from './migrations/0009_publishable_keys.js';
import * as m0010 from './migrations/0010_operator_roles.js';
import * as m0011 from './migrations/0011_moderation.js';
import * as m0012 from './migrations/0012_repost_reply.js';
import * as m0013 from './migrations/0013_wall_display.js';
import * as m0014 from './migrations/0014_post_revision.js';
import * as m0015 from './migrations/0015_changes.js';
import * as m0016 from './migrations/0016_analytics.js';
import * as m0017 from './migrations/0017_webhooks.js';
import * as m0018 from './migrations/0018_wall_framing.js';
import * as m0019 from './migrations/0019_post_sensitive.js';
import * as m0020 from './migrations/0020_media.js';
import * as m0021 from './migrations/0021_media_queue.js';
import * as m0022 from './migrations/0022_wall_branding.js';
import * as m0023 from './migrations/0023_decision_detail.js';
import * as m0024 from './migrations/0024_post_lang.js';
import * as m0025 from './migrations/0025_picture_checks.js';
import * as m0026 from './migrations/0026_spam_signals.js';
import * as m0027 from './migrations/0027_held_changes.js';
import * as m0028 from './migrations/0028_provider_checks.js';
import * as m0029 from './migrations/0029_uploads.js';
import * as m0030 from './migrations/0030_screen_control.js';
import * as m0031 from './migrations/0031_connections.js';
import * as m0032 from './migrations/0032_connection_events.js';
import * as m0033 from './migrations/0033_oauth.js';
import * as m0034 from './migrations/0034_rights.js';
import * as m0035 from './migrations/0035_oauth_actor.js';

/** A migration: what it does, and its step up (given the store's dialect; there are no steps down). */
export interface SchemaMigration {
  /** in one line: `wallery migrate --dry-run` shows it next to the name */
  description: string;
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

/**
 * Every migration, one file each under migrations/, by name (`NNNN_what`).
 * They run in the order of their names; a new one takes the next number
 * (test/store/migrations.test.ts checks that each file is listed here).
 * Listed, not read from the folder: the CLI is a bundle (scripts/build-server.mjs).
 */
const MIGRATIONS: Readonly<Record<string, SchemaMigration>> = {
  '0001_initial': m0001,
  '0002_feed_connectors': m0002,
  '0003_management': m0003,
  '0004_ingestion': m0004,
  '0005_covering_list_index': m0005,
  '0006_change_notifications': m0006,
  '0007_ingest_warnings': m0007,
  '0008_media_alt': m0008,
  '0009_publishable_keys': m0009,
  '0010_operator_roles': m0010,
  '0011_moderation': m0011,
  '0012_repost_reply': m0012,
  '0013_wall_display': m0013,
  '0014_post_revision': m0014,
  '0015_changes': m0015,
  '0016_analytics': m0016,
  '0017_webhooks': m0017,
  '0018_wall_framing': m0018,
  '0019_post_sensitive': m0019,
  '0020_media': m0020,
  '0021_media_queue': m0021,
  '0022_wall_branding': m0022,
  '0023_decision_detail': m0023,
  '0024_post_lang': m0024,
  '0025_picture_checks': m0025,
  '0026_spam_signals': m0026,
  '0027_held_changes': m0027,
  '0028_provider_checks': m0028,
  '0029_uploads': m0029,
  '0030_screen_control': m0030,
  '0031_connections': m0031,
  '0032_connection_events': m0032,
  '0033_oauth': m0033,
  '0034_rights': m0034,
  '0035_oauth_actor': m0035,
};

/**
 * What each migration does, in one line: `wallery migrate --dry-run` shows it
 * next to the name. Every migration has one (test/store/migrations.test.ts).
 */
export const MIGRATION_DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(MIGRATIONS).map(([name, m]) => [name, m.description]),
);

/** The migrations as Kysely runs them, for a store of `dialect`. */
function migrations(dialect: DialectName): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: Kysely<unknown>) => m.up(db, dialect) }]),
  );
}

function migratorFor(db: Kysely<unknown>, dialect: DialectName): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  return new Migrator({ db, provider });
}

/** The names of the migrations this version of Wallery knows, oldest first. */
export function knownMigrations(dialect: DialectName): string[] {
  return Object.keys(migrations(dialect)).sort();
}

/** The store was migrated by a later Wallery: this one must not touch it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

/** The migrations recorded as applied in the store, oldest first ([] before the first). */
async function appliedMigrations(db: Kysely<unknown>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === DEFAULT_MIGRATION_TABLE)) return [];
  const query = sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`;
  return (await query.execute(db)).rows.map((r) => r.name);
}

/**
 * Refuses a store that holds a migration this version does not know: a later
 * Wallery ran there, and neither running on its schema nor migrating it is
 * safe. (Kysely's own refusal, "corrupted migrations", names no remedy.)
 */
export async function assertSchemaKnown(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const tooNew = schemaTooNew(await appliedMigrations(db), dialect);
  if (tooNew) throw tooNew;
}

/** The refusal for a schema with these migrations applied, when one is unknown to this version; else null. */
export function schemaTooNew(applied: readonly string[], dialect: DialectName): SchemaTooNewError | null {
  const known = knownMigrations(dialect);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length === 0) return null;
  const which = unknown.length === 1 ? `migration ${unknown[0]}` : `migrations ${unknown.join(', ')}`;
  return new SchemaTooNewError(
    `the database schema is newer than this Wallery: it has ${which}, from a later version; ` +
      `this version knows migrations up to ${known.at(-1)}: upgrade Wallery or restore a backup`,
  );
}

export async function migrateToLatest(db: Kysely<unknown>, dialect: DialectName): Promise<string[]> {
  await assertSchemaKnown(db, dialect);
  const { error, results } = await migratorFor(db, dialect).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Migrates up (or down) to the migration `name` exactly (NO_MIGRATIONS: only
 * Kysely's bookkeeping): for tests of a migration on the data before it, and
 * for the schema a backup at `name` is compared with.
 */
export async function migrateTo(db: Kysely<unknown>, dialect: DialectName, name: string | NoMigrations): Promise<void> {
  const { error } = await migratorFor(db, dialect).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * Runs the migrations' up steps, oldest first, up to and including `last`
 * (null: none), without recording them: the schema of a store migrated to
 * `last`, built inside a transaction that is then rolled back (PostgreSQL
 * keeps no bookkeeping there, and no Kysely migration lock is taken).
 */
export async function runMigrationsUpTo(db: Kysely<unknown>, dialect: DialectName, last: string | null): Promise<void> {
  const all = migrations(dialect);
  for (const name of Object.keys(all).sort()) {
    if (last === null || name > last) return;
    await all[name]!.up(db);
  }
}

export interface PendingMigration {
  name: string;
  description: string;
  /** the SQL it runs on this store, as recorded in a rehearsal that was rolled back */
  statements: string[];
}

/** Thrown to roll the rehearsal back. */
class Rehearsal extends Error {}

/**
 * The migrations `migrateToLatest` would apply, with the SQL each runs, and
 * nothing changed: they are run on the store inside one transaction that is
 * then rolled back (both stores roll DDL back). On SQLite the transaction
 * holds the write lock while it runs, like a real migration.
 */
export async function pendingMigrations(db: Kysely<unknown>, dialect: DialectName): Promise<PendingMigration[]> {
  await assertSchemaKnown(db, dialect);
  const pending = (await migratorFor(db, dialect).getMigrations()).filter((m) => m.executedAt === undefined);
  if (pending.length === 0) return [];
  const planned: PendingMigration[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      for (const m of pending) {
        const recorder = new StatementRecorder(trx.getExecutor());
        await m.migration.up(trx.withPlugin(recorder));
        planned.push({
          name: m.name,
          description: MIGRATION_DESCRIPTIONS[m.name] ?? '',
          statements: recorder.statements,
        });
      }
      throw new Rehearsal();
    });
  } catch (err) {
    if (!(err instanceof Rehearsal)) throw err;
  }
  return planned;
}

/** Keeps the SQL of every query that passes (its parameters appended), and changes nothing. */
class StatementRecorder implements KyselyPlugin {
  readonly statements: string[] = [];
  constructor(private readonly executor: QueryExecutor) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { sql: text, parameters } = this.executor.compileQuery(args.node, args.queryId);
    const oneLine = text.replace(/\s+/g, ' ').trim();
    this.statements.push(parameters.length ? `${oneLine} -- ${JSON.stringify(parameters)}` : oneLine);
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
