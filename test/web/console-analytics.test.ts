// Analytics end to end in real Chromium against a real `wallery serve`
// (SQLite, the demo data set imported): the embed on a page of another
// origin, and the hosted wall page, report through real beacons, and the
// management API counts exactly what they sent; then the console's Analytics
// screen (30 days of counts added to the store for it) shows the totals,
// the chart and its table, the top posts and products, other ranges, a
// custom range's errors, and downloads the CSV without the token ever being
// in a URL. axe on the screen; screenshots at 1280 and 375 px go to
// docs/screenshots/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import type { Count, EventType } from '../../src/domain/analytics.js';
import { addCounts } from '../../src/store/analytics.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { DESKTOP_CHROME_UA, hasChromium, launchChromium, screenshot } from './browser.js';
import { startHostServer, type HostServer } from './host-page.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
const WALL = DEMO_KEYS[0].wallId; // Tonewood Music — #tonewood: post 10001 has a CTA and products 501, 502
const SHOP_POST = '10001';
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Totals {
  wallLoads: number;
  impressions: number;
  clicks: number;
  ctaClicks: number;
  productClicks: number;
  ctr: number;
}
interface Report {
  wallId: number;
  from: string;
  to: string;
  totals: Totals;
  days: ({ day: string } & Totals)[];
  topPosts: ({ postId: string } & Omit<Totals, 'wallLoads'>)[];
  topProducts: { productId: number; name: string; productClicks: number }[];
}
type Sent = { type: EventType; postId?: string; productId?: number };

