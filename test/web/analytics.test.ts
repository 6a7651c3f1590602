// The embed's analytics (issue 16) in real Chromium against the fixture embed
// API, which records every beacon it receives: wall_load once, an impression
// only after a post stayed at least half visible for 1 s (Playwright's clock,
// paused: time moves only when a test says so), once per page view, for
// posts that arrive later too; clicks on the post link, the call-to-action
// and the shoppable dialog's products; beacons on pagehide and on a hidden
// tab; nothing at all with analytics="off" or Global Privacy Control.
// Every wait polls a condition; "seen by the element" is proved by an
// IntersectionObserver of the test's own, made after the element's, whose
// callback therefore runs after the element's in the same rendering step.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/poll.js';
import { hasChromium, launchChromium } from './browser.js';
import { testBuild } from './build.js';
import { makePost, startFixture, type Beacon, type Fixture } from './fixture-server.js';
import type { EmbedPost } from '../../web/embed/types.js';

declare global {
  interface Window {
    /** URLs of the beacons and event fetches the page made (the spy of `open`) */
    sent: string[];
  }
}

const WAIT = 60_000;
const T0 = Date.UTC(2026, 0, 1);
/** the wall starts below the fold: no post is in view until a test scrolls */
const BELOW_FOLD = 'wallery-wall{display:block;margin-top:150vh}';
const VIEW_ID = /^[A-Za-z0-9_-]{8,64}$/;

const bySort = (posts: EmbedPost[]) => [...posts].sort((a, b) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0));

type Sent = Beacon['events'][number];

