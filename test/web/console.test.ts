// The operator console (/console/) in real Chromium against a real `wallery
// serve` (SQLite, feeds polled in-process, the demo data set imported) and a
// local RSS upstream: sign in and out, a revoked token, from nothing to a
// moderated wall with the keyboard (W2 then shows exactly the approved
// posts), what roles and account scopes show, axe on every screen, the page's
// CSP and caching. Screenshots at 1280 and 375 px go to docs/screenshots/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { rssXml, startFeeds, type FeedFixture } from '../ingest/fixtures/feeds.js';
import { hasChromium, launchChromium, CONSOLE_WIDE, shootConsoleScreen } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = CONSOLE_WIDE;

/** A wall in manual mode (account 3) with 500 pending posts, oldest first by id: the queue to clear by keyboard. */
const RUSH = { wallId: 120, posts: 500, firstPost: 120_001 };
const RUSH_DECISIONS = [
  (at: string) => ({
    by: 'rule:lang',
    at,
    reason: "held: language 'pt' — eld 2.1.0",
    detail: { rule: 'lang', kind: 'language', label: 'pt', score: null, threshold: null, model: 'eld 2.1.0' },
  }),
  (at: string) => ({
    by: 'rule:mood',
    at,
    reason: "held: sentiment -0.84 'negative' < -0.50 — sentiment (AFINN-165) 5.0.2",
    detail: {
      rule: 'mood',
      kind: 'sentiment',
      label: 'negative',
      score: -0.8402,
      threshold: -0.5,
      model: 'sentiment (AFINN-165) 5.0.2',
    },
  }),
];
const BLURRED_DECISION = (at: string) => ({
  by: 'rule:r1',
  at,
  reason: "held: image 0.91 'porn' ≥ 0.80 — nsfwjs mobilenet_v2 4.4.0",
  detail: { rule: 'r1', kind: 'image', label: 'porn', score: 0.91, threshold: 0.8, model: 'nsfwjs mobilenet_v2 4.4.0' },
});
function rushWall(now: number, media: string) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: RUSH.wallId,
    accountId: 3,
    name: 'Rush Hour Queue',
    url: 'rush-hour-queue',
    createdAt: iso(now - 86_400_000),
    moderation: 'manual' as const,
    feeds: [
      {
        id: 1201,
        name: '#rushhour on Mastodon',
        source: 'Mastodon',
        sourceType: 'hashtag',
        createdAt: iso(now - 86_400_000),
        posts: Array.from({ length: RUSH.posts }, (_, i) => ({
          id: RUSH.firstPost + i,
          networkName: 'Mastodon',
          content: `<p>Rush hour post ${i + 1} #rushhour</p>`,
          authorName: `Guest ${i % 7}`,
          username: `guest${i % 7}`,
          media: i % 3 === 0 ? ('image' as const) : ('text' as const),
          picture: i % 3 === 0 ? `${media}/scene-${(i % 12) + 1}.svg` : '',
          file: i % 3 === 0 ? `${media}/scene-${(i % 12) + 1}.svg` : '',
          createdAt: iso(now - (RUSH.posts + 10 - i) * 60_000),
          state: 'pending' as const,
          // the first post's picture was held by an image rule: the queue shows it blurred until revealed;
          // the next two held by the text rules, each with what it found (the queue shows it)
          ...(i === 0 ? { decision: BLURRED_DECISION(iso(now - 60_000)) } : {}),
          ...(i === 1 || i === 2 ? { decision: RUSH_DECISIONS[i - 1]!(iso(now - 60_000)) } : {}),
        })),
      },
    ],
  };
}

