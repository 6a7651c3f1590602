// What PostgreSQL announces for a statement (migration
// 0006_change_notifications): the distinct walls or accounts it touched,
// `all` past 100 of them, nothing for tables no reader sees, nothing on
// rollback — whoever writes, here plain SQL. And how a payload is read.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_CHANNEL, parseChangeNotification } from '../../src/store/change-listener.js';
import type { Change } from '../../src/store/changes.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, dropTestDatabase, testStoreKind } from '../helpers/services.js';
import { eventually } from '../helpers/poll.js';

describe('reading a notification payload', () => {
  it('names each wall and account of the payload', () => {
    expect(parseChangeNotification('{"walls" : [7011,7012]}')).toEqual([
      { kind: 'wall', wallId: 7011 },
      { kind: 'wall', wallId: 7012 },
    ]);
    expect(parseChangeNotification('{"accounts" : [3]}')).toEqual([{ kind: 'account', accountId: 3 }]);
  });

  it('reads `all`, and anything it does not understand, as everything changed', () => {
    for (const payload of ['{"all":true}', 'not json', '', undefined, 'null', '{}', '{"walls":["1"]}', '{"walls":7}']) {
      expect(parseChangeNotification(payload), String(payload)).toEqual([{ kind: 'all' }]);
    }
  });
});

