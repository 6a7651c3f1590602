// The `wallery` CLI as an operator uses it: real processes, real SQLite files.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findKeyOwner } from '../../src/store/keys.js';
import { openStore } from '../../src/store/store.js';
import { findLiveWall } from '../../src/store/walls.js';
import { ROOT, runCli, startCli } from '../helpers/cli.js';
import { hasSampleData, loadSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const db = (name: string) => join(dir, `${name}.db`);

async function withStoreAt<T>(path: string, fn: (store: ReturnType<typeof openStore>) => Promise<T>): Promise<T> {
  const store = openStore({ kind: 'sqlite', path });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('help and configuration', () => {
  it('prints help for every command', async () => {
    const commands = [
      ['--help'],
      ['serve', '--help'],
      ['start', '--help'],
      ['migrate', '--help'],
      ['import', '--help'],
      ['export', '--help'],
      ['backup', '--help'],
      ['restore', '--help'],
      ['keys', 'create', '--help'],
      ['keys', 'revoke', '--help'],
      ['walls', 'restore', '--help'],
      ['walls', 'purge', '--help'],
    ];
    const results = await Promise.all(commands.map((args) => runCli(args)));
    results.forEach((r, i) => {
      expect(r.code, commands[i]!.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^Usage: wallery/);
    });
  });

  it('stops with a one-line message naming a bad variable', async () => {
    const settings = [
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['LOG_LEVEL', 'loud'],
      ['CACHE_TTL_MS', '0'],
      ['CACHE_TTL_MS', 'soon'],
      ['DATABASE_URL', 'mysql://x/y'],
    ] as const;
    // each one on a database of its own: a command that wrongly went on to migrate would not wait on another
    const results = await Promise.all(
      settings.map(([name, value], i) =>
        runCli(['migrate'], { [name]: value, DATABASE_URL: name === 'DATABASE_URL' ? value : db(`cfg${i}`) }),
      ),
    );
    results.forEach((r, i) => {
      const [name, value] = settings[i]!;
      expect(r.code, `${name}=${value}`).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(name);
    });
  });

  it('migrate creates the database and is idempotent', async () => {
    const first = await runCli(['migrate', '--database', db('migrate')]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('0001_initial');
    const second = await runCli(['migrate', '--database', db('migrate')]);
    expect(second.stdout).toContain('up to date');
  });
});

describe.skipIf(!hasSampleData)(`import and export (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`, () => {
  it('round-trips: export of an import imports to the same export', async () => {
    expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', db('rt1')])).code).toBe(0);
    const out1 = join(dir, 'rt1.json');
    expect((await runCli(['export', out1, '--database', db('rt1')])).code).toBe(0);
    expect((await runCli(['import', out1, '--database', db('rt2')])).code).toBe(0);
    const out2 = join(dir, 'rt2.json');
    expect((await runCli(['export', out2, '--database', db('rt2')])).code).toBe(0);
    expect(readFileSync(out2, 'utf8')).toBe(readFileSync(out1, 'utf8'));

    // the export carries everything the sample had (keys as hashes)
    const sample = loadSampleData() as { walls: { feeds: { posts: Record<string, unknown>[] }[] }[] };
    const exported = JSON.parse(readFileSync(out1, 'utf8')) as typeof sample & {
      accounts: { userKeys: string[]; userKeyHashes: string[] }[];
    };
    const strip = (w: (typeof sample)['walls'][number]) => w.feeds.flatMap((f) => f.posts);
    expect(exported.walls.flatMap(strip)).toEqual(sample.walls.flatMap(strip).map((p) => ({ hidden: false, ...p })));
    expect(exported.accounts[0]!.userKeys).toEqual([]);
    expect(exported.accounts[0]!.userKeyHashes).toHaveLength(2);
    // keys still work after the round trip
    await withStoreAt(db('rt2'), async (store) => {
      expect(await findKeyOwner(store.db, 'Demo-ent-key-0001')).toMatchObject({ accountId: 7001, plan: 'enterprise' });
    });
  });

  it('a bad file changes nothing and names the JSON path of the first problem', async () => {
    const data = loadSampleData() as { walls: { feeds: { posts: { createdAt: string }[] }[] }[] };
    data.walls[1 - 1]!.feeds[1]!.posts[2]!.createdAt = '2024-02-31T00:00:00.000Z';
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(data));
    const r = await runCli(['import', file, '--database', db('bad')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('$.walls[0].feeds[1].posts[2].createdAt');
    await withStoreAt(db('bad'), async (store) => {
      expect(await store.db.selectFrom('accounts').select('id').execute()).toEqual([]);
    });
  });

  it('reports schema problems, duplicate ids and dangling references by path', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form mutation of a parsed file
    const cases: [(d: any) => void, string][] = [
      [(d) => (d.walls[2].feeds[0].posts[1].media = 'gif'), '$.walls[2].feeds[0].posts[1].media'],
      [(d) => delete d.walls[0].name, '$.walls[0]'],
      [(d) => (d.walls[0].feeds[0].posts[1].id = d.walls[0].feeds[0].posts[0].id), '$.walls[0].feeds[0].posts[1].id'],
      [(d) => (d.walls[3].accountId = 999), '$.walls[3].accountId'],
      [(d) => (d.products[0].accountId = 999), '$.products[0].accountId'],
      [(d) => (d.version = 2), '$.version'],
      [
        (d) => (d.walls[0].feeds[0].connector = { kind: 'mastodon', instance: 'https://m.example' }),
        '$.walls[0].feeds[0].connector',
      ],
      [(d) => (d.walls[0].feeds[0].connector = { kind: 'gopher' }), '$.walls[0].feeds[0].connector'],
    ];
    for (const [mutate, path] of cases) {
      const data = loadSampleData();
      mutate(data);
      const file = join(dir, 'bad2.json');
      writeFileSync(file, JSON.stringify(data));
      const r = await runCli(['import', file, '--database', db('bad2')]);
      expect(r.code, path).toBe(1);
      expect(r.stderr, path).toContain(path);
    }
    const notJson = join(dir, 'notjson.json');
    writeFileSync(notJson, '{"version":1,');
    const r = await runCli(['import', notJson, '--database', db('bad2')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot read/);
  });

  it('keeps feed connector settings and a wall’s framing through a round trip; walls update sets the framing', async () => {
    const data = loadSampleData() as { walls: ({ feeds: Record<string, unknown>[] } & Record<string, unknown>)[] };
    data.walls[1]!.allowFraming = true;
    const connector = { kind: 'mastodon', instance: 'https://m.example', hashtag: 'trail', reposts: 'unwrap' };
    data.walls[0]!.feeds[0]!.connector = connector;
    data.walls[0]!.feeds[1]!.enabled = false;
    const file = join(dir, 'conn.json');
    writeFileSync(file, JSON.stringify(data));
    expect((await runCli(['import', file, '--database', db('conn')])).code).toBe(0);
    const out = join(dir, 'conn-out.json');
    expect((await runCli(['export', out, '--database', db('conn')])).code).toBe(0);
    const exported = JSON.parse(readFileSync(out, 'utf8')) as typeof data;
    expect(exported.walls[0]!.feeds[0]!.connector).toEqual(connector);
    expect(exported.walls[0]!.feeds[1]!.enabled).toBe(false);
    expect(exported.walls[0]!.feeds[2]!).not.toHaveProperty('connector');
    expect(exported.walls[1]!.allowFraming).toBe(true);
    expect(exported.walls[0]!).not.toHaveProperty('allowFraming');
    const wallId = String(data.walls[0]!.id);
    const set = await runCli(['walls', 'update', wallId, '--allow-framing', '--json', '--database', db('conn')]);
    expect(JSON.parse(set.stdout)).toMatchObject({ allowFraming: true });
    const unset = await runCli(['walls', 'update', wallId, '--no-allow-framing', '--json', '--database', db('conn')]);
    expect(JSON.parse(unset.stdout)).toMatchObject({ allowFraming: false });
  });

  it('walls create and update set a branding; none resets an option; a colour pair below AA is refused by field', async () => {
    expect((await runCli(['migrate', '--database', db('brand')])).code).toBe(0);
    const account = await runCli([
      'accounts',
      'create',
      '--name',
      'Brand',
      '--plan',
      'widget',
      '--json',
      '--database',
      db('brand'),
    ]);
    const accountId = String((JSON.parse(account.stdout) as { id: number }).id);
    const made = await runCli([
      'walls',
      'create',
      '--account',
      accountId,
      '--name',
      'Harbour',
      '--url',
      'harbour',
      '--accent',
      '#E4572E',
      '--background',
      '#111',
      '--font',
      'serif',
      '--radius',
      '0',
      '--card-style',
      'outlined',
      '--call-to-post',
      'Post with #harborfest',
      '--info-url',
      'https://example.org/join',
      '--var',
      '--wallery-gap=16px',
      '--json',
      '--database',
      db('brand'),
    ]);
    expect(made.code, made.stderr).toBe(0);
    const wall = JSON.parse(made.stdout) as { id: number; branding: Record<string, unknown> };
    expect(wall.branding).toMatchObject({
      accent: '#e4572e',
      background: '#111111',
      font: 'serif',
      radius: 0,
      cardStyle: 'outlined',
      callToPost: 'Post with #harborfest',
      infoUrl: 'https://example.org/join',
      vars: { '--wallery-gap': '16px' },
    });
    const id = String(wall.id);
    const changed = await runCli([
      'walls',
      'update',
      id,
      '--accent',
      'none',
      '--radius',
      '4',
      '--var',
      '--wallery-gap=none',
      '--json',
      '--database',
      db('brand'),
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    expect((JSON.parse(changed.stdout) as typeof wall).branding).toMatchObject({
      accent: null,
      radius: 4,
      font: 'serif',
      vars: {},
    });
    const low = await runCli([
      'walls',
      'update',
      id,
      '--text-color',
      '#999',
      '--card-background',
      '#fff',
      '--database',
      db('brand'),
    ]);
    expect(low.code).not.toBe(0);
    expect(low.stderr).toMatch(
      /branding\.text: the text #999999 on the card background #ffffff has a contrast of 2\.84:1/,
    );
  });

  it('accepts walls of one account that share a URL slug (the contract does not forbid it)', async () => {
    const data = loadSampleData() as { walls: { url: string; accountId: number }[] };
    const [a, b] = data.walls.filter((w) => w.accountId === 7001);
    b!.url = a!.url;
    const file = join(dir, 'slugs.json');
    writeFileSync(file, JSON.stringify(data));
    const r = await runCli(['import', file, '--database', db('slugs')]);
    expect(r.code, r.stderr).toBe(0);
  });

  it('refuses ids that the store already holds', async () => {
    expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', db('twice')])).code).toBe(0);
    const r = await runCli(['import', SAMPLE_DATA_PATH, '--database', db('twice')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('$.accounts[0].id');
  });

  it('keys create prints a working key once; revoke disables it', async () => {
    expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', db('keys')])).code).toBe(0);
    const created = await runCli(['keys', 'create', '--account', '7002', '--database', db('keys')]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^wk_[A-Za-z0-9_-]{32}$/);
    await withStoreAt(db('keys'), async (store) => {
      expect(await findKeyOwner(store.db, key)).toMatchObject({ accountId: 7002, plan: 'widget' });
      const rows = await store.db.selectFrom('user_keys').select('key_hash').execute();
      expect(rows.some((r) => r.key_hash.includes(key))).toBe(false);
    });
    expect((await runCli(['keys', 'revoke', key, '--database', db('keys')])).code).toBe(0);
    await withStoreAt(db('keys'), async (store) => expect(await findKeyOwner(store.db, key)).toBeNull());
    expect((await runCli(['keys', 'revoke', key, '--database', db('keys')])).code).toBe(1);
    expect((await runCli(['keys', 'create', '--account', '424242', '--database', db('keys')])).code).toBe(1);
    expect((await runCli(['keys', 'create', '--account', 'x', '--database', db('keys')])).code).toBe(1);
  });

  it('walls restore brings a deleted wall back; purge erases only deleted walls', async () => {
    expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', db('walls')])).code).toBe(0);
    await withStoreAt(db('walls'), async (store) => expect(await findLiveWall(store.db, 7015, 7001)).toBeNull());
    expect((await runCli(['walls', 'restore', '7015', '--database', db('walls')])).code).toBe(0);
    await withStoreAt(db('walls'), async (store) => expect(await findLiveWall(store.db, 7015, 7001)).not.toBeNull());
    expect((await runCli(['walls', 'restore', '7015', '--database', db('walls')])).code).toBe(1);
    // the change feed: the imported posts, then the restore; a cursor to go on from
    const feed = await runCli(['walls', 'changes', '7015', '--json', '--database', db('walls')]);
    expect(feed.code, feed.stderr).toBe(0);
    const page = JSON.parse(feed.stdout) as { changes: { kind: string }[]; cursor: string; hasMore: boolean };
    expect(page.changes.map((c) => c.kind)).toEqual([...Array(5).fill('created'), 'wall_restored']);
    const table = await runCli(['walls', 'changes', '7015', '--since', 'latest', '--database', db('walls')]);
    expect(table.stderr).toBe(`next: add --since ${page.cursor}\n`);
    const bad = await runCli(['walls', 'changes', '7015', '--since', 'yesterday', '--database', db('walls')]);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('since must be a cursor')]);
    const live = await runCli(['walls', 'purge', '7011', '--database', db('walls')]);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain('live');
    await withStoreAt(db('walls'), async (store) => {
      await store.db.updateTable('walls').set({ deleted_at: 1 }).where('id', '=', 7011).execute();
    });
    expect((await runCli(['walls', 'purge', '7011', '--database', db('walls')])).code).toBe(0);
    await withStoreAt(db('walls'), async (store) => {
      expect(await store.db.selectFrom('posts').select('id').where('wall_id', '=', 7011).execute()).toEqual([]);
      expect(await store.db.selectFrom('walls').select('id').where('id', '=', 7011).execute()).toEqual([]);
    });
    expect((await runCli(['walls', 'purge', '999', '--database', db('walls')])).code).toBe(1);
  });
});

describe('large imports', () => {
  it('shows progress and loads every post', async () => {
    const posts = Array.from({ length: 12_000 }, (_, i) => ({
      id: i + 1,
      content: `post ${i}`,
      createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      media: 'text',
    }));
    const data = {
      version: 1,
      accounts: [{ id: 1, name: 'A', plan: 'enterprise', userKeys: ['k'] }],
      products: [],
      walls: [
        {
          id: 1,
          accountId: 1,
          name: 'W',
          url: 'w',
          createdAt: '2024-01-01T00:00:00.000Z',
          feeds: [
            {
              id: 1,
              name: 'F',
              source: 'RSS',
              sourceType: 'feed',
              createdAt: null,
              updatedAt: '2024-01-01T00:00:00.000Z',
              posts,
            },
          ],
        },
      ],
    };
    const file = join(dir, 'large.json');
    writeFileSync(file, JSON.stringify(data));
    const r = await runCli(['import', file, '--database', db('large')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^import: \d+ posts \(\d+% of the file\)$/m);
    expect(r.stderr).toContain('import: 12000 posts (100% of the file)');
    expect(r.stdout).toContain('12000 posts');
    // read in a worker thread: the built CLI reads in-thread only where the worker's file is missing
    expect(existsSync(join(ROOT, 'dist/store/datafile/reader-worker.js'))).toBe(true);
  });
});

describe('start (npm start)', () => {
  it('loads the demo data on first start only, prints keys and working example URLs', async () => {
    const env = { DATABASE_URL: db('demo'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const first = await startCli(['start'], env, /walls\/103\?key=\S+\n/);
    try {
      const out = first.output();
      expect(out).toContain('Loaded the demo data set');
      expect(out).toContain('demo-enterprise-key');
      const urls = [...out.matchAll(/curl '([^']+)'/g)].map((m) => m[1]!);
      expect(urls).toHaveLength(2);
      for (const url of urls) {
        const res = await fetch(url);
        expect(res.status, url).toBe(200);
        const body = await res.text();
        expect(body).toContain('success');
      }
      // what the bundled server finds by path: package.json, dist/web, demo/media, Swagger UI's own files
      const origin = new URL(urls[0]!).origin;
      const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        version: string;
      };
      // the operator console, and the command that makes a token to sign in with
      expect(out).toContain(`${origin}/console/`);
      expect(out).toContain('npx wallery tokens create --name me --role admin');
      const consolePage = await fetch(`${origin}/console/`);
      expect([consolePage.status, await consolePage.text()]).toEqual([200, expect.stringContaining('<div id="root">')]);
      const [doc, script, picture, docs] = await Promise.all([
        fetch(`${origin}/openapi.json`),
        fetch(`${origin}/embed/v1/wallery.js`),
        fetch(`${origin}/demo-media/brand-first-guitars.jpg`),
        fetch(`${origin}/docs/static/swagger-ui.css`),
      ]);
      expect(((await doc.json()) as { info: { version: string } }).info.version).toBe(version);
      expect([script.status, await script.text()]).toEqual([200, expect.stringContaining('customElements')]);
      expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
      // the three demo walls, each with its page and a key made for it
      const pages = [...out.matchAll(/^ {4}(http\S+\/walls\/(\d+)\?key=\S+)$/gm)];
      expect(pages.map((m) => Number(m[2]))).toEqual([101, 102, 103]);
      for (const [, url] of pages) expect((await fetch(url!)).status, url).toBe(200);
      expect([docs.status, await docs.text()]).toEqual([200, expect.stringContaining('.swagger-ui')]);
    } finally {
      first.child.kill('SIGTERM');
    }
    const second = await startCli(['start'], env, /then open /);
    try {
      expect(second.output()).not.toContain('Loaded the demo data set');
      expect(second.output()).toContain('The demo walls have publishable keys');
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