describe.skipIf(!hasChromium)('the operator console in Chromium on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let upstream: FeedFixture;
  let browser: Browser;
  let context: BrowserContext;
  const tokens: Record<'admin' | 'moderator' | 'revoked', string> = { admin: '', moderator: '', revoked: '' };

  async function cli(args: string[]): Promise<string> {
    const done = await runCli([...args, '--database', database]);
    expect(done.code, done.stderr).toBe(0);
    return done.stdout;
  }
  const makeToken = async (args: string[]) =>
    (JSON.parse(await cli(['tokens', 'create', '--json', ...args])) as { token: string }).token;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    upstream = await startFeeds();
    instance = await startInstance({ INGEST: 'on', INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8' }, [
      'serve',
      '--database',
      database,
    ]);
    const file = join(dir, 'demo.json');
    const demo = demoDataFile(Date.now(), demoMediaBase(instance.url));
    demo.walls.push(rushWall(Date.now(), demoMediaBase(instance.url)) as (typeof demo.walls)[number]);
    writeFileSync(file, JSON.stringify(demo));
    await cli(['import', file]);
    [tokens.admin, tokens.moderator, tokens.revoked] = await Promise.all([
      makeToken(['--name', 'anna-admin']),
      makeToken(['--name', 'mo-moderator', '--role', 'moderator', '--account', '2']),
      makeToken(['--name', 'soon-revoked', '--role', 'editor']),
    ]);
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    await upstream?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh page with its own sessionStorage; console errors fail the test that reads them. */
  async function openConsole(viewport = WIDE): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // a refused call (401, 400) and a post's picture on a host this machine cannot reach are not the console's errors
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/#/walls`);
    return { page, errors };
  }

  async function signIn(page: Page, token: string) {
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
  }

  /** No serious or critical axe violations on what the page shows now. */
  async function expectAccessible(page: Page, label: string) {
    const result = await new AxeBuilder({ page }).analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad).toEqual([]);
  }

  const wallIds = (page: Page) =>
    page.locator('tr[data-wall-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-wall-id')));

  /** A management API call as the admin; its responseData. */
  async function manage(method: string, path: string, body?: unknown) {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${tokens.admin}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    // the test reads a few fields of several shapes; the API's own suites check them in full
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return ((await res.json()) as { responseData: Record<string, any> }).responseData;
  }
  const queueIds = (page: Page) =>
    page.locator('article[data-post-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')!));
  const queueTexts = (page: Page) => page.locator('article[data-post-id] .post-text').allInnerTexts();
  const focusedPost = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-post-id') ?? null);

  const shoot = shootConsoleScreen;

  it('is one page under a strict CSP, its hashed assets cached for a year', async () => {
    const redirect = await fetch(`${instance.url}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('console/');
    const res = await fetch(`${instance.url}/console/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    expect(html).not.toMatch(/<style|style=/);
    const script = /src="\.\/(assets\/index-[\w-]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${instance.url}/console/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await asset.arrayBuffer();
  });

  it('signs in with a token kept in sessionStorage only, refuses a bad one, signs out', async () => {
    const { page, errors } = await openConsole();
    await page.getByRole('heading', { level: 1, name: /Sign in/ }).waitFor({ timeout: WAIT });
    await expectAccessible(page, 'sign-in');
    await shoot(page, 'signin');
    await page.getByLabel('Operator token').fill('wop_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That token is not valid').waitFor({ timeout: WAIT });
    await signIn(page, tokens.admin);
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([tokens.admin]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(page.url()).not.toContain(tokens.admin);
    // the demo walls with their counts
    await expect.poll(() => wallIds(page), { timeout: WAIT }).toEqual(['101', '102', '103', '120']);
    await expect(page.locator('tr[data-wall-id="102"]').innerText()).resolves.toContain('Starlight Lake Festival 2026');
    await expectAccessible(page, 'walls');
    await shoot(page, 'walls');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You signed out.').waitFor({ timeout: WAIT });
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('from nothing to a moderated wall: create, add an RSS feed, poll now, moderate with the keyboard → W2', async () => {
    const { page, errors } = await openConsole();
    await signIn(page, tokens.admin);

    // a wall in manual mode; a bad slug first: the API's message next to the field
    await page.getByRole('button', { name: 'New wall' }).click();
    const dialog = page.getByRole('dialog', { name: 'New wall' });
    await expect.poll(() => dialog.getByLabel('Account').evaluate((e) => e === document.activeElement)).toBe(true);
    await dialog.getByLabel('Account').selectOption({ label: 'Tonewood Music Co. (#1)' });
    await dialog.getByLabel('Name').fill('Console Test Wall');
    await dialog.getByLabel('URL slug').fill('Not a slug!');
    await expect(dialog.getByLabel('Moderation').inputValue()).resolves.toBe('manual');
    // how the wall shows on pages that do not choose: a grid of 3 columns at most
    await dialog.getByLabel('Layout').selectOption('grid');
    await dialog.getByLabel('Columns at most').fill('3');
    await expectAccessible(page, 'new wall dialog');
    await dialog.getByRole('button', { name: 'Create wall' }).click();
    await dialog
      .locator('.field-error', { hasText: /^URL slug must be 1 to 100 lowercase letters/ })
      .waitFor({ timeout: WAIT });
    await expect(dialog.getByLabel('URL slug').getAttribute('aria-invalid')).resolves.toBe('true');
    await dialog.getByLabel('URL slug').fill('console-test');
    await dialog.getByRole('button', { name: 'Create wall' }).click();
    await page.getByText('Wall “Console Test Wall” created.').waitFor({ timeout: WAIT });
    const row = page.locator('tr[data-wall-id]', { hasText: 'Console Test Wall' });
    const wallId = Number(await row.getAttribute('data-wall-id'));
    expect(await row.innerText()).toContain('Manual');
    expect(await manage('GET', `/walls/${wallId}`)).toMatchObject({ layout: 'grid', theme: null, columns: 3 });

    // an RSS feed on the local upstream, empty until the scheduler has seen it once
    upstream.documents.set('/trail.xml', { body: rssXml([]), type: 'application/rss+xml' });
    await row.getByRole('link', { name: 'Feeds of Console Test Wall' }).click();
    await page.getByRole('heading', { level: 1, name: /Feeds · Console Test Wall/ }).waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'Add feed' }).click();
    const feedDialog = page.getByRole('dialog', { name: 'Add feed' });
    await feedDialog.getByLabel('Name').fill('Trail notes');
    await expect(feedDialog.getByLabel('Network').inputValue()).resolves.toBe('rss');
    await feedDialog.getByLabel('Feed URL').fill(`${upstream.origin}/trail.xml`);
    await feedDialog.getByRole('button', { name: 'Add feed' }).click();
    await page.getByText('Feed “Trail notes” added.').waitFor({ timeout: WAIT });
    const feedId = Number(await page.locator('[data-feed-id]').first().getAttribute('data-feed-id'));
    // this server polls feeds (INGEST on): wait for its first (empty) poll, so that "Poll now" is the one that reads the posts
    await expect
      .poll(async () => (await manage('GET', `/walls/${wallId}/feeds/${feedId}`)).ingest?.lastPolledAt ?? null, {
        timeout: WAIT,
      })
      .not.toBeNull();
    const minute = 60_000;
    const items = ['First light over the ridge', 'Lake at noon, glass-still', 'Campfire stories until late'];
    upstream.documents.set('/trail.xml', {
      body: rssXml(
        items.map((title, i) => ({
          guid: `trail-${i}`,
          title,
          link: `https://blog.example/${i}`,
          pubDate: new Date(Date.now() - (10 - i) * minute).toUTCString(),
          description: `${title}.`,
          mediaContent: [{ url: `${instance.url}/demo-media/scene-${i + 1}.svg`, medium: 'image' }],
        })),
      ),
      type: 'application/rss+xml',
    });
    await page.getByRole('button', { name: 'Poll now Trail notes' }).click();
    await page.getByText('“Trail notes” polled: 3 new posts.').waitFor({ timeout: WAIT });
    await expectAccessible(page, 'feeds');
    await shoot(page, 'feeds');

    // rules: a dry run says what a rule would do, and saves nothing
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Rules' }).click();
    await page.getByRole('heading', { level: 1, name: /Rules · Console Test Wall/ }).waitFor({ timeout: WAIT });
    await page.getByLabel('Rule', { exact: true }).selectOption('keyword');
    await page.getByLabel('Action').selectOption('reject');
    await page.getByLabel('Words or phrases (comma-separated)').fill('campfire');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByRole('button', { name: 'Preview (dry run)' }).click();
    await page.getByText('This would reject 1 post').waitFor({ timeout: WAIT });
    await expectAccessible(page, 'rules');
    await shoot(page, 'rules');
    expect((await manage('GET', `/walls/${wallId}/rules`)).rules).toEqual([]);

    // the queue: oldest first, held by the manual mode (the rule previewed, not saved: leaving asks first)
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => void d.accept().then(() => resolve(d.message()))),
    );
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Moderation' }).click();
    expect(await asked).toMatch(/^The rules you changed are not saved/);
    await page.getByRole('heading', { level: 1, name: /Moderation · Console Test Wall/ }).waitFor({ timeout: WAIT });
    await expect.poll(() => queueTexts(page), { timeout: WAIT }).toEqual(items.map((t) => expect.stringContaining(t)));
    const ids = await page
      .locator('article[data-post-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')!));
    expect(await page.locator('article').first().innerText()).toContain('Waiting for approval');
    await expectAccessible(page, 'queue');
    await shoot(page, 'queue');

    // keyboard only: j/k move, a approves, u undoes, r rejects
    await page.keyboard.press('j');
    await expect.poll(() => focusedPost(page)).toBe(ids[1]);
    await page.keyboard.press('k');
    await expect.poll(() => focusedPost(page)).toBe(ids[0]);
    await page.keyboard.press('a');
    await expect.poll(() => queueIds(page), { timeout: WAIT }).toEqual([ids[1], ids[2]]);
    await page.getByText(/^Approved post by .* Press u to undo\.$/).waitFor({ timeout: WAIT });
    await page.keyboard.press('u');
    await expect.poll(() => queueIds(page), { timeout: WAIT }).toEqual(ids);
    await page.getByText(/^Undone: Approved post/).waitFor({ timeout: WAIT });
    await page.keyboard.press('a'); // the first again
    await expect.poll(() => queueIds(page), { timeout: WAIT }).toEqual([ids[1], ids[2]]);
    await expect.poll(() => focusedPost(page)).toBe(ids[1]);
    await page.keyboard.press('r');
    await expect.poll(() => queueIds(page), { timeout: WAIT }).toEqual([ids[2]]);
    await page.keyboard.press('a');
    await page.getByText('The queue is empty').waitFor({ timeout: WAIT });

    // a post arriving upstream shows up in the open queue, announced, without a reload
    const upstreamItems = items.concat('Late arrival at the summit');
    upstream.documents.set('/trail.xml', {
      body: rssXml(
        upstreamItems.map((title, i) => ({
          guid: `trail-${i}`,
          title,
          link: `https://blog.example/${i}`,
          pubDate: new Date(Date.now() - (10 - i) * minute).toUTCString(),
          description: `${title}.`,
        })),
      ),
      type: 'application/rss+xml',
    });
    expect((await manage('POST', `/walls/${wallId}/feeds/${feedId}/poll`)).poll).toMatchObject({ inserted: 1 });
    await page.getByText('1 new post arrived.').waitFor({ timeout: WAIT });
    await expect.poll(() => queueTexts(page)).toEqual([expect.stringContaining('Late arrival at the summit')]);

    // the public API shows exactly the two approved posts
    const w2 = await fetch(`${instance.url}/api/v2/widget/posts/${wallId}?user_key=${DEMO_KEYS[0].key}&limit=50`);
    expect(w2.status).toBe(200);
    const body = (await w2.json()) as { responseData: { posts: { postId: string | number }[] }[] };
    expect(body.responseData[0]!.posts.map((p) => String(p.postId)).sort()).toEqual([ids[0], ids[2]].sort());
    // the wall's embed screen: a key, the snippet, and the live preview showing the same two posts
    await page.getByRole('navigation', { name: 'Wall' }).getByRole('link', { name: 'Embed' }).click();
    await page.getByRole('heading', { level: 1, name: 'Embed a wall' }).waitFor({ timeout: WAIT });
    await page.getByRole('button', { name: 'Make a publishable key for this wall' }).click();
    await expect.poll(() => page.getByLabel('Publishable key').inputValue(), { timeout: WAIT }).toMatch(/^pk_/);
    await page.getByLabel('Layout').selectOption('grid');
    const snippet = await page.getByLabel('The snippet to paste into a web page').inputValue();
    expect(snippet).toContain(`<script type="module" src="${instance.url}/embed/v1/wallery.js"></script>`);
    expect(snippet).toMatch(
      new RegExp(`<wallery-wall wall="${wallId}" key="pk_[^"]+" layout="grid"[^>]*></wallery-wall>`),
    );
    const preview = page.getByTestId('embed-preview');
    await expect
      .poll(
        () =>
          preview
            .locator('wallery-wall [data-post-id]')
            .evaluateAll((els) => els.map((e) => e.getAttribute('data-post-id')!).sort()),
        { timeout: WAIT },
      )
      .toEqual([ids[0], ids[2]].sort());

    // and the wall list counts them
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Walls' }).click();
    await expect
      .poll(() => page.locator(`tr[data-wall-id="${wallId}"] td.num`).allInnerTexts(), { timeout: WAIT })
      .toEqual(['2', '1', '0']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows what the role and account scope allow: a moderator of one account sees only its walls, no token management', async () => {
    const { page: admin } = await openConsole();
    await signIn(admin, tokens.admin);
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Operator tokens' }).waitFor({ timeout: WAIT });
    await admin.locator('tr[data-token-id]', { hasText: 'mo-moderator' }).waitFor({ timeout: WAIT });
    await expectAccessible(admin, 'tokens');
    // the audit log, filtered by action: the wall the first test made, by its token
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor({ timeout: WAIT });
    await admin.getByLabel('Action').fill('wall.create');
    await admin.getByLabel('Action').press('Enter');
    const rows = admin.locator('tr[data-audit-id]');
    await expect
      .poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-action'))), { timeout: WAIT })
      .toEqual(['wall.create']);
    expect(await rows.first().innerText()).toContain('anna-admin');

    const { page, errors } = await openConsole();
    await signIn(page, tokens.moderator);
    expect(await page.getByTestId('role').innerText()).toBe('moderator');
    await expect.poll(() => wallIds(page), { timeout: WAIT }).toEqual(['102']);
    // nothing of another account's walls anywhere in the page
    const html = await page.content();
    for (const other of ['Tonewood Music — #tonewood', 'Open Trails Community', 'Console Test Wall'])
      expect(html).not.toContain(other);
    // no token management, no wall editing: a moderator moderates
    expect(await page.getByRole('link', { name: 'Tokens' }).count()).toBe(0);
    for (const name of ['New wall', /^Edit/, /^Delete/])
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    // the audit log leaves other accounts out
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor({ timeout: WAIT });
    const audited = page.locator('tr[data-audit-id]');
    await audited.or(page.getByText('No entries match these filters.')).first().waitFor({ timeout: WAIT });
    const own = (await manage('GET', '/accounts/2')) as { name: string };
    for (const account of await audited.locator('td[data-label="Account"]').allInnerTexts())
      expect(account).toBe(own.name);
    await page.goto(`${instance.url}/console/#/tokens`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor({ timeout: WAIT });
    // a wall of another account is "not found", as the API says
    await page.goto(`${instance.url}/console/#/walls/101/queue`);
    await page.getByText(/The posts could not be loaded\. Wall 101 was not found/).waitFor({ timeout: WAIT });
    expect(await page.locator('article[data-post-id]').count()).toBe(0);
    expect(await page.content()).not.toContain('Tonewood Music — #tonewood');
    // its own wall: moderation yes, feed editing no
    await page.goto(`${instance.url}/console/#/walls/102/queue`);
    await page
      .getByRole('heading', { level: 1, name: /Moderation · Starlight Lake Festival 2026/ })
      .waitFor({ timeout: WAIT });
    await page.getByRole('combobox', { name: 'State' }).selectOption('all');
    await page.locator('article[data-post-id]').first().waitFor({ timeout: WAIT });
    expect(await page.getByRole('button', { name: 'Reject' }).count()).toBeGreaterThan(0);
    await page.goto(`${instance.url}/console/#/walls/102/feeds`);
    await page.locator('[data-feed-id]').first().waitFor({ timeout: WAIT });
    for (const name of ['Add feed', /^Edit/, /^Disable/])
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();

    // a token revoked while in use: the next call lands on the sign-in screen, with a message
    const { page: editor } = await openConsole();
    await signIn(editor, tokens.revoked);
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens' }).click();
    const row = admin.locator('tr[data-token-id]', { hasText: 'soon-revoked' });
    await row.getByRole('button', { name: 'Revoke soon-revoked' }).click();
    await row.getByText('revoked', { exact: true }).waitFor({ timeout: WAIT });
    await editor
      .locator('tr[data-wall-id="101"]')
      .getByRole('link', { name: 'Feeds of Tonewood Music — #tonewood' })
      .click();
    await editor.getByText(/Your session ended: the token is no longer valid/).waitFor({ timeout: WAIT });
    await editor.getByLabel('Operator token').waitFor();
    expect(await editor.evaluate(() => sessionStorage.length)).toBe(0);
    await admin.close();
    await editor.close();
  });

  it('clears a 500-post queue without the mouse: a selection rejected in bulk, the rest approved key by key', async () => {
    const { page, errors } = await openConsole();
    await signIn(page, tokens.admin);
    await page.goto(`${instance.url}/console/#/walls/${RUSH.wallId}/queue`);
    await page.getByRole('heading', { level: 1, name: /Moderation · Rush Hour Queue/ }).waitFor({ timeout: WAIT });
    await page.locator('article[data-post-id]').first().waitFor({ timeout: WAIT });
    const first = async () => page.locator('article[data-post-id]').first().getAttribute('data-post-id');
    expect(await first()).toBe(String(RUSH.firstPost));

    // what held a post: the rule's explained line, and what it found (label, score against threshold, model)
    const card = (n: number) => page.locator(`article[data-post-id="${RUSH.firstPost + n}"]`);
    // the reason's own verb is not said twice ("Held by rule lang: held: …")
    expect(await card(1).locator('.held').innerText()).toMatch(
      /^Held by rule lang( \([^)]*\))?: language 'pt' — eld 2\.1\.0$/,
    );
    expect(await card(1).locator('.decision-detail').innerText()).toMatch(/Found\s+pt\s+Measured by\s+eld 2\.1\.0/);
    expect(await card(2).locator('.held').innerText()).toContain(": sentiment -0.84 'negative' < -0.50");
    expect(await card(2).locator('.decision-detail').innerText()).toMatch(
      /Found\s+negative\s+Score\s+-0\.84\s+Rule’s threshold\s+-0\.50\s+Measured by\s+sentiment \(AFINN-165\) 5\.0\.2/,
    );
    expect(await card(3).locator('.decision-detail').count()).toBe(0);
    // the picture an image rule held is blurred until a moderator reveals it; the others are not
    const flagged = page.locator(`article[data-post-id="${RUSH.firstPost}"]`);
    const blurOf = () =>
      flagged
        .locator('.post-media')
        .first()
        .evaluate((img) => getComputedStyle(img).filter);
    await flagged.locator('[data-blurred]').waitFor({ timeout: WAIT });
    expect(await blurOf()).toMatch(/^blur\(/);
    expect(await page.locator('[data-blurred]').count()).toBe(1);
    await shoot(page, 'queue-blurred', false);
    await flagged.getByRole('button', { name: /^Reveal/ }).click();
    await expect.poll(blurOf, { timeout: WAIT }).toBe('none');
    expect(await flagged.getByRole('button', { name: /^Reveal/ }).count()).toBe(0);

    // the text filter, then back to the whole queue
    await page.getByLabel('Search text').fill('post 250 ');
    await expect.poll(() => queueIds(page), { timeout: WAIT }).toEqual([String(RUSH.firstPost + 249)]);
    await page.getByLabel('Search text').fill('');
    await expect.poll(() => first(), { timeout: WAIT }).toBe(String(RUSH.firstPost));
    await page.locator('h1').focus();

    // x selects, j moves: three posts, rejected together (one bulk call), then undone and rejected again
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.getByText('3 selected').waitFor({ timeout: WAIT });
    await shoot(page, 'queue-selection', false);
    await page.keyboard.press('r');
    await page.getByText('Rejected 3 posts. Press u to undo.').waitFor({ timeout: WAIT });
    const rejected = [0, 1, 2].map((i) => RUSH.firstPost + i);
    expect(await first()).toBe(String(RUSH.firstPost + 3));

    // the other 497, one key each, as fast as the keyboard repeats; then every decision is stored
    await page.keyboard.press('Home');
    const started = performance.now();
    // a key, then the next post in place (as a moderator works: read it, decide), never waiting for the server
    for (let i = 0; i < RUSH.posts - 3; i++) {
      await page.keyboard.press('a');
      const next = i === RUSH.posts - 4 ? null : String(RUSH.firstPost + 4 + i);
      await page.waitForFunction(
        (id) => (document.querySelector('article[data-post-id]')?.getAttribute('data-post-id') ?? null) === id,
        next,
        { timeout: WAIT, polling: 'raf' },
      );
    }
    const typed = performance.now() - started;
    await page.getByText('The queue is empty').waitFor({ timeout: 120_000 });
    const pending = async () =>
      (await manage('GET', '/walls?accountId=3&limit=200')).data.find((w: { id: number }) => w.id === RUSH.wallId)
        .pendingCount as number;
    await expect.poll(pending, { timeout: 120_000 }).toBe(0);
    const cleared = performance.now() - started;
    console.info(
      `[wallery] 497 posts approved by keyboard: keys typed in ${Math.round(typed)} ms, all stored in ${Math.round(cleared)} ms (${(cleared / 497).toFixed(1)} ms a post)`,
    );
    const walls = (await manage('GET', '/walls?accountId=3&limit=200')).data as Record<string, number>[];
    expect(walls.find((w) => w.id === RUSH.wallId)).toMatchObject({
      approvedCount: RUSH.posts - 3,
      rejectedCount: 3,
      pendingCount: 0,
    });
    const rejectedNow = await manage('GET', `/walls/${RUSH.wallId}/posts?state=rejected&limit=10`);
    expect(rejectedNow.data.map((p: { id: number }) => p.id).sort()).toEqual(rejected);
    expect(errors).toEqual([]);
    await page.close();
  });
});
