// <wallery-wall> in real Chromium against a real `wallery serve` (SQLite, a
// temporary directory), loaded with `wallery import` (test/web/serve-data.ts:
// the demo data set plus walls made for these checks) and keyed with
// `wallery walls keys create --origin` (and the management API), on host
// pages of another origin (host-page.ts): every layout in W2 order
// (screenshots at 375, 768 and 1280 px), cursor paging while posts arrive
// through W3, a post created live with W3, edited with the management API and
// hidden with the CLI, the shoppable dialog by keyboard, isolation
// from host CSS, accessibility scans, XSS attempts and the hosted page under
// its CSP. Screenshots go to test-results/screenshots/. What needs faults
// injected (dropped streams, a 503) stays on the fixture (wall.test.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EmbedPost } from '../../src/schemas/embed.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';
import { startHostServer, type HostServer } from './host-page.js';
import { DEMO_WALL, PINNED, serveDataFile, SHOPPABLE, USER_KEY, VIDEO, WALLS } from './serve-data.js';

const SHOTS = new URL('../../test-results/screenshots/', import.meta.url).pathname;
const LAYOUTS = ['masonry', 'grid', 'carousel', 'event'] as const;
const WIDTHS = [375, 768, 1280];
const WAIT = 60_000;
type Viewport = { width: number; height: number };
const WIDE: Viewport = { width: 1280, height: 900 };

/** The ids of the posts the wall on `page` shows, in DOM order (= wall order). */
const shownIds = (page: Page) =>
  page.locator('wallery-wall [data-post-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')!));

/** Until every picture in view has loaded (or failed), so a screenshot shows what a person sees. */
const picturesSettled = (page: Page) =>
  page.waitForFunction(
    () => {
      const root = document.querySelector('wallery-wall')!.shadowRoot!;
      return [...root.querySelectorAll('img')].every((img) => {
        const r = img.getBoundingClientRect();
        const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
        return !inView || img.complete;
      });
    },
    null,
    { timeout: WAIT },
  );

/** Until the wall says its stream is open. */
const streaming = (page: Page) =>
  page.waitForFunction(
    () => document.querySelector('wallery-wall')?.shadowRoot?.querySelector('[data-live=live]') != null,
    null,
    { timeout: WAIT },
  );

/** Until the element has announced `id` (wallery:post-added). */
const added = (page: Page, id: string) =>
  page.waitForFunction((id) => window.walleryEvents.some((e) => e.type === 'wallery:post-added' && e.id === id), id, {
    timeout: WAIT,
  });

const gone = (page: Page, id: string) =>
  page.waitForFunction(
    (id) => !document.querySelector('wallery-wall')!.shadowRoot!.querySelector(`[data-post-id="${id}"]`),
    id,
    { timeout: WAIT },
  );

