// The wall form's Look in Chromium on a real `wallery serve`: colours typed
// or picked, the live preview's contrast and its warning below WCAG AA
// before saving, the API's refusal shown on the field it names, and a saved
// look the management API gives back; axe on the form. Screenshots:
// docs/screenshots/console-look-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
const WALL = 101;

describe.skipIf(!hasChromium)('the wall form’s Look in Chromium', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let browser: Browser;
  let token = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console-look-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    instance = await startInstance({}, ['serve', '--database', database]);
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    const imported = await runCli(['import', file, '--database', database]);
    expect(imported.code, imported.stderr).toBe(0);
    const made = await runCli(['tokens', 'create', '--name', 'look', '--json', '--database', database]);
    expect(made.code, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { token: string }).token;
    browser = await launching;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function accessible(page: Page, label: string) {
    const result = await new AxeBuilder({ page }).analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad).toEqual([]);
  }

  async function wallBranding(): Promise<Record<string, unknown>> {
    const res = await fetch(`${instance.url}/api/manage/v1/walls/${WALL}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { responseData: { branding: Record<string, unknown> } }).responseData.branding;
  }

  it('warns below AA before saving, shows the API’s refusal on the field, saves a look the API gives back', async () => {
    const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    try {
      await page.goto(`${instance.url}/console/#/walls`);
      await page.getByLabel('Operator token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
      await page.locator(`tr[data-wall-id="${WALL}"]`).getByRole('button', { name: /^Edit/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit wall' });
      const look = dialog.getByRole('group', { name: 'Look' });
      await look.waitFor({ timeout: WAIT });

      // grey text on white cards: the preview says so before any save
      await dialog.getByLabel('Theme').selectOption('light');
      await look.getByLabel('Text colour', { exact: true }).fill('#999999');
      await look.getByLabel('Card colour', { exact: true }).fill('#fff');
      await look.getByText('Text on cards: 2.84:1 — below WCAG AA (4.5:1)').waitFor({ timeout: WAIT });
      await look.getByText(/^Below WCAG AA: text on cards\./).waitFor({ timeout: WAIT });
      await accessible(page, 'look with a warning');
      for (const viewport of [WIDE, PHONE]) {
        await page.setViewportSize(viewport);
        // the colours, the preview and its warning in view
        await look.getByLabel('Text colour', { exact: true }).scrollIntoViewIfNeeded();
        await look.getByText(/^Below WCAG AA/).evaluate((e) => e.scrollIntoView({ block: 'end' }));
        await screenshot(page, { path: join(SHOTS, `console-look-${viewport.width}.png`) });
      }
      await page.setViewportSize(WIDE);

      // saved anyway: the API refuses it, and the text colour field says why
      await dialog.getByRole('button', { name: 'Save wall' }).click();
      const text = look.getByLabel('Text colour', { exact: true });
      await expect.poll(() => text.getAttribute('aria-invalid'), { timeout: WAIT }).toBe('true');
      await look
        .getByText(/^Text colour: the text #999999 on the card background #ffffff has a contrast of 2\.84:1/)
        .waitFor();

      // a readable look: dark text, an orange accent from the picker, serif, square outlined cards
      await text.fill('#1b1f24');
      await look.getByLabel('Accent colour: pick').fill('#b5361c');
      await expect(look.getByLabel('Accent colour', { exact: true }).inputValue()).resolves.toBe('#b5361c');
      await look.getByLabel('Background colour', { exact: true }).fill('#f4efe6');
      await look.getByLabel('Font').selectOption('serif');
      await look.getByLabel('Corner radius (px)').fill('0');
      await look.getByLabel('Cards').selectOption('outlined');
      await look.getByLabel('Call to post').fill('Post with #summittrail');
      await look.getByLabel('Info URL').fill('https://example.org/summit');
      await look.getByText(/^Text on cards: 1[0-9]\.\d\d:1 ✓$/).waitFor({ timeout: WAIT });
      expect(await look.getByText(/^Below WCAG AA/).count()).toBe(0);
      await accessible(page, 'look, readable');

      await dialog.getByRole('button', { name: 'Save wall' }).click();
      await page.getByText(/^Wall “.*” saved\.$/).waitFor({ timeout: WAIT });
      expect(await wallBranding()).toMatchObject({
        accent: '#b5361c',
        background: '#f4efe6',
        cardBackground: '#ffffff',
        text: '#1b1f24',
        font: 'serif',
        radius: 0,
        cardStyle: 'outlined',
        callToPost: 'Post with #summittrail',
        infoUrl: 'https://example.org/summit',
      });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
