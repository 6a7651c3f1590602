// The console's phase-2 screens in real Chromium against a real `wallery
// serve` (SQLite, the demo data set imported): a product made in the
// catalogue and placed on a post by a click, moved with the keyboard and
// by dragging — C5 returns it where it was put; user keys made (shown
// once, working in the public API) and revoked (401), the usage chart
// counting today's calls; an embed snippet copied from the console and
// pasted into a page of another origin shows the wall; the audit log lists
// the test's actions newest first and filters them. axe on every screen;
// screenshots at 1280 and 375 px go to docs/screenshots/.
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { CONSOLE_WIDE, hasChromium, launchChromium, seriousAxeFindings, shootConsoleScreen } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = CONSOLE_WIDE;
const ADMIN = 'cat-admin';

interface Envelope<T> {
  responseData: T;
}

describe.skipIf(!hasChromium)('the console’s products, keys, embed and audit screens in Chromium', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let admin = '';
  const errors: string[] = [];
  /** a page of another origin that serves whatever HTML it is given */
  let host: { origin: string; html: string; server: Server };

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
    return ((await res.json()) as Envelope<T>).responseData;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console2-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    instance = await startInstance({}, ['serve', '--database', database]);
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    await cli(['import', file]);
    admin = (JSON.parse(await cli(['tokens', 'create', '--json', '--name', ADMIN])) as { token: string }).token;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(host.html);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    host = { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, html: '', server };
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: instance.url });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 40[0-9]/.test(m.text())) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/#/walls`);
    await page.getByLabel('Operator token').fill(admin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    if (host) {
      host.server.closeAllConnections();
      host.server.close();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function go(hash: string, heading: string | RegExp) {
    await page.evaluate((h) => (location.hash = h), hash);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: WAIT });
  }
  /** No serious or critical axe violations on what the page shows now. */
  async function expectAccessible(label: string) {
    expect(await seriousAxeFindings(page, label)).toEqual([]);
  }
  const shoot = (name: string) => shootConsoleScreen(page, name);
  const v2 = (path: string, key: string) =>
    fetch(`${instance.url}/api/v2${path}${path.includes('?') ? '&' : '?'}user_key=${key}`);
  interface C5Product {
    productName: string;
    hotspot: string[];
  }
  async function c5(postId: number): Promise<C5Product[]> {
    const res = await v2(`/commerce/getGalleryProductByID/101/${postId}/`, DEMO_KEYS[0].key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { postDetail: { products?: C5Product[] }[] } } & Record<string, unknown>;
    return findProducts(body);
  }
  /** the products of a C5 answer, wherever its envelope nests them */
  function findProducts(body: unknown): C5Product[] {
    if (Array.isArray(body)) {
      if (body.length > 0 && body.every((p) => typeof p === 'object' && p && 'hotspot' in p))
        return body as C5Product[];
      for (const item of body) {
        const found = findProducts(item);
        if (found.length) return found;
      }
    } else if (body && typeof body === 'object') {
      for (const v of Object.values(body)) {
        const found = findProducts(v);
        if (found.length) return found;
      }
    }
    return [];
  }
  const spot = (p: C5Product | undefined) => {
    const at = Object.fromEntries((p?.hotspot ?? []).map((h) => h.replace('%', '').split(':')));
    return { left: Number(at.left), top: Number(at.top) };
  };

  let postId = 0;

  it('makes a product and places it on a post where the picture is clicked; arrow keys and a drag move it', async () => {
    await go('#/products/1', /Products · Tonewood Music/);
    await page.locator('tr[data-product-id="501"]').waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'New product' }).click();
    const dialog = page.getByRole('dialog', { name: 'New product' });
    // a bad field is named next to the field
    await dialog.getByLabel('Name').fill('Camp lantern');
    await dialog.getByLabel('Price').fill('19.5');
    await dialog.getByLabel('Currency code').fill('euro');
    await dialog.getByRole('button', { name: 'Create product' }).click();
    await dialog
      .locator('.field-error', { hasText: /^Currency code must be empty or a three-letter code/ })
      .waitFor({ timeout: WAIT });
    await expectAccessible('product-dialog');
    await dialog.getByLabel('Currency code').fill('EUR');
    await dialog.getByLabel('Currency symbol').fill('€');
    await dialog.getByRole('button', { name: 'Create product' }).click();
    await page.getByText('Product “Camp lantern” created.').waitFor({ timeout: WAIT });
    await expect(page.locator('tr[data-product-id]').last().innerText()).resolves.toContain('€19.50 EUR');
    await expectAccessible('products');
    await shoot('products');

    // from the catalogue to the wall's posts, then to one visible post with a picture
    const visible = await manage<{ data: { id: number }[] }>(
      'GET',
      '/walls/101/posts?status=visible&media=image&limit=1',
    );
    postId = visible.data[0]!.id;
    await page
      .getByRole('link', { name: /Posts of .* to tag products on/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: /Products on posts/ }).waitFor({ timeout: WAIT });
    await page.locator(`li[data-post-id="${postId}"]`).waitFor({ timeout: WAIT });
    await expectAccessible('shop');
    await shoot('shop');
    await page.getByRole('link', { name: `Tag products on post ${postId}` }).click();
    await page.getByRole('heading', { level: 1, name: `Products on post ${postId}` }).waitFor({ timeout: WAIT });

    const picture = page.getByTestId('hotspot-picture');
    const img = picture.locator('img');
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0), { timeout: WAIT })
      .toBe(true);
    const product = page.getByLabel('Product to place');
    await product.locator('option', { hasText: 'Camp lantern' }).waitFor({ state: 'attached', timeout: WAIT });
    await product.selectOption({ label: 'Camp lantern (€19.50 EUR)' });
    const box = (await img.boundingBox())!;
    const click = { x: box.width * 0.3, y: box.height * 0.4 };
    await img.click({ position: click });
    await page.getByText(/Camp lantern placed at/).waitFor({ timeout: WAIT });
    const lantern = () => c5(postId).then((list) => spot(list.find((p) => p.productName === 'Camp lantern')));
    await expect.poll(lantern, { timeout: WAIT }).toEqual({ left: expect.any(Number), top: expect.any(Number) });
    const placed = await lantern();
    expect(Math.abs(placed.left - 30)).toBeLessThanOrEqual(1);
    expect(Math.abs(placed.top - 40)).toBeLessThanOrEqual(1);

    // keyboard: focus the hotspot, three steps right, one big step down
    const hotspot = picture.getByRole('button', { name: /Camp lantern, at/ });
    await hotspot.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    const moved = { left: Math.round((placed.left + 3) * 100) / 100, top: Math.round((placed.top + 5) * 100) / 100 };
    await expect.poll(lantern, { timeout: WAIT }).toEqual(moved);
    await expect(hotspot.getAttribute('aria-label')).resolves.toContain('from the left');

    // drag it with the mouse to 70 % / 25 %
    const from = (await hotspot.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    const now = (await img.boundingBox())!;
    await page.mouse.move(now.x + now.width * 0.5, now.y + now.height * 0.3, { steps: 4 });
    await page.mouse.move(now.x + now.width * 0.7, now.y + now.height * 0.25, { steps: 4 });
    await page.mouse.up();
    await expect
      .poll(
        async () => {
          const at = await lantern();
          return Math.abs(at.left - 70) <= 1 && Math.abs(at.top - 25) <= 1;
        },
        { timeout: WAIT },
      )
      .toBe(true);

    // first in the tag order
    const order = () => page.locator('.tag-list li .tag-name').allInnerTexts();
    for (let at = (await order()).indexOf('Camp lantern'); at > 0; at--) {
      await page.getByRole('button', { name: 'Move up Camp lantern' }).click();
      await expect.poll(async () => (await order()).indexOf('Camp lantern'), { timeout: WAIT }).toBe(at - 1);
    }
    await expect.poll(async () => (await c5(postId))[0]?.productName, { timeout: WAIT }).toBe('Camp lantern');
    await expectAccessible('hotspots');
    await shoot('hotspots');
    expect(errors).toEqual([]);
  });

  it('makes a user key shown once that works in the public API, counts its calls per day, revokes it (401)', async () => {
    // the accounts are listed (and cached) just before another operator makes one: the screen still finds it
    await go('#/keys', /^Keys and usage/);
    const account = await manage<{ id: number }>('POST', '/accounts', {
      name: 'Quota Test Co.',
      plan: 'widget',
    });
    const wall = await manage<{ id: number }>('POST', '/walls', {
      accountId: account.id,
      name: 'Quota wall',
      url: 'quota',
    });
    await go(`#/keys/${account.id}`, 'Keys and usage · Quota Test Co.');
    await page.getByText('No user keys yet.').waitFor({ timeout: WAIT });
    await expect(page.getByTestId('calls-today').innerText()).resolves.toBe('0');
    await page.getByRole('button', { name: 'New user key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user key' });
    await dialog.getByText('Shown this once.').waitFor({ timeout: WAIT });
    const key = await dialog.getByLabel('User key').inputValue();
    expect(key.length).toBeGreaterThan(16);
    await dialog.getByRole('button', { name: 'Copy the user key' }).click();
    await dialog.getByText('Copied the user key.').waitFor({ timeout: WAIT });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectAccessible('keys-new');
    await dialog.getByRole('button', { name: 'Done' }).click();
    // listed by its prefix only: the secret is nowhere on the page any more
    await page.locator('tr[data-key-id]').first().waitFor({ timeout: WAIT });
    expect(await page.content()).not.toContain(key);

    const N = 3;
    for (let i = 0; i < N; i++) expect((await v2(`/widget/wallInfo/${wall.id}`, key)).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh usage' }).click();
    await expect.poll(() => page.getByTestId('calls-today').innerText(), { timeout: WAIT }).toBe(String(N));
    await expect(page.getByTestId('quota-left').innerText()).resolves.toBe(String(1000 - N));
    const today = page.locator('.chart-svg g[data-day]').last();
    await expect(today.getAttribute('data-calls')).resolves.toBe(String(N));
    expect(await page.locator('.chart-svg g[data-day]').count()).toBe(30);
    await expectAccessible('keys');
    await shoot('keys');
    await page.getByText('Calls per day as a table').click();
    await expect(page.locator('.chart-table tbody tr').first().innerText()).resolves.toMatch(new RegExp(`\\t${N}$`));

    await page.getByRole('button', { name: /^Revoke key / }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke key' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(/Key .* revoked\./).waitFor({ timeout: WAIT });
    await page.locator('tr[data-key-id] .badge-bad').waitFor({ timeout: WAIT });
    expect((await v2(`/widget/wallInfo/${wall.id}`, key)).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('copies an embed snippet whose wall shows on a page of another origin, with a live preview in the console', async () => {
    await go('#/embed/101', 'Embed a wall');
    await page.getByRole('button', { name: 'Make a publishable key for this wall' }).click();
    const keyField = page.getByLabel('Publishable key');
    await expect.poll(() => keyField.inputValue(), { timeout: WAIT }).toMatch(/^pk_/);
    await page.getByLabel('Layout').selectOption('grid');
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByLabel('Posts per page').fill('6');
    // the preview is the element itself, showing the wall's posts
    const preview = page.getByTestId('embed-preview');
    await expect
      .poll(() => preview.locator('wallery-wall [data-post-id]').count(), { timeout: WAIT })
      .toBeGreaterThan(0);
    expect(await preview.locator('wallery-wall').getAttribute('layout')).toBe('grid');
    // an operator's look at the preview counts nothing in the wall's analytics; the snippet counts
    expect(await preview.locator('wallery-wall').getAttribute('analytics')).toBe('off');
    await page.getByRole('button', { name: 'Copy the snippet' }).click();
    await page.getByText('Copied the snippet.').waitFor({ timeout: WAIT });
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toBe(await page.getByLabel('The snippet to paste into a web page').inputValue());
    expect(snippet).toContain(`src="${instance.url}/embed/v1/wallery.js"`);
    expect(snippet).toMatch(
      /<wallery-wall wall="101" key="pk_[^"]+" layout="grid" theme="dark" limit="6"><\/wallery-wall>/,
    );
    await expectAccessible('embed');
    await shoot('embed');

    host.html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Our wall</h1>\n${snippet}\n</body></html>`;
    const other = await context.newPage();
    const reads: string[] = [];
    other.on('request', (r) => {
      if (r.url().includes('/api/embed/v1/walls/101/posts')) reads.push(r.url());
    });
    await other.goto(`${host.origin}/`);
    await expect.poll(() => other.locator('wallery-wall [data-post-id]').count(), { timeout: WAIT }).toBeGreaterThan(0);
    // pages of the snippet's limit (more load when "Load more" scrolls into view)
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((u) => new URL(u).searchParams.get('limit') === '6')).toBe(true);
    await other.close();

    // revoked on the keys screen, the key reads nothing any more
    const pk = /key="(pk_[^"]+)"/.exec(snippet)![1]!;
    const embedApi = () => fetch(`${instance.url}/api/embed/v1/walls/101/posts?key=${encodeURIComponent(pk)}`);
    expect((await embedApi()).status).toBe(200);
    await go('#/keys/1', 'Keys and usage · Tonewood Music Co.');
    await page.getByLabel('Wall').selectOption({ label: 'Tonewood Music — #tonewood (#101)' });
    await page.locator('tr[data-prefix^="pk_"]').first().waitFor({ timeout: WAIT });
    const prefixes = await page
      .locator('tr[data-prefix]')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-prefix')!));
    const prefix = prefixes.find((p) => pk.startsWith(p))!;
    expect(prefix).toBeTruthy();
    await page
      .locator(`tr[data-prefix="${prefix}"]`)
      .getByRole('button', { name: `Revoke key ${prefix}` })
      .click();
    await page.getByRole('dialog', { name: 'Revoke key' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(/Key pk_.* revoked\./).waitFor({ timeout: WAIT });
    expect((await embedApi()).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('lists the test’s actions newest first, filters by actor, target type and account', async () => {
    // more entries than a page: price changes of the new product
    const products = await manage<{ data: { id: number; name: string }[] }>('GET', '/products?accountId=1');
    const lantern = products.data.find((p) => p.name === 'Camp lantern')!;
    const UPDATES = 15;
    for (let i = 1; i <= UPDATES; i++) await manage('PATCH', `/products/${lantern.id}`, { price: 19.5 + i });
    await go('#/audit', 'Audit log');
    const rows = page.locator('tr[data-audit-id]');
    await rows.first().waitFor({ timeout: WAIT });
    expect(await rows.count()).toBe(25);
    await expectAccessible('audit');
    await shoot('audit');
    await page.getByRole('button', { name: 'Show older entries' }).click();
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBeGreaterThan(25);
    expect(await page.getByRole('button', { name: 'Show older entries' }).count()).toBe(0);
    const seen = () =>
      rows.evaluateAll((trs) =>
        trs.map((tr) => ({ id: Number(tr.getAttribute('data-audit-id')), action: tr.getAttribute('data-action')! })),
      );
    const all = await seen();
    expect(all.map((r) => r.id)).toEqual([...all.map((r) => r.id)].sort((a, b) => b - a));
    // the last thing the test did comes first; the earlier ones in the order they were done
    expect(all.slice(0, UPDATES).every((r) => r.action === 'product.update')).toBe(true);
    const order = [
      'product.create',
      'user_key.create',
      'user_key.revoke',
      'publishable_key.create',
      'publishable_key.revoke',
    ];
    const at = order.map((a) => all.findIndex((r) => r.action === a));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => b - a)).toEqual(at);
    expect(at.at(-1)).toBe(UPDATES); // the revoke came just before the price changes

    await page.getByLabel('Target type').selectOption('product');
    await page.getByLabel('Actor (token name)').fill(ADMIN);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(async () => (await seen()).map((r) => r.action), { timeout: WAIT })
      .toEqual([...Array.from({ length: UPDATES }, () => 'product.update'), 'product.create']);
    await expect(rows.first().innerText()).resolves.toContain(ADMIN);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Account').selectOption({ label: 'Tonewood Music Co. (#1)' });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(async () => new Set((await seen()).map((r) => r.action)), { timeout: WAIT })
      .toEqual(
        new Set([
          'product.create',
          'product.update',
          'post.tags.add',
          'post.tags.update',
          'publishable_key.create',
          'publishable_key.revoke',
        ]),
      );
    expect(errors).toEqual([]);
  });

  it('shows a moderator of one account no writes and nothing of another account', async () => {
    const token = (
      JSON.parse(
        await cli(['tokens', 'create', '--json', '--name', 'cat-mod', '--role', 'moderator', '--account', '1']),
      ) as { token: string }
    ).token;
    const mod = await context.newPage();
    await mod.goto(`${instance.url}/console/#/walls`);
    await mod.getByLabel('Operator token').fill(token);
    await mod.getByRole('button', { name: 'Sign in' }).click();
    await mod.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
    const at = async (hash: string, heading: string | RegExp) => {
      await mod.evaluate((h) => (location.hash = h), hash);
      await mod.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: WAIT });
    };
    await at('#/products', 'Products · Tonewood Music Co.');
    await mod.locator('tr[data-product-id="501"]').waitFor({ timeout: WAIT });
    expect(await mod.getByRole('button', { name: /New product|Edit|Delete/ }).count()).toBe(0);
    await at(`#/walls/101/posts/${postId}/products`, `Products on post ${postId}`);
    await mod.getByRole('heading', { name: 'Tagged products, in order' }).waitFor({ timeout: WAIT });
    expect(await mod.getByLabel('Product to place').count()).toBe(0);
    expect(await mod.getByRole('button', { name: /Move up|Move down|Remove/ }).count()).toBe(0);
    await at('#/keys', 'Keys and usage · Tonewood Music Co.');
    await mod.locator('tr[data-key-id]').first().waitFor({ timeout: WAIT });
    expect(await mod.getByRole('button', { name: /New user key|New publishable key|Revoke/ }).count()).toBe(0);
    await at('#/audit', 'Audit log');
    await mod.locator('tr[data-audit-id]').first().waitFor({ timeout: WAIT });
    const accounts = await mod.locator('td[data-label="Account"]').allInnerTexts();
    expect(new Set(accounts)).toEqual(new Set(['Tonewood Music Co.']));
    expect(await mod.getByLabel('Account').locator('option').allInnerTexts()).toEqual([
      'All accounts',
      'Tonewood Music Co. (#1)',
    ]);
    await mod.close();
    expect(errors).toEqual([]);
  });
});
