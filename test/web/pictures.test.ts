// Pictures on the hosted page in real Chromium, served by Wallery from its
// own copies (a folder storage; the pictures made with sharp at test time and
// processed as the media worker does): every picture at its own aspect ratio
// in masonry, its size reserved before it loads (no layout shift), a ThumbHash
// placeholder behind it; a copy whose file is gone from the storage and a
// picture Wallery has no copy of leave their post as text — no broken image
// anywhere; authors without a picture get initials; and the page asks no host
// but its own for anything. axe finds nothing serious; screenshots at 390,
// 1440 and 1920 px go to docs/screenshots/. Embedded on another site (no
// local-media), an original that cannot load is dropped the same way. The
// console's queue shows the copies, says which posts' pictures are being
// fetched or failed (and why), and shows no broken picture either.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile } from '../../src/demo/demo-data.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { FolderStorage } from '../../src/media/folder-storage.js';
import { mediaKey } from '../../src/media/names.js';
import type { DataFile } from '../../src/store/datafile.js';
import { inlineProcessor, insertPicture, setMediaState, storePicture, type BlobSpec } from '../helpers/media.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';
import { startHostServer, type HostServer } from './host-page.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 60_000;
const WALL = 701;
/** Originals on a host that refuses connections: they can never load */
const GONE_HOST = 'http://127.0.0.1:9';
const HOUR = 3_600_000;

/** Posts with a picture Wallery has a copy of: its size and colours (a gradient with a sun, made at test time). */
const PICTURES = [
  {
    id: 70101,
    w: 1600,
    h: 900,
    from: '#1e3c72',
    to: '#2a5298',
    sun: '#ffd86b',
    text: 'Sunrise over the ridge — worth every step of the 5 a.m. start.',
  },
  {
    id: 70102,
    w: 800,
    h: 1200,
    from: '#134e5e',
    to: '#71b280',
    sun: '#f9f871',
    text: 'Three peaks, two friends, one very tired dog.',
  },
  {
    id: 70103,
    w: 1000,
    h: 1000,
    from: '#c04848',
    to: '#480048',
    sun: '#ffb199',
    text: 'Behind the scenes: setting up the main tent.',
  },
  {
    id: 70104,
    w: 2400,
    h: 800,
    from: '#0f2027',
    to: '#2c5364',
    sun: '#9be7ff',
    text: 'The whole valley from the last switchback.',
  },
  { id: 70105, w: 600, h: 1200, from: '#41295a', to: '#2f0743', sun: '#f7c6ff', text: 'The old lighthouse at dusk.' },
  {
    id: 70106,
    w: 1200,
    h: 900,
    from: '#ee9ca7',
    to: '#ffdde1',
    sun: '#ffffff',
    text: 'Fresh batch of maple cookies at the stand until 6 pm!',
  },
] as const;
/** Its copy's files are gone from the storage: the picture fails, the post shows as text. */
const MISSING = 70107;
/** Wallery has no copy (fetching failed): left out on the hosted page. */
const NO_COPY = 70108;
/** No picture at all. */
const TEXT = 70109;
/** Still being fetched: a wall that waits does not show it. */
const PENDING = 70110;
const AUTHORS = ['Ana Ruiz', 'Ben Okafor', 'Chloé Martin', 'Dev Patel'];

