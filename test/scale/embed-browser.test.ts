// The live wall and the console across instances, in real Chromium: two
// `wallery serve` processes on one PostgreSQL and one Redis. The hosted wall
// page is served and streamed by instance B, a post is created through W3 on
// instance A, and it appears on the page without a reload; a post approved by
// keyboard in A's console is in B's W2 and gone from B's console queue.
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { hasSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, TEST_REDIS_URL } from '../helpers/services.js';
import { hasChromium, launchChromium } from '../web/browser.js';

const WALL = 7011;
const USER_KEY = 'Demo-ent-key-0001';
const WAIT = 60_000;

describe.skipIf(!hasSampleData || !hasChromium)(
  `the live wall page and the console across instances on PostgreSQL + Redis (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
  () => {
    let a: Instance;
    let b: Instance;
    let db: { name: string; url: string };
    let browser: Browser;
    beforeAll(async () => {
      db = await createTestDatabase();
      const imported = await runCli(['import', SAMPLE_DATA_PATH], { DATABASE_URL: db.url });
      expect(imported.code, imported.stderr).toBe(0);
      const env = {
        DATABASE_URL: db.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: `wb-${randomBytes(4).toString('hex')}`,
      };
      [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await Promise.all([a?.stop(), b?.stop()]);
      if (db) await dropTestDatabase(db.name);
    });

    it('a post created on A appears on a page streaming from B', async () => {
      const made = await runCli(['walls', 'keys', 'create', String(WALL), '--json'], { DATABASE_URL: db.url });
      expect(made.code, made.stderr).toBe(0);
      const { key } = JSON.parse(made.stdout) as { key: string };
      const page = await browser.newPage();
      await page.goto(`${b.url}/walls/${WALL}?key=${key}&layout=grid`);
      const ids = () =>
        page.locator('wallery-wall [data-post-id]').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
      await eventually('the page shows the wall', ids, (shown) => shown.length > 0, WAIT);
      const text = `Across instances ${randomBytes(4).toString('hex')}`;
      const res = await fetch(`${a.url}/api/v2/widget/create-post?user_key=${USER_KEY}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ wallId: WALL, content: text, authorName: 'Instance A' }),
      });
      expect(res.status).toBe(200);
      await eventually('the post from A on the page from B', ids, (shown) => shown.some((t) => t.includes(text)), WAIT);
      await page.close();
    });

    it('a post approved by keyboard in the console of A shows in W2 of B and leaves the queue of B', async () => {
      const made = await runCli(['tokens', 'create', '--name', 'across', '--role', 'moderator'], {
        DATABASE_URL: db.url,
      });
      expect(made.code, made.stderr).toBe(0);
      const token = made.stdout.trim().split(/\s+/).pop()!;
      const manage = (instance: Instance, path: string, init: RequestInit = {}) =>
        fetch(`${instance.url}/api/manage/v1${path}`, {
          ...init,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
      const w2 = async (instance: Instance) =>
        (
          (await (
            await fetch(`${instance.url}/api/v2/widget/posts/${WALL}?user_key=${USER_KEY}&limit=500`)
          ).json()) as {
            responseData: { posts: { postId: string }[] }[];
          }
        ).responseData[0]!.posts.map((p) => String(p.postId));
      // one post of the wall back in the queue: the only pending one
      const post = (await w2(b))[0]!; // B has it cached now
      const held = await manage(a, `/walls/${WALL}/posts/${post}`, {
        method: 'PATCH',
        body: JSON.stringify({ state: 'pending' }),
      });
      expect(held.status, await held.text()).toBe(200);
      await eventually(
        'held post gone from B',
        () => w2(b),
        (ids) => !ids.includes(post),
        WAIT,
      );

      const console = async (instance: Instance) => {
        const page = await browser.newPage();
        await page.goto(`${instance.url}/console/#/walls`);
        await page.getByLabel('Operator token').fill(token);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
        await page.goto(`${instance.url}/console/#/walls/${WALL}/queue`);
        await page.getByRole('heading', { level: 1, name: /^Moderation · / }).waitFor({ timeout: WAIT });
        return page;
      };
      const queued = (page: Awaited<ReturnType<typeof console>>) =>
        page.locator('article[data-post-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')));
      const onB = await console(b);
      await eventually(
        'the held post in the queue of B',
        () => queued(onB),
        (ids) => ids.includes(post),
        WAIT,
      );
      const onA = await console(a);
      await eventually(
        'the held post in the queue of A',
        () => queued(onA),
        (ids) => ids.join() === post,
        WAIT,
      );
      await onA.keyboard.press('a'); // the first post of the queue is the current one
      await onA.getByText('The queue is empty').waitFor({ timeout: WAIT });
      // B answers W2 with it (its cache dropped by the change relayed from A) and its queue lets it go
      await eventually(
        'approved post in W2 of B',
        () => w2(b),
        (ids) => ids.includes(post),
        WAIT,
      );
      await eventually(
        'the queue of B empty',
        () => queued(onB),
        (ids) => ids.length === 0,
        WAIT,
      );
      await Promise.all([onA.close(), onB.close()]);
    });
  },
);
