// Publishable wall keys (`pk_…`): read-only, one wall each, for web pages.
// Stored as SHA-256 only, with the origins allowed to use them (an empty
// list: any). This module holds the table, its migration and the lookup the
// embed API authenticates with; the audited management operations are in
// manage/publishable-keys.ts.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { idColumn, idColumnType, type DialectName } from './dialect.js';
import type { Database } from './schema.js';

export const PUBLISHABLE_KEY_PREFIX = 'pk_';

/** A new key: `pk_` + 32 base64url characters (192 random bits). */
export function generatePublishableKey(): string {
  return `${PUBLISHABLE_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

export function hashPublishableKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

/** `pk_` and the next 6 characters: enough to tell keys apart, far too little to guess one. */
export const publishableKeyPrefix = (plaintext: string) => plaintext.slice(0, 9);

/** What an embed request may do with a key. */
export interface PublishableKeyGrant {
  keyId: number;
  wallId: number;
  accountId: number;
  /** normalised origins; empty = any */
  origins: string[];
  /** the wall lets any site frame its hosted page (for a key with no origins) */
  allowFraming: boolean;
}

/** The grant of an active key, by its hex SHA-256; null when unknown or revoked. */
export async function findPublishableKeyByHash(
  db: Kysely<Database>,
  hash: string,
): Promise<PublishableKeyGrant | null> {
  const row = await db
    .selectFrom('publishable_keys')
    .innerJoin('walls', 'walls.id', 'publishable_keys.wall_id')
    .select([
      'publishable_keys.id',
      'publishable_keys.key_hash',
      'publishable_keys.wall_id',
      'publishable_keys.origins',
      'walls.account_id',
      'walls.allow_framing',
    ])
    .where('publishable_keys.key_hash', '=', hash)
    .where('publishable_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  // the index matched; decide in constant time all the same
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  return {
    keyId: row.id,
    wallId: row.wall_id,
    accountId: row.account_id,
    origins: parseOrigins(row.origins),
    allowFraming: row.allow_framing !== 0,
  };
}

export function parseOrigins(json: string): string[] {
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? list.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Migration 0009_publishable_keys. On PostgreSQL the table announces the
 * key's wall on every write (like the tables of migration 0006), so a
 * revocation reaches every instance's key cache and open streams at once.
 */
export function publishableKeysMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('publishable_keys')
        .addColumn('id', idColumnType(dialect), idColumn(dialect))
        .addColumn('wall_id', 'bigint', (c) => c.notNull().references('walls.id').onDelete('cascade'))
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('origins', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('publishable_keys_wall').on('publishable_keys').columns(['wall_id', 'id']).execute();
      if (dialect !== 'postgres') return;
      const ids = (rows: string) => `select r.wall_id from ${rows} r`;
      const announce = (query: string) =>
        `perform wallery_announce('walls', array(select distinct id from (${query}) x(id) order by id));`;
      const statements = [
        `create function wallery_announce_publishable_keys() returns trigger language plpgsql as $$
         begin
           if tg_op = 'INSERT' then ${announce(ids('new_rows'))}
           elsif tg_op = 'UPDATE' then ${announce(`${ids('new_rows')} union ${ids('old_rows')}`)}
           else ${announce(ids('old_rows'))}
           end if;
           return null;
         end $$`,
        `create trigger wallery_announce_insert after insert on publishable_keys
           referencing new table as new_rows for each statement execute function wallery_announce_publishable_keys()`,
        `create trigger wallery_announce_update after update on publishable_keys
           referencing old table as old_rows new table as new_rows for each statement execute function wallery_announce_publishable_keys()`,
        `create trigger wallery_announce_delete after delete on publishable_keys
           referencing old table as old_rows for each statement execute function wallery_announce_publishable_keys()`,
        `create trigger wallery_announce_truncate after truncate on publishable_keys
           for each statement execute function wallery_announce_all()`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}
