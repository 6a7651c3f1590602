// The event screen obeys its host, in real Chromium on a real server: a post
// in the spotlight full-screen, an announcement slide with its sponsor label,
// a pause that takes no new post until the resume, a post hidden from the
// screen leaving at once, the QR code off, the schedule's closing screen; and
// the overlay for live streams (a lower third and a ticker on a transparent
// page); and a screen whose stream is refused, polling the first page, that
// pauses and spotlights all the same. Each through the management API, each
// waited for on the screen; screenshots of each for the docs, axe-clean.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { hasChromium, launchChromium, screenshot, seriousAxeFindings } from './browser.js';
import { startHostServer } from './host-page.js';
import { branding, LOOK_WALLS, settled, startLookServer, WAIT, withBranding, type LookServer } from './look.js';
import { USER_KEY } from './serve-data.js';

const SHOTS = 'docs/screenshots/';
const FULL_HD = { width: 1920, height: 1080 };
const WALL = LOOK_WALLS.varied;

describe.skipIf(!hasChromium)('the event screen under live control', () => {
  let look: LookServer;
  let browser: Browser;
  let token: string;
  let postIds: string[];
  const contexts: BrowserContext[] = [];

  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${look.srv.baseUrl}/api/manage/v1/walls/${WALL}/screen${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { responseData: Record<string, unknown> };
    expect(res.status, JSON.stringify(json)).toBeLessThan(300);
    return json.responseData;
  };

  beforeAll(async () => {
    const launching = launchChromium();
    look = await startLookServer();
    token = (await createOperatorToken({ db: look.srv.store.db, actor: CLI_ACTOR, now: look.srv.clock.now }, 'host'))
      .token;
    const page = await fetch(
      `${look.srv.baseUrl}/api/embed/v1/walls/${WALL}/posts?key=${look.keys.get(WALL)}&limit=10`,
    );
    postIds = ((await page.json()) as { posts: { id: string }[] }).posts.map((p) => p.id);
    browser = await launching;
  }, 180_000);
  // each screen's stream closes with its test (one client may hold only a few)
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });
  afterAll(async () => {
    await browser?.close();
    await look?.close();
  });

  async function open(path: string, options: { transparent?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: FULL_HD, reducedMotion: 'reduce' });
    contexts.push(context);
    const page = await context.newPage();
    if (!options.transparent) await withBranding(page, branding(look.srv.baseUrl));
    await page.goto(`${look.srv.baseUrl}${path}`);
    return page;
  }

  /** Until `selector` matches (or, with `gone`, no longer matches) in the wall's shadow root. */
  const inWall = (page: Page, selector: string, gone = false) =>
    page.waitForFunction(
      ([selector, gone]) => {
        const found = document.querySelector('wallery-wall')?.shadowRoot?.querySelector(selector as string);
        return gone ? !found : Boolean(found);
      },
      [selector, gone] as const,
      { timeout: WAIT },
    );
  /** Until every picture in the wall has loaded and been decoded. */
  const picturesShown = async (page: Page) => {
    await page.waitForFunction(
      () => [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('img')].every((i) => i.complete),
      undefined,
      { timeout: WAIT },
    );
    await page.evaluate(() =>
      Promise.all(
        [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('img')].map((i) =>
          i.decode().catch(() => undefined),
        ),
      ),
    );
  };
  const textOf = (page: Page, selector: string) =>
    page.evaluate(
      (selector) => document.querySelector('wallery-wall')!.shadowRoot!.querySelector(selector)?.textContent ?? '',
      selector,
    );

  it('spotlights a post, shows a sponsor slide over it, then the wall again', async () => {
    const page = await open(`/walls/${WALL}?key=${look.keys.get(WALL)}&layout=event&theme=dark`);
    await settled(page);
    await control('PATCH', '', { spotlight: { postId: Number(postIds[2]), seconds: 600 } });
    await inWall(page, `.spotlight [data-post-id="${postIds[2]}"]`);
    await settled(page);
    // the wall under it is out of reach: one post, full-screen
    expect(
      await page.evaluate(() =>
        document.querySelector('wallery-wall')!.shadowRoot!.querySelector('.stage')!.hasAttribute('inert'),
      ),
    ).toBe(true);
    await screenshot(page, { path: `${SHOTS}screen-spotlight-dark-1920.png` });
    expect(await seriousAxeFindings(page, 'spotlight')).toEqual([]);

    const slide = await control('POST', '/slides', {
      title: 'Thanks to Tonewood Music',
      text: 'Our sponsor tonight: <b>free</b> strings at their stand by the stage.',
      imageUrl: `${look.srv.baseUrl}/demo-media/avatar-1.svg`,
      sponsor: true,
    });
    await control('PATCH', '', { showSlide: { slideId: slide.id, seconds: 600 } });
    await inWall(page, '.slide h2');
    await settled(page);
    expect(await textOf(page, '.slide h2')).toBe('Thanks to Tonewood Music');
    // text, never markup
    expect(await textOf(page, '.slide-text')).toContain('<b>free</b>');
    expect(await textOf(page, '.slide .sponsor')).toBe('Sponsor');
    await screenshot(page, { path: `${SHOTS}screen-slide-dark-1920.png` });
    expect(await seriousAxeFindings(page, 'slide')).toEqual([]);

    await control('PATCH', '', { showSlide: null, spotlight: null });
    await inWall(page, '.takeover', true);
    await inWall(page, `.screen [data-post-id]`);
  });

  it('a paused screen takes no new post until resumed; a hidden post leaves at once; the QR code goes', async () => {
    const page = await open(`/walls/${WALL}?key=${look.keys.get(WALL)}&layout=event&theme=dark`);
    await settled(page);
    await inWall(page, '.qr');
    await control('PATCH', '', { paused: true });
    await inWall(page, '.banner .ctl[aria-pressed="true"]');
    const made = await fetch(`${look.srv.baseUrl}/api/v2/widget/create-post?user_key=${USER_KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ wallId: WALL, content: '<p>Sent during the pause</p>', authorName: 'Desk' }),
    });
    expect(made.status).toBe(200);
    // the stream sends the new post before the next screen state: once the QR code is gone, the post has been seen
    await control('PATCH', '', { qr: false });
    await inWall(page, '.qr', true);
    expect(await textOf(page, '.screen')).not.toContain('Sent during the pause');

    await control('PATCH', '', { paused: false });
    await page.waitForFunction(
      () =>
        document
          .querySelector('wallery-wall')!
          .shadowRoot!.querySelector('.screen')
          ?.textContent?.includes('Sent during the pause'),
      undefined,
      { timeout: WAIT },
    );
    const first = await page.evaluate(() =>
      document
        .querySelector('wallery-wall')!
        .shadowRoot!.querySelector('.screen [data-post-id]')!
        .getAttribute('data-post-id')!,
    );
    await control('PATCH', '', { hide: [Number(first)] });
    await inWall(page, `[data-post-id="${first}"]`, true);
    await control('PATCH', '', { unhide: [Number(first)], qr: true });
    await inWall(page, '.qr');
  });

  it('the schedule turns the screen off with a calm closing screen in the wall’s colours', async () => {
    const page = await open(`/walls/${WALL}?key=${look.keys.get(WALL)}&layout=event&theme=dark`);
    await settled(page);
    const past = new Date(look.srv.clock.now - 60_000).toISOString();
    await control('PUT', '/schedule', {
      schedule: [{ at: past, action: 'off', message: 'Back at 14:00 — enjoy the break' }],
    });
    await inWall(page, '.closed');
    await picturesShown(page);
    expect(await textOf(page, '.closed-text')).toBe('Back at 14:00 — enjoy the break');
    await screenshot(page, { path: `${SHOTS}screen-closed-dark-1920.png` });
    expect(await seriousAxeFindings(page, 'closed')).toEqual([]);
    await control('PUT', '/schedule', { schedule: [] });
    await inWall(page, '.closed', true);
  });

  it('a screen that cannot hold the stream open obeys through its polls: a pause, a spotlight, the resume', async () => {
    // the embed on another site's page, polling every second once its stream is refused
    const host = await startHostServer(look.srv.baseUrl);
    try {
      const context = await browser.newContext({ viewport: FULL_HD, reducedMotion: 'reduce' });
      contexts.push(context);
      let refused = 0;
      // a proxy that will not pass a stream: every attempt gets a 503
      await context.route(/\/api\/embed\/v1\/walls\/\d+\/stream/, (route) => {
        refused++;
        return route.fulfill({ status: 503, contentType: 'text/plain', body: 'no streams here' });
      });
      const page = await context.newPage();
      await page.goto(host.url({ wall: WALL, key: look.keys.get(WALL), layout: 'event', theme: 'dark', poll: 1 }));
      await inWall(page, '[data-live="polling"]');
      await inWall(page, '.banner .ctl[aria-pressed="false"]');

      await control('PATCH', '', { paused: true });
      await inWall(page, '.banner .ctl[aria-pressed="true"]');
      await control('PATCH', '', { spotlight: { postId: Number(postIds[3]), seconds: 600 } });
      await inWall(page, `.spotlight [data-post-id="${postIds[3]}"]`);
      await control('PATCH', '', { spotlight: null, paused: false });
      await inWall(page, '.takeover', true);
      await inWall(page, '.banner .ctl[aria-pressed="false"]');
      // it was polling all along: no stream ever opened
      expect(refused).toBeGreaterThan(0);
      expect(
        await page.evaluate(() =>
          document.querySelector('wallery-wall')!.shadowRoot!.querySelector('.wall')!.getAttribute('data-live'),
        ),
      ).toBe('polling');
    } finally {
      await host.close();
    }
  });

  it('the overlay for live streams: a lower third and a ticker on a transparent page', async () => {
    for (const style of ['lower-third', 'ticker'] as const) {
      const page = await open(`/walls/${WALL}/overlay?key=${look.keys.get(WALL)}&style=${style}`, {
        transparent: true,
      });
      await inWall(page, `.overlay.${style}`);
      const background = await page.evaluate(() => [
        getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.querySelector('wallery-wall')!.shadowRoot!.querySelector('.wall')!).backgroundColor,
      ]);
      expect(background).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
      await screenshot(page, { path: `${SHOTS}screen-overlay-${style}-1920.png`, omitBackground: true });
      expect(await seriousAxeFindings(page, style)).toEqual([]);
    }
    // the spotlight reaches the overlay too
    const page = await open(`/walls/${WALL}/overlay?key=${look.keys.get(WALL)}&style=lower-third`, {
      transparent: true,
    });
    await inWall(page, '.overlay.lower-third');
    await control('PATCH', '', { spotlight: { postId: Number(postIds[4]), seconds: 600 } });
    const author = await fetch(
      `${look.srv.baseUrl}/api/embed/v1/walls/${WALL}/posts?key=${look.keys.get(WALL)}&limit=10`,
    )
      .then((r) => r.json() as Promise<{ posts: { id: string; author: { name: string } }[] }>)
      .then((b) => b.posts.find((p) => p.id === postIds[4])!.author.name);
    await page.waitForFunction(
      (name) =>
        document
          .querySelector('wallery-wall')!
          .shadowRoot!.querySelector('.lt-author')
          ?.textContent?.trim()
          .startsWith(name),
      author,
      { timeout: WAIT },
    );
    await control('PATCH', '', { spotlight: null });
  });
});
