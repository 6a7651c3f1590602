// The three demo walls as `npm start` serves them: the real CLI on a fresh
// SQLite file loads the demo data set, stores its photographs through the
// media pipeline and prints each wall's hosted page; each page, opened in
// Chromium at 1280 and 1920 px, shows the wall's posts with Wallery's copies
// of the pictures — none broken — and the shop's products on its wall only.
// Screenshots: docs/screenshots/demo-<wall>-<width>.png.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WALLS } from '../../src/demo/demo-data.js';
import { startCli } from '../helpers/cli.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 60_000;
const WIDTHS = [1280, 1920];

/** Until the wall shows posts and every picture in view has loaded (or failed). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.querySelector('wallery-wall')?.shadowRoot;
      if (!root || root.querySelectorAll('[data-post-id]').length === 0) return false;
      return [...root.querySelectorAll('img')].every((img) => {
        const r = img.getBoundingClientRect();
        const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
        if (inView) img.loading = 'eager';
        return !inView || img.complete;
      });
    },
    null,
    { timeout: WAIT, polling: 250 },
  );
}

describe.skipIf(!hasChromium)('the demo walls of `npm start`, in Chromium', () => {
  let dir: string;
  let stop: () => void;
  let browser: Browser;
  const pages = new Map<number, string>();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-demo-walls-'));
    const launching = launchChromium();
    const env = { DATABASE_URL: join(dir, 'demo.db'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const started = await startCli(['start'], env, /walls\/103\?key=\S+\n/);
    stop = () => started.child.kill('SIGTERM');
    const out = started.output();
    expect(out).toMatch(/Loaded the demo data set: 3 walls, \d+ posts, 8 products, \d+ pictures stored/);
    for (const m of out.matchAll(/^ {4}(http\S+\/walls\/(\d+)\?key=\S+)$/gm)) pages.set(Number(m[2]), m[1]!);
    browser = await launching;
  });

  afterAll(async () => {
    await browser?.close();
    stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const wall of DEMO_WALLS) {
    it(`${wall.name}: its posts with their pictures, at ${WIDTHS.join(' and ')} px`, async () => {
      const url = pages.get(wall.id);
      expect(url, `the page of wall ${wall.id}`).toBeDefined();
      for (const width of WIDTHS) {
        const page = await browser.newPage({ viewport: { width, height: Math.round((width * 9) / 16) } });
        try {
          const failed: string[] = [];
          page.on('response', (r) => {
            if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
          });
          await page.goto(url!);
          await settled(page);
          const shown = await page.evaluate(() => {
            const root = document.querySelector('wallery-wall')!.shadowRoot!;
            const imgs = [...root.querySelectorAll('img')];
            return {
              posts: root.querySelectorAll('[data-post-id]').length,
              pictures: imgs.length,
              broken: imgs.filter((i) => i.complete && i.naturalWidth === 0).map((i) => i.src),
              copies: imgs.filter((i) => i.src.includes('/media/')).length,
              shop: root.querySelectorAll('[part~="shop"], .shop, [data-shop]').length,
            };
          });
          expect(shown.posts).toBeGreaterThan(5);
          expect(shown.pictures).toBeGreaterThan(5);
          expect(shown.broken).toEqual([]);
          // Wallery's stored copies, not the original files
          expect(shown.copies).toBeGreaterThan(0);
          expect(failed).toEqual([]);
          await screenshot(page, { path: `${SHOTS}demo-${wall.kind}-${width}.png` });
        } finally {
          await page.close();
        }
      }
    });
  }
});
