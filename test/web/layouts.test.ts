// The wall's look in real Chromium on a real server (the hosted page, its
// pictures Wallery's copies): every layout × light/dark × 375, 768, 1280
// and 1920 px wide, and the event screen at 3840 × 2160 and on a portrait
// 1080 × 1920 screen. No card is more than 25 % empty space (look.ts says
// how that is measured), nothing reaches past the viewport's right edge,
// axe finds nothing serious, the masonry packs its columns without gaps,
// and an event screen of 1920 px has four columns or more. Screenshots go
// to docs/screenshots/wall-<layout>-<theme>-<width>.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_LAYOUTS } from '../../src/domain/lists.js';
import { hasChromium, launchChromium, screenshot, seriousAxeFindings } from './browser.js';
import {
  branding,
  columnCount,
  LOOK_EVENT_ONLY,
  LOOK_THEMES,
  LOOK_VIEWPORTS,
  LOOK_WALLS,
  lookProblems,
  settled,
  startLookServer,
  withBranding,
  type LookServer,
} from './look.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
/** axe (the slow part) on every layout and theme at 375 px, and on the event screen at 1920 px too */
const axeHere = (layout: string, width: number) => width === 375 || (layout === 'event' && width === 1920);

/** The masonry's columns: each post's top right under the one above it (the gap, plus the 4 px rows). */
async function masonryGaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const root = document.querySelector('wallery-wall')!.shadowRoot!;
    const list = root.querySelector<HTMLElement>('.posts')!;
    const gap = parseFloat(getComputedStyle(list).columnGap);
    const top = list.getBoundingClientRect().top;
    const columns = new Map<number, DOMRect[]>();
    for (const li of list.querySelectorAll<HTMLElement>(':scope > li')) {
      const r = li.getBoundingClientRect();
      const key = Math.round(r.left);
      columns.set(key, [...(columns.get(key) ?? []), r]);
    }
    const bad: string[] = [];
    for (const [left, rects] of columns) {
      rects.sort((a, b) => a.top - b.top);
      if (rects[0]!.top - top > 1) bad.push(`column at ${left} starts ${rects[0]!.top - top} px down`);
      for (let i = 1; i < rects.length; i++) {
        const between = rects[i]!.top - rects[i - 1]!.bottom;
        if (between > gap + 4 + 1)
          bad.push(`column at ${left}: ${Math.round(between)} px between posts ${i - 1} and ${i}`);
      }
    }
    return bad;
  });
}

describe.skipIf(!hasChromium)('the wall’s look: every layout, theme and width', () => {
  let look: LookServer;
  let browser: Browser;

  beforeAll(async () => {
    const launching = launchChromium();
    look = await startLookServer();
    browser = await launching;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await look?.close();
  });

  const url = (layout: string, theme: string) =>
    `${look.srv.baseUrl}/walls/${LOOK_WALLS.varied}?key=${look.keys.get(LOOK_WALLS.varied)}&layout=${layout}&theme=${theme}`;

  it('fits every card to what it holds, overflows nothing, passes axe (screenshots)', async () => {
    const started = performance.now();
    const problems: string[] = [];
    const runs: { layout: string; viewport: { width: number; height: number } }[] = [];
    for (const viewport of LOOK_VIEWPORTS) for (const layout of EMBED_LAYOUTS) runs.push({ layout, viewport });
    for (const viewport of LOOK_EVENT_ONLY) runs.push({ layout: 'event', viewport });
    let current: { page: Page; width: number; height: number } | null = null;
    let axeRuns = 0;
    for (const { layout, viewport } of runs) {
      // one page per viewport, reused across layouts and themes
      if (current?.width !== viewport.width || current.height !== viewport.height) {
        await current?.page.context().close();
        const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
        const page = await context.newPage();
        await withBranding(page, branding(look.srv.baseUrl));
        current = { page, ...viewport };
      }
      const page = current.page;
      for (const theme of LOOK_THEMES) {
        const where = `${layout} ${theme} ${viewport.width}×${viewport.height}`;
        await page.goto(url(layout, theme));
        await settled(page);
        problems.push(...(await lookProblems(page, where)));
        if (layout === 'masonry') for (const g of await masonryGaps(page)) problems.push(`${where}: ${g}`);
        if (layout === 'event' && viewport.width === 1920) {
          const columns = await columnCount(page);
          if (columns < 4) problems.push(`${where}: ${columns} columns`);
        }
        if (axeHere(layout, viewport.width)) {
          axeRuns++;
          problems.push(...(await seriousAxeFindings(page, `${where}: axe`)));
        }
        const name = viewport.width === 1080 ? '1080x1920' : String(viewport.width);
        await screenshot(page, { path: `${SHOTS}wall-${layout}-${theme}-${name}.png` });
      }
    }
    await current?.page.context().close();
    const took = performance.now() - started;
    console.info(
      `[wallery] the look matrix: ${runs.length * LOOK_THEMES.length} pages (${axeRuns} with axe) in ${Math.round(took)} ms`,
    );
    expect(problems).toEqual([]);
  }, 300_000);
});
