// Upgrades from every released schema version: a store left at migration k
// (1 ≤ k ≤ latest) holding rows written as that version wrote them is opened
// by this version's server, which migrates it. Afterwards its schema is the
// one a fresh store gets, its rows are all there with the defaults the later
// migrations promise, and the public API serves them. Runs on SQLite and, in
// the postgres project, on PostgreSQL (one database per version, dropped).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreUrl } from '../../src/config.js';
import { hashSecret, keyPrefix } from '../../src/store/keys.js';
import { knownMigrations, MIGRATION_DESCRIPTIONS, migrateTo } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/store.js';
import { get } from '../helpers/http.js';
import { dumpSchema } from '../helpers/schema-dump.js';
import { makeTempDir, removeDir, startTestServer } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';
import { openTestStore } from '../helpers/store.js';

const kind = testStoreKind();
const MIGRATIONS = knownMigrations(kind);
const NOW = Date.UTC(2025, 5, 1, 12);
const KEY = 'Upgrade-key-0001';
const OPERATOR_TOKEN = 'wop_upgrade-test-token-0001';
const EMBED_KEY = 'wpk_upgrade-test-key-0001';

/** The version (1-based) at which `name` was applied. */
const at = (name: string) => MIGRATIONS.indexOf(name) + 1;

/**
 * Rows as the Wallery of schema version `version` wrote them: only the
 * columns that version had (every later migration only adds columns), and
 * the tables it had.
 */
