// <wallery-wall> in real Chromium against the fixture embed API
// (fixture-server.ts), for what needs faults injected that a real server does
// not produce on demand: a stream that drops (reconnect and catch up), a
// stream refused with 503 (polling with If-None-Match), and the element moved
// in the page (exactly one stream open again). Everything else runs against a
// real `wallery serve` in wall-serve.test.ts.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/poll.js';
import { hasChromium, launchChromium } from './browser.js';
import { testBuild } from './build.js';
import { makePost, startFixture, type Fixture } from './fixture-server.js';
import type { EmbedPost } from '../../web/embed/types.js';

const WAIT = 60_000;

const bySort = (posts: EmbedPost[]) => [...posts].sort((a, b) => (a.sort < b.sort ? 1 : a.sort > b.sort ? -1 : 0));

/** `count` posts of every kind, pictures from the fixture's /demo-media/. */
const somePosts = (media: string, count: number) => Array.from({ length: count }, (_, n) => makePost(n, {}, media));

describe.skipIf(!hasChromium)('the embed in Chromium, faults injected', () => {
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
    fx.streamMode = 'open';
    fx.log.length = 0;
  });

  async function open(query: string): Promise<Page> {
    context ??= await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.on('dialog', (d) => {
      throw new Error(`unexpected dialog: ${d.message()}`);
    });
    await page.goto(`${fx.baseUrl}/host?${query}`);
    await page.waitForFunction(() => window.walleryEvents.some((e) => e.type === 'wallery:ready'), null, {
      timeout: WAIT,
    });
    return page;
  }

  const shownIds = (page: Page) =>
    page.locator('wallery-wall [data-post-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')!));

  it('reconnects when the stream drops and catches up on what it missed', async () => {
    fx.setPosts(somePosts(fx.baseUrl, 4));
    const page = await open('layout=grid');
    await eventually(
      'the stream open',
      async () => fx.openStreams(),
      (n) => n > 0,
      WAIT,
    );
    fx.dropStreams();
    const missed = makePost(90, { type: 'text', createdAt: new Date().toISOString() });
    fx.posts.push(missed); // announced to nobody: the stream was down
    await page.waitForFunction(
      (id) => window.walleryEvents.some((e) => e.type === 'wallery:post-added' && e.id === id),
      missed.id,
      { timeout: WAIT },
    );
    await eventually(
      'the stream open again',
      async () => fx.openStreams(),
      (n) => n > 0,
      WAIT,
    );
    const live = makePost(91, { type: 'text', createdAt: new Date(Date.now() + 1000).toISOString() });
    fx.upsert(live);
    await page.waitForFunction(
      (id) => window.walleryEvents.some((e) => e.type === 'wallery:post-added' && e.id === id),
      live.id,
      { timeout: WAIT },
    );
    expect(await shownIds(page)).toEqual(bySort(fx.posts).map((p) => p.id));
  });

  it('gives each post’s text the language the embed API detected, and none when it is unknown', async () => {
    const pt = makePost(80, {
      type: 'text',
      lang: 'pt',
      html: '<p>A banda tocou até a meia-noite e toda a multidão cantou junto.</p>',
    });
    const unknown = makePost(81, { type: 'text', lang: null });
    // a value that is not a language code is not written into the page
    const odd = makePost(82, { type: 'text', lang: 'pt" onclick="x' });
    fx.setPosts([pt, unknown, odd]);
    const page = await open('layout=grid');
    const langOf = (id: string) =>
      page
        .locator(`wallery-wall [data-post-id="${id}"] .text`)
        .evaluate((el) => (el.hasAttribute('lang') ? el.getAttribute('lang') : null));
    expect(await langOf(pt.id)).toBe('pt');
    expect(await langOf(unknown.id)).toBeNull();
    expect(await langOf(odd.id)).toBeNull();
  });

  it('starts again when moved in the page', async () => {
    fx.setPosts(somePosts(fx.baseUrl, 3));
    const page = await open('layout=grid');
    await page.evaluate(() => {
      const wall = document.querySelector('wallery-wall')!;
      const box = document.createElement('section');
      document.body.append(box);
      box.append(wall); // disconnect + connect
    });
    await page.waitForFunction(
      () => window.walleryEvents.filter((e) => e.type === 'wallery:ready').length === 2,
      null,
      {
        timeout: WAIT,
      },
    );
    await eventually(
      'one stream open',
      async () => fx.openStreams(),
      (n) => n === 1,
      WAIT,
    );
    const post = makePost(95, { type: 'text', createdAt: new Date().toISOString() });
    fx.upsert(post);
    await page.waitForFunction(
      (id) => window.walleryEvents.some((e) => e.type === 'wallery:post-added' && e.id === id),
      post.id,
      { timeout: WAIT },
    );
  });

  it('lets the cards in view glide to the places a live post makes (and move at once with reduced motion)', async () => {
    fx.setPosts(somePosts(fx.baseUrl, 6));
    const glides: Record<string, number> = {};
    for (const motion of ['no-preference', 'reduce'] as const) {
      const own = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: motion });
      try {
        const page = await own.newPage();
        // every animation a card starts, counted where it starts (an animation may end before a probe looks)
        await page.addInitScript(() => {
          const w = window as unknown as { glides: number };
          w.glides = 0;
          const animate = Element.prototype.animate;
          Element.prototype.animate = function (this: Element, frames, options) {
            const first = Array.isArray(frames) ? (frames[0] as { transform?: string } | undefined) : undefined;
            if (this.matches('.posts > li') && first?.transform?.startsWith('translate(')) w.glides++;
            return animate.call(this, frames, options);
          };
        });
        await page.goto(`${fx.baseUrl}/host?layout=masonry`);
        await page.waitForFunction(() => window.walleryEvents.some((e) => e.type === 'wallery:ready'), null, {
          timeout: WAIT,
        });
        await eventually(
          'the stream open',
          async () => fx.openStreams(),
          (n) => n > 0,
          WAIT,
        );
        const post = makePost(motion === 'reduce' ? 97 : 96, { type: 'text', createdAt: new Date().toISOString() });
        fx.upsert(post);
        await page.waitForFunction(
          (id) => window.walleryEvents.some((e) => e.type === 'wallery:post-added' && e.id === id),
          post.id,
          { timeout: WAIT },
        );
        glides[motion] = await page.evaluate(() => (window as unknown as { glides: number }).glides);
      } finally {
        await own.close();
      }
    }
    // the six cards were all in view; each moved for the new one
    expect(glides['no-preference']).toBeGreaterThanOrEqual(3);
    expect(glides['reduce']).toBe(0);
  });

  it('falls back to polling with If-None-Match when the stream answers 503', async () => {
    fx.streamMode = 'refuse';
    fx.setPosts(somePosts(fx.baseUrl, 4));
    const page = await open('layout=event&poll=1');
    await page.waitForFunction(
      () => document.querySelector('wallery-wall')!.shadowRoot!.querySelector('[data-live=polling]'),
      null,
      { timeout: WAIT },
    );
    // unchanged polls are revalidated: the browser sends the ETag, the server answers 304
    await eventually(
      'a 304 to a poll',
      async () => fx.log.filter((l) => l.path.endsWith('/posts') && l.ifNoneMatch && l.status === 304).length,
      (n) => n > 0,
      WAIT,
    );
    expect(fx.log.some((l) => l.path.endsWith('/stream') && l.status === 503)).toBe(true);
    const post = makePost(88, { type: 'text', createdAt: new Date().toISOString() });
    fx.posts.push(post); // no stream: only a poll can find it
    await page.waitForFunction(
      (id) => window.walleryEvents.some((e) => e.type === 'wallery:post-added' && e.id === id),
      post.id,
      { timeout: WAIT },
    );
    fx.posts = fx.posts.filter((p) => p.id !== post.id);
    await page.waitForFunction(
      (id) => !document.querySelector('wallery-wall')!.shadowRoot!.querySelector(`[data-post-id="${id}"]`),
      post.id,
      { timeout: WAIT },
    );
    // the live state says so on the event screen
    expect(await page.locator('wallery-wall .live').textContent()).toContain('Updating');
  });
});
