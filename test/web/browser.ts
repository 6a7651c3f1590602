// Debian's Chromium driven by playwright-core. Without /usr/bin/chromium the
// browser suites skip with one line — except in CI (CI=true), where they fail.
import { AxeBuilder } from '@axe-core/playwright';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const ci = process.env.CI === 'true' || process.env.CI === '1';
export const hasChromium = existsSync(CHROMIUM) || ci;
if (!existsSync(CHROMIUM) && !ci) console.warn(`[wallery] skipping the browser tests: ${CHROMIUM} is missing`);

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      ...extraArgs,
    ],
  });
}

/**
 * A desktop Chrome's user agent, for tests whose server drops bots: headless
 * Chromium names itself HeadlessChrome. Given at launch (`--user-agent`), it
 * holds for beacons sent while a page unloads too, which a context's
 * `userAgent` does not reach.
 */
export const DESKTOP_CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/**
 * A screenshot for the documentation (docs/screenshots/), to be looked at:
 * made by every run on a developer's machine, not in CI, whose fresh clone
 * is thrown away after the run (a 1920 × 1080 PNG takes half a second to
 * encode, a 4K one two; the suite makes about a hundred).
 */
export async function screenshot(
  target: Page | Locator,
  options: NonNullable<Parameters<Page['screenshot']>[0]> & { path: string },
): Promise<void> {
  if (ci) return;
  await (target as Page).screenshot(options);
}

/** The console's test viewports: a laptop and a phone. */
export const CONSOLE_WIDE = { width: 1280, height: 900 };
export const CONSOLE_PHONE = { width: 375, height: 800 };

/**
 * A console screen at 1280 and 375 px: nothing wider than the screen (no
 * sideways scrolling, on a phone either), a screenshot of each for the docs
 * (docs/screenshots/console-<name>-<width>.png); then back at 1280.
 */
export async function shootConsoleScreen(page: Page, name: string, fullPage = true): Promise<void> {
  for (const viewport of [CONSOLE_WIDE, CONSOLE_PHONE]) {
    await page.setViewportSize(viewport);
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    if (width !== viewport.width) throw new Error(`${name} at ${viewport.width} px is ${width} px wide`);
    await screenshot(page, { path: `${SHOTS}console-${name}-${viewport.width}.png`, fullPage });
  }
  await page.setViewportSize(CONSOLE_WIDE);
}

/** axe's serious and critical findings on what `page` shows now (within `within`, when given), one line each. */
export async function seriousAxeFindings(page: Page, label: string, within?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  const result = await (within ? axe.include(within) : axe).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
