// The hosted page rendered on the server, in real Chromium against a real
// Wallery (in-process, SQLite, the demo data set): without JavaScript it
// shows the first page of posts (a crawler's or a link preview's view), with
// its name as title and Open Graph meta; with JavaScript the component takes
// the same posts over from the page's JSON island — no request for them, no
// post twice — and a post made live through W3 still appears within 2 s.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, demoDataFile } from '../../src/demo/demo-data.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { jsonIsland } from '../../src/http/web/page.js';
import { importDataFile } from '../../src/store/datafile.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';

const WALL = DEMO_KEYS[0].wallId;
const USER_KEY = DEMO_KEYS[0].key;
const PAGE_SIZE = 20;
const WAIT = 60_000;

interface Island {
  wall: unknown;
  posts: { posts: { id: string }[]; nextCursor: string | null };
  limit: number;
}

/** Post ids a person sees: the component's (shadow DOM) and the server's cards (light DOM), visible ones only. */
const visibleIds = (page: Page) =>
  page.evaluate(() => {
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const host = document.querySelector('wallery-wall')!;
    const shadow = [...(host.shadowRoot?.querySelectorAll('[data-post-id]') ?? [])]
      .filter(shown)
      .map((e) => e.getAttribute('data-post-id')!);
    const light = [...host.querySelectorAll('[data-ssr-post-id]')]
      .filter(shown)
      .map((e) => e.getAttribute('data-ssr-post-id')!);
    return [...shadow, ...light];
  });

describe('the JSON island', () => {
  it('cannot end its <script> or open a comment, and reads back as the same value', () => {
    const value = { html: '</script><script>alert(1)</script><!-- & \u2028', n: 1 };
    const text = jsonIsland(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('the hosted page, rendered on the server', () => {
  let srv: TestServer;
  let key: string;
  let url: string;
  let browser: Browser | undefined;
  beforeAll(async () => {
    srv = await startTestServer();
    // the demo pictures, served by this very server
    await importDataFile(srv.store, demoDataFile(Date.now(), `${srv.baseUrl}/demo-media`), Date.now());
    key = (await createPublishableKey({ db: srv.store.db, actor: CLI_ACTOR, now: Date.now() }, WALL, {})).key;
    url = `${srv.baseUrl}/walls/${WALL}?key=${key}`;
    if (hasChromium) browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  it('holds the embed API’s own first answers, the name as title and preview meta', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const html = await res.text();
    console.info(`[wallery] hosted page HTML: ${Buffer.byteLength(html)} B`);
    const island = JSON.parse(
      /<script type="application\/json" id="wallery-initial">([^<]*)<\/script>/.exec(html)![1]!,
    ) as Island;
    const wall = await (await fetch(`${srv.baseUrl}/api/embed/v1/walls/${WALL}?key=${key}`)).json();
    const posts = await (
      await fetch(`${srv.baseUrl}/api/embed/v1/walls/${WALL}/posts?key=${key}&limit=${PAGE_SIZE}`)
    ).json();
    expect(island.wall).toEqual(wall);
    expect(island.posts).toEqual(posts);
    expect(island.limit).toBe(PAGE_SIZE);
    const name = (wall as { wall: { name: string } }).wall.name;
    expect(html).toContain(`<title>${name}</title>`);
    expect(html).toContain(`<meta property="og:title" content="${name}">`);
    expect(html).toMatch(/<meta property="og:description" content="[^"]+">/);
    expect(html).toMatch(/<meta name="twitter:card" content="summary(_large_image)?">/);
    // the first picture, an absolute URL
    const image = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
    if (image) expect(image).toMatch(/^https?:\/\//);
    // every card's text went through the sanitizer: the demo data's script stays text-free
    const cards = html.slice(html.indexOf('<wallery-wall'), html.indexOf('</wallery-wall>'));
    expect(cards).not.toMatch(/<script|onerror=|javascript:/i);
    expect(cards.match(/data-ssr-post-id=/g)).toHaveLength(island.posts.posts.length);
  });

  it.skipIf(!hasChromium)(
    'shows the first page without JavaScript',
    async () => {
      const context = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(url);
        expect(await page.title()).toBe('Tonewood Music — #tonewood');
        const ids = await visibleIds(page);
        expect(ids).toHaveLength(PAGE_SIZE);
        expect(new Set(ids).size).toBe(PAGE_SIZE);
        // the text is there to read
        await expect(page.locator('.wallery-card .wallery-author').first().isVisible()).resolves.toBe(true);
        await screenshot(page, { path: 'docs/screenshots/hosted-page-no-js.png' });
      } finally {
        await context.close();
      }
    },
    WAIT * 2,
  );

  it.skipIf(!hasChromium)(
    'is taken over by the component without a request for the first page, no post twice, live after',
    async () => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const firstPageReads: string[] = [];
        page.on('request', (r) => {
          if (/\/api\/embed\/v1\/walls\/\d+(\/posts)?\?/.test(r.url())) firstPageReads.push(r.url());
        });
        const started = Date.now();
        // masonry: every post of the first page in the document (the event screen shows a page that fits the screen)
        await page.goto(`${url}&layout=masonry`);
        await page.waitForFunction(
          () =>
            (document.querySelector('wallery-wall')?.shadowRoot?.querySelectorAll('[data-post-id]').length ?? 0) > 0,
          null,
          { timeout: WAIT },
        );
        console.info(
          `[wallery] hosted page: first post rendered by the component ${Date.now() - started} ms after navigation`,
        );
        // the island was used: the wall was not asked for; its posts once at most (the stream's opening resync)
        await page.waitForFunction(
          () => document.querySelector('wallery-wall')?.shadowRoot?.querySelector('[data-live=live]') != null,
          null,
          { timeout: WAIT },
        );
        expect(firstPageReads.filter((u) => !u.includes('/posts?'))).toEqual([]);
        const ids = await visibleIds(page);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBeGreaterThanOrEqual(PAGE_SIZE);

        // a post made through W3 appears within 2 s
        const made = await fetch(`${srv.baseUrl}/api/v2/widget/create-post?user_key=${USER_KEY}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ wallId: WALL, content: 'Server-rendered, then live', authorName: 'Race desk' }),
        });
        expect(made.status).toBe(200);
        const at = Date.now();
        await page.waitForFunction(
          () =>
            [...(document.querySelector('wallery-wall')?.shadowRoot?.querySelectorAll('[data-post-id]') ?? [])].some(
              (e) => e.textContent?.includes('Server-rendered, then live'),
            ),
          null,
          { timeout: WAIT },
        );
        const latency = Date.now() - at;
        console.info(`[wallery] hosted page: a W3 post appeared after ${latency} ms`);
        expect(latency).toBeLessThan(2000);
        const after = await visibleIds(page);
        expect(new Set(after).size).toBe(after.length);
      } finally {
        await context.close();
      }
    },
    WAIT * 3,
  );
});
