// The console's posts in real Chromium on a real `wallery serve` (SQLite): a
// wall's post browser with the API's filters (state, network, media, words)
// and its pages; one post edited — approved, highlighted, pinned, a call to
// action refused under its field then saved, its text corrected with a
// preview of what Wallery keeps, hidden and shown again — and its history
// from the audit log, a bulk action of the queue included; the queue's
// cards with a post's title and text as separate blocks; dates as dates
// after a week; edits not saved yet (a post's, the rules', the wall's look)
// not dropped without a question. axe on every screen; screenshots:
// docs/screenshots/console-posts-*.png, console-post-edit-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasChromium, launchChromium, screenshot, seriousAxeFindings, shootConsoleScreen } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };

const WALL = 601;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The RSS post to edit: stored as RSS items are, its title bold in a paragraph of its own. */
const FAQ = 60_001;
const FAQ_TITLE = 'Your questions, answered';
const FAQ_BODY = 'Everything about the harbour stage: doors at six, the lantern parade at nine.';
/** Filler posts, enough for a second page (the list reads 100 at a time). */
const FILLER = 120;

/** A festival's wall in manual mode: an RSS blog, Mastodon and Bluesky feeds; posts of every state, some weeks old. */
function festival(now: number, media: string) {
  const iso = (ms: number) => new Date(ms).toISOString();
  const networks = [
    { id: 6012, name: '#harbourlights on Mastodon', source: 'Mastodon', sourceType: 'hashtag' },
    { id: 6013, name: '#harbourlights on Bluesky', source: 'Bluesky', sourceType: 'hashtag' },
  ];
  const social = Array.from({ length: FILLER }, (_, i) => {
    const network = networks[i % 2]!;
    const image = i % 3 === 0;
    return {
      feed: network.id,
      post: {
        id: 60_100 + i,
        networkName: network.source,
        content: `<p>${i % 10 === 0 ? 'Lantern' : 'Harbour'} moment ${i + 1} #harbourlights</p>`,
        authorName: `Guest ${i % 9}`,
        username: `guest${i % 9}`,
        media: image ? 'image' : 'text',
        picture: image ? `${media}/event-boats.jpg` : '',
        file: image ? `${media}/event-boats.jpg` : '',
        // the older half is weeks old: shown with its date, not "23 days ago"
        createdAt: iso(now - (i < FILLER / 2 ? (i + 2) * HOUR : (10 + i - FILLER / 2) * DAY)),
        state: i % 7 === 0 ? 'pending' : i % 11 === 0 ? 'rejected' : 'approved',
        ...(i % 13 === 0 ? { hidden: true } : {}),
      },
    };
  });
  const feedPosts = (id: number) => social.filter((s) => s.feed === id).map((s) => s.post);
  return {
    version: 1,
    accounts: [{ id: 1, name: 'Harbour Lights Festival', plan: 'enterprise', dailyCallLimit: 100_000 }],
    walls: [
      {
        id: WALL,
        accountId: 1,
        name: 'Harbour Lights 2026',
        url: 'harbour-lights',
        createdAt: iso(now - 40 * DAY),
        moderation: 'manual',
        feeds: [
          {
            id: 6011,
            name: 'Festival blog',
            source: 'RSS',
            sourceType: 'page',
            createdAt: iso(now - 40 * DAY),
            posts: [
              {
                id: FAQ,
                networkName: 'RSS',
                content: `<p><strong>${FAQ_TITLE}</strong></p><p>${FAQ_BODY}</p>`,
                authorName: 'Harbour Lights Team',
                username: '',
                media: 'image',
                picture: `${media}/event-evening-glow.jpg`,
                file: `${media}/event-evening-glow.jpg`,
                linkUrl: 'https://harbour-lights.example/blog/faq',
                createdAt: iso(now - 30 * MINUTE),
                state: 'pending',
              },
              {
                id: 60_002,
                networkName: 'RSS',
                content: '<p><strong>Programme announced</strong></p><p>Forty acts on three stages.</p>',
                authorName: 'Harbour Lights Team',
                username: '',
                media: 'text',
                createdAt: iso(now - 12 * DAY),
                state: 'approved',
              },
            ],
          },
          ...networks.map((n) => ({ ...n, createdAt: iso(now - 40 * DAY), posts: feedPosts(n.id) })),
        ],
      },
    ],
  };
}