describe.skipIf(!hasChromium)('analytics from the embed to the console, on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let host: HostServer;
  let browser: Browser;
  let context: BrowserContext;
  let admin = '';
  let key = '';

  async function cli(args: string[]): Promise<string> {
    const done = await runCli([...args, '--database', database]);
    expect(done.code, done.stderr).toBe(0);
    return done.stdout;
  }
  async function manage<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${admin}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return ((await res.json()) as { responseData: T }).responseData;
  }
  const report = (from: string, to: string) => manage<Report>('GET', `/walls/${WALL}/analytics?from=${from}&to=${to}`);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-analytics-'));
    database = join(dir, 'wallery.db');
    // the server drops beacons of bots, headless Chromium among them: a desktop Chrome's name
    const launching = launchChromium([`--user-agent=${DESKTOP_CHROME_UA}`]);
    // flushed to the store every 200 ms: the counts show soon after a beacon
    instance = await startInstance({ ANALYTICS_FLUSH_MS: '200' }, ['serve', '--database', database]);
    host = await startHostServer(instance.url);
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    await cli(['import', file]);
    admin = (JSON.parse(await cli(['tokens', 'create', '--json', '--name', 'ana-analytics'])) as { token: string })
      .token;
    key = (
      await manage<{ key: string }>('POST', `/walls/${WALL}/publishable-keys`, {
        origins: [host.origin, instance.url],
      })
    ).key;
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A page whose beacons are recorded as sent (body) and answered (status); links are counted, not opened. */
  /**
   * A page whose beacons are recorded as sent (their bodies, read by a wrapper of sendBeacon: Playwright does not
   * always have a beacon's body) and answered (status); links are counted, not opened.
   */
  async function beaconPage(): Promise<{ page: Page; sent: () => Promise<Sent[][]>; answers: number[] }> {
    const page = await context.newPage();
    const answers: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/embed/v1/events')) answers.push(r.status());
    });
    await page.addInitScript(() => {
      for (const type of ['click', 'auxclick']) document.addEventListener(type, (e) => e.preventDefault());
      const bodies: string[] = [];
      (window as unknown as { beacons: string[] }).beacons = bodies;
      const send = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        void (data as Blob).text().then((text) => bodies.push(text));
        return send(url, data);
      };
    });
    const sent = async () =>
      (await page.evaluate(() => (window as unknown as { beacons: string[] }).beacons)).map(
        (b) => (JSON.parse(b) as { events: Sent[] }).events,
      );
    return { page, sent, answers };
  }

  const count = (events: Sent[], type: EventType) => events.filter((e) => e.type === type).length;

  it('counts what the embed on another origin sent: wall load, impressions, clicks, CTA and product clicks', async () => {
    const before = (await report(isoDay(Date.now() - DAY_MS), isoDay(Date.now()))).totals;
    const { page, sent: sentNow, answers } = await beaconPage();
    await page.clock.install();
    await page.goto(host.url({ wall: WALL, key, layout: 'grid' }));
    await page.waitForFunction(() => window.walleryEvents.some((e) => e.type === 'wallery:ready'), null, {
      timeout: WAIT,
    });
    await page.clock.runFor(1_100); // the posts in view are seen
    const card = page.locator(`wallery-wall [data-post-id="${SHOP_POST}"]`);
    await card.locator('.cta').click();
    await card.locator('.meta a').click();
    await card.locator('.shop').click();
    await page.locator('wallery-wall dialog .hotspot').first().click();
    // the queue goes as a beacon, as when the page is left (a beacon sent while a page unloads is not among
    // Playwright's events: the hosted page's test below leaves for real and reads the counts instead)
    await page.evaluate(() => dispatchEvent(new Event('pagehide')));
    let beacons: Sent[][] = [];
    await eventually(
      'every beacon answered',
      async () => {
        beacons = await sentNow();
        return { clicked: count(beacons.flat(), 'product_click'), beacons: beacons.length, answers: answers.length };
      },
      (b) => b.clicked === 1 && b.answers === b.beacons,
      WAIT,
    );
    expect(answers.every((status) => status === 202)).toBe(true);
    await page.close();
    const sent = beacons.flat();
    expect(count(sent, 'wall_load')).toBe(1);
    expect(count(sent, 'impression')).toBeGreaterThan(0);
    expect(sent.filter((e) => e.type !== 'impression' && e.type !== 'wall_load')).toEqual([
      { type: 'cta_click', postId: SHOP_POST },
      { type: 'click', postId: SHOP_POST },
      { type: 'product_click', postId: SHOP_POST, productId: 501 },
    ]);

    // counted exactly, once the server's aggregator has flushed
    const expected = {
      wallLoads: before.wallLoads + 1,
      impressions: before.impressions + count(sent, 'impression'),
      clicks: before.clicks + 1,
      ctaClicks: before.ctaClicks + 1,
      productClicks: before.productClicks + 1,
    };
    let last: Report | undefined;
    await eventually(
      'the counts in the analytics API',
      async () => {
        last = await report(isoDay(Date.now() - DAY_MS), isoDay(Date.now()));
        const { ctr: _ctr, ...totals } = last.totals;
        return totals;
      },
      (totals) => JSON.stringify(totals) === JSON.stringify(expected),
      WAIT,
    );
    const shop = last!.topPosts.find((p) => p.postId === SHOP_POST);
    expect(shop).toMatchObject({ clicks: 1, ctaClicks: 1, productClicks: 1 });
    expect(last!.topProducts).toEqual([{ productId: 501, name: 'Parlour Classical', productClicks: 1 }]);
  });

  it('counts the hosted wall page too, under its CSP, from the beacon of a page left', async () => {
    const before = (await report(isoDay(Date.now() - DAY_MS), isoDay(Date.now()))).totals.wallLoads;
    const { page } = await beaconPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${instance.url}/walls/${WALL}?key=${encodeURIComponent(key)}`);
    await page.locator('wallery-wall [data-post-id]').first().waitFor({ timeout: WAIT });
    await page.goto('about:blank'); // pagehide: the wall load goes as a beacon
    expect(violations).toEqual([]);
    await eventually(
      'the wall load counted',
      async () => (await report(isoDay(Date.now() - DAY_MS), isoDay(Date.now()))).totals.wallLoads,
      (n) => n === before + 1,
      WAIT,
    );
    await page.close(); // not before: closing the page may cancel a beacon still on its way
  });

  describe('the console’s Analytics screen', () => {
    let page: Page;
    const urls: string[] = [];
    const errors: string[] = [];

    beforeAll(async () => {
      // 30 days of counts on the demo wall, as if its embeds had run for a month
      const today = Math.floor(Date.now() / DAY_MS);
      const counts: Count[] = [];
      const add = (day: number, type: EventType, n: number, postId = 0, productId = 0) =>
        n > 0 && counts.push({ wallId: WALL, day, type, postId, productId, n });
      for (let d = 1; d < 30; d++) {
        const day = today - d;
        const wave = 1 + 0.5 * Math.sin(d / 3) + (d % 7 === 2 || d % 7 === 3 ? 0.6 : 0); // weekends busier
        add(day, 'wall_load', Math.round(120 * wave));
        for (let p = 0; p < 8; p++) {
          const postId = 10001 + p;
          const seen = Math.round((400 * wave) / (p + 1));
          add(day, 'impression', seen, postId);
          add(day, 'click', Math.round(seen * 0.03), postId);
          add(day, 'cta_click', p % 5 === 0 ? Math.round(seen * 0.04) : 0, postId);
        }
        add(day, 'product_click', Math.round(9 * wave), 10001, 501);
        add(day, 'product_click', Math.round(5 * wave), 10001, 502);
        add(day, 'product_click', Math.round(2 * wave), 10004, 503);
      }
      const store = openStore({ kind: 'sqlite', path: database });
      await addCounts(store.db, counts);
      await store.close();

      page = await context.newPage();
      page.on('request', (r) => urls.push(r.url()));
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error' && !/status of 40[0-9]/.test(m.text())) errors.push(m.text());
      });
      await page.goto(`${instance.url}/console/#/walls`);
      await page.getByLabel('Operator token').fill(admin);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
    });

    /** No serious or critical axe violations on what the page shows now. */
    async function expectAccessible(label: string) {
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(bad).toEqual([]);
    }

    const tile = (metric: string) => page.locator(`.tiles [data-metric="${metric}"] dd`);
    const rangeShown = () => page.getByTestId('range').textContent();

    it('shows the last 30 days: totals, a chart with its table, top posts and products', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
      await page
        .getByRole('heading', { level: 1, name: 'Analytics · Tonewood Music — #tonewood' })
        .waitFor({ timeout: WAIT });
      const to = isoDay(Date.now());
      const from = isoDay(Date.now() - 29 * DAY_MS);
      const api = await report(from, to);
      await page.getByTestId('range').waitFor({ timeout: WAIT });
      expect(await rangeShown()).toBe(`${from} to ${to} (UTC)`);
      const n = (v: number) => v.toLocaleString('en');
      expect(await tile('wallLoads').textContent()).toBe(n(api.totals.wallLoads));
      expect(await tile('impressions').textContent()).toBe(n(api.totals.impressions));
      expect(await tile('clicks').textContent()).toBe(n(api.totals.clicks));
      expect(await tile('ctaClicks').textContent()).toBe(n(api.totals.ctaClicks));
      expect(await tile('productClicks').textContent()).toBe(n(api.totals.productClicks));
      expect(await tile('ctr').textContent()).toBe(`${(api.totals.ctr * 100).toFixed(2)}\u00a0%`);

      // the chart: one bar a day, named for screen readers, every number in its table
      const chart = page.getByRole('img', { name: /Impressions per day/ });
      await expect(chart.locator('[data-day]').count()).resolves.toBe(30);
      const bars = await chart
        .locator('[data-day]')
        .evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-day'), Number(g.getAttribute('data-value'))]));
      expect(bars).toEqual(api.days.map((d) => [d.day, d.impressions]));
      await page.getByText('Every day as a table').click();
      const rows = page.locator('.chart-table tbody tr');
      expect(await rows.count()).toBe(30);
      expect(await rows.first().locator('th').textContent()).toBe(to);
      await page.getByLabel('Chart').selectOption('clicks');
      await page.getByRole('img', { name: /Clicks per day/ }).waitFor({ timeout: WAIT });

      // top posts (with their author and text) and products, in the API's order
      const posts = page.locator('section[aria-labelledby="top-posts-title"] tbody tr');
      expect(await posts.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-post-id')))).toEqual(
        api.topPosts.map((p) => p.postId),
      );
      await expect
        .poll(() => posts.first().locator('th').textContent(), { timeout: WAIT })
        .toMatch(/^#10001 Tonewood Music Co\. — /);
      const products = page.locator('section[aria-labelledby="top-products-title"] tbody tr th');
      expect(await products.allTextContents()).toEqual(api.topProducts.map((p) => p.name));

      await expectAccessible('analytics');
      expect(errors).toEqual([]);
    });

    it('looks right at 1280 and 375 px', async () => {
      await page.getByLabel('Chart').selectOption('impressions');
      await page.getByRole('img', { name: /Impressions per day/ }).waitFor({ timeout: WAIT });
      // the table closed again, as a visitor first sees the screen
      await page.getByText('Every day as a table').click();
      for (const viewport of [WIDE, PHONE]) {
        await page.setViewportSize(viewport);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `at ${viewport.width} px`).toBe(
          viewport.width,
        );
        await screenshot(page, { path: join(SHOTS, `console-analytics-${viewport.width}.png`), fullPage: true });
      }
      await page.setViewportSize(WIDE);
    });

    it('changes the range: the last 7 days, and a custom range checked before it is asked for', async () => {
      await page.getByLabel('Last 7 days').check();
      const to = isoDay(Date.now());
      await expect.poll(rangeShown, { timeout: WAIT }).toBe(`${isoDay(Date.now() - 6 * DAY_MS)} to ${to} (UTC)`);
      expect(
        await page
          .getByRole('img', { name: /per day/ })
          .locator('[data-day]')
          .count(),
      ).toBe(7);

      await page.getByLabel('From … to …').check();
      await page.getByLabel('From', { exact: true }).fill(isoDay(Date.now() - 5 * DAY_MS));
      await page.getByLabel('To', { exact: true }).fill(isoDay(Date.now() - 10 * DAY_MS));
      await page.getByRole('button', { name: 'Show these days' }).click();
      await page.getByText('On or after the first day.').waitFor({ timeout: WAIT });
      await expectAccessible('analytics, custom range with an error');

      const from = isoDay(Date.now() - 60 * DAY_MS);
      const until = isoDay(Date.now() - DAY_MS);
      await page.getByLabel('From', { exact: true }).fill(from);
      await page.getByLabel('To', { exact: true }).fill(until);
      await page.getByRole('button', { name: 'Show these days' }).click();
      await expect.poll(rangeShown, { timeout: WAIT }).toBe(`${from} to ${until} (UTC)`);
      const api = await report(from, until);
      expect(await tile('impressions').textContent()).toBe(api.totals.impressions.toLocaleString('en'));
      expect(
        await page
          .getByRole('img', { name: /per day/ })
          .locator('[data-day]')
          .count(),
      ).toBe(60);
    });

    it('downloads the CSV of the range shown, the token only ever in a header', async () => {
      const from = isoDay(Date.now() - 60 * DAY_MS);
      const until = isoDay(Date.now() - DAY_MS);
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: WAIT }),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      const csv = readFileSync((await download.path())!, 'utf8');
      const api = await fetch(`${instance.url}/api/manage/v1/walls/${WALL}/analytics?from=${from}&to=${until}`, {
        headers: { Authorization: `Bearer ${admin}`, Accept: 'text/csv' },
      });
      expect(csv).toBe(await api.text());
      expect(csv.trim().split(/\r?\n/)).toHaveLength(61); // a header and 60 days
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      await page.getByText(/^Downloaded .+\.csv\.$/).waitFor({ timeout: WAIT });
      expect(urls.filter((u) => u.includes(admin))).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