async function picture(w: number, h: number, from: string, to: string, sun: string): Promise<Buffer> {
  const r = Math.round(Math.min(w, h) * 0.16);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${Math.round(w * 0.68)}" cy="${Math.round(h * 0.34)}" r="${r}" fill="${sun}"/>
    <path d="M0 ${h} L${Math.round(w * 0.3)} ${Math.round(h * 0.55)} L${Math.round(w * 0.55)} ${Math.round(h * 0.78)} L${Math.round(w * 0.8)} ${Math.round(h * 0.5)} L${w} ${Math.round(h * 0.7)} L${w} ${h} Z" fill="#00000055"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

const avatarPicture = (colour: string) =>
  sharp({ create: { width: 256, height: 256, channels: 3, background: colour } })
    .png()
    .toBuffer();

function dataFile(now: number): DataFile {
  const iso = (ms: number) => new Date(ms).toISOString();
  const ids = [...PICTURES.map((p) => p.id), MISSING, NO_COPY, TEXT, PENDING];
  const texts: Record<number, string> = {
    [MISSING]: 'Our favourite picnic spot, now with a view of the lake.',
    [NO_COPY]: 'Rain or shine, the crew shows up. #community',
    [TEXT]: 'Who else is at the harbour stage tonight? Doors open at 7.',
    [PENDING]: 'Still on its way.',
  };
  return {
    version: 1,
    accounts: demoDataFile(now).accounts,
    products: [],
    walls: [
      {
        id: WALL,
        accountId: 1,
        name: 'Pictures Wall',
        url: 'pictures-wall',
        profanity: 0,
        // it waits for its posts' pictures (walls show a post at once by default)
        mediaWait: true,
        createdAt: iso(now - 100 * 24 * HOUR),
        feeds: [
          {
            id: WALL * 10,
            name: 'pictures',
            source: 'RSS',
            sourceType: 'feed',
            createdAt: iso(now - 50 * 24 * HOUR),
            updatedAt: iso(now),
            posts: ids.map((id, n) => ({
              id,
              networkName: ['Mastodon', 'Bluesky', 'Instagram', 'RSS'][n % 4]!,
              postType: id === TEXT ? 1 : 2,
              media: id === TEXT ? ('text' as const) : ('image' as const),
              content: `<p>${PICTURES.find((p) => p.id === id)?.text ?? texts[id]}</p>`,
              picture: id === TEXT ? '' : `${GONE_HOST}/p/${id}.jpg`,
              linkUrl: `https://social.example/p/${id}`,
              authorName: AUTHORS[n % 4]!,
              username: AUTHORS[n % 4]!.split(' ')[0]!.toLowerCase(),
              userPicture: `${GONE_HOST}/u/${n % 4}.png`,
              alt: id === TEXT ? '' : `Picture ${n + 1}`,
              createdAt: iso(now - (n + 1) * HOUR),
            })),
          },
        ],
      },
    ],
  };
}

/** The ids of the posts shown, in order. */
const shownIds = (page: Page) =>
  page
    .locator('wallery-wall [data-post-id]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-post-id'))));

