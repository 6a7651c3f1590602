// Every write reaches every instance's caches, whoever makes it: two
// `wallery serve` processes on PostgreSQL (with Redis for the quota, as in
// production), writes from the CLI with no REDIS_URL at all. The database
// announces them. And when an announcement is lost, no cache entry outlives
// CACHE_TTL_MS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../src/store/change-listener.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { createTestDatabase, dropTestDatabase, TEST_REDIS_URL } from '../helpers/services.js';

const KEY = 'Propagation-main-key';
const REVOKED_KEY = 'Propagation-revoked-key';
const LEAVING_KEY = 'Propagation-leaving-key';
const TTL_KEY = 'Propagation-ttl-key';
const RECONNECT_KEY = 'Propagation-reconnect-key';
const NO_REDIS_KEY = 'Propagation-no-redis-key';
/** the bound: a write is seen on every instance within this */
const VISIBLE_WITHIN_MS = 5000;
/** the short-lived instance's CACHE_TTL_MS */
const SHORT_TTL_MS = 1000;

const AT = '2026-01-10T12:00:00.000Z';
const post = (id: number, content: string, products: unknown[] = []) => ({
  id,
  content,
  createdAt: AT,
  networkName: 'RSS',
  postType: 1,
  media: 'text',
  products,
});
const feed = (id: number, posts: unknown[]) => ({ id, name: `Feed ${id}`, source: 's', sourceType: 'rss', posts });
const DATA = {
  version: 1,
  accounts: [
    { id: 1, name: 'Shop', plan: 'enterprise', dailyCallLimit: 1_000_000, userKeys: [KEY] },
    { id: 2, name: 'Leaving', plan: 'enterprise', userKeys: [LEAVING_KEY] },
    { id: 3, name: 'Revoked', plan: 'enterprise', userKeys: [REVOKED_KEY] },
    { id: 4, name: 'Short-lived', plan: 'enterprise', userKeys: [TTL_KEY] },
    { id: 5, name: 'Reconnect', plan: 'enterprise', userKeys: [RECONNECT_KEY] },
    { id: 6, name: 'No Redis', plan: 'enterprise', userKeys: [NO_REDIS_KEY] },
  ],
  products: [{ id: 1, accountId: 1, name: 'Old name', sku: 'SKU-1', price: 10, createdAt: AT }],
  walls: [
    {
      id: 101,
      accountId: 1,
      name: 'Moderated',
      url: 'moderated',
      createdAt: AT,
      feeds: [feed(1, [post(1011, 'first'), post(1012, 'second')])],
    },
    { id: 102, accountId: 1, name: 'Doomed', url: 'doomed', createdAt: AT, feeds: [feed(2, [post(1021, 'x')])] },
    {
      id: 103,
      accountId: 1,
      name: 'Shop wall',
      url: 'shop',
      createdAt: AT,
      feeds: [feed(3, [post(1031, 'tagged', [{ productId: 1, left: 10, top: 20 }])])],
    },
  ],
};

let db: { name: string; url: string };
let dir: string;
/** two instances that keep cache entries for 10 minutes: only an announcement can drop them */
const pair: Instance[] = [];
/** an instance whose entries live SHORT_TTL_MS */
let shortLived: Instance;
/** an instance with no Redis at all (quota in the store) */
let noRedis: Instance;
const everyInstance = () => [...pair, shortLived, noRedis].filter(Boolean);
const prefix = `wp-${randomBytes(4).toString('hex')}`;
let edits = 0;

/** The CLI as an operator runs it on a machine without Redis settings. */
async function cli(...args: string[]) {
  const r = await runCli(args, { DATABASE_URL: db.url, REDIS_URL: '' });
  expect(r.code, r.stderr).toBe(0);
}

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = [], silent = false) {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query('begin');
    // with triggers off, nothing is announced: a write whose notification is lost
    if (silent) await client.query('set local session_replication_role = replica');
    const result = await client.query<T>(text, params);
    await client.query('commit');
    return result.rows;
  } finally {
    await client.end();
  }
}

/** A write that no instance hears of. */
const silently = (text: string, params: unknown[] = []) => sql(text, params, true);

async function read(instance: Instance, path: string) {
  const res = await fetch(`${instance.url}${path}`);
  return { status: res.status, limit: res.headers.get('x-ratelimit-limit'), body: await res.text() };
}

/** What a key's caller sees: the status and the daily limit the key cache holds for its account. */
const keyView = (key: string) => async (instance: Instance) => {
  const r = await read(instance, `/api/v2/widget/wallInfo/101?user_key=${key}`);
  return `${r.status} limit=${r.limit}`;
};

/**
 * Proves that `view` is answered from the instance's cache: a silent edit
 * of what it shows does not show. Retried, because an instance may have
 * dropped its caches in between (a reconnect announces `all`).
 */
async function servedFromCache(
  instance: Instance,
  view: (i: Instance) => Promise<string>,
  edit: () => Promise<unknown>,
) {
  await eventually(
    'served from cache',
    async () => {
      const cached = await view(instance);
      await edit();
      return { cached, after: await view(instance) };
    },
    ({ cached, after }) => after === cached,
    30_000,
  );
}

const editLimit = (accountId: number) => () =>
  silently('update accounts set daily_call_limit = daily_call_limit + 1 where id = $1', [accountId]);

