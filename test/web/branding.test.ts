// A wall's branding as the embed applies it: the browser's copy of the
// rules agrees with the server's (font stacks, theme colours, the colours it
// derives), and in Chromium a branded wall on a real `wallery serve` — its
// hosted page and an event screen — shows the accent, the dark background,
// the serif font, square outlined cards, with no serious accessibility
// violation and nothing refused by the page's CSP. Screenshots:
// docs/screenshots/branding-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as domain from '../../src/domain/branding.js';
import {
  brandingCardStyle,
  brandingProps,
  contrast,
  effectiveColors,
  FONT_STACKS,
  THEME_COLORS,
} from '../../web/embed/branding.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';
import { serveDataFile, WALLS } from './serve-data.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 60_000;

const hex = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((c) => `#${c.map((n) => n.toString(16).padStart(2, '0')).join('')}`);
const brand = (over: Partial<domain.Branding> = {}): domain.Branding => ({
  ...domain.DEFAULT_BRANDING,
  vars: {},
  ...over,
});

describe('the embed’s branding rules', () => {
  it('agree with the server’s: font stacks, theme colours, contrast, the colours shown', () => {
    expect(FONT_STACKS).toEqual(domain.FONT_STACKS);
    expect(THEME_COLORS).toEqual(domain.THEME_COLORS);
    fc.assert(
      fc.property(
        fc.option(hex, { nil: null }),
        fc.option(hex, { nil: null }),
        fc.option(hex, { nil: null }),
        fc.constantFrom('light', 'dark') as fc.Arbitrary<'light' | 'dark'>,
        (text, cardBackground, accent, mode) => {
          const b = brand({ text, cardBackground, accent });
          expect(effectiveColors(b, mode)).toEqual(domain.effectiveColors(b, mode));
          if (text && cardBackground)
            expect(contrast(text, cardBackground)).toBe(domain.contrastRatio(text, cardBackground));
        },
      ),
    );
  });

  it('maps a branding to custom properties; none without one, so the theme and a page’s own values stay', () => {
    expect(brandingProps(undefined, 'light')).toEqual({});
    expect(brandingProps(brand(), 'dark')).toEqual({});
    const props = brandingProps(
      brand({ accent: '#ffb000', background: '#0b0d12', font: 'serif', radius: 0, vars: { '--wallery-gap': '20px' } }),
      'dark',
    );
    expect(props).toMatchObject({
      '--wallery-accent': '#ffb000',
      '--wallery-background': '#0b0d12',
      '--wallery-font': domain.FONT_STACKS.serif,
      '--wallery-radius': '0px',
      '--wallery-gap': '20px',
      '--wallery-on-accent-color': '#000000',
    });
    // derived colours read: muted text on the cards, text on the background
    const light = brandingProps(brand({ cardBackground: '#fdf6e3', text: '#073642', background: '#002b36' }), 'light');
    expect(contrast(light['--wallery-muted-color']!, '#fdf6e3')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(light['--wallery-page-color']!, '#002b36')).toBeGreaterThanOrEqual(4.5);
    expect(brandingCardStyle(brand({ cardStyle: 'outlined' }))).toBe('outlined');
    expect(brandingCardStyle(undefined)).toBe('elevated');
  });
});

