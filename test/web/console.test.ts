// The operator console (/console/) in real Chromium against a real `wallery
// serve` (SQLite, feeds polled in-process, the demo data set imported) and a
// local RSS upstream: sign in and out, a revoked token, from nothing to a
// moderated wall with the keyboard (W2 then shows exactly the approved
// posts), what roles and account scopes show, axe on every screen, the page's
// CSP and caching. Screenshots at 1280 and 375 px go to docs/screenshots/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { rssXml, startFeeds, type FeedFixture } from '../ingest/fixtures/feeds.js';
import { hasChromium, launchChromium } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };

describe.skipIf(!hasChromium)('the operator console in Chromium on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let upstream: FeedFixture;
  let browser: Browser;
  let context: BrowserContext;
  const tokens: Record<'admin' | 'moderator' | 'revoked', string> = { admin: '', moderator: '', revoked: '' };

  async function cli(args: string[]): Promise<string> {
    const done = await runCli([...args, '--database', database]);
    expect(done.code, done.stderr).toBe(0);
    return done.stdout;
  }
  const makeToken = async (args: string[]) =>
    (JSON.parse(await cli(['tokens', 'create', '--json', ...args])) as { token: string }).token;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    upstream = await startFeeds();
    instance = await startInstance({ INGEST: 'on', INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8' }, [
      'serve',
      '--database',
      database,
    ]);
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    await cli(['import', file]);
    [tokens.admin, tokens.moderator, tokens.revoked] = await Promise.all([
      makeToken(['--name', 'anna-admin']),
      makeToken(['--name', 'mo-moderator', '--role', 'moderator', '--account', '2']),
      makeToken(['--name', 'soon-revoked', '--role', 'editor']),
    ]);
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh page with its own sessionStorage; console errors fail the test that reads them. */
  async function openConsole(viewport = WIDE): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 40[0-9]/.test(m.text())) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/`);
    return { page, errors };
  }

  async function signIn(page: Page, token: string) {
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
  }

  /** No serious or critical axe violations on what the page shows now. */
  async function expectAccessible(page: Page, label: string) {
    const result = await new AxeBuilder({ page }).analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad).toEqual([]);
  }

  const wallIds = (page: Page) =>
    page.locator('tr[data-wall-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-wall-id')));

  async function shoot(page: Page, name: string) {
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(SHOTS, `console-${name}-${viewport.width}.png`), fullPage: true });
    }
    await page.setViewportSize(WIDE);
  }

  it('is one page under a strict CSP, its hashed assets cached for a year', async () => {
    const redirect = await fetch(`${instance.url}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('console/');
    const res = await fetch(`${instance.url}/console/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    expect(html).not.toMatch(/<style|style=/);
    const script = /src="\.\/(assets\/index-[\w-]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${instance.url}/console/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await asset.arrayBuffer();
  });

  it('signs in with a token kept in sessionStorage only, refuses a bad one, signs out', async () => {
    const { page, errors } = await openConsole();
    await page.getByRole('heading', { level: 1, name: /Sign in/ }).waitFor({ timeout: WAIT });
    await expectAccessible(page, 'sign-in');
    await shoot(page, 'signin');
    await page.getByLabel('Operator token').fill('wop_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That token is not valid').waitFor({ timeout: WAIT });
    await signIn(page, tokens.admin);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([tokens.admin]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(page.url()).not.toContain(tokens.admin);
    // the demo walls with their counts
    await expect.poll(() => wallIds(page), { timeout: WAIT }).toEqual(['101', '102', '103']);
    await expect(page.locator('tr[data-wall-id="102"]').innerText()).resolves.toContain('Harbor Festival 2026');
    await expectAccessible(page, 'walls');
    await shoot(page, 'walls');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You signed out.').waitFor({ timeout: WAIT });
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