/** Scrolls through the page so every lazy picture starts, then waits until each one has loaded or was dropped. */
async function picturesSettled(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const step = await page.evaluate(() => innerHeight);
  for (let y = 0; y < height; y += step) {
    await page.evaluate((top) => scrollTo({ top, behavior: 'instant' }), y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
  // A lazy picture the quick scroll passed before the browser started it would wait for ever: from here on
  // each picture loads now (checked on every poll, as a re-render may make new elements).
  await page.waitForFunction(
    () =>
      [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('img')].every((i) => {
        if (i.loading === 'lazy') i.loading = 'eager';
        return i.complete;
      }),
    null,
    { timeout: WAIT },
  );
  // a failed picture is dropped on the next render: wait for that too
  await page.waitForFunction(
    () =>
      [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('img')].every((i) => i.naturalWidth > 0),
    null,
    { timeout: WAIT },
  );
}

describe.skipIf(!hasChromium)('pictures on the hosted page, from Wallery’s copies', () => {
  let srv: TestServer;
  let storage: FolderStorage;
  let dir: string;
  let key: string;
  let browser: Browser;
  let host: HostServer;
  const blobs = new Map<number, BlobSpec>();

  beforeAll(async () => {
    const launching = launchChromium();
    dir = mkdtempSync(join(tmpdir(), 'wallery-pictures-'));
    storage = new FolderStorage(dir);
    const now = Date.now();
    srv = await startTestServer({ data: dataFile(now), now, media: { storage, processor: inlineProcessor() } });
    const db = srv.store.db;
    for (const p of PICTURES) {
      const blob = await storePicture(db, storage, await picture(p.w, p.h, p.from, p.to, p.sun));
      blobs.set(p.id, blob);
      await insertPicture(db, {
        postId: p.id,
        slot: 'item:0',
        sourceUrl: `${GONE_HOST}/p/${p.id}.jpg`,
        state: 'ready',
        hash: blob.hash,
      });
      await setMediaState(db, p.id, 'ready');
    }
    // avatars: two of the four authors have a copy
    const avatars = [
      await storePicture(db, storage, await avatarPicture('#2a5298')),
      await storePicture(db, storage, await avatarPicture('#c04848')),
    ];
    const ids = [...PICTURES.map((p) => p.id), MISSING, NO_COPY, TEXT, PENDING];
    for (const [n, id] of ids.entries()) {
      if (n % 4 < 2)
        await insertPicture(db, {
          postId: id,
          slot: 'avatar',
          sourceUrl: `${GONE_HOST}/u/${n % 4}.png`,
          state: 'ready',
          hash: avatars[n % 4]!.hash,
        });
    }
    const missing = await storePicture(db, storage, await picture(1200, 800, '#56ab2f', '#a8e063', '#ffffff'));
    await storage.delete([
      mediaKey(missing.hash, missing.master!),
      ...missing.widths.map((w) => mediaKey(missing.hash, `${w}.webp`)),
    ]);
    await insertPicture(db, {
      postId: MISSING,
      slot: 'item:0',
      sourceUrl: `${GONE_HOST}/p/${MISSING}.jpg`,
      state: 'ready',
      hash: missing.hash,
    });
    await setMediaState(db, MISSING, 'ready');
    await insertPicture(db, {
      postId: NO_COPY,
      slot: 'item:0',
      sourceUrl: `${GONE_HOST}/p/${NO_COPY}.jpg`,
      state: 'failed',
      reason: 'connection refused',
      attempts: 5,
    });
    await setMediaState(db, NO_COPY, 'failed');
    await setMediaState(db, TEXT, 'none');
    await insertPicture(db, {
      postId: PENDING,
      slot: 'item:0',
      sourceUrl: `${GONE_HOST}/p/${PENDING}.jpg`,
      state: 'pending',
    });
    await setMediaState(db, PENDING, 'pending');
    key = (await createPublishableKey({ db, actor: CLI_ACTOR, now }, WALL, {})).key;
    host = await startHostServer(srv.baseUrl);
    browser = await launching;
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await srv?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The hosted page of the wall at `width` × `height`, its requests recorded, its layout shifts summed. */
  async function hosted(width: number, height: number, query = 'layout=masonry') {
    const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.addInitScript(() => {
      type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
      const w = window as unknown as { shifts: { value: number; posts: number[] }[]; violations: string[] };
      w.shifts = [];
      w.violations = [];
      // each shift with the posts that moved
      const postOf = (node: Node | null | undefined) => {
        const el = node instanceof Element ? node : node?.parentElement;
        const article = el?.closest('[data-post-id]') ?? el?.querySelector('[data-post-id]');
        return article ? Number(article.getAttribute('data-post-id')) : 0;
      };
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Shift[])
          if (!e.hadRecentInput) w.shifts.push({ value: e.value, posts: (e.sources ?? []).map((x) => postOf(x.node)) });
      }).observe({ type: 'layout-shift', buffered: true });
      document.addEventListener('securitypolicyviolation', (e) =>
        w.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const res = await page.goto(`${srv.baseUrl}/walls/${WALL}?key=${key}&${query}`);
    expect(res!.status()).toBe(200);
    await page.waitForFunction(
      () => (document.querySelector('wallery-wall')?.shadowRoot?.querySelectorAll('[data-post-id]').length ?? 0) > 0,
      null,
      { timeout: WAIT },
    );
    return { page, context, requests, csp: res!.headers()['content-security-policy']! };
  }

  it('tells the component to show local media, under a policy that allows pictures from this origin and data: only', async () => {
    const res = await fetch(`${srv.baseUrl}/walls/${WALL}?key=${key}`);
    const html = await res.text();
    expect(html).toMatch(/<wallery-wall [^>]* local-media>\n/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("img-src 'self' data:;");
    expect(csp).toContain("media-src 'self' https:;");
  });

  for (const [width, height] of [
    [390, 844],
    [1440, 900],
    [1920, 1080],
  ] as const) {
    it(`shows every picture at its own aspect ratio in masonry, none broken, asking only its own origin (${width} × ${height})`, async () => {
      const { page, context, requests } = await hosted(width, height);
      try {
        await picturesSettled(page);
        // the wall waits for pictures: the post still being fetched is not there; the others are, in order
        expect(await shownIds(page)).toEqual([...PICTURES.map((p) => p.id), MISSING, NO_COPY, TEXT]);
        const boxes = await page.evaluate(() =>
          [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('article')].map((a) => {
            const img = a.querySelector<HTMLImageElement>('.media img');
            const r = img?.getBoundingClientRect();
            return {
              id: Number(a.dataset.postId),
              box: r ? { w: r.width, h: r.height } : null,
              natural: img ? { w: img.naturalWidth, h: img.naturalHeight } : null,
              placeholder: img?.style.backgroundImage ?? null,
              loaded: img?.hasAttribute('data-loaded') ?? false,
              srcset: img?.getAttribute('srcset') ?? null,
              initials: a.querySelector('.avatar.initials')?.textContent ?? null,
              avatar: a.querySelector<HTMLImageElement>('img.avatar')?.naturalWidth ?? null,
            };
          }),
        );
        for (const p of PICTURES) {
          const shown = boxes.find((b) => b.id === p.id)!;
          expect(shown.box, `post ${p.id}`).not.toBeNull();
          // the rendered box has the picture's own ratio (within 2 %): nothing cropped, nothing stretched
          expect(Math.abs(shown.box!.w / shown.box!.h / (p.w / p.h) - 1), `post ${p.id}`).toBeLessThan(0.02);
          expect(shown.srcset, `post ${p.id}`).toContain(`/media/${blobs.get(p.id)!.hash}/320 320w`);
          expect(shown.placeholder, `post ${p.id}`).toMatch(/^url\("data:image\/png;base64,/);
          expect(shown.loaded, `post ${p.id}`).toBe(true);
        }
        // the copy whose file is gone, and the picture without a copy: their posts show as text
        for (const id of [MISSING, NO_COPY, TEXT]) expect(boxes.find((b) => b.id === id)!.box, `post ${id}`).toBeNull();
        // authors: a copy of their picture, or their initials
        expect(boxes.filter((b) => b.avatar !== null).every((b) => b.avatar! > 0)).toBe(true);
        expect(boxes.filter((b) => b.initials !== null).map((b) => b.initials)).toEqual(
          expect.arrayContaining(['CM', 'DP']),
        );
        // the pictures' boxes were there before they loaded: nothing moved, but what follows the picture
        // whose file is gone (dropped when it failed, which no one can know before asking)
        const shifts = await page.evaluate(
          () => (window as unknown as { shifts: { value: number; posts: number[] }[] }).shifts,
        );
        const after = new Set([MISSING, NO_COPY, TEXT]);
        // (a shift of no post — the wall's own frame as it first renders on a starved CPU — is not the pictures')
        const moved = shifts.filter((x) => x.posts.some((id) => id !== 0 && !after.has(id)));
        expect(
          moved.reduce((sum, x) => sum + x.value, 0),
          JSON.stringify(shifts),
        ).toBeLessThan(0.01);
        expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
        const foreign = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== srv.baseUrl);
        expect(foreign).toEqual([]);
        expect(requests.some((u) => u.includes('/media/'))).toBe(true);
        await screenshot(page, { path: `${SHOTS}hosted-pictures-${width}.png` });
      } finally {
        await context.close();
      }
    });
  }

  it('has no serious or critical accessibility violation (axe-core), masonry and event', async () => {
    for (const query of ['layout=masonry', 'layout=event&theme=dark']) {
      const { page, context } = await hosted(1440, 900, query);
      try {
        await picturesSettled(page);
        const result = await new AxeBuilder({ page }).analyze();
        const bad = result.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(bad, query).toEqual([]);
        if (query.includes('event')) await screenshot(page, { path: `${SHOTS}hosted-pictures-event-1440.png` });
      } finally {
        await context.close();
      }
    }
  });

  it('embedded on another site: the copies where there are some, an original that cannot load dropped', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    try {
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(host.url({ wall: WALL, key, layout: 'grid' }));
      await page.waitForFunction(() => window.walleryEvents.some((e) => e.type === 'wallery:ready'), null, {
        timeout: WAIT,
      });
      // the original of the post without a copy is asked for — and fails
      await page.waitForFunction(
        (host) => !document.querySelector('wallery-wall')!.shadowRoot!.querySelector(`img[src^="${host}"]`),
        GONE_HOST,
        { timeout: WAIT },
      );
      await picturesSettled(page);
      expect(requests.some((u) => u.startsWith(`${GONE_HOST}/p/${NO_COPY}.jpg`))).toBe(true);
      const withPicture = await page.evaluate(() =>
        [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('article')]
          .filter((a) => a.querySelector('.media img'))
          .map((a) => Number(a.dataset.postId)),
      );
      expect(withPicture).toEqual(PICTURES.map((p) => p.id));
    } finally {
      await context.close();
    }
  });

  it('the console’s queue shows the copies, what is being fetched or failed (and why), and no broken picture', async () => {
    const { token } = await createOperatorToken({ db: srv.store.db, actor: CLI_ACTOR, now: Date.now() }, 'pictures');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    try {
      await page.goto(`${srv.baseUrl}/console/#/walls`);
      await page.getByLabel('Operator token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
      await page.goto(`${srv.baseUrl}/console/#/walls/${WALL}/queue`);
      await page.getByLabel('State').selectOption('all');
      await expect
        .poll(() => page.locator('article[data-post-id]').count(), { timeout: WAIT })
        .toBe(PICTURES.length + 4);
      // every picture in the list loaded, or gave way to the next source and in the end to a box that says so
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += 800) await page.evaluate((top) => scrollTo({ top, behavior: 'instant' }), y);
      await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
      // a lazy picture the quick scroll passed before the browser started it loads now (see picturesSettled)
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('article img')].every((i) => {
            if (i.loading === 'lazy') i.loading = 'eager';
            return i.complete && i.naturalWidth > 0;
          }),
        null,
        { timeout: WAIT },
      );
      const cards = await page.locator('article[data-post-id]').evaluateAll((els) =>
        els.map((a) => ({
          id: Number(a.getAttribute('data-post-id')),
          picture: a.querySelector<HTMLImageElement>('img.post-media')?.getAttribute('src') ?? null,
          none: a.querySelector('.post-media-none')?.textContent ?? null,
          badges: [...a.querySelectorAll('.post-state .badge')].map((b) => b.textContent),
        })),
      );
      const card = (id: number) => cards.find((c) => c.id === id)!;
      for (const p of PICTURES)
        expect(card(p.id).picture, `post ${p.id}`).toBe(
          `${srv.baseUrl}/media/${blobs.get(p.id)!.hash}/${Math.max(...blobs.get(p.id)!.widths.filter((w) => w <= 1080))}`,
        );
      expect(card(MISSING).none).toBe('No picture');
      expect(card(NO_COPY)).toMatchObject({ none: 'No picture' });
      expect(card(NO_COPY).badges).toContain('pictures failed: connection refused');
      expect(card(PENDING).badges).toContain('pictures being fetched');
      expect(card(TEXT).none).toBe('Text');
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(bad).toEqual([]);
      // the posts whose pictures are not all in, at the top of the screenshot
      await page.locator(`article[data-post-id="${MISSING}"]`).evaluate((a) => a.scrollIntoView({ block: 'start' }));
      await screenshot(page, { path: `${SHOTS}console-queue-pictures-1280.png` });

      // the hotspot editor places products on the same copy
      const first = PICTURES[0]!;
      await page.goto(`${srv.baseUrl}/console/#/walls/${WALL}/posts/${first.id}/products`);
      await expect
        .poll(() => page.getByTestId('hotspot-picture').locator('img').getAttribute('src'), { timeout: WAIT })
        .toMatch(new RegExp(`^${srv.baseUrl}/media/${blobs.get(first.id)!.hash}/`));
    } finally {
      await context.close();
    }
  });
});
