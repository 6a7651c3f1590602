// The event screen in real Chromium on a real server: the waiting screen of
// an empty wall (with the call to post and a QR code large enough to scan
// from 3 m when the wall has branding, without either when it has none);
// the banner, its QR code loaded as a chunk of its own; a wall of 10,000
// posts paged through with the DOM bounded; and, with reduced motion, a
// post made live that arrives without animation and is not a big empty
// card.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_KEY } from './serve-data.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';
import { startHostServer, type HostServer } from './host-page.js';
import {
  branding,
  cardSpaces,
  LOOK_WALLS,
  settled,
  startLookServer,
  VARIED,
  WAIT,
  withBranding,
  type LookServer,
} from './look.js';

const BIG = 10_000;
const FULL_HD = { width: 1920, height: 1080 };

describe.skipIf(!hasChromium)('the event screen', () => {
  let look: LookServer;
  let browser: Browser;
  let host: HostServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const launching = launchChromium();
    look = await startLookServer(BIG);
    host = await startHostServer(look.srv.baseUrl);
    browser = await launching;
  }, 180_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await host?.close();
    await look?.close();
  });

  async function screen(wall: number, brand: unknown, motion: 'reduce' | 'no-preference' = 'reduce'): Promise<Page> {
    const context = await browser.newContext({ viewport: FULL_HD, reducedMotion: motion });
    contexts.push(context);
    const page = await context.newPage();
    if (brand) await withBranding(page, brand);
    await page.goto(`${look.srv.baseUrl}/walls/${wall}?key=${look.keys.get(wall)}&layout=event&theme=dark`);
    return page;
  }

  const inShadow = <T>(page: Page, fn: (root: ShadowRoot) => T) =>
    page.evaluate(`(${fn.toString()})(document.querySelector('wallery-wall').shadowRoot)`) as Promise<T>;

  it('shows a waiting screen on an empty wall: the call to post and a QR code to scan from 3 m', async () => {
    const page = await screen(LOOK_WALLS.empty, branding(look.srv.baseUrl));
    await page.waitForFunction(
      () => document.querySelector('wallery-wall')?.shadowRoot?.querySelector('.waiting svg.qr'),
      null,
      { timeout: WAIT },
    );
    await settled(page, false);
    const waiting = await inShadow(page, (root) => {
      const qr = root.querySelector('.waiting svg.qr')!.getBoundingClientRect();
      return {
        call: root.querySelector('.waiting .call')!.textContent,
        hint: root.querySelector('.waiting .hint')!.textContent,
        qr: { width: qr.width, height: qr.height },
        label: root.querySelector('.waiting svg.qr')!.getAttribute('aria-label'),
        quiet: root.querySelector('.waiting svg.qr rect')!.getAttribute('fill'),
      };
    });
    expect(waiting.call).toBe('Post with #harborfest');
    expect(waiting.hint).toContain('Waiting for the first post');
    expect(waiting.qr.width).toBeGreaterThanOrEqual(160);
    expect(waiting.qr.height).toBe(waiting.qr.width);
    expect(waiting.label).toBe('QR code: https://harborfest.example/wall');
    expect(waiting.quiet).toBe('#ffffff');
    // the encoder came as a chunk of its own, from /assets/ (the page's resource timing: loaded before any listener here)
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
    );
    expect(loaded.some((p) => /^\/assets\/qr-[\w-]+\.js$/.test(p))).toBe(true);
    await screenshot(page, {
      path: new URL('../../docs/screenshots/wall-event-waiting-dark-1920.png', import.meta.url).pathname,
    });

    // no branding: the waiting screen all the same, no call to post of the wall's, no QR code
    const plain = await screen(LOOK_WALLS.empty, null);
    await settled(plain, false);
    expect(await inShadow(plain, (root) => root.querySelector('.waiting .call')?.textContent)).toBe(
      'Posts will appear here.',
    );
    expect(await inShadow(plain, (root) => root.querySelectorAll('svg.qr').length)).toBe(0);
  });

  it('puts the call to post, the logo and the QR code in the banner; older dates are days', async () => {
    const page = await screen(LOOK_WALLS.varied, branding(look.srv.baseUrl));
    await page.waitForFunction(
      () => document.querySelector('wallery-wall')?.shadowRoot?.querySelector('.banner svg.qr'),
      null,
      { timeout: WAIT },
    );
    await settled(page);
    const banner = await inShadow(page, (root) => ({
      call: root.querySelector('.banner .call')?.textContent,
      logo: root.querySelector<HTMLImageElement>('.banner img.logo')?.naturalWidth ?? 0,
      qr: root.querySelector('.banner svg.qr')!.getBoundingClientRect().width,
      // whichever page is on screen (it turns every 12 s): each post's id and date
      dates: [...root.querySelectorAll<HTMLElement>('li:not(.off)')].map((li) => [
        li.dataset.id!,
        li.querySelector('time')!.textContent!.trim(),
      ]),
    }));
    expect(banner.call).toBe('Post with #harborfest');
    expect(banner.logo).toBeGreaterThan(0);
    expect(banner.qr).toBeGreaterThanOrEqual(160);
    // a post a day old or more shows its day and month (the pinned one is 400 hours old: never "17 days ago")
    const hoursAgo = new Map(VARIED.map((p) => [String(p.id), p.hoursAgo]));
    const older = banner.dates.filter(([id]) => hoursAgo.get(id)! >= 24);
    expect(older.length, JSON.stringify(banner.dates)).toBeGreaterThan(0);
    for (const [, d] of older) expect(d).toMatch(/^\d{1,2} [A-Z][a-z]{2}$/);
    for (const [, d] of banner.dates) expect(d).not.toMatch(/day|week|month|year/);
  });

  it('fills every page, the last one too, and gives two columns to one pinned or featured post per page', async () => {
    const page = await screen(LOOK_WALLS.varied, branding(look.srv.baseUrl));
    await settled(page);
    const pages: { first: string; shown: number; wide: number; fill: number }[] = [];
    for (let turn = 0; turn < 12; turn++) {
      const state = await inShadow(page, (root) => {
        const list = root.querySelector<HTMLElement>('.posts')!;
        const screen = root.querySelector<HTMLElement>('.screen')!;
        const room = screen.clientHeight - 2 * parseFloat(getComputedStyle(screen).paddingTop);
        const shown = [...list.querySelectorAll<HTMLElement>(':scope > li:not(.off)')];
        const area = shown.reduce((sum, li) => {
          const r = li.getBoundingClientRect();
          return sum + r.width * r.height;
        }, 0);
        return {
          first: shown[0]!.dataset.id!,
          shown: shown.length,
          wide: shown.filter((li) => li.dataset.span === '2').length,
          // how much of the posts' area the cards cover (the gaps between them are the rest)
          fill: area / (list.clientWidth * room),
        };
      });
      if (pages.some((p) => p.first === state.first)) break; // round: back at the first page
      pages.push(state);
      await inShadow(page, (root) =>
        [...root.querySelectorAll<HTMLButtonElement>('.banner button')]
          .find((b) => b.textContent!.startsWith('Next'))!
          .click(),
      );
      await page.waitForFunction(
        (first) =>
          document.querySelector('wallery-wall')!.shadowRoot!.querySelector('li:not(.off)')?.getAttribute('data-id') !==
          first,
        state.first,
        { timeout: WAIT },
      );
      await settled(page);
    }
    console.info(`[wallery] event pages of the varied wall at 1920 × 1080: ${JSON.stringify(pages)}`);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const p of pages) {
      expect(p.wide).toBeLessThanOrEqual(1);
      expect(p.fill, JSON.stringify(p)).toBeGreaterThanOrEqual(0.6);
    }
  });

  it('pages through 10,000 posts with the DOM bounded', async () => {
    const context = await browser.newContext({ viewport: FULL_HD, reducedMotion: 'reduce' });
    contexts.push(context);
    const page = await context.newPage();
    const pages: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/posts?')) pages.push(r.url());
    });
    await page.goto(
      host.url({ wall: LOOK_WALLS.big, key: look.keys.get(LOOK_WALLS.big), layout: 'event', limit: 100 }),
    );
    await settled(page);
    let most = 0;
    const seen = new Set<string>();
    for (let turn = 0; turn < 40; turn++) {
      const state = await inShadow(page, (root) => ({
        cards: root.querySelectorAll('article').length,
        shown: [...root.querySelectorAll('li:not(.off) article')].map((a) => a.getAttribute('data-post-id')!),
      }));
      most = Math.max(most, state.cards);
      for (const id of state.shown) seen.add(id);
      const first = state.shown[0];
      await inShadow(page, (root) =>
        [...root.querySelectorAll<HTMLButtonElement>('.banner button')]
          .find((b) => b.textContent!.startsWith('Next'))!
          .click(),
      );
      await page.waitForFunction(
        (first) => {
          const root = document.querySelector('wallery-wall')!.shadowRoot!;
          return root.querySelector('li:not(.off) article')?.getAttribute('data-post-id') !== first;
        },
        first,
        { timeout: WAIT },
      );
    }
    console.info(
      `[wallery] event screen, ${BIG} posts: ${seen.size} shown in 40 pages, at most ${most} cards in the document`,
    );
    expect(seen.size).toBeGreaterThan(300);
    expect(pages.length).toBeGreaterThanOrEqual(4); // several pages of 100 read from the API
    expect(most).toBeLessThanOrEqual(200);
    expect(await inShadow(page, (root) => root.querySelectorAll('article').length)).toBeLessThanOrEqual(200);
  });

  it('with reduced motion: a post made live arrives with no animation, and is not an empty box', async () => {
    const page = await screen(LOOK_WALLS.varied, branding(look.srv.baseUrl), 'reduce');
    await page.waitForFunction(
      () => document.querySelector('wallery-wall')?.shadowRoot?.querySelector('[data-live=live]'),
      null,
      { timeout: WAIT },
    );
    await settled(page);
    const res = await fetch(`${look.srv.baseUrl}/api/v2/widget/create-post?user_key=${USER_KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        wallId: LOOK_WALLS.varied,
        content: '<p>Just arrived: hello harbour!</p>',
        authorName: 'Desk',
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    await page.waitForFunction(
      () =>
        [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('article .text')].some((t) =>
          t.textContent!.includes('Just arrived'),
        ),
      null,
      { timeout: WAIT },
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const animations = await page.evaluate(() => {
      const wall = document.querySelector('wallery-wall')!;
      return [
        ...document.getAnimations(),
        ...wall.shadowRoot!.getAnimations(),
        ...wall.getAnimations({ subtree: true }),
      ].map(
        (a) => `${a.constructor.name} ${(a as CSSAnimation).animationName ?? (a as CSSTransition).transitionProperty}`,
      );
    });
    expect(animations).toEqual([]);
    const cards = await cardSpaces(page);
    const fresh = await inShadow(page, (root) =>
      [...root.querySelectorAll('article')]
        .find((a) => a.textContent!.includes('Just arrived'))!
        .getAttribute('data-post-id'),
    );
    const card = cards.find((c) => c.id === fresh)!;
    expect(card.empty).toBeLessThanOrEqual(0.25 * card.height);
    expect(card.height).toBeLessThan(400); // a short post: a small card, not a 700 px box
  });
});