async function listenerPids(): Promise<number[]> {
  const rows = await sql<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and application_name = $2
       and state = 'idle' and query ilike 'LISTEN%'`,
    [db.name, LISTENER_APPLICATION_NAME],
  );
  return rows.map((r) => r.pid);
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(join(tmpdir(), 'wallery-propagation-'));
  const file = join(dir, 'data.json');
  writeFileSync(file, JSON.stringify(DATA));
  await cli('import', file);
  const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
  [pair[0], pair[1], shortLived, noRedis] = await Promise.all([
    startInstance({ ...env, CACHE_TTL_MS: '600000' }),
    startInstance({ ...env, CACHE_TTL_MS: '600000' }),
    startInstance({ ...env, CACHE_TTL_MS: String(SHORT_TTL_MS) }),
    startInstance({ DATABASE_URL: db.url, REDIS_URL: '', CACHE_TTL_MS: '600000' }),
  ]);
});

afterAll(async () => {
  await Promise.all(everyInstance().map((i) => i.stop()));
  await dropTestDatabase(db.name);
  rmSync(dir, { recursive: true, force: true });
});

/** Warms and proves the instances' caches, runs the write, then waits for `done` on each. */
async function propagates(
  view: (i: Instance) => Promise<string>,
  edit: () => Promise<unknown>,
  write: () => Promise<void>,
  done: (seen: string) => boolean,
  instances = pair,
) {
  for (const instance of instances) {
    await servedFromCache(instance, view, edit);
    expect(done(await view(instance))).toBe(false);
  }
  await write();
  for (const instance of instances) {
    await eventually(`seen through ${instance.url}`, () => view(instance), done, VISIBLE_WITHIN_MS);
  }
}

describe('writes from a CLI without REDIS_URL reach every instance', () => {
  it('key revoke: 401 on both instances', async () => {
    await propagates(
      keyView(REVOKED_KEY),
      editLimit(3),
      () => cli('keys', 'revoke', REVOKED_KEY),
      (seen) => seen.startsWith('401'),
    );
  });

  it('account delete: its key is 401 on both instances', async () => {
    await propagates(
      keyView(LEAVING_KEY),
      editLimit(2),
      () => cli('accounts', 'delete', '2'),
      (seen) => seen.startsWith('401'),
    );
  });

  it('post hide and unhide: gone from W2 on both instances, then back', async () => {
    const ids = async (instance: Instance) => {
      const r = await read(instance, `/api/v2/widget/posts/101?user_key=${KEY}&limit=100`);
      const body = JSON.parse(r.body) as { responseData: { posts: { postId: string; content: string }[] }[] };
      return JSON.stringify(body.responseData[0]!.posts.map((p) => [p.postId, p.content]));
    };
    const editContent = () => silently('update posts set content = $1 where id = 1012', [`silent ${++edits}`]);
    const listed = (seen: string) => seen.includes('"1011"');
    await propagates(
      ids,
      editContent,
      () => cli('posts', 'hide', '101', '1011'),
      (s) => !listed(s),
    );
    await propagates(ids, editContent, () => cli('posts', 'unhide', '101', '1011'), listed);
  });

  it('wall delete: 404 on both instances', async () => {
    await propagates(
      async (instance) => {
        const r = await read(instance, `/api/v2/widget/wallInfo/102?user_key=${KEY}`);
        return `${r.status} ${r.body}`;
      },
      () => silently('update walls set name = $1 where id = 102', [`silent ${++edits}`]),
      () => cli('walls', 'delete', '102'),
      (seen) => seen.startsWith('404'),
    );
  });

  it('product edit: C5 shows the new value on both instances', async () => {
    await propagates(
      async (instance) => {
        const r = await read(instance, `/api/v2/commerce/getGalleryProductByID/103/1031/?user_key=${KEY}`);
        const body = JSON.parse(r.body) as {
          responseData: { postProducts: { productName: string; productSku: string }[] };
        };
        const [product] = body.responseData.postProducts;
        return `${product!.productName} ${product!.productSku}`;
      },
      () => silently('update products set sku = $1 where id = 1', [`silent-${++edits}`]),
      () => cli('products', 'update', '1', '--name', 'New name'),
      (seen) => seen.startsWith('New name '),
    );
  });

  it('keeps hearing of writes after its notification connection was cut', async () => {
    const count = everyInstance().length;
    let before: number[] = [];
    await eventually(
      'every instance listening',
      async () => (before = await listenerPids()),
      (p) => p.length === count,
      30_000,
    );
    await sql('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [before]);
    await eventually(
      'every instance listening again',
      listenerPids,
      (pids) => pids.length === count && pids.every((pid) => !before.includes(pid)),
      30_000,
    );
    await propagates(
      keyView(RECONNECT_KEY),
      editLimit(5),
      () => cli('keys', 'revoke', RECONNECT_KEY),
      (seen) => seen.startsWith('401'),
    );
  });
});

describe('PostgreSQL without Redis', () => {
  it('caches, and hears of writes all the same', async () => {
    await propagates(
      keyView(NO_REDIS_KEY),
      editLimit(6),
      () => cli('keys', 'revoke', NO_REDIS_KEY),
      (seen) => seen.startsWith('401'),
      [noRedis],
    );
  });
});

describe('a lost notification', () => {
  it(`leaves a revoked key working for CACHE_TTL_MS (${SHORT_TTL_MS} ms) at most`, async () => {
    const view = keyView(TTL_KEY);
    expect(await view(shortLived)).toMatch(/^404 /); // cached now
    await silently("update user_keys set revoked_at = 1 where key_hash = encode(sha256($1::bytea), 'hex')", [TTL_KEY]);
    await eventually(
      'revoked key refused',
      () => view(shortLived),
      (seen) => seen.startsWith('401'),
      VISIBLE_WITHIN_MS,
    );
  });
});
