// The built documentation site as a reader gets it from an instance, in real
// Chromium: under the /guide/ policy nothing is blocked (VitePress's inline
// scripts are named by hash, Vue's run-time styles allowed), the pages
// hydrate, and the local search finds the private-network setting that a
// local feed needs. The site is built by `npm run build` (npm install's
// prepare); a checkout without it builds it here first.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GUIDE_DIST, guideBuilt, registerGuide } from '../../src/http/web/guide.js';
import { hasChromium, launchChromium } from './browser.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe.skipIf(!hasChromium)('the documentation site in Chromium', () => {
  let app: FastifyInstance;
  let browser: Browser;
  let page: Page;
  let base: string;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!guideBuilt()) execFileSync('npm', ['run', 'docs:build'], { cwd: ROOT, stdio: 'pipe' });
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } });
    await registerGuide(app, DEFAULT_GUIDE_DIST);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    // the site's pages and assets only: a 404 would be a broken reference
    page.on('response', (r) => {
      if (r.status() >= 400 && r.url().startsWith(`${base}/guide/`)) problems.push(`${r.status()} ${r.url()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows the pages with nothing blocked by the policy', async () => {
    for (const path of ['', 'get-started/first-feed', 'guides/moderation-and-rules', 'reference/configuration']) {
      await page.goto(`${base}/guide/${path}`, { waitUntil: 'networkidle' });
      await page.locator('.VPDoc, .VPHome').first().waitFor({ state: 'visible' });
    }
    // the favicon is the browser's own request for /favicon.ico, outside the site
    expect(problems.filter((p) => !p.includes('Failed to load resource'))).toEqual([]);
    expect(problems.filter((p) => p.includes('/guide/'))).toEqual([]);
  });

  it('has no serious or critical accessibility violations on a guide page', async () => {
    await page.goto(`${base}/guide/get-started/first-feed`, { waitUntil: 'networkidle' });
    const result = await new AxeBuilder({ page }).include('.VPDoc').analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad).toEqual([]);
  });

  it('finds the private-network setting through the local search', async () => {
    await page.goto(`${base}/guide/`, { waitUntil: 'networkidle' });
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click();
    const box = page.locator('.VPLocalSearchBox');
    await box.waitFor({ state: 'visible' });
    await page.keyboard.type('INGEST_ALLOW_PRIVATE_NETWORKS');
    await box.locator('.result').first().waitFor({ state: 'visible' });
    expect(await box.locator('.result').count()).toBeGreaterThan(0);
  });
});