describe.skipIf(!hasChromium)('the console’s posts in Chromium on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let browser: Browser;
  let page: Page;
  let token = '';
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console-posts-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    // MEDIA off: the posts show their pictures' originals, and no worker resizes them meanwhile
    instance = await startInstance({ MEDIA: 'off' }, ['serve', '--database', database]);
    const file = join(dir, 'festival.json');
    writeFileSync(file, JSON.stringify(festival(Date.now(), demoMediaBase(instance.url))));
    const imported = await runCli(['import', file, '--database', database]);
    expect(imported.code, imported.stderr).toBe(0);
    const made = await runCli(['tokens', 'create', '--name', 'pia-posts', '--json', '--database', database]);
    expect(made.code, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { token: string }).token;
    browser = await launching;
    const context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // a refused call (400) is not the console's error; nor is the CSP refusing, for each on… attribute of
      // a post's HTML, the handler Chromium would compile while the HTML is parsed into an inert document
      // (DOMParser: nothing of it runs or loads) — the policy at work
      const known = /^(Failed to load resource|Executing inline event handler violates)/;
      if (m.type() === 'error' && !known.test(m.text())) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: WAIT });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** No serious or critical axe violations on what the page shows now. */
  async function expectAccessible(label: string) {
    expect(await seriousAxeFindings(page, label)).toEqual([]);
  }

  const shoot = (name: string) => shootConsoleScreen(page, name);

  /** A management API call as the test's admin; its responseData. */
  async function manage(method: string, path: string, body?: unknown) {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    // the test reads a few fields; the API's own suites check them in full
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return ((await res.json()) as { responseData: any }).responseData;
  }

  /** Every post id the API lists with these filters (all its pages), newest first. */
  async function apiIds(query: Record<string, string>): Promise<string[]> {
    const ids: string[] = [];
    let cursor = '';
    do {
      const q = new URLSearchParams({ ...query, limit: '200', ...(cursor ? { cursor } : {}) });
      const page = (await manage('GET', `/walls/${WALL}/posts?${q}`)) as { data: { id: number }[]; nextCursor: string };
      ids.push(...page.data.map((p) => String(p.id)));
      cursor = page.nextCursor ?? '';
    } while (cursor);
    return ids;
  }
  const rowIds = () =>
    page.locator('li.post-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-post-id')!));

  /** Waits for the browser's dialog (window.confirm), checks what it says, answers it. */
  function answerDialog(expected: RegExp, accept: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no dialog came: ${String(expected)}`)), WAIT);
      page.once('dialog', (dialog: Dialog) => {
        clearTimeout(timer);
        const said = dialog.message();
        const answer = accept ? dialog.accept() : dialog.dismiss();
        void answer.then(() => (expected.test(said) ? resolve() : reject(new Error(`the dialog said: ${said}`))));
      });
    });
  }

  it('shows a post’s title and text apart in the queue, and links it to its editor', async () => {
    await page.goto(`${instance.url}/console/#/walls/${WALL}/queue`);
    const card = page.locator(`article[data-post-id="${FAQ}"]`);
    await card.waitFor({ timeout: WAIT });
    await expect(card.locator('.post-text .post-title').innerText()).resolves.toBe(FAQ_TITLE);
    expect(await card.locator('.post-text p').allInnerTexts()).toEqual([FAQ_TITLE, FAQ_BODY]);
    // never run together ("answeredEverything")
    expect(await card.innerText()).not.toContain(`${FAQ_TITLE}${FAQ_BODY.slice(0, 10)}`);
    await expect(
      card.getByRole('link', { name: 'Edit post by Harbour Lights Team' }).getAttribute('href'),
    ).resolves.toBe(`#/walls/${WALL}/posts/${FAQ}`);
  });

  it('browses a wall’s posts with the API’s filters, a page at a time, dates as dates after a week', async () => {
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Posts', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Posts · Harbour Lights 2026' }).waitFor({ timeout: WAIT });
    const total = FILLER + 2;
    // the first page, then the rest
    await page.getByText(/^100\+ posts · newest first$/).waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'Show more posts' }).click();
    await page.getByText(`${total} posts · newest first`).waitFor({ timeout: WAIT });
    expect(await rowIds()).toEqual(await apiIds({ state: 'all' }));
    // a post of 12 days ago shows its date, one of 30 minutes ago how long ago
    const old = page.locator('li.post-row[data-post-id="60002"] .post-where time');
    expect(await old.innerText()).toMatch(/^\d{1,2} [A-Z][a-z]{2}(?: \d{4})?, \d\d:\d\d$/);
    expect(await page.locator(`li.post-row[data-post-id="${FAQ}"] .post-where time`).innerText()).toBe(
      '30 minutes ago',
    );
    expect(await page.locator('main').innerText()).not.toMatch(/\b([89]|\d\d+) days ago/);
    // the title and the text apart here too
    expect(await page.locator(`li.post-row[data-post-id="${FAQ}"] .post-text p`).allInnerTexts()).toEqual([
      FAQ_TITLE,
      FAQ_BODY,
    ]);
    await page.evaluate(() => scrollTo(0, 0));
    await screenshot(page, { path: join(SHOTS, 'console-posts-1280.png') });
    // on a phone: the filters, the count and the first posts
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    await page.getByRole('search', { name: 'Filter posts' }).evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await screenshot(page, { path: join(SHOTS, 'console-posts-375.png') });
    await page.setViewportSize(WIDE);

    // each filter lists what the API lists with it
    const filters = page.getByRole('search', { name: 'Filter posts' });
    await filters.getByLabel('State').selectOption('pending');
    await expect.poll(rowIds, { timeout: WAIT }).toEqual(await apiIds({ state: 'pending' }));
    // (axe on a list of a few: the rows are all alike, and axe takes its time over 122 of them)
    await expectAccessible('posts');
    await filters.getByLabel('Network').selectOption('Bluesky');
    await expect.poll(rowIds, { timeout: WAIT }).toEqual(await apiIds({ state: 'pending', network: 'Bluesky' }));
    await filters.getByLabel('State').selectOption('all');
    await filters.getByLabel('Media').selectOption('image');
    await expect
      .poll(rowIds, { timeout: WAIT })
      .toEqual(await apiIds({ state: 'all', network: 'Bluesky', media: 'image' }));
    await filters.getByLabel('Network').selectOption('');
    await filters.getByLabel('Media').selectOption('');
    await filters.getByLabel(/Search/).fill('lantern');
    const lantern = await apiIds({ state: 'all', q: 'lantern' });
    expect(lantern.length).toBeGreaterThan(3);
    await expect.poll(rowIds, { timeout: WAIT }).toEqual(lantern);
    await filters.getByLabel('State').selectOption('hidden');
    await expect.poll(rowIds, { timeout: WAIT }).toEqual(await apiIds({ state: 'hidden', q: 'lantern' }));
    await filters.getByLabel(/Search/).fill('no such words anywhere');
    await page.getByText('No posts match these filters.').waitFor({ timeout: WAIT });
  });

  it('edits a post: approve, highlight, pin, a call to action, its text with a preview, hide and show; its history', async () => {
    // the queue rejected it with another post in one bulk action (its history shows that too)
    await manage('POST', `/walls/${WALL}/posts/bulk`, {
      postIds: [60_100, FAQ],
      action: 'reject',
      reason: 'checking the times',
    });
    await page.goto(`${instance.url}/console/#/walls/${WALL}/posts/${FAQ}`);
    await page.getByRole('heading', { level: 1, name: 'Post by Harbour Lights Team' }).waitFor({ timeout: WAIT });
    const view = page.locator('article.post-view');
    expect(await view.locator('.post-html p').allInnerTexts()).toEqual([FAQ_TITLE, FAQ_BODY]);
    const onWall = page.getByRole('region', { name: 'On the wall' });
    const said = page.locator('main p.announce');
    for (const [button, done] of [
      ['Approve', 'Approved: the wall shows it.'],
      ['Highlight', 'Highlighted: the wall shows it featured.'],
      ['Pin', 'Pinned: it comes first on the wall.'],
    ] as const) {
      await onWall.getByRole('button', { name: button, exact: true }).click();
      await expect.poll(() => said.innerText(), { timeout: WAIT }).toBe(done);
    }
    await view.getByText('highlighted', { exact: true }).waitFor({ timeout: WAIT });
    expect(await manage('GET', `/walls/${WALL}/posts/${FAQ}`)).toMatchObject({
      state: 'approved',
      highlighted: true,
      pinned: true,
    });

    // a call to action: an address without its scheme is refused under its field, nothing is sent
    const cta = page.getByRole('form', { name: 'Call to action' });
    await cta.getByLabel('Button text', { exact: true }).fill('Get tickets');
    await cta.getByLabel('Link', { exact: true }).fill('tickets.example.com/harbour');
    await cta.getByRole('button', { name: 'Save call to action' }).click();
    const link = cta.getByLabel('Link', { exact: true });
    await expect.poll(() => link.getAttribute('aria-invalid'), { timeout: WAIT }).toBe('true');
    await cta.getByText(/Enter the full address of a web page, starting with https:\/\//).waitFor();
    expect((await manage('GET', `/walls/${WALL}/posts/${FAQ}`)).cta).toBeNull();
    await expectAccessible('post editor, a field refused');
    await link.fill('https://tickets.example.com/harbour');
    await cta.getByRole('button', { name: 'Save call to action' }).click();
    await expect.poll(() => said.innerText(), { timeout: WAIT }).toBe('Call to action saved: “Get tickets”.');
    expect(await link.getAttribute('aria-invalid')).toBeNull();
    expect((await manage('GET', `/walls/${WALL}/posts/${FAQ}`)).cta).toMatchObject({
      text: 'Get tickets',
      url: 'https://tickets.example.com/harbour',
      status: 1,
    });

    // the text corrected: the preview keeps what Wallery keeps, and says what it leaves out
    const textForm = page.getByRole('form', { name: 'Text' });
    const corrected =
      `<p><strong>${FAQ_TITLE}</strong></p>` +
      '<p onclick="alert(1)">Doors at <em>five</em>, the <a href="https://harbour-lights.example/parade">lantern parade</a> at nine.' +
      '<img src="x" onerror="alert(2)"><script>alert(3)</script></p>' +
      '<p><a href="javascript:alert(4)">More</a></p>';
    await textForm.getByLabel('Text (HTML)').fill(corrected);
    const preview = textForm.locator('.text-preview-body');
    await textForm.getByText('Preview: what the wall will show').waitFor({ timeout: WAIT });
    expect(await preview.locator('p').allInnerTexts()).toEqual([
      FAQ_TITLE,
      'Doors at five, the lantern parade at nine.',
      'More',
    ]);
    expect(await preview.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      'https://harbour-lights.example/parade',
    ]);
    const previewHtml = await preview.innerHTML();
    expect(previewHtml).not.toMatch(/onclick|onerror|<img|<script|javascript:/);
    await textForm
      .getByText(
        /^Left out when saved: onclick attributes; img elements \(their text stays\); script elements with their content; links that are not http or https \(their text stays\)\.$/,
      )
      .waitFor();
    await textForm.getByRole('button', { name: 'Save text' }).click();
    await expect
      .poll(() => said.innerText(), { timeout: WAIT })
      .toBe('Text saved. Wallery left out what a wall does not show: the text box and the preview show it as saved.');
    const saved = (await manage('GET', `/walls/${WALL}/posts/${FAQ}`)).content as string;
    expect(saved).toContain('lantern parade');
    expect(saved).not.toMatch(/onclick|onerror|<img|<script|javascript:/);
    // the box and the preview show the server's answer
    await expect(textForm.getByLabel('Text (HTML)').inputValue()).resolves.toBe(saved);
    await textForm.getByText('What the wall shows', { exact: true }).waitFor();
    expect(await view.locator('.post-html p').allInnerTexts()).toEqual([
      FAQ_TITLE,
      'Doors at five, the lantern parade at nine.',
      'More',
    ]);

    // hidden, then shown again
    await onWall.getByRole('button', { name: 'Hide from the wall' }).click();
    await expect.poll(() => said.innerText(), { timeout: WAIT }).toBe('Hidden from the wall.');
    await onWall.getByRole('button', { name: 'Show on the wall' }).click();
    await expect.poll(() => said.innerText(), { timeout: WAIT }).toBe('Shown on the wall again.');
    expect(await manage('GET', `/walls/${WALL}/posts/${FAQ}`)).toMatchObject({ hidden: false, highlighted: true });

    // its history, newest first, in words: every change above, the bulk rejection last
    const history = page.getByRole('region', { name: 'History' });
    const titles = () => history.locator('.history-what').allInnerTexts();
    await expect
      .poll(titles, { timeout: WAIT })
      .toEqual([
        'Shown on the wall again',
        'Hidden from the wall',
        'Text corrected',
        'Call to action: “Get tickets” → https://tickets.example.com/harbour',
        'Pinned',
        'Highlighted',
        'Approved',
        'Rejected',
      ]);
    const rejected = history.locator('li').last();
    expect(await rejected.innerText()).toContain('Reason: checking the times');
    expect(await rejected.innerText()).toContain('Together with 1 other post, in one action.');
    expect(await history.locator('li').first().innerText()).toMatch(
      /just now · by pia-posts|seconds? ago · by pia-posts/,
    );
    const correction = history.locator('li', { hasText: 'Text corrected' });
    expect(await correction.innerText()).toContain(`Before: ${FAQ_TITLE}`);
    // no API field or action names (`cta.url`, `post.update`) anywhere on the screen
    expect(await page.locator('main').innerText()).not.toMatch(/\b(?:cta|post|posts)\.[a-z]+/i);
    await expectAccessible('post editor');
    await page.evaluate(() => scrollTo(0, 0));
    await shoot('post-edit');
  });

  it('asks before dropping a post’s edits, and keeps them when told to stay', async () => {
    const textBox = page.getByRole('form', { name: 'Text' }).getByLabel('Text (HTML)');
    await textBox.fill('<p>A correction not saved yet</p>');
    // a link away: the question, then nothing changes
    let asked = answerDialog(/The text you corrected is not saved\.[\s\S]*Leave this page and lose them\?/, false);
    await page.locator('.crumbs').getByRole('link', { name: /posts/ }).click();
    await asked;
    expect(new URL(page.url()).hash).toBe(`#/walls/${WALL}/posts/${FAQ}`);
    await expect(textBox.inputValue()).resolves.toBe('<p>A correction not saved yet</p>');
    await page.getByRole('heading', { level: 1, name: 'Post by Harbour Lights Team' }).waitFor();
    // the tab closed or reloaded: the browser's own question
    const unloading = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type());
        void d.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await unloading).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);
    // leaving after all: the browser goes where it was asked to
    asked = answerDialog(/The text you corrected is not saved/, true);
    await page.locator('.crumbs').getByRole('link', { name: /posts/ }).click();
    await asked;
    await page.getByRole('heading', { level: 1, name: 'Posts · Harbour Lights 2026' }).waitFor({ timeout: WAIT });
  });

  it('asks before dropping rules added and previewed, and a wall’s look changed', async () => {
    await page.goto(`${instance.url}/console/#/walls/${WALL}/posts`);
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Rules', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Rules · Harbour Lights 2026' }).waitFor({ timeout: WAIT });
    await page.getByLabel('Words or phrases (comma-separated)').fill('spoiler');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.getByText(/^Preview: these rules would change \d+ pending posts?\. Nothing was saved\.$/).waitFor({
      timeout: WAIT,
    });
    // another of the wall's screens: asked, and staying keeps the rule
    let asked = answerDialog(/The rules you changed are not saved/, false);
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Feeds', exact: true }).click();
    await asked;
    expect(new URL(page.url()).hash).toBe(`#/walls/${WALL}/rules`);
    await page.getByText('Posts with any of: spoiler').waitFor();
    // the back button asks too
    asked = answerDialog(/The rules you changed are not saved/, false);
    await page.evaluate(() => history.back());
    await asked;
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/walls/${WALL}/rules`);
    await page.getByText('Posts with any of: spoiler').waitFor();
    // saved: nothing to ask about
    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText(/^Rules saved\./).waitFor({ timeout: WAIT });
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Feeds', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Feeds · Harbour Lights 2026' }).waitFor({ timeout: WAIT });

    // the wall's look, changed in its form: the back button asks first
    await page.goto(`${instance.url}/console/#/walls`);
    await page.locator(`tr[data-wall-id="${WALL}"]`).getByRole('button', { name: /^Edit/ }).click();
    const look = page.getByRole('dialog', { name: 'Edit wall' }).getByRole('group', { name: 'Look' });
    await look.getByLabel('Accent colour', { exact: true }).fill('#b5361c');
    asked = answerDialog(/The wall’s look you changed is not saved/, false);
    await page.evaluate(() => history.back());
    await asked;
    await expect.poll(() => new URL(page.url()).hash).toBe('#/walls');
    await expect(look.getByLabel('Accent colour', { exact: true }).inputValue()).resolves.toBe('#b5361c');
    expect(errors).toEqual([]);
  });
});
