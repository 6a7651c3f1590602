// The management commands of the `wallery` CLI: real processes on a real
// SQLite file, observed through the API of a server on the same file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { call, KEYS } from '../helpers/http.js';
import {
  hasSampleData,
  SAMPLE_DATA_PATH,
  SKIP_NO_SAMPLE,
  startTestServer,
  type TestServer,
} from '../helpers/server.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallery-cli-manage-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GROUPS: Record<string, string[]> = {
  tokens: ['create', 'list', 'revoke'],
  accounts: ['list', 'get', 'create', 'update', 'delete', 'usage'],
  keys: ['create', 'list', 'revoke'],
  walls: ['list', 'get', 'create', 'update', 'delete', 'restore', 'changes', 'purge', 'keys'],
  feeds: ['list', 'get', 'create', 'update', 'enable', 'disable', 'delete'],
  posts: [
    'list',
    'queue',
    'approve',
    'reject',
    'get',
    'hide',
    'unhide',
    'pin',
    'unpin',
    'highlight',
    'unhighlight',
    'cta',
    'edit',
    'tags',
    'tag',
    'untag',
  ],
  products: ['list', 'get', 'create', 'update', 'delete'],
};

describe('management commands', () => {
  it('are listed with their help', async () => {
    const groups = Object.keys(GROUPS);
    const results = await Promise.all([
      ...groups.map((g) => runCli([g, '--help'])),
      runCli(['audit', '--help']),
      runCli(['posts', 'cta', '--help']),
    ]);
    groups.forEach((g, i) => {
      const r = results[i]!;
      expect(r.code, `${g}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: wallery ${g}`));
      const listed = [...r.stdout.matchAll(/^ {2}(\w+)(?: |$)/gm)].map((x) => x[1]).filter((c) => c !== 'help');
      expect(listed, g).toEqual(GROUPS[g]);
    });
    expect(results[groups.length]!.stdout, results[groups.length]!.stderr).toMatch(/^Usage: wallery audit \[options\]/);
    expect(results[groups.length + 1]!.stdout, results[groups.length + 1]!.stderr).toMatch(/--clear/);
  });
});

