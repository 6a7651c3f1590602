// The console's Control screen in Chromium on a real `wallery serve`: pause,
// a post in the spotlight, a slide added and shown now, each reflected in
// what the screen shows now and given back by the management API; usable on
// a 390 px phone (nothing wider than the screen, big buttons); a moderator
// controls but does not edit slides; a change made by another host shows at
// once through the wall's stream (the state is never read again meanwhile);
// axe-clean. Screenshots: docs/screenshots/console-control-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasChromium, launchChromium, screenshot, seriousAxeFindings } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const WALL = 102;

describe.skipIf(!hasChromium)('the console’s Control screen in Chromium', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let browser: Browser;
  const tokens = { admin: '', moderator: '' };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console-control-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    instance = await startInstance({}, ['serve', '--database', database]);
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    const imported = await runCli(['import', file, '--database', database]);
    expect(imported.code, imported.stderr).toBe(0);
    for (const role of ['admin', 'moderator'] as const) {
      const made = await runCli(['tokens', 'create', '--name', role, '--role', role, '--json', '--database', database]);
      expect(made.code, made.stderr).toBe(0);
      tokens[role] = (JSON.parse(made.stdout) as { token: string }).token;
    }
    browser = await launching;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function screenState(): Promise<Record<string, unknown>> {
    const res = await fetch(`${instance.url}/api/manage/v1/walls/${WALL}/screen`, {
      headers: { Authorization: `Bearer ${tokens.admin}` },
    });
    return ((await res.json()) as { responseData: Record<string, unknown> }).responseData;
  }

  async function control(body: unknown): Promise<void> {
    const res = await fetch(`${instance.url}/api/manage/v1/walls/${WALL}/screen`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${tokens.admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.text()).toBe(200);
  }

  async function signedIn(
    token: string,
    viewport = WIDE,
    prepare: (context: BrowserContext) => Promise<void> = async () => undefined,
  ): Promise<Page> {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
    await prepare(context);
    const page = await context.newPage();
    await page.goto(`${instance.url}/console/#/walls/${WALL}/control`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: /^Control · / }).waitFor({ timeout: WAIT });
    await page.getByRole('heading', { level: 2, name: 'Recent posts' }).waitFor({ timeout: WAIT });
    return page;
  }

  const nowShowing = (page: Page) => page.locator('.control-now');

  it('pauses, spotlights a post, adds a slide and shows it; the API gives each back', async () => {
    const page = await signedIn(tokens.admin);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await expect.poll(() => nowShowing(page).textContent(), { timeout: WAIT }).toContain('The wall, live');
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('button', { name: 'Resume' }).waitFor({ timeout: WAIT });
      expect(await screenState()).toMatchObject({ paused: true });
      await expect.poll(() => nowShowing(page).textContent(), { timeout: WAIT }).toContain('Paused');

      await page
        .getByRole('button', { name: /^Spotlight the post by/ })
        .first()
        .click();
      await expect.poll(() => nowShowing(page).textContent(), { timeout: WAIT }).toMatch(/in the spotlight until/);
      expect((await screenState()).spotlight).toMatchObject({ postId: expect.any(Number) });

      await page.getByLabel('Title').fill('Doors close at 23:00');
      await page.getByLabel('Sponsor slide').check();
      await page.getByRole('button', { name: 'Add slide' }).click();
      await page.getByText('Doors close at 23:00', { exact: true }).waitFor({ timeout: WAIT });
      await page.getByRole('button', { name: 'Show now' }).click();
      await expect
        .poll(() => nowShowing(page).textContent(), { timeout: WAIT })
        .toContain('Slide “Doors close at 23:00”');
      expect((await screenState()).slide).toMatchObject({ slideId: expect.any(Number) });

      expect(await seriousAxeFindings(page, 'control 1280')).toEqual([]);
      for (const viewport of [WIDE, PHONE]) {
        await page.setViewportSize(viewport);
        await page.evaluate(() => window.scrollTo(0, 0));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
        await screenshot(page, { path: `${SHOTS}console-control-${viewport.width}.png`, fullPage: viewport === WIDE });
      }
      // on a phone the main buttons are big enough for a thumb
      const pause = await page.getByRole('button', { name: 'Resume' }).boundingBox();
      expect(pause!.height).toBeGreaterThanOrEqual(48);
      expect(await seriousAxeFindings(page, 'control 390')).toEqual([]);
      // a refused write shows the API's words on its field
      await page.getByLabel('Title').fill('With a bad picture');
      await page.getByLabel('Picture URL (https)').fill('ftp://files.example/x.png');
      await page.getByRole('button', { name: 'Add slide' }).click();
      await page
        .locator('.field-invalid')
        .filter({ has: page.getByLabel('Picture URL (https)') })
        .locator('.field-error')
        .waitFor({ timeout: WAIT });
      expect(await page.getByLabel('Picture URL (https)').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Picture URL (https)').fill('');
      await page.getByLabel('Title').fill('');

      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: WAIT });
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('a change made by another host shows at once: the tab listens to the wall’s stream', async () => {
    await control({ paused: false, spotlight: null, showSlide: null });
    // a publishable key of the wall this tab knows (as when it opened the wall before)
    const made = await fetch(`${instance.url}/api/manage/v1/walls/${WALL}/publishable-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.admin}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(made.status).toBe(201);
    const { key } = ((await made.json()) as { responseData: { key: string } }).responseData;
    const page = await signedIn(tokens.moderator, WIDE, (context) =>
      context.addInitScript(
        ([wallId, key]) =>
          sessionStorage.setItem('wallery.console.publishable-keys', JSON.stringify({ [wallId]: key })),
        [WALL, key] as const,
      ),
    );
    try {
      await expect.poll(() => nowShowing(page).getAttribute('data-listening'), { timeout: WAIT }).toBe('true');
      await expect.poll(() => nowShowing(page).textContent(), { timeout: WAIT }).toContain('The wall, live');
      // from now on the state is not read again: only the stream can bring a change
      await page.route(
        (url) => url.pathname === `/api/manage/v1/walls/${WALL}/screen`,
        (route) => (route.request().method() === 'GET' ? route.abort() : route.continue()),
      );
      // another host, well within the 30 s safety read
      const post = await fetch(`${instance.url}/api/manage/v1/walls/${WALL}/posts?state=approved&limit=1`, {
        headers: { Authorization: `Bearer ${tokens.admin}` },
      });
      const postId = ((await post.json()) as { responseData: { data: { id: number }[] } }).responseData.data[0]!.id;
      await control({ paused: true });
      await expect.poll(() => nowShowing(page).textContent(), { timeout: 10_000 }).toContain('Paused');
      await control({ spotlight: { postId, seconds: 600 } });
      await expect
        .poll(() => nowShowing(page).textContent(), { timeout: 10_000 })
        .toContain(`Post ${postId} in the spotlight until`);
      await control({ spotlight: null, paused: false });
      await expect.poll(() => nowShowing(page).textContent(), { timeout: 10_000 }).toContain('The wall, live');
    } finally {
      await page.context().close();
    }
  });

  it('a moderator controls the screen but keeps no slides', async () => {
    const page = await signedIn(tokens.moderator, PHONE);
    try {
      await page.getByRole('button', { name: 'Pause' }).waitFor({ timeout: WAIT });
      await page.getByRole('heading', { level: 2, name: 'Slides' }).waitFor({ timeout: WAIT });
      expect(await page.getByRole('button', { name: 'Add slide' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add time' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Show now' }).count()).toBeGreaterThan(0);
    } finally {
      await page.context().close();
    }
  });
});