describe.skipIf(!hasChromium)('the embed’s analytics in Chromium', () => {
  let fx: Fixture;
  let browser: Browser;
  let context: BrowserContext | null = null;

  beforeAll(async () => {
    fx = await startFixture(testBuild());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = null;
    fx.beacons.length = 0;
  });

  interface OpenOptions {
    /** install Playwright's clock and pause it once the wall is ready */
    clock?: boolean;
    /** the browser sends Global Privacy Control */
    gpc?: boolean;
  }

  /** A phone-sized page (one column) on the fixture's host page; links never navigate. */
  async function open(query: Record<string, string>, o: OpenOptions = {}): Promise<Page> {
    context ??= await browser.newContext({ viewport: { width: 400, height: 800 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.addInitScript((gpc) => {
      window.sent = [];
      const beacon = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        window.sent.push(String(url));
        return beacon(url, data);
      };
      const fetch = window.fetch;
      window.fetch = (input, init) => {
        if (String(input instanceof Request ? input.url : input).includes('/events')) window.sent.push(String(input));
        return fetch(input, init);
      };
      // a test clicks links: count them, do not open them
      for (const type of ['click', 'auxclick']) document.addEventListener(type, (e) => e.preventDefault());
      if (gpc) Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });
    }, o.gpc ?? false);
    if (o.clock) await page.clock.install({ time: T0 });
    await page.goto(`${fx.baseUrl}/host?${new URLSearchParams({ layout: 'grid', columns: '1', ...query })}`);
    await page.waitForFunction(() => window.walleryEvents.some((e) => e.type === 'wallery:ready'), null, {
      timeout: WAIT,
    });
    if (o.clock) await page.clock.pauseAt(T0 + 3_600_000);
    return page;
  }

  const post = (page: Page, id: string) => page.locator(`wallery-wall [data-post-id="${id}"]`);

  /**
   * Until the post is (or is no longer) in view enough to count — at least half of it, or half of the screen for
   * a post too tall for that — as the element's own observer has seen by then.
   */
  const sees = (page: Page, id: string, visible: boolean) =>
    page.evaluate(
      ([id, visible]) =>
        new Promise<void>((resolve) => {
          const el = document.querySelector('wallery-wall')!.shadowRoot!.querySelector(`[data-post-id="${id}"]`)!;
          const io = new IntersectionObserver(
            (entries) => {
              const e = entries[entries.length - 1]!;
              const root = e.rootBounds!;
              const shown = e.intersectionRect;
              const inView =
                e.isIntersecting &&
                (e.intersectionRatio >= 0.5 || shown.width * shown.height >= 0.5 * root.width * root.height);
              if (inView === visible) {
                io.disconnect();
                resolve();
              }
            },
            { threshold: Array.from({ length: 10 }, (_, i) => (i + 1) / 20) },
          );
          io.observe(el);
        }),
      [id, visible] as const,
    );

  const show = async (page: Page, id: string) => {
    await post(page, id).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await sees(page, id, true);
  };
  const scrollTop = async (page: Page, id: string) => {
    await page.evaluate(() => scrollTo(0, 0));
    await sees(page, id, false);
  };

  /** The ids of the posts in view enough to count now (one column: heights alone). */
  const halfVisible = (page: Page) =>
    page.locator('wallery-wall [data-post-id]').evaluateAll((els) =>
      els
        .filter((el) => {
          const r = el.getBoundingClientRect();
          const shown = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
          return r.height > 0 && (shown / r.height >= 0.5 || shown >= 0.5 * innerHeight);
        })
        .map((el) => el.getAttribute('data-post-id')!),
    );

  /** The page's queue sent now, as when it is closed. */
  const pagehide = (page: Page) => page.evaluate(() => dispatchEvent(new Event('pagehide')));

  const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
    page.evaluate((state) => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);

  /** Until a beacon with an event that `match`es has arrived; that beacon. */
  async function beaconWith(match: (e: Sent) => boolean): Promise<Beacon> {
    await eventually(
      'a beacon',
      async () => fx.beacons.some((b) => b.events.some(match)),
      (found) => found,
      WAIT,
    );
    return fx.beacons.find((b) => b.events.some(match))!;
  }

  const impressions = () =>
    fx.beacons
      .flatMap((b) => b.events)
      .filter((e) => e.type === 'impression')
      .map((e) => e.postId);

  it('counts a post seen after 1 s at least half visible without a break, once per page view', async () => {
    fx.setPosts(Array.from({ length: 10 }, (_, n) => makePost(n, { type: 'text' })));
    const page = await open({ css: BELOW_FOLD }, { clock: true });
    const a = bySort(fx.posts)[2]!.id;

    // the wall loaded, no post in view: wall_load alone, within 5 s
    await page.clock.runFor(6_000);
    const first = await beaconWith((e) => e.type === 'wall_load');
    expect(first.events).toEqual([{ type: 'wall_load' }]);
    expect(first.contentType).toMatch(/^text\/plain/);
    expect(first.view).toMatch(VIEW_ID);

    // in for half a second, out; in again for 0.6 s: 1.1 s, but not at once
    await show(page, a);
    await page.clock.runFor(500);
    await scrollTop(page, a);
    await page.clock.runFor(2_000);
    await show(page, a);
    await page.clock.runFor(600);
    // a click and a flush: whatever was queued goes in the same beacon
    await post(page, a).locator('.meta a').click();
    await pagehide(page);
    const quick = await beaconWith((e) => e.type === 'click');
    expect(quick.events).toEqual([{ type: 'click', postId: a }]);

    // 0.4 s more makes a full second in view: counted, with whatever else is half visible
    const inView = await halfVisible(page);
    expect(inView).toContain(a);
    await page.clock.runFor(400);
    await pagehide(page);
    const seen = await beaconWith((e) => e.type === 'impression');
    expect(seen.events.map((e) => e.postId).sort()).toEqual([...inView].sort());
    expect(seen.events.every((e) => e.type === 'impression')).toBe(true);

    // away and back for long: not again in this page view
    await scrollTop(page, a);
    await show(page, a);
    await page.clock.runFor(2_000);
    await post(page, a).locator('.meta a').click();
    await pagehide(page);
    await eventually(
      'the second click',
      async () => fx.beacons.filter((b) => b.events.some((e) => e.type === 'click')).length,
      (n) => n === 2,
      WAIT,
    );
    expect(fx.beacons.at(-1)!.events).toEqual([{ type: 'click', postId: a }]);
    expect(impressions().filter((id) => id === a)).toHaveLength(1);
    expect(new Set(fx.beacons.map((b) => b.view)).size).toBe(1);
  });

  it('counts a post taller than twice the screen once it fills half of it for 1 s', async () => {
    const long = Array.from({ length: 160 }, (_, i) => `<p>Line ${i + 1} of a very long post.</p>`).join('');
    const tall = makePost(0, { type: 'text', html: long });
    fx.setPosts([tall, makePost(1, { type: 'text' }), makePost(2, { type: 'text' })]);
    const page = await open({ css: BELOW_FOLD }, { clock: true });
    // a long text is clamped with More: opened, the post is its whole length
    await post(page, tall.id).getByRole('button', { name: /^More/ }).click();
    const height = await post(page, tall.id).evaluate((el) => el.getBoundingClientRect().height / innerHeight);
    expect(height).toBeGreaterThan(2); // never half visible
    await show(page, tall.id);
    await page.clock.runFor(1_100);
    await pagehide(page);
    await eventually(
      'its impression',
      async () => impressions(),
      (ids) => ids.includes(tall.id),
      WAIT,
    );
  });

  it('counts posts that arrive later: a live post and the next page', async () => {
    fx.setPosts(Array.from({ length: 8 }, (_, n) => makePost(n, { type: 'text' })));
    const page = await open({ css: BELOW_FOLD, limit: '4' }, { clock: true });
    await eventually(
      'the stream open',
      async () => fx.openStreams(),
      (n) => n > 0,
      WAIT,
    );
    const live = makePost(40, { type: 'text', createdAt: new Date(Date.now() + 60_000).toISOString() });
    fx.upsert(live);
    await page.waitForFunction(
      (id) => window.walleryEvents.some((e) => e.type === 'wallery:post-added' && e.id === id),
      live.id,
      { timeout: WAIT },
    );
    await show(page, live.id);
    await page.clock.runFor(1_100);

    // the end of the list brings the next page by itself
    const later = bySort(fx.posts)[6]!.id;
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await post(page, later).waitFor({ state: 'attached', timeout: WAIT });
    await show(page, later);
    await page.clock.runFor(1_100);
    await pagehide(page);
    await eventually(
      'both impressions',
      async () => impressions(),
      (ids) => ids.includes(later),
      WAIT,
    );
    expect(impressions()).toContain(live.id);
    expect(impressions()).toContain(later);
    expect(new Set(impressions()).size).toBe(impressions().length);
  });

  it('sends clicks on the post link, the call-to-action and the products; a hidden tab sends its queue', async () => {
    const products = [701, 702].map((id, i) => ({
      id: String(id),
      name: `Product ${id}`,
      price: '10.00',
      currency: '$',
      url: `https://shop.example/p/${id}`,
      image: null,
      left: 20 + 40 * i,
      top: 40,
    }));
    const shop = makePost(0, { type: 'image', products }, fx.baseUrl); // n = 0: a picture and a call-to-action
    fx.setPosts([shop, makePost(1), makePost(2)]);
    const page = await open({}, { clock: true }); // paused: every click goes in the one beacon of the hidden tab
    const card = post(page, shop.id);
    await card.locator('.meta a').click();
    await card.locator('.cta').click();
    await card.locator('.text a').click(); // a link in the post's text: not the post link
    await card.locator('.name').click(); // the author: not counted either
    await card.locator('.shop').click();
    const dialog = page.locator('wallery-wall dialog');
    await dialog.locator('.hotspot').first().click();
    await dialog.locator('[data-product-id="702"] a').click();

    await setVisibility(page, 'hidden');
    const beacon = await beaconWith((e) => e.type === 'product_click');
    const clicks = fx.beacons.flatMap((b) => b.events).filter((e) => e.type !== 'impression' && e.type !== 'wall_load');
    expect(beacon.events).toEqual(expect.arrayContaining(clicks));
    expect(clicks).toEqual([
      { type: 'click', postId: shop.id },
      { type: 'cta_click', postId: shop.id },
      { type: 'product_click', postId: shop.id, productId: 701 },
      { type: 'product_click', postId: shop.id, productId: 702 },
    ]);
    // and nothing kept in the browser
    expect(await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual([
      '',
      0,
      0,
    ]);
    expect(await context!.cookies()).toEqual([]);
  });

  it('sends a beacon as soon as 50 events are queued, before the 5 s are up', async () => {
    fx.setPosts([makePost(0), makePost(1)]);
    const page = await open({ css: BELOW_FOLD }, { clock: true });
    await page.clock.runFor(6_000); // wall_load sent
    await beaconWith((e) => e.type === 'wall_load');
    await post(page, makePost(0).id)
      .locator('.cta')
      .evaluate((cta: HTMLElement) => {
        for (let i = 0; i < 53; i++) cta.click();
      });
    const full = await beaconWith((e) => e.type === 'cta_click');
    expect(full.events).toEqual(Array.from({ length: 50 }, () => ({ type: 'cta_click', postId: makePost(0).id })));
    await pagehide(page);
    await eventually(
      'the rest',
      async () => fx.beacons.flatMap((b) => b.events).filter((e) => e.type === 'cta_click').length,
      (n) => n === 53,
      WAIT,
    );
    expect(fx.beacons.map((b) => b.events.length)).toEqual([1, 50, 3]);
  });

  it('sends the queue when the page goes away, with a new view id per page load', async () => {
    fx.setPosts([makePost(0), makePost(1)]);
    for (const round of [1, 2]) {
      const page = await open({});
      await post(page, makePost(0).id).locator('.cta').click();
      await page.goto('about:blank'); // pagehide
      await eventually(
        'the beacon of the page that went away',
        async () => fx.beacons.filter((b) => b.events.some((e) => e.type === 'cta_click')).length,
        (n) => n === round,
        WAIT,
      );
    }
    const views = fx.beacons.filter((b) => b.events.some((e) => e.type === 'cta_click')).map((b) => b.view);
    expect(views[0]).toMatch(VIEW_ID);
    expect(views[1]).toMatch(VIEW_ID);
    expect(views[0]).not.toBe(views[1]);
  });

  it('does not count a post while the tab is hidden', async () => {
    fx.setPosts(Array.from({ length: 4 }, (_, n) => makePost(n, { type: 'text' })));
    const page = await open({ css: BELOW_FOLD }, { clock: true });
    const a = bySort(fx.posts)[1]!.id;
    await show(page, a);
    await page.clock.runFor(500);
    await setVisibility(page, 'hidden');
    await page.clock.runFor(3_000);
    await post(page, a).locator('.meta a').click();
    await pagehide(page);
    const marked = await beaconWith((e) => e.type === 'click');
    expect(marked.events.filter((e) => e.type === 'impression')).toEqual([]);
    // visible again: a full second from now on
    await setVisibility(page, 'visible');
    await page.clock.runFor(900);
    await post(page, a).locator('.meta a').click();
    await pagehide(page);
    await eventually(
      'the second click',
      async () => fx.beacons.filter((b) => b.events.some((e) => e.type === 'click')).length,
      (n) => n === 2,
      WAIT,
    );
    expect(impressions()).toEqual([]);
    await page.clock.runFor(200);
    await pagehide(page);
    await eventually(
      'the impression',
      async () => impressions(),
      (ids) => ids.includes(a),
      WAIT,
    );
  });

  it('sends nothing more once analytics="off" is set, not even what was queued', async () => {
    fx.setPosts([makePost(0), makePost(1)]);
    const page = await open({}, { clock: true });
    await page.clock.runFor(6_000);
    await pagehide(page);
    const before = await page.evaluate(() => window.sent.length);
    await post(page, makePost(0).id).locator('.cta').click(); // queued
    await page.evaluate(() => document.querySelector('wallery-wall')!.setAttribute('analytics', 'off'));
    await post(page, makePost(0).id).locator('.meta a').click();
    await page.clock.runFor(10_000);
    await pagehide(page);
    await setVisibility(page, 'hidden');
    expect(await page.evaluate(() => window.sent.length)).toBe(before);
  });

  for (const [what, query, o] of [
    ['analytics="off"', { analytics: 'off' }, {}],
    ['Global Privacy Control', {}, { gpc: true }],
  ] as const) {
    it(`sends nothing with ${what}`, async () => {
      fx.setPosts(Array.from({ length: 3 }, (_, n) => makePost(n)));
      const page = await open(query, { ...o, clock: true });
      await page.clock.runFor(10_000);
      await post(page, makePost(0).id).locator('.cta').click();
      await post(page, makePost(0).id).locator('.meta a').click();
      await page.clock.runFor(10_000);
      await setVisibility(page, 'hidden');
      await pagehide(page);
      expect(await page.evaluate(() => window.sent)).toEqual([]);
      expect(fx.beacons).toEqual([]);
    });
  }
});