describe.skipIf(!hasChromium)('a branded wall in Chromium on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let browser: Browser;
  let key: string;
  let token: string;

  const BRANDING = {
    accent: '#ffb000',
    background: '#0b0d12',
    cardBackground: '#161a22',
    text: '#f1f3f6',
    font: 'serif',
    radius: 0,
    cardStyle: 'outlined',
    callToPost: 'Post with #trailwall',
    infoUrl: 'https://example.org/trail-wall',
  };

  function manage(method: string, path: string, body: unknown): Promise<Response> {
    return fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-branding-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    instance = await startInstance({}, ['serve', '--database', database]);
    const file = join(dir, 'walls.json');
    writeFileSync(file, JSON.stringify(serveDataFile(Date.now(), `${instance.url}/demo-media`)));
    const imported = await runCli(['import', file, '--database', database, '--skip-media']);
    expect(imported.code, imported.stderr).toBe(0);
    const made = await runCli(['tokens', 'create', '--name', 'branding-test', '--json', '--database', database]);
    expect(made.code, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { token: string }).token;
    const set = await manage('PATCH', `/walls/${WALLS.standard}`, { theme: 'dark', branding: BRANDING });
    expect(set.status, await set.clone().text()).toBe(200);
    const keyMade = await manage('POST', `/walls/${WALLS.standard}/publishable-keys`, { origins: [] });
    expect(keyMade.status).toBe(201);
    key = ((await keyMade.json()) as { responseData: { key: string } }).responseData.key;
    browser = await launching;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The hosted page of the branded wall in `layout`, its posts shown and their pictures settled; CSP violations recorded. */
  async function hosted(layout: string, width: number, height: number): Promise<{ page: Page; violations: string[] }> {
    const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    // the context goes with its page; closing it can race the browser's own close at the end (then it is gone already)
    page.on('close', () => {
      context.close().catch(() => undefined);
    });
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(v: string): void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      ),
    );
    await page.goto(`${instance.url}/walls/${WALLS.standard}?key=${key}&layout=${layout}`);
    await page.waitForFunction(
      () => (document.querySelector('wallery-wall')?.shadowRoot?.querySelectorAll('[data-post-id]').length ?? 0) > 0,
      null,
      { timeout: WAIT },
    );
    // every picture in view loaded (eager: a lazy one may never start on a loaded machine)
    await page.waitForFunction(
      () => {
        const root = document.querySelector('wallery-wall')!.shadowRoot!;
        return [...root.querySelectorAll('img')].every((img) => {
          const r = img.getBoundingClientRect();
          const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
          if (inView) img.loading = 'eager';
          return !inView || img.complete;
        });
      },
      null,
      { timeout: WAIT },
    );
    return { page, violations };
  }

  it('the hosted page shows the accent, the dark background, the serif font and square outlined cards', async () => {
    const { page, violations } = await hosted('masonry', 1280, 900);
    try {
      // the page's own background is the wall's from its stylesheet: no flash of another colour
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(11, 13, 18)');
      const looks = await page.evaluate(() => {
        const host = document.querySelector('wallery-wall')!;
        const root = host.shadowRoot!;
        const wall = getComputedStyle(root.querySelector('.wall')!);
        const post = getComputedStyle(root.querySelector('.post:not(.pinned):not(.highlighted)')!);
        const link = root.querySelector('.post:not(.pinned):not(.highlighted) .text a');
        return {
          cardStyle: host.getAttribute('card-style'),
          accent: getComputedStyle(host).getPropertyValue('--wallery-accent').trim(),
          wallBackground: wall.backgroundColor,
          font: wall.fontFamily,
          cardBackground: post.backgroundColor,
          color: post.color,
          radius: post.borderTopLeftRadius,
          border: `${post.borderTopStyle} ${post.borderTopWidth}`,
          shadow: post.boxShadow,
          link: link ? getComputedStyle(link).color : null,
        };
      });
      expect(looks).toMatchObject({
        cardStyle: 'outlined',
        accent: '#ffb000',
        wallBackground: 'rgb(11, 13, 18)',
        cardBackground: 'rgb(22, 26, 34)',
        color: 'rgb(241, 243, 246)',
        radius: '0px',
        border: 'solid 2px',
        shadow: 'none',
      });
      expect(looks.font).toMatch(/^Charter, .*serif$/);
      if (looks.link) expect(looks.link).toBe('rgb(255, 176, 0)');
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await screenshot(page, { path: `${SHOTS}branding-masonry-1280.png` });
      expect(violations).toEqual([]);
      // a page asked for in the light theme keeps the wall's own background (the theme's grey once won)
      await page.goto(`${page.url()}&theme=light`);
      expect(
        await page.evaluate(() => [
          document.documentElement.dataset.theme,
          getComputedStyle(document.body).backgroundColor,
        ]),
      ).toEqual(['light', 'rgb(11, 13, 18)']);
    } finally {
      await page.close();
    }
  });

  it('the event screen shows the call to post in the accent and its QR code, axe-clean', async () => {
    const { page, violations } = await hosted('event', 1440, 900);
    try {
      await page.waitForFunction(
        () => document.querySelector('wallery-wall')?.shadowRoot?.querySelector('.qr') != null,
        null,
        {
          timeout: WAIT,
        },
      );
      const call = page.locator('wallery-wall .event .banner .call');
      expect(await call.textContent()).toContain('Post with #trailwall');
      expect(await call.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 176, 0)');
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await screenshot(page, { path: `${SHOTS}branding-event-1440.png` });
      expect(violations).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
