// Three `wallery serve` processes on one PostgreSQL and one Redis behave as one.
import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { hasSampleData, loadSampleData, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, TEST_REDIS_URL } from '../helpers/services.js';

const KEY = 'Demo-ent-key-0001';
const LIMITED_KEY = 'Scale-key-0001';
let instances: Instance[] = [];
let db: { name: string; url: string };
let dir: string;
const prefix = `wt-${randomBytes(4).toString('hex')}`;

describe.skipIf(!hasSampleData)(
  `several instances on PostgreSQL + Redis (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    beforeAll(async () => {
      db = await createTestDatabase();
      dir = mkdtempSync(join(tmpdir(), 'wallery-scale-'));
      const data = loadSampleData() as { accounts: Record<string, unknown>[] };
      data.accounts.push({
        id: 7100,
        name: 'Limited',
        plan: 'enterprise',
        dailyCallLimit: 100,
        userKeys: [LIMITED_KEY],
      });
      const file = join(dir, 'data.json');
      writeFileSync(file, JSON.stringify(data));
      const imported = await runCli(['import', file], { DATABASE_URL: db.url });
      expect(imported.code, imported.stderr).toBe(0);
      const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
      instances = await Promise.all([startInstance(env), startInstance(env), startInstance(env)]);
    });

    afterAll(async () => {
      await Promise.all(instances.map((i) => i.stop()));
      await dropTestDatabase(db.name);
      rmSync(dir, { recursive: true, force: true });
    });

    it('gives an account with a limit of 100 exactly 100 successes out of 300 concurrent calls', async () => {
      const calls = Array.from({ length: 300 }, (_, i) =>
        fetch(`${instances[i % 3]!.url}/api/v2/widget/wallInfo/7011?user_key=${LIMITED_KEY}`).then((r) => r.status),
      );
      // account 7100 owns no wall: successes are 404s (counted), refusals 429s
      const statuses = await Promise.all(calls);
      const counted = statuses.filter((s) => s === 404).length;
      const refused = statuses.filter((s) => s === 429).length;
      expect(counted).toBe(100);
      expect(refused).toBe(200);
      const after = await fetch(`${instances[1]!.url}/api/v2/widget/wallInfo/7011?user_key=${LIMITED_KEY}`);
      expect(after.status).toBe(429);
      expect(after.headers.get('x-ratelimit-remaining')).toBe('0');
    });

    it('lists a post created through one instance on the others at once', async () => {
      const content = `scale-${randomBytes(6).toString('hex')}`;
      const created = await fetch(`${instances[0]!.url}/api/v2/widget/create-post?user_key=${KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallId: 7011, content }),
      });
      expect(created.status).toBe(200);
      for (const instance of instances.slice(1)) {
        const res = await fetch(`${instance.url}/api/v2/widget/posts/7011?user_key=${KEY}&limit=500`);
        const body = (await res.json()) as { responseData: { posts: { content: string }[] }[] };
        expect(body.responseData[0]!.posts.some((p) => p.content === content)).toBe(true);
      }
    });

    it('shows a delete through one instance on the next read through the others', async () => {
      for (const instance of instances) {
        expect((await fetch(`${instance.url}/api/v2/widget/posts/7013?user_key=${KEY}`)).status).toBe(404);
      }
      expect((await fetch(`${instances[2]!.url}/api/v2/widget/posts/7012?user_key=${KEY}`)).status).toBe(200);
      expect((await fetch(`${instances[2]!.url}/api/v2/widget/delete/7012?user_key=${KEY}`)).status).toBe(200);
      for (const instance of instances) {
        expect((await fetch(`${instance.url}/api/v2/widget/posts/7012?user_key=${KEY}`)).status).toBe(404);
      }
    });

    it('drops cached reads on every instance after a CLI write, announced by PostgreSQL', async () => {
      const url = (i: Instance) => `${i.url}/api/v2/widget/posts/7011?user_key=${KEY}&limit=500`;
      const ids = async (i: Instance) =>
        (
          (await (await fetch(url(i))).json()) as { responseData: { posts: { postId: string }[] }[] }
        ).responseData[0]!.posts.map((p) => p.postId);
      const before = await Promise.all(instances.map(ids)); // now cached everywhere
      const victim = before[0]![0]!;
      const r = await runCli(['posts', 'hide', '7011', victim], {
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
      });
      expect(r.code, r.stderr).toBe(0);
      // the notification travels from PostgreSQL to each instance on its own connection
      for (const instance of instances) {
        await eventually(
          'hidden post gone',
          () => ids(instance),
          (seen) => !seen.includes(victim),
          5000,
        );
      }
    });

    it('shows a moderation action through one instance on the others within moments', async () => {
      const token = (await runCli(['tokens', 'create', '--name', 'scale'], { DATABASE_URL: db.url })).stdout
        .trim()
        .split(/\s+/)
        .pop()!;
      const url = (i: Instance) => `${i.url}/api/v2/commerce/getGalleryPosts/7011/?user_key=${KEY}&limit=500`;
      const first = async (i: Instance) =>
        ((await (await fetch(url(i))).json()) as { responseData: { feeds: { postId: number; postPin: number }[] }[] })
          .responseData[0]!.feeds;
      const before = await Promise.all(instances.map(first)); // cached everywhere
      const last = before[0]!.at(-1)!;
      expect(last.postPin).toBe(0);
      const res = await fetch(`${instances[0]!.url}/api/manage/v1/walls/7011/posts/${last.postId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pinned: true }),
      });
      expect(res.status, await res.text()).toBe(200);
      // this instance's own caches drop at once; the others hear it from PostgreSQL
      for (const instance of instances) {
        await eventually(
          'pinned post first',
          () => first(instance),
          (after) => after.find((p) => p.postId === last.postId)?.postPin === 1 && after[0]!.postPin === 1,
          5000,
        );
      }
    });

    it('shows a moderation decision through one instance on the others at once: held, then approved, then rejected', async () => {
      const token = (
        await runCli(['tokens', 'create', '--name', 'decisions', '--role', 'moderator'], { DATABASE_URL: db.url })
      ).stdout
        .trim()
        .split(/\s+/)
        .pop()!;
      const manage = (i: Instance, path: string, method: string, body?: unknown) =>
        fetch(`${i.url}/api/manage/v1/walls/7011${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const w2 = async (i: Instance) =>
        (
          (await (await fetch(`${i.url}/api/v2/widget/posts/7011?user_key=${KEY}&limit=500`)).json()) as {
            responseData: { posts: { postId: string }[] }[];
          }
        ).responseData[0]!.posts.map((p) => Number(p.postId));
      const c5 = async (i: Instance, id: number) =>
        (await fetch(`${i.url}/api/v2/commerce/getGalleryProductByID/7011/${id}/?user_key=${KEY}`)).status;
      const shown = await Promise.all(instances.map(w2)); // cached on every instance
      const post = shown[0]![0]!;
      const everywhere = async (what: string, visible: boolean) => {
        for (const instance of instances) {
          await eventually(
            what,
            () => w2(instance),
            (ids) => ids.includes(post) === visible,
            3000, // under the cache life (CACHE_TTL_MS, 5 s): only a relayed change passes
          );
          expect(await c5(instance, post)).toBe(visible ? 200 : 404);
        }
      };
      // held back into the queue through instance 0
      expect((await manage(instances[0]!, `/posts/${post}`, 'PATCH', { state: 'pending' })).status).toBe(200);
      await everywhere('held post gone', false);
      // approved from the queue through instance 1 (the bulk action of the queue)
      const approved = await manage(instances[1]!, '/posts/bulk', 'POST', { postIds: [post], action: 'approve' });
      expect(approved.status, await approved.text()).toBe(200);
      await everywhere('approved post back', true);
      // rejected through instance 2, with a reason kept on the post
      const rejected = await manage(instances[2]!, `/posts/${post}`, 'PATCH', {
        state: 'rejected',
        reason: 'off-topic',
      });
      expect(rejected.status).toBe(200);
      await everywhere('rejected post gone', false);
      const { responseData: record } = (await (await manage(instances[0]!, `/posts/${post}`, 'GET')).json()) as {
        responseData: { state: string; decision: { by: string; reason: string | null } | null };
      };
      expect(record.state).toBe('rejected');
      expect(record.decision).toMatchObject({ by: 'decisions', reason: 'off-topic' });
    });

    it('reports store and Redis in /readyz', async () => {
      const res = await fetch(`${instances[0]!.url}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready', store: 'ok', redis: 'ok' });
    });
  },
);
