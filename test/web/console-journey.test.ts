// A marketer's day in the console, in real Chromium on a real `wallery
// serve` (SQLite, feeds polled in-process), with no CLI after the first
// admin token: a wall with its look (the slug made from its name, the
// Create button in view at 800 and 768 px of height), a feed on a local
// upstream whose refusal reads as a sentence naming the fix — the
// private-network setting, which the test then applies as an operator
// would (the server restarted with it) — a post approved, highlighted,
// given a call to action and its text corrected in its editor (reached from
// the wall's Posts tab), the wall's page opened from "Open the wall" at the head
// of the wall's screens (after consenting to a key) showing
// exactly that, and the QR code downloaded and decoded to the wall's link.
// No screen shows an API field path. Screenshots:
// docs/screenshots/console-new-wall-1280x800.png, console-open-wall-{1280,375}.png.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_LABELS, PRIVATE_NETWORKS_SETTING } from '../../web/console/src/api/messages.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { rssXml, startFeeds, type FeedFixture } from '../ingest/fixtures/feeds.js';
import { hasChromium, launchChromium, screenshot, seriousAxeFindings } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 800 };

/** The API's field paths no screen may show: dotted or camelCase (a plain word such as "name" may be prose). */
const RAW_PATHS = Object.keys(FIELD_LABELS).filter((p) => /[.[]|[a-z][A-Z]/.test(p));

describe.skipIf(!hasChromium)('a marketer runs the console alone, in Chromium', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let upstream: FeedFixture;
  let browser: Browser;
  let context: BrowserContext;
  let token = '';

  /** `wallery serve` on the test's database; on `port` when given (the same console URL after a restart). */
  const serve = (env: Record<string, string> = {}, port?: string) =>
    startInstance({ INGEST: 'on', ...(port ? { PORT: port } : {}), ...env }, ['serve', '--database', database]);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-journey-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    [upstream, instance] = await Promise.all([startFeeds(), serve()]);
    // the first admin token: the one thing the CLI does
    const made = await runCli(['tokens', 'create', '--name', 'mara', '--json', '--database', database]);
    expect(made.code, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { token: string }).token;
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce', acceptDownloads: true });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A management API call with the admin token; its responseData. */
  async function manage(method: string, path: string, body?: unknown) {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    // the test reads a few fields of several shapes; the API's own suites check them in full
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return ((await res.json()) as { responseData: Record<string, any> }).responseData;
  }

  async function expectAccessible(page: Page, label: string) {
    expect(await seriousAxeFindings(page, label)).toEqual([]);
  }

  /** Nothing the page shows names a field by its API path (connector.url, branding.accent, dailyCallLimit…). */
  async function expectNoRawPaths(page: Page, label: string) {
    const text = await page.locator('body').innerText();
    expect(
      RAW_PATHS.filter((p) => text.includes(p)),
      label,
    ).toEqual([]);
  }

  it('from an account to a branded wall on a big screen and a poster, without the CLI', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // refused calls (400) are the API's answers, not the console's errors
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: WAIT });

    // an account, on the Accounts screen
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByRole('button', { name: 'New account' }).click();
    const newAccount = page.getByRole('dialog', { name: 'New account' });
    await newAccount.getByLabel('Name').fill('Harbour Events');
    await newAccount.getByLabel('Plan').selectOption('enterprise');
    await newAccount.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Account “Harbour Events” created.').waitFor({ timeout: WAIT });
    const accounts = (await manage('GET', '/accounts')) as { data: { id: number; name: string }[] };
    const account = accounts.data.find((a) => a.name === 'Harbour Events')!;
    expect(account, 'the account the console made').toBeDefined();

    // a wall with its look; the slug follows the name as it is typed
    await page.getByRole('link', { name: 'Walls', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'New wall' }).click();
    const form = page.getByRole('dialog', { name: 'New wall' });
    await form.getByLabel('Account').selectOption({ label: `Harbour Events (#${account.id})` });
    await form.getByLabel('Name').pressSequentially('Harbour Fest 2026!');
    await expect(form.getByLabel('URL slug').inputValue()).resolves.toBe('harbour-fest-2026');
    await form.getByLabel('Theme').selectOption('light');
    await form.getByLabel('Accent colour', { exact: true }).fill('#b5361c');
    await form.getByLabel('Background colour', { exact: true }).fill('#f4efe6');
    await form.getByLabel('Call to post').fill('Post with #harbourfest');
    // the Create button stays in view however far the form scrolls, at 800 and 768 px of height
    const create = form.getByRole('button', { name: 'Create wall' });
    for (const height of [800, 768]) {
      await page.setViewportSize({ width: WIDE.width, height });
      const box = (await create.boundingBox())!;
      expect(box.y + box.height, `Create wall at ${height} px`).toBeLessThanOrEqual(height - 8);
      await expect(
        create.evaluate(
          (b) => document.elementFromPoint(b.getBoundingClientRect().x + 5, b.getBoundingClientRect().y + 5) === b,
        ),
      ).resolves.toBe(true);
    }
    await page.setViewportSize(WIDE);
    await form.evaluate((dialog) => dialog.scrollTo(0, 0));
    await screenshot(page, { path: join(SHOTS, 'console-new-wall-1280x800.png') });
    await expectAccessible(page, 'new wall');
    await create.click();
    await page.getByText('Wall “Harbour Fest 2026!” created.').waitFor({ timeout: WAIT });
    const row = page.locator('tr[data-wall-id]', { hasText: 'Harbour Fest 2026!' });
    const wallId = Number(await row.getAttribute('data-wall-id'));
    expect(await manage('GET', `/walls/${wallId}`)).toMatchObject({
      url: 'harbour-fest-2026',
      moderation: 'manual',
      branding: { accent: '#b5361c', background: '#f4efe6', callToPost: 'Post with #harbourfest' },
    });

    // a feed on a local upstream; a bad address first, named by its label
    const items = [
      ['Harbour lights', 'Teh harbour lights at dusk'],
      ['Pier stage', 'Soundcheck on the pier stage'],
      ['Food trucks', 'Twelve food trucks by the water'],
    ];
    upstream.documents.set('/harbour.xml', {
      body: rssXml(
        items.map(([title, text], i) => ({
          guid: `harbour-${i}`,
          title: title!,
          link: `https://harbour.example/${i}`,
          pubDate: new Date(Date.now() - (10 - i) * 60_000).toUTCString(),
          description: `${text}.`,
        })),
      ),
      type: 'application/rss+xml',
    });
    await row.getByRole('link', { name: 'Feeds of Harbour Fest 2026!' }).click();
    await page.getByRole('heading', { level: 1, name: /Feeds · Harbour Fest 2026!/ }).waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'Add feed' }).click();
    const feedForm = page.getByRole('dialog', { name: 'Add feed' });
    await feedForm.getByLabel('Name').fill('Harbour notes');
    await feedForm.getByLabel('Feed URL').fill('harbour.example/feed.xml');
    await feedForm.getByRole('button', { name: 'Add feed' }).click();
    await feedForm
      .locator('.field-error', { hasText: 'Feed URL must be a web address starting with http:// or https://.' })
      .waitFor({ timeout: WAIT });
    await expectNoRawPaths(page, 'the feed form’s refusal');
    await feedForm.getByLabel('Feed URL').fill(`${upstream.origin}/harbour.xml`);
    await feedForm.getByRole('button', { name: 'Add feed' }).click();
    await page.getByText('Feed “Harbour notes” added.').waitFor({ timeout: WAIT });
    const feedId = (await manage('GET', `/walls/${wallId}/feeds`)).data[0].id as number;

    // the server refuses the loopback address; its first poll (the scheduler's) is over before "Poll now"
    await expect
      .poll(async () => (await manage('GET', `/walls/${wallId}/feeds/${feedId}`)).ingest?.lastPolledAt ?? null, {
        timeout: WAIT,
      })
      .not.toBeNull();
    await page.getByRole('button', { name: 'Poll now Harbour notes' }).click();
    const failure = page.locator('.note-error[role="alert"]', { hasText: 'Polling “Harbour notes” failed.' });
    await failure.waitFor({ timeout: WAIT });
    const why = await failure.innerText();
    expect(why).toMatch(/local or private network/);
    expect(why).toContain(`set ${PRIVATE_NETWORKS_SETTING}`);
    expect(why).not.toMatch(/refused: 127\.0\.0\.1/); // the poller's words stay with the feed's details
    // said in red, and the feed's status says the same (not the success colour)
    expect((await page.locator('.announce').allInnerTexts()).filter((t) => t.includes('Harbour notes'))).toEqual([]);
    await page.locator('[data-feed-id] .ingest-why', { hasText: PRIVATE_NETWORKS_SETTING }).waitFor({ timeout: WAIT });
    await expectAccessible(page, 'feeds, failing');
    await expectNoRawPaths(page, 'feeds');

    // the fix, as the sentence says: the operator restarts Wallery with the setting (same database, same address)
    const port = new URL(instance.url).port;
    await instance.stop();
    instance = await serve({ [PRIVATE_NETWORKS_SETTING]: '127.0.0.0/8' }, port);
    await page.reload();
    await page.getByRole('button', { name: 'Poll now Harbour notes' }).click();
    await expect
      .poll(async () => (await manage('GET', `/walls/${wallId}/posts?state=pending`)).data.length, { timeout: WAIT })
      .toBe(3);

    // approve the first post in the moderation queue
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Moderation' }).click();
    const posts = (await manage('GET', `/walls/${wallId}/posts?state=pending`)).data as {
      id: number;
      content: string;
    }[];
    const post = posts.find((p) => p.content.includes('Teh harbour lights'))!;
    const card = page.locator(`article[data-post-id="${post.id}"]`);
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(async () => (await manage('GET', `/walls/${wallId}/posts/${post.id}`)).state, { timeout: WAIT })
      .toBe('approved');

    // highlight it, give it a call to action, correct its text: in its editor, from the wall's Posts tab
    const cta = { text: 'Get tickets', url: 'https://harbour.example/tickets' };
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Posts', exact: true }).click();
    await page.locator(`li.post-row[data-post-id="${post.id}"]`).getByRole('link', { name: /^Edit/ }).click();
    await page.getByRole('heading', { level: 1, name: /^Post by / }).waitFor({ timeout: WAIT });
    const said = page.locator('main p.announce');
    await page
      .getByRole('region', { name: 'On the wall' })
      .getByRole('button', { name: 'Highlight', exact: true })
      .click();
    await expect.poll(() => said.innerText(), { timeout: WAIT }).toBe('Highlighted: the wall shows it featured.');
    const ctaForm = page.getByRole('form', { name: 'Call to action' });
    await ctaForm.getByLabel('Button text', { exact: true }).fill(cta.text);
    await ctaForm.getByLabel('Link', { exact: true }).fill(cta.url);
    await ctaForm.getByLabel('Button colour', { exact: true }).fill('#b5361c');
    await ctaForm.getByLabel('Button text colour', { exact: true }).fill('#ffffff');
    await ctaForm.getByRole('button', { name: 'Save call to action' }).click();
    await expect.poll(() => said.innerText(), { timeout: WAIT }).toBe('Call to action saved: “Get tickets”.');
    const textForm = page.getByRole('form', { name: 'Text' });
    await textForm.getByLabel('Text (HTML)').fill('<p>The harbour lights at dusk, seen from the pier.</p>');
    await textForm.getByRole('button', { name: 'Save text' }).click();
    await expect.poll(() => said.innerText(), { timeout: WAIT }).toMatch(/^Text saved\./);
    await expectAccessible(page, 'post editor');
    await expectNoRawPaths(page, 'post editor');
    expect(await manage('GET', `/walls/${wallId}/posts/${post.id}`)).toMatchObject({
      highlighted: true,
      cta: { ...cta, background: '#b5361c', color: '#ffffff', status: 1 },
      content: '<p>The harbour lights at dusk, seen from the pier.</p>',
    });

    // open the wall from the head of any of its screens: a key is made only with consent, then "Open wall" opens the page
    await page.goto(`${instance.url}/console/#/walls/${wallId}/queue`);
    await page.getByRole('heading', { level: 1, name: /^Moderation · / }).waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: /^Open the wall Harbour Fest 2026!/ }).click();
    const open = page.getByRole('dialog', { name: 'Open “Harbour Fest 2026!”' });
    await open.getByRole('button', { name: /^Open wall/ }).click();
    const consent = open.getByRole('group', { name: 'Make a public key for this wall?' });
    await consent.getByText('This key will allow any site to show the wall.').waitFor({ timeout: WAIT });
    await expectAccessible(page, 'open the wall: consent');
    expect((await manage('GET', `/walls/${wallId}/publishable-keys`)).data).toEqual([]);
    await consent.getByRole('button', { name: 'Make the key, then open the wall' }).click();
    const openWall = open.getByRole('link', { name: /^Open wall/ });
    await expect.poll(() => openWall.evaluate((a) => a === document.activeElement), { timeout: WAIT }).toBe(true);
    const keys = (await manage('GET', `/walls/${wallId}/publishable-keys`)).data as { prefix: string }[];
    expect(keys).toHaveLength(1);
    const href = (await openWall.getAttribute('href'))!;
    expect(href).toMatch(
      new RegExp(`^${instance.url}/walls/${wallId}\\?key=${keys[0]!.prefix}[\\w-]+&layout=masonry$`),
    );
    expect(await open.getByRole('link', { name: /^Open event screen/ }).getAttribute('href')).toBe(
      href.replace('layout=masonry', 'layout=event'),
    );

    const [wallPage] = await Promise.all([context.waitForEvent('page'), openWall.click()]);
    await wallPage.waitForLoadState();
    expect(wallPage.url()).toBe(href);
    // exactly the approved post, highlighted, with its call to action and its corrected text, on the wall's colours
    const shown = wallPage.locator('wallery-wall article[data-post-id]');
    await expect
      .poll(() => shown.evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id'))), { timeout: WAIT })
      .toEqual([String(post.id)]);
    const article = shown.first();
    await expect(article.getAttribute('class')).resolves.toMatch(/\bhighlighted\b/);
    await expect(article.locator('.flag').innerText()).resolves.toMatch(/featured/i);
    const text = await article.locator('.text').innerText();
    expect(text).toContain('The harbour lights at dusk, seen from the pier.');
    expect(text).not.toContain('Teh');
    const link = article.locator('a.cta');
    await expect(link.innerText()).resolves.toBe('Get tickets');
    await expect(link.getAttribute('href')).resolves.toBe(cta.url);
    await expect(
      wallPage.locator('wallery-wall .wall').evaluate((e) => getComputedStyle(e).backgroundColor),
    ).resolves.toBe('rgb(244, 239, 230)');
    await wallPage.close();
    // the event screen: the same post, under the wall's call to post
    const [eventPage] = await Promise.all([
      context.waitForEvent('page'),
      open.getByRole('link', { name: /^Open event screen/ }).click(),
    ]);
    await eventPage
      .locator('wallery-wall .call', { hasText: 'Post with #harbourfest' })
      .first()
      .waitFor({ timeout: WAIT });
    await eventPage.locator(`wallery-wall article[data-post-id="${post.id}"]`).first().waitFor({ timeout: WAIT });
    await eventPage.close();

    // the QR code, downloaded as SVG, decodes to the wall's link
    await open.getByRole('button', { name: 'QR code' }).click();
    const qr = open.getByRole('img', { name: 'QR code of the link to the wall' });
    await qr.waitFor({ timeout: WAIT });
    await expectAccessible(page, 'open the wall: link and QR code');
    await expectNoRawPaths(page, 'open the wall');
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `at ${viewport.width} px`).toBe(
        viewport.width,
      );
      await screenshot(page, { path: join(SHOTS, `console-open-wall-${viewport.width}.png`) });
    }
    await page.setViewportSize(WIDE);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      open.getByRole('link', { name: 'Download QR code (SVG)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`wall-${wallId}-qr.svg`);
    const svg = readFileSync((await download.path())!);
    const { data, info } = await sharp(svg).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({
      resolveWithObject: true,
    });
    const decoded = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
    expect(decoded?.data).toBe(href);

    expect(errors).toEqual([]);
    await page.close();
  });
});
