// The live wall across instances, in real Chromium: two `wallery serve`
// processes on one PostgreSQL and one Redis; the hosted wall page is served
// and streamed by instance B, a post is created through W3 on instance A, and
// it appears on the page without a reload.
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
  `the live wall page across instances on PostgreSQL + Redis (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`,
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
  },
);