describe.skipIf(testStoreKind() !== 'postgres')('what a statement announces (PostgreSQL)', () => {
  let db: { name: string; url: string };
  let store: Store;
  let listener: pg.Client;
  let writer: pg.Client;
  const received: string[] = [];
  let marks = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = openStore({ kind: 'postgres', url: db.url });
    await store.migrate();
    listener = new pg.Client({ connectionString: db.url });
    writer = new pg.Client({ connectionString: db.url });
    await Promise.all([listener.connect(), writer.connect()]);
    await writer.query(`
      insert into accounts (id, name, plan, daily_call_limit, created_at) values
        (1, 'One', 'enterprise', 10, 0), (2, 'Two', 'enterprise', 10, 0), (3, 'Three', 'free', 10, 0);
      insert into user_keys (id, account_id, key_hash, prefix, created_at) values
        (1, 1, 'h1', 'p', 0), (2, 2, 'h2', 'p', 0), (3, 3, 'h3', 'p', 0);
      insert into walls (id, account_id, name, url, created_at) values
        (10, 1, 'Ten', 'ten', 0), (11, 1, 'Eleven', 'eleven', 0), (20, 2, 'Twenty', 'twenty', 0);
      insert into feeds (id, wall_id, name, source, source_type, updated_at) values
        (100, 10, 'f', 's', 't', 0), (110, 11, 'f', 's', 't', 0), (200, 20, 'f', 's', 't', 0);
      insert into posts (id, wall_id, feed_id, network_name, post_type, content, picture, file, file_original,
        file_thumb, media_file, link_url, author_name, username, user_picture, highlight, pin, tags, location,
        created_at, updated_at, media)
      select id, wall_id, feed_id, 'RSS', 1, 'c', '', '', '', '', '', '', '', '', '', 0, 0, '', '', 0, 0, 'text'
        from (values (1001, 10, 100), (1002, 10, 100), (1101, 11, 110), (2001, 20, 200)) v(id, wall_id, feed_id);
      insert into products (id, account_id, name, sku, price, currency_symbol, currency, discount,
        discount_currency_symbol, discount_currency, url, image, store_shop_name, store_product_id,
        store_product_type, created_at, updated_at)
      values (1, 1, 'P', 's', 1, '', '', 0, '', '', '', '', '', '', '', 0, 0);
    `);
    // listening from here on: the set-up's own announcements are not heard
    listener.on('notification', (n) => received.push(n.payload ?? ''));
    await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
  });

  afterAll(async () => {
    await Promise.all([listener?.end(), writer?.end(), store?.close()]);
    if (db) await dropTestDatabase(db.name);
  });

  /**
   * The changes announced for what `sql` commits, in order: a marker
   * notification sent afterwards on the same connection arrives after them.
   */
  async function announced(sql: string): Promise<Change[][]> {
    received.length = 0;
    await writer.query(sql);
    const mark = `mark-${++marks}`;
    await writer.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, mark]);
    await eventually(mark, async () => received.includes(mark), Boolean, 10_000, 10);
    return received.slice(0, received.indexOf(mark)).map(parseChangeNotification);
  }

  const walls = (...ids: number[]) => ids.map((wallId) => ({ kind: 'wall', wallId }));
  const accounts = (...ids: number[]) => ids.map((accountId) => ({ kind: 'account', accountId }));

  it('key revoke: the key’s account', async () => {
    expect(await announced(`update user_keys set revoked_at = 5 where key_hash = 'h1'`)).toEqual([accounts(1)]);
  });

  it('a key’s last use alone: nothing (it is written once a minute per key in use)', async () => {
    expect(await announced(`update user_keys set last_used_at = 99`)).toEqual([]);
  });

  it('posts hidden on two walls in one statement: both walls, once each', async () => {
    expect(await announced(`update posts set hidden = 1 where id in (1001, 1002, 1101)`)).toEqual([walls(10, 11)]);
  });

  it('a post moved to another wall: the wall it left and the one it joined', async () => {
    const [change] = await announced(`update posts set wall_id = 11 where id = 1002`);
    expect(change).toEqual(expect.arrayContaining(walls(10, 11)));
    expect(change).toHaveLength(2);
  });

  it('a product tag: the wall of the tagged post', async () => {
    const sql = `insert into post_products (post_id, product_id, position, left_pct, top_pct) values (1101, 1, 0, 1, 1)`;
    expect(await announced(sql)).toEqual([walls(11)]);
  });

  it('a product edit: its account (products appear on every wall of it)', async () => {
    expect(await announced(`update products set name = 'Q' where id = 1`)).toEqual([accounts(1)]);
  });

  it('a feed added, a wall soft-deleted: that wall', async () => {
    const feed = `insert into feeds (id, wall_id, name, source, source_type, updated_at) values (111, 11, 'f', 's', 't', 0)`;
    expect(await announced(feed)).toEqual([walls(11)]);
    expect(await announced(`update walls set deleted_at = 1 where id = 10`)).toEqual([walls(10)]);
  });

  it('an account deleted with everything it had: the account and its wall', async () => {
    const changes = (await announced(`delete from accounts where id = 2`)).flat();
    expect(changes).toEqual(expect.arrayContaining([...accounts(2), ...walls(20)]));
    expect(
      changes.every((c) => (c.kind === 'account' ? c.accountId === 2 : c.kind === 'wall' && c.wallId === 20)),
    ).toBe(true);
  });

  it('a statement touching no row, or only tables no reader sees: nothing', async () => {
    expect(await announced(`update posts set hidden = 0 where id = -1`)).toEqual([]);
    expect(
      await announced(`
        insert into usage_daily (account_id, day, calls) values (1, 1, 1);
        insert into audit_log (at, token_name, action, target_type, summary) values (0, 'cli', 'x', 'post', '{}');
        insert into operator_tokens (name, token_hash, prefix, created_at) values ('t', 'th', 'p', 0);
        insert into idempotency_keys (account_id, idem_key, post_id, created_at) values (1, 'k', 1, 0);
        insert into feed_ingest_state (feed_id, interval_s) values (100, 300);
      `),
    ).toEqual([]);
  });

  it('a rolled-back write: nothing', async () => {
    expect(await announced(`begin; update walls set name = 'x' where id = 11; rollback`)).toEqual([]);
  });

  it('100 walls by the largest ids: every id, in one payload under the 8000-byte limit', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => Number.MAX_SAFE_INTEGER - i);
    const [change] = await announced(
      `insert into walls (id, account_id, name, url, created_at) select g, 1, 'w', 'u', 0 from unnest(array[${ids.join(',')}]::bigint[]) g`,
    );
    expect(change).toHaveLength(100);
    expect(change).toEqual(expect.arrayContaining(walls(...ids)));
    expect(Math.max(...received.map((payload) => Buffer.byteLength(payload)))).toBeLessThan(8000);
  });

  it('more than 100 walls, or a TRUNCATE: everything', async () => {
    const many = `update walls set name = 'renamed' where id >= ${Number.MAX_SAFE_INTEGER - 100} or id = 11`;
    expect(await announced(many)).toEqual([[{ kind: 'all' }]]);
    expect(await announced(`truncate post_products`)).toEqual([[{ kind: 'all' }]]);
  });
});