describe.skipIf(!hasChromium)('the embed in Chromium on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let host: HostServer;
  let browser: Browser;
  let context: BrowserContext;
  /** the publishable key of each wall, for the host pages' origin and the server's own */
  const keys = new Map<number, string>();
  /** an operator token of the management API */
  let token: string;
  /** pages opened by a test, closed after it */
  let pages: Page[] = [];
  /** messages of alert()/confirm()/prompt() dialogs: script that ran */
  let dialogs: string[] = [];

  beforeAll(async () => {
    const started = performance.now();
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-embed-serve-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    // the server first: the data file names its /demo-media/ (the hosted page's CSP allows only its own pictures)
    instance = await startInstance({}, ['serve', '--database', database]);
    host = await startHostServer(instance.url);
    const file = join(dir, 'walls.json');
    writeFileSync(file, JSON.stringify(serveDataFile(Date.now(), `${instance.url}/demo-media`)));
    // its pictures are this very server's files, which no media worker runs here to copy: shown as they are
    const imported = await runCli(['import', file, '--database', database, '--skip-media']);
    expect(imported.code, imported.stderr).toBe(0);
    // the standard wall's key with the CLI, the others with the management API (each CLI run costs a process start)
    const origins = [host.origin, instance.url];
    const [made, tokenMade] = await Promise.all([
      runCli(
        ['walls', 'keys', 'create', String(WALLS.standard), '--json', '--database', database].concat(
          origins.flatMap((o) => ['--origin', o]),
        ),
      ),
      runCli(['tokens', 'create', '--name', 'browser-tests', '--json', '--database', database]),
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(tokenMade.code, tokenMade.stderr).toBe(0);
    keys.set(WALLS.standard, (JSON.parse(made.stdout) as { key: string }).key);
    token = (JSON.parse(tokenMade.stdout) as { token: string }).token;
    await Promise.all(
      [DEMO_WALL, WALLS.paging, WALLS.live, WALLS.xss].map(async (wall) => {
        const res = await manage('POST', `/walls/${wall}/publishable-keys`, { origins });
        expect(res.status).toBe(201);
        keys.set(wall, ((await res.json()) as { responseData: { key: string } }).responseData.key);
      }),
    );
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
    console.info(`[wallery] server started, data imported, keys made: ${Math.round(performance.now() - started)} ms`);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await Promise.all(pages.map((p) => p.close()));
    pages = [];
    expect(dialogs, 'no dialog opened by script').toEqual([]);
    dialogs = [];
  });

  /** A fresh page of the shared context (or of `ctx`), sized `viewport`. */
  async function newPage(viewport: Viewport = WIDE, ctx = context): Promise<Page> {
    const page = await ctx.newPage();
    pages.push(page);
    await page.setViewportSize(viewport);
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    return page;
  }

  /** Opens the host page showing `wall` and waits for wallery:ready. */
  async function open(
    wall: number,
    query: Record<string, string | number> = {},
    viewport: Viewport = WIDE,
    page?: Page,
  ): Promise<Page> {
    page ??= await newPage(viewport);
    await page.goto(host.url({ wall, key: keys.get(wall)!, ...query }));
    await page.waitForFunction(() => window.walleryEvents.some((e) => e.type === 'wallery:ready'), null, {
      timeout: WAIT,
    });
    return page;
  }

  /** The wall's visible posts as W2 gives them (pinned first, newest first). */
  async function w2Ids(wall: number, limit = 500): Promise<string[]> {
    const res = await fetch(`${instance.url}/api/v2/widget/posts/${wall}?user_key=${USER_KEY}&limit=${limit}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { responseData: { posts: { postId: string }[] }[] };
    return body.responseData[0]!.posts.map((p) => String(p.postId));
  }

  /** Creates a post with W3 as the account; returns its id (the one post W2 did not show before). */
  async function createPost(wall: number, body: Record<string, string>): Promise<string> {
    const before = new Set(await w2Ids(wall));
    const res = await fetch(`${instance.url}/api/v2/widget/create-post?user_key=${USER_KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ wallId: wall, ...body }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const fresh = (await w2Ids(wall)).filter((id) => !before.has(id));
    expect(fresh).toHaveLength(1);
    return fresh[0]!;
  }

  /** A call of the management API as the operator. */
  function manage(method: string, path: string, body: unknown): Promise<Response> {
    return fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  async function cli(args: string[]): Promise<void> {
    const done = await runCli([...args, '--database', database]);
    expect(done.code, done.stderr).toBe(0);
  }

  for (const layout of LAYOUTS) {
    it(`renders the ${layout} layout in W2 order at 375, 768 and 1280 px (screenshots)`, async () => {
      const expected = await w2Ids(WALLS.standard, 20);
      expect(expected[0]).toBe(String(PINNED));
      for (const width of WIDTHS) {
        const page = await open(
          WALLS.standard,
          { layout, theme: 'light', limit: 20 },
          { width, height: width < 500 ? 812 : 900 },
        );
        expect(await shownIds(page), `${layout} at ${width}`).toEqual(expected);
        // first posts on screen: from navigation start to the first page rendered
        const readyAt = await page.evaluate(() => window.walleryEvents.find((e) => e.type === 'wallery:ready')!.t);
        console.info(
          `[wallery] ${layout} at ${width} px: first posts shown ${Math.round(readyAt)} ms after navigation`,
        );
        expect(readyAt).toBeLessThan(10_000); // 1 s on an idle machine; generous under load
        // the old pinned post is first and marked, highlighted ones are marked
        expect(await page.locator(`wallery-wall [data-post-id="${PINNED}"] .flag`).textContent()).toBe('Pinned');
        expect(await page.locator('wallery-wall .flag', { hasText: 'Featured' }).count()).toBeGreaterThan(0);
        await picturesSettled(page);
        await screenshot(page, { path: `${SHOTS}${layout}-${width}.png` });
        await page.close();
      }
      // the dark theme too
      const page = await open(WALLS.standard, { layout, theme: 'dark' });
      await picturesSettled(page);
      await screenshot(page, { path: `${SHOTS}${layout}-dark-1280.png` });
    });
  }

  it('shows every item of a carousel post with its alt text, and the hidden post nowhere', async () => {
    const page = await open(WALLS.standard, { layout: 'masonry' });
    const alts = await page
      .locator('wallery-wall [data-post-id="20103"] .media img')
      .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')));
    expect(alts).toEqual([1, 2, 3].map((i) => `Trail scene 3, picture ${i} of 3`));
    expect(await shownIds(page)).not.toContain('20160');
  });

  it('shows the demo wall (screenshots of real-looking content)', async () => {
    const expected = await w2Ids(DEMO_WALL, 20);
    for (const [query, name] of [
      [{ layout: 'masonry', theme: 'light' }, 'demo-masonry-1280'],
      [{ layout: 'event', theme: 'dark' }, 'demo-event-dark-1280'],
    ] as const) {
      const page = await open(DEMO_WALL, query);
      expect(await shownIds(page)).toEqual(expected);
      await picturesSettled(page);
      const box = (await page.locator('wallery-wall').boundingBox())!;
      await screenshot(page, { path: `${SHOTS}${name}.png`, clip: { x: 0, y: box.y, width: 1280, height: 900 } });
    }
  });

  it('loads a video only when asked, except on an event screen', async () => {
    const page = await open(WALLS.standard, { layout: 'grid' });
    expect(await page.locator('wallery-wall video').count()).toBe(0);
    const play = page.locator(`wallery-wall [data-post-id="${VIDEO}"] .facade`);
    expect(await play.textContent()).toContain('Play video');
    await play.focus();
    await page.keyboard.press('Enter');
    const video = page.locator(`wallery-wall [data-post-id="${VIDEO}"] video`);
    await video.waitFor({ timeout: WAIT });
    expect(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.autoplay, v.controls])).toEqual([
      true,
      true,
      true,
    ]);
    const motion = await browser.newContext({ viewport: WIDE }); // motion allowed
    try {
      const screen = await open(WALLS.standard, { layout: 'event' }, WIDE, await newPage(WIDE, motion));
      const auto = screen.locator(`wallery-wall [data-post-id="${VIDEO}"] video`);
      await auto.waitFor({ timeout: WAIT });
      expect(await auto.evaluate((v: HTMLVideoElement) => [v.muted, v.autoplay, v.loop])).toEqual([true, true, true]);
    } finally {
      pages = pages.filter((p) => p.context() !== motion);
      await motion.close();
    }
  });

  it('pages with the cursor to every post exactly once while new posts arrive through W3', async () => {
    const page = await open(WALLS.paging, { layout: 'grid', limit: 10 });
    await streaming(page);
    const made: string[] = [];
    for (let round = 0; round < 20; round++) {
      // a newer post arrives between two pages
      made.push(
        await createPost(WALLS.paging, { content: `<p>Arrived while paging, ${round}</p>`, authorName: 'Desk' }),
      );
      const before = (await shownIds(page)).length;
      const more = await page.evaluate(() => {
        const button = document.querySelector('wallery-wall')!.shadowRoot!.querySelector<HTMLButtonElement>('.more');
        button?.click();
        return button !== null;
      });
      if (!more) break;
      await page.waitForFunction(
        (n) => {
          const root = document.querySelector('wallery-wall')!.shadowRoot!;
          return root.querySelectorAll('[data-post-id]').length > n + 1 || !root.querySelector('.more');
        },
        before,
        { timeout: WAIT },
      );
    }
    expect(made.length).toBeGreaterThanOrEqual(2); // 4 pages to load: one new post before each
    const expected = await w2Ids(WALLS.paging);
    expect(expected).toHaveLength(45 + made.length);
    await expect.poll(() => shownIds(page), { timeout: WAIT }).toEqual(expected);
    const ids = await shownIds(page);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows a post created with W3 live, edits it in place (management API) and drops it when hidden with the CLI', async () => {
    const page = await open(WALLS.live, { layout: 'masonry' });
    await streaming(page);
    const started = performance.now();
    const id = await createPost(WALLS.live, { content: '<p>Fresh from the stream</p>', authorName: 'Race desk' });
    await added(page, id);
    const took = performance.now() - started;
    console.info(`[wallery] a post created with W3 shown ${Math.round(took)} ms later`);
    expect(took).toBeLessThan(2_000 * 5); // generous under load; the stream itself is immediate
    expect(await shownIds(page)).toEqual(await w2Ids(WALLS.live)); // first: the newest
    // the announcement for screen readers
    await page.waitForFunction(
      () =>
        document.querySelector('wallery-wall')!.shadowRoot!.querySelector('[aria-live=polite]')!.textContent ===
        '1 new post',
      null,
      { timeout: WAIT },
    );
    // edited and highlighted by the operator (management API): changed in place
    const patched = await manage('PATCH', `/walls/${WALLS.live}/posts/${id}`, {
      content: '<p>Edited at the desk</p>',
      highlighted: true,
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    await page.waitForFunction(
      (id) => {
        const post = document.querySelector('wallery-wall')!.shadowRoot!.querySelector(`[data-post-id="${id}"]`);
        return (
          post?.querySelector('.text')?.textContent === 'Edited at the desk' &&
          post.querySelector('.flag')?.textContent === 'Featured'
        );
      },
      id,
      { timeout: WAIT },
    );
    expect(await shownIds(page)).toEqual(await w2Ids(WALLS.live));
    // hidden with the CLI (another process: the server learns it from the database file)
    await cli(['posts', 'hide', String(WALLS.live), id]);
    await gone(page, id);
    expect(await shownIds(page)).toEqual(await w2Ids(WALLS.live));
  });

  it('opens the shoppable dialog by keyboard: hotspots in place, focus kept inside, Escape returns focus', async () => {
    // the products as the embed API gives them: C5 order, the positions of the data file
    const res = await fetch(
      `${instance.url}/api/embed/v1/walls/${WALLS.standard}/posts?key=${keys.get(WALLS.standard)}`,
    );
    const shoppable = ((await res.json()) as { posts: EmbedPost[] }).posts.find(
      (p) => p.id === String(SHOPPABLE.postId),
    )!;
    expect(shoppable.products.map((p) => [p.name, p.price, p.left, p.top])).toEqual(
      SHOPPABLE.products.map((p) => [p.name, p.price, p.left, p.top]),
    );
    const page = await open(WALLS.standard, { layout: 'grid', theme: 'light' });
    const deepActive = () =>
      page.evaluate(() => {
        let el: Element | null = document.activeElement;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        return {
          cls: el?.getAttribute('class') ?? '',
          inDialog: !!el?.closest('dialog'),
          post: el?.closest('[data-post-id]')?.getAttribute('data-post-id') ?? null,
        };
      });
    // Tab to the post's shop button
    let found = false;
    for (let i = 0; i < 200 && !found; i++) {
      await page.keyboard.press('Tab');
      const a = await deepActive();
      found = a.cls.includes('shop') && a.post === shoppable.id;
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.locator('wallery-wall dialog');
    await page.waitForFunction(() => document.querySelector('wallery-wall')!.shadowRoot!.querySelector('dialog')!.open);
    expect((await deepActive()).inDialog).toBe(true);
    expect(await dialog.getAttribute('aria-labelledby')).toBe('wallery-shop-title');
    await page.waitForFunction(() =>
      [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll<HTMLImageElement>('dialog img')].every(
        (i) => i.complete,
      ),
    );
    // hotspots at left/top % of the picture
    const img = (await page.locator('wallery-wall .stage img').boundingBox())!;
    const spots = page.locator('wallery-wall .hotspot');
    expect(await spots.count()).toBe(2);
    for (const [i, product] of shoppable.products.entries()) {
      const box = (await spots.nth(i).boundingBox())!;
      expect(Math.abs(box.x + box.width / 2 - (img.x + (img.width * product.left) / 100))).toBeLessThan(1.5);
      expect(Math.abs(box.y + box.height / 2 - (img.y + (img.height * product.top) / 100))).toBeLessThan(1.5);
      expect(await spots.nth(i).getAttribute('aria-label')).toContain(product.name);
    }
    const cards = page.locator('wallery-wall .product');
    expect(await cards.count()).toBe(2);
    expect(await cards.nth(0).textContent()).toContain('$129.90');
    // Tab and Shift+Tab never leave the dialog
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i < 8 ? 'Tab' : 'Shift+Tab');
      expect((await deepActive()).inDialog).toBe(true);
    }
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await screenshot(page, { path: `${SHOTS}shop-dialog-1280.png` });
    await page.keyboard.press('Escape');
    await page.waitForFunction(
      () => !document.querySelector('wallery-wall')!.shadowRoot!.querySelector('dialog')!.open,
    );
    const back = await deepActive();
    expect(back.cls).toContain('shop');
    expect(back.post).toBe(shoppable.id);
  });

  it('is not changed by the host page’s CSS, and adds none to it', async () => {
    const signature = (page: Page) =>
      page.evaluate(() => {
        const root = document.querySelector('wallery-wall')!.shadowRoot!;
        const props = ['color', 'background-color', 'font-size', 'font-family', 'line-height', 'letter-spacing'];
        props.push(
          'text-transform',
          'word-spacing',
          'text-align',
          'display',
          'visibility',
          'margin-top',
          'padding-top',
        );
        props.push('border-top-style', 'border-top-color', 'outline-style');
        return [...root.querySelectorAll('*')].map((el) => {
          const cs = getComputedStyle(el);
          return `${el.tagName}.${el.getAttribute('class') ?? ''}: ${props.map((p) => cs.getPropertyValue(p)).join(' | ')}`;
        });
      });
    const plain = await open(WALLS.standard, { layout: 'masonry', theme: 'light' });
    const before = await signature(plain);
    const hostile = await open(WALLS.standard, { layout: 'masonry', theme: 'light', css: 'hostile' });
    const after = await signature(hostile);
    expect(after).toEqual(before);
    expect(after.length).toBeGreaterThan(50);
    await picturesSettled(hostile);
    await screenshot(hostile.locator('wallery-wall'), { path: `${SHOTS}hostile-css-1280.png` });
    // nothing of ours in the page's own styles: only its one <style>
    expect(await plain.evaluate(() => [document.styleSheets.length, document.adoptedStyleSheets.length])).toEqual([
      1, 0,
    ]);
    // and the page's own heading keeps the page's look
    expect(await plain.locator('h1.host-title').evaluate((h) => getComputedStyle(h).fontFamily)).toBe(
      await plain.evaluate(() => getComputedStyle(document.body).fontFamily),
    );
  });

  for (const layout of LAYOUTS) {
    it(`has no serious or critical accessibility violation in the ${layout} layout, light and dark (axe-core)`, async () => {
      for (const theme of ['light', 'dark']) {
        // the first 8 posts hold every kind, the pinned, a highlighted and the shoppable post, and a CTA
        const page = await open(WALLS.standard, { layout, theme, limit: 8 });
        const result = await new AxeBuilder({ page }).analyze();
        const bad = result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(bad, `${layout} ${theme}`).toEqual([]);
        await page.close();
      }
    });
  }

  it('never runs script from post fields (names, URLs, HTML, colours, products), imported or made with W3', async () => {
    const page = await newPage();
    // the corpus's https URLs name hosts that do not exist: refused here, not looked up
    await page.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    await open(WALLS.xss, { layout: 'masonry' }, WIDE, page);
    await streaming(page);
    const made = await createPost(WALLS.xss, {
      content: '<p>live<img src=x onerror="window.xss=30"><script>window.xss=31</script></p>',
      authorName: '<svg onload="window.xss=32">Trudy',
    });
    await added(page, made);
    expect(await shownIds(page)).toEqual(await w2Ids(WALLS.xss));
    // everything that could load has loaded or failed
    await page.waitForFunction(() =>
      [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('img')].every((i) => i.complete),
    );
    const found = await page.evaluate(() => {
      const root = document.querySelector('wallery-wall')!.shadowRoot!;
      const all = [...root.querySelectorAll('*')];
      return {
        xss: window.xss ?? null,
        badHref: all.map((e) => e.getAttribute('href')).filter((h) => h !== null && !/^(https?:|mailto:)/i.test(h)),
        badSrc: all.map((e) => e.getAttribute('src')).filter((s) => s !== null && !/^https?:/i.test(s)),
        handlers: all.flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')),
        tags: [...new Set(all.map((e) => e.tagName.toLowerCase()))],
        name: root.querySelector('[data-post-id="20490"] .name')?.textContent,
      };
    });
    expect(found.xss).toBeNull();
    expect(found.badHref).toEqual([]);
    expect(found.badSrc).toEqual([]);
    expect(found.handlers).toEqual([]);
    for (const tag of ['script', 'iframe', 'svg', 'math', 'object', 'embed', 'form', 'base', 'meta', 'style', 'link']) {
      expect(found.tags).not.toContain(tag);
    }
    expect(found.name).toContain('Eve'); // shown as text
    // the shop dialog of a hostile post too
    await page.locator('wallery-wall [data-post-id="20490"] .shop').click();
    await page.waitForFunction(() => document.querySelector('wallery-wall')!.shadowRoot!.querySelector('dialog')!.open);
    expect(await page.evaluate(() => window.xss ?? null)).toBeNull();
  });

  it('lets the key’s own origin frame the hosted page; a page of another origin shows nothing of it', async () => {
    const foreign = await startHostServer(instance.url, '127.0.0.2');
    try {
      const hosted = `${instance.url}/walls/trail-wall?key=${keys.get(WALLS.standard)}`;
      // the key's origin (the host page's): the wall shows in the frame, posts and all
      const own = await newPage();
      await own.goto(host.url({ frame: hosted }));
      const framed = own.frameLocator('iframe');
      await framed.locator('wallery-wall [data-post-id]').first().waitFor({ timeout: WAIT });
      expect(await framed.locator('wallery-wall [data-post-id]').count()).toBeGreaterThan(0);
      await screenshot(own, { path: `${SHOTS}framed-own-origin.png` });
      // another origin: the browser refuses to render the page in the frame (frame-ancestors)
      const other = await newPage();
      const refusals: string[] = [];
      other.on('console', (m) => /frame-ancestors/.test(m.text()) && refusals.push(m.text()));
      await other.goto(foreign.url({ frame: hosted }));
      await other.waitForFunction(() => (window as unknown as { frameLoaded?: boolean }).frameLoaded === true, null, {
        timeout: WAIT,
      });
      const child = other.frames().find((f) => f !== other.mainFrame())!;
      expect(child.url()).not.toContain('/walls/');
      expect(await child.locator('wallery-wall').count()).toBe(0);
      // "Framing 'http://127.0.0.1:…/' violates … frame-ancestors http://127.0.0.1:… http://127.0.0.1:…"
      expect(refusals.join('\n')).toContain(`Framing '${instance.url}/'`);
      await screenshot(other, { path: `${SHOTS}framed-foreign-origin.png` });
      // nor can that page frame the API itself: the browser sends no Origin, but says the request is cross-site
      const api = await newPage();
      const apiUrl = `${instance.url}/api/embed/v1/walls/${WALLS.standard}/posts?key=${keys.get(WALLS.standard)}`;
      await api.goto(foreign.url({ frame: apiUrl }));
      await api.waitForFunction(() => (window as unknown as { frameLoaded?: boolean }).frameLoaded === true, null, {
        timeout: WAIT,
      });
      const answer = await api
        .frames()
        .find((f) => f !== api.mainFrame())!
        .locator('body')
        .textContent();
      expect(JSON.parse(answer!)).toMatchObject({
        responseCode: 403,
        responseMessage: expect.stringMatching(/origin/),
      });
    } finally {
      await foreign.close();
    }
  });

  it('serves the hosted page under its strict CSP with no violation (event layout, live)', async () => {
    const page = await newPage({ width: 1280, height: 800 });
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(v: string): void }).reportViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      ),
    );
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const res = await page.goto(`${instance.url}/walls/trail-wall?key=${keys.get(WALLS.standard)}`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await streaming(page);
    expect(await page.locator('wallery-wall .event').count()).toBe(1);
    expect(await page.locator('wallery-wall .live').textContent()).toContain('Live');
    expect(await shownIds(page)).toEqual(await w2Ids(WALLS.standard, 20));
    await picturesSettled(page);
    await screenshot(page, { path: `${SHOTS}hosted-event-1280.png` });
    expect(violations).toEqual([]);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