describe.skipIf(!hasSampleData)(
  `management commands on the sample data (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    let db: string;
    let srv: TestServer;
    const cli = (...args: string[]) => runCli([...args, '--database', db]);
    /** runs a command that must succeed; its stderr is the failure message otherwise */
    const ok = async (...args: string[]) => {
      const r = await cli(...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const json = async (...args: string[]) => {
      const r = await cli(...args, '--json');
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown> & { data: Record<string, unknown>[] };
    };
    const v2 = (path: string, key: string = KEYS.ent) =>
      call(srv.baseUrl, `/api/v2${path}`, { query: { user_key: key, limit: '500' } });

    beforeAll(async () => {
      const sub = join(dir, 'shared');
      db = join(sub, 'wallery.db');
      expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', db])).code).toBe(0);
      // a server on the same file sees every CLI write on its next read
      srv = await startTestServer({ dir: sub });
    });
    afterAll(async () => srv?.close());

    it('tokens: create prints the token once; it works on the API until revoked', async () => {
      const made = await cli('tokens', 'create', '--name', 'ci bot');
      expect(made.code).toBe(0);
      const token = made.stdout.trim();
      expect(token).toMatch(/^wop_[A-Za-z0-9_-]{43}$/);
      expect(made.stderr).toMatch(/shown only this once/);
      const api = () => call(srv.baseUrl, '/api/manage/v1/accounts', { headers: { authorization: `Bearer ${token}` } });
      expect((await api()).status).toBe(200);

      const list = await cli('tokens', 'list');
      const lines = list.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^id\s+name\s+role\s+scope\s+prefix\s+createdAt\s+lastUsedAt\s+revokedAt$/);
      expect(list.stdout).not.toContain(token);
      const row = lines.find((l) => l.includes('ci bot'))!;
      expect(row).toContain(token.slice(0, 8));
      expect(row).toMatch(/ci bot\s+admin\s+all accounts\s/);
      const id = row.split(/\s+/)[0]!;

      expect((await cli('tokens', 'revoke', id)).stdout).toBe(`operator token ${id} "ci bot" revoked\n`);
      expect((await api()).status).toBe(401);
      const again = await cli('tokens', 'revoke', token);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe(`wallery: operator token ${id} is already revoked\n`);
    });

    it('tokens: --role and --account make a token limited to what it may do and to its accounts', async () => {
      const made = await cli(
        'tokens',
        'create',
        '--name',
        'mod 7001',
        '--role',
        'moderator',
        '--account',
        '7001',
        '--account',
        '7002',
      );
      expect(made.code, made.stderr).toBe(0);
      expect(made.stderr).toMatch(/^operator token \d+ "mod 7001" \(moderator, accounts 7001,7002\) created/);
      const token = made.stdout.trim();
      const api = (method: string, path: string, body?: unknown) =>
        call(srv.baseUrl, `/api/manage/v1${path}`, { method, body, headers: { authorization: `Bearer ${token}` } });
      const accounts = await api('GET', '/accounts');
      expect(accounts.status).toBe(200);
      expect((accounts.json().responseData as { data: { id: number }[] }).data.map((a) => a.id)).toEqual([7001, 7002]);
      expect((await api('GET', '/accounts/7003')).status).toBe(404);
      const refused = await api('POST', '/walls', { accountId: 7001, name: 'x', url: 'x' });
      expect([refused.status, refused.json().responseMessage]).toEqual([
        403,
        "this token's role (moderator) cannot create a wall: that needs editor or admin",
      ]);

      const listed = (await json('tokens', 'list')) as unknown as Record<string, unknown>[];
      expect(listed.find((t) => t.name === 'mod 7001')).toMatchObject({ role: 'moderator', accounts: [7001, 7002] });
      const table = (await ok('tokens', 'list')).stdout.split('\n').find((l) => l.includes('mod 7001'))!;
      expect(table).toMatch(/mod 7001\s+moderator\s+accounts 7001,7002\s/);

      const [badRole, badAccount, missing] = await Promise.all([
        cli('tokens', 'create', '--role', 'owner'),
        cli('tokens', 'create', '--account', 'seven'),
        cli('tokens', 'create', '--role', 'viewer', '--account', '999999'),
      ]);
      expect([badRole.code, badRole.stderr]).toEqual([
        1,
        'wallery: --role must be one of viewer, moderator, editor, admin\n',
      ]);
      expect([badAccount.code, badAccount.stderr]).toEqual([
        1,
        'wallery: --account must be an account id, not "seven"\n',
      ]);
      expect([missing.code, missing.stderr]).toEqual([1, 'wallery: account 999999 not found\n']);
    });

    it('CLI writes follow contract §7 too: names are plain text, post content is sanitized', async () => {
      const [markup, onlyMarkup] = await Promise.all([
        cli('tokens', 'create', '--name', '<b>ops</b> bot', '--json'),
        cli('tokens', 'create', '--name', '<b> </b>'),
      ]);
      expect(markup.code, markup.stderr).toBe(0);
      expect(JSON.parse(markup.stdout)).toMatchObject({ name: 'ops bot' });
      expect([onlyMarkup.code, onlyMarkup.stderr]).toEqual([
        1,
        'wallery: name must contain text besides tags and spaces\n',
      ]);

      await ok('posts', 'edit', '7011', '17020', '--content', 'Tom & Jerry <img src=x onerror=alert(1)>');
      const post = await json('posts', 'get', '7011', '17020');
      expect(post.content).toBe('Tom &amp; Jerry ');
      const wall = await json(
        'walls',
        'create',
        '--account',
        '7001',
        '--name',
        '<script>x</script>Wall',
        '--url',
        'cli-x',
      );
      expect(wall.name).toBe('Wall');
    });

    it('accounts: table by default, JSON for scripts, every bad option named at once', async () => {
      // reads and refusals are independent: run them side by side
      const [table, bad, missing, refused, usage] = await Promise.all([
        cli('accounts', 'list', '--limit', '2'),
        cli('accounts', 'create', '--name', ' ', '--plan', 'gold', '--daily-call-limit', 'many'),
        cli('accounts', 'get', '424242'),
        cli('accounts', 'delete', '7001'),
        cli('accounts', 'usage', '7001'),
      ]);
      expect(table.code).toBe(0);
      const lines = table.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^id\s+name\s+plan\s+dailyCallLimit\s+createdAt$/);
      expect(lines[1]).toMatch(/^7001\s+Demo Outdoor\s+enterprise\s+10000000\s/);
      expect(lines).toHaveLength(3);
      expect(table.stderr).toMatch(/^more: add --cursor \S+\n$/);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^wallery: name must be .*; plan must be .*; dailyCallLimit must be .*\n$/);
      expect(missing.stderr).toBe('wallery: account 424242 not found\n');
      expect(refused.stderr).toMatch(/still has walls/);
      expect(usage.stdout.split('\n')[0]).toMatch(/^day\s+calls$/);
      expect(usage.stdout.trimEnd().split('\n')).toHaveLength(31);

      const made = await json(
        'accounts',
        'create',
        '--name',
        'From the CLI',
        '--plan',
        'commerce',
        '--daily-call-limit',
        '50',
      );
      expect(made).toMatchObject({ name: 'From the CLI', plan: 'commerce', dailyCallLimit: 50 });
      expect(await json('accounts', 'update', String(made.id), '--plan', 'enterprise')).toMatchObject({
        id: made.id,
        plan: 'enterprise',
      });
      expect((await cli('accounts', 'delete', String(made.id))).stdout).toBe(`account ${made.id} deleted\n`);
    });

    it('keys: list shows prefixes only', async () => {
      const key = (await cli('keys', 'create', '--account', '7002')).stdout.trim();
      const list = await json('keys', 'list', '--account', '7002');
      expect(list.data.map((k) => k.prefix)).toContain(key.slice(0, 8));
      expect(JSON.stringify(list)).not.toContain(key);
    });

    it('walls and feeds: a wall with a feed made from the CLI is served by the API', async () => {
      const wall = await json(
        'walls',
        'create',
        '--account',
        '7001',
        '--name',
        'CLI wall',
        '--url',
        'cli-wall',
        '--profanity',
      );
      expect(wall).toMatchObject({ accountId: 7001, url: 'cli-wall', profanity: true, deleted: false });
      const connector = '{"kind":"mastodon","instance":"https://m.example","hashtag":"cli"}';
      const feed = await json(
        'feeds',
        'create',
        String(wall.id),
        '--name',
        '#cli',
        '--source',
        'Mastodon',
        '--source-type',
        'hashtag',
        '--connector',
        connector,
      );
      expect(feed).toMatchObject({ wallId: wall.id, enabled: true, connector: { kind: 'mastodon', hashtag: 'cli' } });
      const info = await v2(`/widget/wallInfo/${wall.id}`);
      expect(info.json().responseData).toMatchObject([
        { wallName: 'CLI wall', wallProfanity: 1, feeds: [{ feedId: feed.id, feedName: '#cli' }] },
      ]);

      const [disabled, badConnector, dup] = await Promise.all([
        cli('feeds', 'disable', String(feed.id)),
        cli('feeds', 'update', String(feed.id), '--connector', '{"kind":"mastodon","instance":"https://m.example"}'),
        cli('walls', 'create', '--account', '7001', '--name', 'dup', '--url', 'cli-wall'),
      ]);
      expect(disabled.stdout).toBe(`feed ${feed.id} disabled\n`);
      expect(badConnector.stderr).toBe('wallery: connector: exactly one of hashtag, account is required\n');
      expect(dup.stderr).toMatch(/already used by wall/);

      await ok('walls', 'delete', String(wall.id));
      expect((await v2(`/widget/wallInfo/${wall.id}`)).status).toBe(404);
      const deleted = await json('walls', 'list', '--state', 'deleted', '--account', '7001');
      expect(deleted.data.map((w) => w.id)).toContain(wall.id);
      expect((await cli('walls', 'restore', String(wall.id))).stdout).toBe(`wall ${wall.id} restored\n`);
      const restored = await v2(`/widget/wallInfo/${wall.id}`);
      expect(restored.status).toBe(200);
      expect(restored.json().responseData).toMatchObject([{ feeds: [{ feedId: feed.id }] }]);
    });

    it('posts: moderation from the CLI shows on the public API; several posts are all or nothing', async () => {
      type W2 = { postId: string; postPin: number; CTAtext: string | null; content: string };
      const w2 = async () => ((await v2('/widget/posts/7011')).json().responseData as { posts: W2[] }[])[0]!.posts;

      expect((await cli('posts', 'hide', '7011', '17001', '17004')).stdout).toBe('hide: 2 posts, 2 changed\n');
      expect((await w2()).map((p) => p.postId)).not.toContain('17001');
      const refused = await cli('posts', 'unhide', '7011', '17001', '17086');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe('wallery: post 17086 is not a post of wall 7011\n');
      expect((await w2()).map((p) => p.postId)).not.toContain('17001');

      await ok('posts', 'pin', '7011', '17019');
      const cta = ['--color', '#ffffff', '--background', '#000000', '--url', 'https://x.example/buy', '--text', 'Buy'];
      await ok('posts', 'cta', '7011', '17019', ...cta);
      await ok('posts', 'edit', '7011', '17019', '--content', 'Edited from the CLI');
      const p = (await w2()).find((x) => x.postId === '17019')!;
      expect([p.postPin, p.CTAtext, p.content]).toEqual([1, 'Buy', 'Edited from the CLI']);
      const badCta = await cli(
        'posts',
        'cta',
        '7011',
        '17019',
        '--color',
        'red',
        '--url',
        'nope',
        '--text',
        'x',
        '--background',
        '#000',
      );
      expect(badCta.stderr).toMatch(/^wallery: cta\.color must be .*; cta\.url must be /);

      const list = await cli('posts', 'list', '7011', '--status', 'hidden');
      expect(list.stdout.split('\n')[0]).toMatch(
        /^id\s+feedId\s+media\s+state\s+hidden\s+pinned\s+highlighted\s+createdAt\s+authorName\s+content$/,
      );
      expect(list.stdout.trimEnd().split('\n')).toHaveLength(1 + 3 + 2);
    });

    it('posts: approve and reject from the CLI, the queue, and the reason kept', async () => {
      type W2 = { postId: string };
      const w2 = async () => ((await v2('/widget/posts/7011')).json().responseData as { posts: W2[] }[])[0]!.posts;
      expect((await json('walls', 'update', '7011', '--moderation', 'manual')).moderation).toBe('manual');
      const bad = await cli('walls', 'update', '7011', '--moderation', 'later');
      expect(bad.stderr).toMatch(/^wallery: moderation must be auto or manual/);
      // posts stored before keep their state: the queue is empty
      expect((await cli('posts', 'queue', '7011')).stdout.trimEnd().split('\n')).toHaveLength(1);
      await ok('posts', 'reject', '7011', '17040', '17041', '--reason', 'off-topic');
      expect((await w2()).map((p) => p.postId)).not.toContain('17040');
      await ok('posts', 'approve', '7011', '17040', '--reason', 'looks fine');
      const post = await json('posts', 'get', '7011', '17040');
      expect(post).toMatchObject({ state: 'approved', decision: { by: 'cli', reason: 'looks fine' } });
      expect((await w2()).map((p) => p.postId)).toContain('17040');
      expect((await w2()).map((p) => p.postId)).not.toContain('17041');
      expect((await json('posts', 'list', '7011', '--state', 'rejected')).data).toMatchObject([
        { id: 17041, decision: { by: 'cli', reason: 'off-topic' } },
      ]);
      const audit = await json('audit', '--limit', '1');
      expect(audit.data[0]).toMatchObject({ tokenName: 'cli', action: 'posts.bulk.approve' });
      await ok('posts', 'approve', '7011', '17041');
      await ok('walls', 'update', '7011', '--moderation', 'auto');
    });

    it('products and tags: tagged from the CLI, shown by C5 in tag order', async () => {
      const product = await json(
        'products',
        'create',
        '--account',
        '7001',
        '--name',
        'CLI shoe',
        '--price',
        '99.5',
        '--currency',
        'EUR',
      );
      expect(product).toMatchObject({ name: 'CLI shoe', price: 99.5, currency: 'EUR', sku: '' });
      expect(
        (await cli('posts', 'tag', '7011', '17007', '--product', String(product.id), '--left', '10', '--top', '20'))
          .code,
      ).toBe(0);
      const tags = await cli(
        'posts',
        'tag',
        '7011',
        '17007',
        '--product',
        '7501',
        '--left',
        '50',
        '--top',
        '50',
        '--position',
        '0',
      );
      expect(tags.stdout.split('\n')[0]).toMatch(/^position\s+productId\s+productName\s+left\s+top$/);
      const c5 = await v2('/commerce/getGalleryProductByID/7011/17007/');
      expect((c5.json().responseData as { postProductIds: string }).postProductIds).toBe(`7501,${product.id}`);
      const [bad, foreign] = await Promise.all([
        cli('posts', 'tag', '7011', '17007', '--product', '7505', '--left', '150', '--top', 'x'),
        cli('posts', 'tag', '7011', '17007', '--product', '7505', '--left', '1', '--top', '1'),
      ]);
      expect(bad.stderr).toBe('wallery: left must be a number from 0 to 100; top must be a number from 0 to 100\n');
      expect(foreign.stderr).toBe('wallery: product 7505 is not a product of account 7001\n');
      expect((await cli('products', 'delete', String(product.id))).stdout).toBe(`product ${product.id} deleted\n`);
      const after = await v2('/commerce/getGalleryProductByID/7011/17007/');
      expect((after.json().responseData as { postProductIds: string }).postProductIds).toBe('7501');
    });

    it('audit: every CLI write is recorded as cli', async () => {
      const [log, table, ofAccount] = await Promise.all([
        json('audit', '--limit', '200', '--token-name', 'cli'),
        cli('audit', '--limit', '1'),
        json('audit', '--limit', '200', '--account', '7001'),
      ]);
      expect(ofAccount.data.length).toBeGreaterThan(0);
      expect(ofAccount.data.every((e) => (e as { accountId?: number }).accountId === 7001)).toBe(true);
      const actions = new Set(log.data.map((e) => e.action));
      for (const action of [
        'operator_token.create',
        'operator_token.revoke',
        'account.create',
        'account.delete',
        'user_key.create',
        'wall.create',
        'wall.delete',
        'wall.restore',
        'feed.create',
        'feed.update',
        'posts.bulk.hide',
        'posts.bulk.pin',
        'posts.bulk.setCta',
        'post.update',
        'post.tags.add',
        'product.create',
        'product.delete',
      ]) {
        expect(actions, action).toContain(action);
      }
      expect(table.stdout.split('\n')[0]).toMatch(/^id\s+at\s+tokenName\s+action\s+targetType\s+targetId\s+summary$/);
    });
  },
);

describe.skipIf(!hasSampleData)(
  `control characters never reach the terminal (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    // ESC [8m hides text; OSC 52 writes the clipboard; U+009B is a one-character CSI; BEL, DEL
    const HIDDEN = 'Summer \u001b[8mhidden\u001b[0m';
    const CLIPBOARD = 'copy \u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007 \u009b31m red \u007f';
    /** Any control character but the newline that ends each line of output. */
    const RAW = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;
    let db: string;
    const cli = (...args: string[]) => runCli([...args, '--database', db]);

    beforeAll(async () => {
      // a data file is loaded as given (contract §7): rows that hold raw controls
      const sample = JSON.parse(readFileSync(SAMPLE_DATA_PATH, 'utf8')) as {
        walls: { id: number; name: string; feeds: { posts: { content: string; authorName: string }[] }[] }[];
      };
      const wall = sample.walls.find((w) => w.id === 7011)!;
      wall.name = HIDDEN;
      wall.feeds[0]!.posts[0]!.content = CLIPBOARD;
      wall.feeds[0]!.posts[0]!.authorName = HIDDEN;
      const file = join(dir, 'controls.json');
      writeFileSync(file, JSON.stringify(sample));
      db = join(dir, 'controls', 'wallery.db');
      const loaded = await runCli(['import', file, '--database', db]);
      expect(loaded.code, loaded.stderr).toBe(0);
    });

    it('walls list and posts list show a stored control as \\x.., as a table and as JSON', async () => {
      const [walls, posts, wallsJson, postsJson] = await Promise.all([
        cli('walls', 'list'),
        cli('posts', 'list', '7011', '--limit', '200'),
        cli('walls', 'list', '--json'),
        cli('posts', 'list', '7011', '--limit', '200', '--json'),
      ]);
      for (const r of [walls, posts, wallsJson, postsJson]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).not.toMatch(RAW);
      }
      expect(walls.stdout).toContain('Summer \\x1b[8mhidden\\x1b[0m');
      expect(posts.stdout).toContain('copy \\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07 \\x9b31m red \\x7f');
      // JSON keeps the exact text for scripts, every control escaped as JSON allows
      const list = JSON.parse(postsJson.stdout) as { data: { content: string; authorName: string }[] };
      expect(list.data.map((p) => p.content)).toContain(CLIPBOARD);
      expect(JSON.parse(wallsJson.stdout).data.map((w: { name: string }) => w.name)).toContain(HIDDEN);
    });

    it('a CLI write stores the text without them; an error line escapes them', async () => {
      const changed = await cli('walls', 'update', '7012', '--name', HIDDEN, '--json');
      expect(changed.code, changed.stderr).toBe(0);
      expect(JSON.parse(changed.stdout).name).toBe('Summer [8mhidden[0m');
      const edited = await cli('posts', 'edit', '7011', '17001', '--content', `${CLIPBOARD}\nline two`, '--json');
      expect(edited.code, edited.stderr).toBe(0);
      expect(JSON.parse(edited.stdout).content).toBe('copy ]52;c;Y3VybCBldmlsLnNoIHwgc2g= 31m red \nline two');
      // an error that quotes what it was given
      const refused = await cli('import', join(dir, 'no \u001b[8mfile.json'));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('no \\x1b[8mfile.json');
      expect(refused.stderr).not.toMatch(RAW);
    });
  },
);
