// The newcomer's path, end to end, on a real `wallery start` (SQLite) in
// real Chromium: the hosted wall URL that start prints shows the demo wall in
// W2 order; the two-line snippet on a page of another origin, with a key made
// by the CLI for that origin, shows the same wall; a post created with W3
// appears live on both, one hidden with the CLI (another process) disappears;
// a key for another origin and a revoked key show nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { hasChromium, launchChromium } from './browser.js';
import { startHostServer, type HostServer } from './host-page.js';

const WALL = DEMO_KEYS[0].wallId;
const USER_KEY = DEMO_KEYS[0].key;
const WAIT = 60_000;

/** The ids of the posts the wall on `page` shows, in DOM order (= wall order). */
const shownIds = (page: Page) =>
  page.locator('wallery-wall [data-post-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')));

/** Waits until `probe` gives a value that holds; returns that value. */
async function until<T>(what: string, probe: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  let seen: T | undefined;
  await eventually(
    what,
    async () => (seen = await probe()),
    (v) => holds(v),
    WAIT,
  );
  return seen as T;
}

/** The alert the wall shows when it cannot show posts. */
const alertShown = (page: Page) =>
  page.locator('wallery-wall [role=alert]').waitFor({ state: 'visible', timeout: WAIT });

describe.skipIf(!hasChromium)('the embed on a real `wallery start`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let browser: Browser;
  let host: HostServer;
  let hostedUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-embed-live-'));
    database = join(dir, 'wallery.db');
    instance = await startInstance({}, ['start', '--database', database]);
    // start prints its keys and URLs right after it listens
    const HOSTED = /(http:\/\/localhost:\d+\/walls\/\d+\?key=pk_[A-Za-z0-9_-]+)/;
    const output = await until(
      'start prints the hosted wall URL',
      async () => instance.output(),
      (o) => HOSTED.test(o),
    );
    const printed = HOSTED.exec(output);
    // opened as printed: localhost and the port the instance picked
    hostedUrl = printed![1]!;
    host = await startHostServer(instance.url);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await instance?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function w2Ids(limit: number): Promise<string[]> {
    const res = await fetch(`${instance.url}/api/v2/widget/posts/${WALL}?user_key=${USER_KEY}&limit=${limit}`);
    const body = (await res.json()) as { responseData: { posts: { postId: string }[] }[] };
    return body.responseData[0]!.posts.map((p) => p.postId);
  }

  async function newKey(origins: string[]): Promise<{ key: string; id: number }> {
    const args = ['walls', 'keys', 'create', String(WALL), '--json', '--database', database];
    for (const o of origins) args.push('--origin', o);
    const made = await runCli(args);
    expect(made.code, made.stderr).toBe(0);
    return JSON.parse(made.stdout) as { key: string; id: number };
  }

  it('shows the demo wall on the printed hosted page and on another origin, live, in W2 order', async () => {
    const hosted = await browser.newPage();
    await hosted.goto(hostedUrl);
    const first = await until(
      'the hosted page shows posts',
      () => shownIds(hosted),
      (ids) => ids.length >= 5,
    );
    const expected = await w2Ids(first.length);
    expect(first).toEqual(expected);
    // the demo's pictures come from this very instance, on the port it picked (PORT=0)
    const pictures = await until(
      'the demo pictures load',
      () =>
        hosted.evaluate(() =>
          [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('img')]
            .filter((img) => img.complete)
            .map((img) => ({ src: img.currentSrc, loaded: img.naturalWidth > 0 })),
        ),
      (imgs) => imgs.some((img) => img.loaded),
    );
    expect(pictures.filter((img) => !img.loaded)).toEqual([]);
    expect(new URL(pictures[0]!.src).port).toBe(new URL(instance.url).port);

    const { key } = await newKey([host.origin]);
    const shop = await browser.newPage();
    await shop.goto(host.url({ wall: WALL, key, layout: 'grid' }));
    const onShop = await until(
      'the snippet shows posts',
      () => shownIds(shop),
      (ids) => ids.length >= 5,
    );
    expect(onShop).toEqual(await w2Ids(onShop.length));

    // a new post, made through W3 by the account, appears on both pages without a reload
    const before = new Set(await w2Ids(100));
    const made = await fetch(`${instance.url}/api/v2/widget/create-post?user_key=${USER_KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ wallId: WALL, content: 'Live from the finish line', authorName: 'Race desk' }),
    });
    expect(made.status).toBe(200);
    const after = await until(
      'the new post in W2',
      () => w2Ids(100),
      (ids) => ids.some((id) => !before.has(id)),
    );
    const newId = after.find((id) => !before.has(id))!;
    for (const page of [hosted, shop]) {
      await eventually(
        'the new post on the page',
        () => shownIds(page),
        (ids) => ids.includes(newId),
        WAIT,
      );
    }

    // hidden by the operator with the CLI (another process): gone from both
    const hidden = await runCli(['posts', 'hide', String(WALL), newId, '--database', database]);
    expect(hidden.code, hidden.stderr).toBe(0);
    for (const page of [hosted, shop]) {
      await eventually(
        'the hidden post leaves the page',
        () => shownIds(page),
        (ids) => !ids.includes(newId),
        WAIT,
      );
    }
    await Promise.all([hosted.close(), shop.close()]);
  });

  it('refuses a key of another origin and a revoked key: the page shows no post', async () => {
    const elsewhere = await newKey(['https://shop.elsewhere.example']);
    const asked = await fetch(`${instance.url}/api/embed/v1/walls/${WALL}?key=${elsewhere.key}`, {
      headers: { Origin: host.origin },
    });
    expect(asked.status).toBe(403);
    const page = await browser.newPage();
    await page.goto(host.url({ wall: WALL, key: elsewhere.key, layout: 'grid' }));
    await alertShown(page);
    expect(await shownIds(page)).toEqual([]);

    const { key, id } = await newKey([host.origin]);
    await page.goto(host.url({ wall: WALL, key, layout: 'grid' }));
    await eventually(
      'the wall shows',
      () => shownIds(page),
      (ids) => ids.length > 0,
      WAIT,
    );
    const revoked = await runCli(['walls', 'keys', 'revoke', String(WALL), String(id), '--database', database]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const asked2 = await fetch(`${instance.url}/api/embed/v1/walls/${WALL}?key=${key}`, {
      headers: { Origin: host.origin },
    });
    expect(asked2.status).toBe(401);
    await page.reload();
    await alertShown(page);
    expect(await shownIds(page)).toEqual([]);
    await page.close();
  });
});