function rowsOfVersion(version: number): RawBuilder<unknown>[] {
  const post = (id: number, content: string, pin: number) =>
    sql`insert into posts (id, wall_id, feed_id, external_id, network_name, post_type, content, picture, file,
          file_original, file_thumb, media_file, link_url, author_name, username, user_picture, score, rating,
          highlight, pin, tags, location, created_at, updated_at, media, hidden, has_cta, cta_color, cta_background,
          cta_status, cta_url, cta_text, children)
        values (${id}, 1, 1, ${`ext-${id}`}, 'rss', 0, ${content}, '', '', '', '', '', ${`https://example.com/${id}`},
          'Ada', 'ada', '', null, null, 0, ${pin}, 'news', '', ${NOW + id * 60_000}, ${NOW + id * 60_000}, 'text', 0,
          0, '', '', 0, '', '', '[]')`;
  const rows = [
    sql`insert into accounts (id, name, plan, daily_call_limit, created_at) values (1, 'Acme', 'enterprise', 1000000, ${NOW})`,
    sql`insert into user_keys (id, account_id, key_hash, prefix, created_at) values (1, 1, ${hashSecret(KEY)}, ${keyPrefix(KEY)}, ${NOW})`,
    sql`insert into walls (id, account_id, name, url, profanity, created_at) values (1, 1, 'Main wall', 'main', 0, ${NOW})`,
    sql`insert into feeds (id, wall_id, name, source, source_type, created_at, updated_at) values (1, 1, 'Feed', 'RSS', 'feed', ${NOW}, ${NOW})`,
    post(1, 'first post', 0),
    post(2, 'second post', 1),
    sql`insert into products (id, account_id, name, sku, price, currency_symbol, currency, discount,
          discount_currency_symbol, discount_currency, url, image, store_shop_name, store_product_id,
          store_product_type, created_at, updated_at)
        values (1, 1, 'Mug', 'MUG-1', 12.5, '€', 'EUR', 0, '€', 'EUR', 'https://shop.example/mug', '', '', '', '', ${NOW}, ${NOW})`,
    sql`insert into post_products (post_id, product_id, position, left_pct, top_pct) values (1, 1, 0, 10, 20)`,
    sql`insert into usage_daily (account_id, day, calls) values (1, 20250601, 5)`,
    sql`insert into idempotency_keys (account_id, idem_key, post_id, created_at) values (1, 'idem-1', 1, ${NOW})`,
  ];
  if (version >= at('0003_management')) {
    rows.push(
      sql`insert into operator_tokens (id, name, token_hash, prefix, created_at) values (1, 'ops', ${hashSecret(OPERATOR_TOKEN)}, 'wop_upgr', ${NOW})`,
      sql`insert into audit_log (id, at, token_id, token_name, action, target_type, target_id, summary) values (1, ${NOW}, 1, 'ops', 'wall.update', 'wall', 1, '{}')`,
    );
  }
  if (version >= at('0004_ingestion')) {
    rows.push(
      sql`insert into feed_ingest_state (feed_id, next_poll_at, interval_s) values (1, ${NOW}, 300)`,
      sql`update posts set upstream_hash = 'h1' where id = 1`,
    );
  }
  if (version >= at('0009_publishable_keys')) {
    rows.push(
      sql`insert into publishable_keys (id, wall_id, prefix, key_hash, origins, created_at) values (1, 1, 'wpk_upgr', ${hashSecret(EMBED_KEY)}, '["https://example.com"]', ${NOW})`,
    );
  }
  if (version >= at('0016_analytics')) {
    rows.push(
      sql`insert into analytics_daily (wall_id, day, type, post_id, product_id, n) values (1, 20250601, 'view', 0, 0, 7)`,
    );
  }
  return rows;
}

/** A store of this project's kind in `dir`, where startTestServer({ dir }) finds it again. */
async function storeIn(dir: string): Promise<{ url: StoreUrl; drop: () => Promise<void> }> {
  if (kind === 'sqlite') return { url: { kind: 'sqlite', path: join(dir, 'wallery.db') }, drop: async () => {} };
  const db = await createTestDatabase();
  writeFileSync(join(dir, 'postgres-database'), db.name);
  return { url: { kind: 'postgres', url: db.url }, drop: () => dropTestDatabase(db.name) };
}

let freshSchema: Awaited<ReturnType<typeof dumpSchema>>;

beforeAll(async () => {
  const dir = makeTempDir();
  const fresh = await openTestStore(dir);
  try {
    freshSchema = await dumpSchema(fresh.store);
  } finally {
    await fresh.close();
    removeDir(dir);
  }
});

describe('migrations', () => {
  it('each say in one line what they do', () => {
    expect(Object.keys(MIGRATION_DESCRIPTIONS).sort()).toEqual(MIGRATIONS);
    for (const name of MIGRATIONS) expect(MIGRATION_DESCRIPTIONS[name], name).toMatch(/^\S.{10,140}$/);
  });

  it('are the files of src/store/migrations/, each listed under its own name, numbered 0001 on', async () => {
    const folder = new URL('../../src/store/migrations/', import.meta.url);
    const files = readdirSync(folder).filter((f) => /^\d/.test(f));
    expect(files.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual(MIGRATIONS);
    expect(MIGRATIONS.map((name) => name.slice(0, 5))).toEqual(
      MIGRATIONS.map((_, i) => `${String(i + 1).padStart(4, '0')}_`),
    );
    for (const file of files) {
      const { description } = (await import(new URL(file, folder).href)) as { description: string };
      expect(MIGRATION_DESCRIPTIONS[file.replace(/\.ts$/, '')], file).toBe(description);
    }
  });

  // every name is a released schema version (the repository has no tags)
  describe.each(MIGRATIONS.map((name, i) => ({ name, version: i + 1 })))(
    `from schema version $version ($name) to the latest on ${kind}`,
    ({ name, version }) => {
      let dir: string;
      let drop = async () => {};
      let srv: Awaited<ReturnType<typeof startTestServer>> | undefined;

      beforeAll(async () => {
        dir = makeTempDir();
        const made = await storeIn(dir);
        drop = made.drop;
        const old = openStore(made.url);
        try {
          await migrateTo(old.db as never, old.name, name);
          for (const statement of rowsOfVersion(version)) await statement.execute(old.db);
        } finally {
          await old.close();
        }
        // what an upgraded instance does on start: open the store, migrate it, serve
        srv = await startTestServer({ dir });
      });
      afterAll(async () => {
        await srv?.close();
        await drop();
        removeDir(dir);
      });

      it('ends with the schema of a fresh store', async () => {
        const applied = await srv!.store.db
          .selectFrom('kysely_migration' as never)
          .select('name' as never)
          .orderBy('name' as never)
          .execute();
        expect(applied.map((r) => (r as { name: string }).name)).toEqual(MIGRATIONS);
        expect(await dumpSchema(srv!.store)).toEqual(freshSchema);
      });

      it('keeps every row, with the defaults of the columns added since', async () => {
        const db = srv!.store.db as unknown as Kysely<unknown>;
        const one = async (query: RawBuilder<unknown>) => (await query.execute(db)).rows[0] as Record<string, unknown>;
        const count = async (table: string) =>
          Number((await one(sql`select count(*) as n from ${sql.table(table)}`)).n);
        const before = (migration: string) => version < at(migration);

        expect(await one(sql`select name, plan, daily_call_limit from accounts where id = 1`)).toEqual({
          name: 'Acme',
          plan: 'enterprise',
          daily_call_limit: 1000000,
        });
        expect(await one(sql`select key_hash, revoked_at from user_keys where id = 1`)).toEqual({
          key_hash: hashSecret(KEY),
          revoked_at: null,
        });
        expect(
          await one(sql`select name, url, moderation, rules, layout, theme, columns from walls where id = 1`),
        ).toEqual({
          name: 'Main wall',
          url: 'main',
          moderation: 'auto',
          rules: '[]',
          layout: null,
          theme: null,
          columns: null,
        });
        expect(await one(sql`select name, connector, enabled, moderation from feeds where id = 1`)).toEqual({
          name: 'Feed',
          connector: null,
          enabled: 1,
          moderation: null,
        });
        const posts = (
          await sql`select id, content, pin, alt, state, decided_by, repost, reply, rev, upstream_hash from posts order by id`.execute(
            db,
          )
        ).rows;
        expect(posts).toEqual([
          {
            id: 1,
            content: 'first post',
            pin: 0,
            alt: '',
            state: 'approved',
            decided_by: null,
            repost: 0,
            reply: 0,
            // the version's own update of upstream_hash bumped it, once posts had a revision
            rev: before('0014_post_revision') ? 0 : 1,
            upstream_hash: before('0004_ingestion') ? null : 'h1',
          },
          {
            id: 2,
            content: 'second post',
            pin: 1,
            alt: '',
            state: 'approved',
            decided_by: null,
            repost: 0,
            reply: 0,
            rev: 0,
            upstream_hash: null,
          },
        ]);
        expect(await one(sql`select product_id, left_pct, top_pct from post_products where post_id = 1`)).toEqual({
          product_id: 1,
          left_pct: 10,
          top_pct: 20,
        });
        expect(await one(sql`select calls from usage_daily where account_id = 1`)).toEqual({ calls: 5 });
        expect(await count('idempotency_keys')).toBe(1);
        expect(await count('products')).toBe(1);
        // the change log begins with its migration: earlier writes are not in it, later ones are
        expect(await one(sql`select pruned_through from change_log where id = 1`)).toEqual({ pruned_through: 0 });
        if (before('0015_changes')) expect(await count('changes')).toBe(0);
        else expect(await count('changes')).toBeGreaterThan(0);

        if (before('0003_management')) {
          expect(await count('operator_tokens')).toBe(0);
          expect(await count('audit_log')).toBe(0);
        } else {
          // a token made before roles is an admin of every account
          expect(await one(sql`select name, role, account_ids from operator_tokens where id = 1`)).toEqual({
            name: 'ops',
            role: 'admin',
            account_ids: null,
          });
          // an entry written before 0010 was given its target's account; a later one is written with it (null here)
          expect(await one(sql`select action, account_id from audit_log where id = 1`)).toEqual({
            action: 'wall.update',
            account_id: before('0010_operator_roles') ? 1 : null,
          });
        }
        if (before('0004_ingestion')) expect(await count('feed_ingest_state')).toBe(0);
        else
          expect(
            await one(sql`select interval_s, consecutive_failures, last_warnings, last_warning from feed_ingest_state`),
          ).toEqual({ interval_s: 300, consecutive_failures: 0, last_warnings: 0, last_warning: null });
        expect(await count('publishable_keys')).toBe(before('0009_publishable_keys') ? 0 : 1);
        expect(await count('analytics_daily')).toBe(before('0016_analytics') ? 0 : 1);
      });

      it('serves the rows through the public API', async () => {
        const res = await get(srv!.baseUrl, '/api/v2/widget/posts/1', { user_key: KEY });
        expect(res.status, res.text).toBe(200);
        // pinned first (contract §4), both posts approved and visible
        expect(res.text.indexOf('second post')).toBeGreaterThan(-1);
        expect(res.text.indexOf('second post')).toBeLessThan(res.text.indexOf('first post'));
      });
    },
  );
});
