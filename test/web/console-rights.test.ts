// Rights management in the console, in real Chromium on a real `wallery
// serve` (built, SQLite) with ingestion and the rights watcher on (ticking
// every second, reading a waiting request every second) and a local Mastodon
// server (test/rights/mastodon-server.ts): the account's request settings
// saved from the Rights screen with their live preview; a wall made to
// require rights for every post from its settings; two posts of a Mastodon
// feed selected in the queue and asked for by a reply (badges "Rights
// requested", "Held: needs rights"); the authors answer on Mastodon — one
// grants, one declines — and the badges follow by themselves; the granted post
// is public (v2), the declined one not; the Rights screen lists the decliner
// on the opt-out list and both requests in the report with their links, and
// downloads the CSV and the PDF; the post's rights panel shows the evidence and records
// an answer by hand. axe on the Rights screen and the rights panel;
// screenshots: docs/screenshots/console-rights-*.png.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, mastodonHtml, status } from '../ingest/fixtures/mastodon.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { startMastodonRights, type MastodonRightsServer } from '../rights/mastodon-server.js';
import {
  CONSOLE_WIDE,
  hasChromium,
  launchChromium,
  screenshot,
  seriousAxeFindings,
  shootConsoleScreen,
} from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
/** an answer is heard within a few watcher ticks and a few queue refreshes; generous for two loaded cores */
const HEARD = 90_000;

const ANA = account('ana', 'Ana Lima', '109000000000000001');
const BOB = account('bob', 'Bob Stone', '109000000000000002');
const CLEO = account('cleo', 'Cleo Park', '109000000000000003');
const ANA_STATUS = '113100000000000001';
const BOB_STATUS = '113100000000000002';
const CLEO_STATUS = '113100000000000003';
const ANA_REPLY = '113200000000000001';
const BOB_REPLY = '113200000000000002';
const link = (who: string, id: string) => `https://social.example/@${who}/${id}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Data = any;

describe.skipIf(!hasChromium)('rights management in the console, in Chromium on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let fx: MastodonRightsServer;
  let browser: Browser;
  let page: Page;
  let token = '';
  let accountId = 0;
  let wallId = 0;
  let userKey = '';
  const ids = { ana: 0, bob: 0 };
  let feedId = 0;
  let connectionId = 0;
  /** a status of the fixture's tag timeline */
  let post: (id: string, who: typeof ANA, minutes: number, text: string) => Record<string, unknown>;
  const errors: string[] = [];

  /** A management API call as the test's admin; its responseData. */
  async function manage(method: string, path: string, body?: unknown): Promise<Data> {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return ((await res.json()) as { responseData: Data }).responseData;
  }

  /** The wall's posts as the public reads them (v2): their links. */
  async function publicLinks(): Promise<string[]> {
    const res = await fetch(`${instance.url}/api/v2/widget/posts/${wallId}?user_key=${userKey}&limit=100`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { responseData: { posts: { postLinkUrl: string }[] }[] };
    return body.responseData[0]!.posts.map((p) => p.postLinkUrl).sort();
  }

  const card = (postId: number) => page.locator(`article[data-post-id="${postId}"]`);
  const badgeOf = (postId: number) =>
    card(postId)
      .locator('[data-rights]')
      .first()
      .getAttribute('data-rights', { timeout: 1000 })
      .catch(() => null);

  async function expectAccessible(label: string, within?: string) {
    expect(await seriousAxeFindings(page, label, within)).toEqual([]);
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console-rights-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    fx = await startMastodonRights();
    post = (id, who, minutes, text) =>
      status({
        id,
        createdAt: new Date(Date.now() - minutes * 60_000).toISOString(),
        html: mastodonHtml(text, ['harborcoffee']),
        account: who,
        tags: ['harborcoffee'],
      });
    fx.statuses.push(
      post(ANA_STATUS, ANA, 30, 'Morning flat white at the harbor'),
      post(BOB_STATUS, BOB, 20, 'Best cup in town'),
    );
    instance = await startInstance(
      {
        INGEST: 'on',
        INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
        SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
        RIGHTS_TICK_SECONDS: '1',
        RIGHTS_LISTEN_SECONDS: '1',
        MEDIA: 'off',
      },
      ['serve', '--database', database],
    );
    const made = await runCli(['tokens', 'create', '--name', 'rita-rights', '--json', '--database', database]);
    expect(made.code, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { token: string }).token;

    accountId = (await manage('POST', '/accounts', { name: 'Harbor Coffee', plan: 'enterprise' })).id;
    userKey = (await manage('POST', `/accounts/${accountId}/keys`)).key;
    wallId = (await manage('POST', '/walls', { accountId, name: 'Harbor wall', url: 'harbor', moderation: 'auto' })).id;
    connectionId = (
      await manage('POST', `/accounts/${accountId}/connections`, {
        network: 'mastodon',
        name: 'Harbor Coffee on Mastodon',
        authKind: 'token',
        accessToken: fx.rightsToken,
        instance: fx.origin,
      })
    ).id;
    const feed = await manage('POST', `/walls/${wallId}/feeds`, {
      name: '#harborcoffee',
      source: 'Mastodon',
      sourceType: 'hashtag',
      connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'harborcoffee' },
    });
    feedId = feed.id;
    await manage('POST', `/walls/${wallId}/feeds/${feedId}/poll`);
    const posts = (await manage('GET', `/walls/${wallId}/posts?state=all`)).data as Data[];
    ids.ana = posts.find((p) => p.authorName === 'Ana Lima')!.id;
    ids.bob = posts.find((p) => p.authorName === 'Bob Stone')!.id;
    // the wall requires nothing yet: both are public
    expect(await publicLinks()).toEqual([link('ana', ANA_STATUS), link('bob', BOB_STATUS)]);

    browser = await launching;
    const context = await browser.newContext({
      viewport: CONSOLE_WIDE,
      reducedMotion: 'reduce',
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: WAIT });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    await fx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('saves the request settings from the Rights screen, its preview filled in as the request will be', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rights' }).click();
    await page.getByRole('heading', { level: 1, name: 'Rights · Harbor Coffee' }).waitFor({ timeout: WAIT });
    const form = page.getByRole('form', { name: 'Rights settings' });
    const preview = page.getByTestId('rights-preview');
    await form.getByLabel('Grant hashtag').fill('#YesHarbor');
    await form.getByLabel('Brand').fill('Harbor Coffee');
    await form.getByLabel('Terms link').fill('https://harbor.example/terms');
    await expect
      .poll(() => preview.innerText())
      .toBe(
        'Hi @ana@harbor.social! We love this post and would like to show it on our site. Reply #YesHarbor to agree to Harbor Coffee using it. Terms: https://harbor.example/terms',
      );
    // a template that does not say how to grant is named at once
    const template = form.getByLabel('Request text');
    const was = await template.inputValue();
    await template.fill('Hi {author}, may we?');
    await page.getByText('template must say how to grant').waitFor({ timeout: WAIT });
    await template.fill(was);
    // the account's Mastodon connection is offered for asking on Mastodon
    await expect
      .poll(() => form.getByLabel('Mastodon', { exact: true }).locator('option').allInnerTexts(), { timeout: WAIT })
      .toContain('Harbor Coffee on Mastodon');
    // an out-of-range limit is refused under its field
    await form.getByLabel('Requests to one author a day').fill('50');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('The rights settings were not saved').waitFor({ timeout: WAIT });
    await form.getByLabel('Requests to one author a day').fill('3');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Rights settings saved.').waitFor({ timeout: WAIT });
    expect(await manage('GET', `/accounts/${accountId}/rights-settings`)).toMatchObject({
      grantHashtag: 'YesHarbor',
      brand: 'Harbor Coffee',
      termsUrl: 'https://harbor.example/terms',
      perAuthorPerDay: 3,
    });
  });

  it('makes the wall require rights from its settings: both posts leave the public wall, held', async () => {
    await page.goto(`${instance.url}/console/#/walls`);
    await page.getByRole('button', { name: 'Edit Harbor wall' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit wall' });
    await dialog.getByLabel('Rights required').selectOption('all');
    await dialog.getByLabel('Ask automatically').selectOption('off');
    await dialog.getByRole('button', { name: 'Save wall' }).click();
    await page.getByText('Wall “Harbor wall” saved.').waitFor({ timeout: WAIT });
    expect(await manage('GET', `/walls/${wallId}`)).toMatchObject({ rightsRequired: 'all', rightsAuto: 'off' });
    await expect.poll(publicLinks, { timeout: WAIT }).toEqual([]);
  });

  it('asks for both posts from the queue; the authors’ answers on Mastodon turn the badges by themselves', async () => {
    await page.goto(`${instance.url}/console/#/walls/${wallId}/queue`);
    const filters = page.getByRole('search', { name: 'Filter posts' });
    await filters.getByLabel('State').selectOption('all');
    // the rights filter: never asked
    await filters.getByLabel('Rights').selectOption('none');
    await card(ids.ana).waitFor({ timeout: WAIT });
    await card(ids.bob).waitFor({ timeout: WAIT });
    await expect(card(ids.ana).locator('[data-rights-held]').innerText()).resolves.toBe('Held: needs rights');
    await filters.getByLabel('Rights').selectOption('');

    await page.getByLabel('Select post by Ana Lima').check();
    await page.getByLabel('Select post by Bob Stone').check();
    await page.getByRole('group', { name: 'Selected posts' }).getByRole('button', { name: 'Request rights' }).click();
    await page.getByRole('status').getByText('Rights requested for 2 posts: 2 by a reply.').waitFor({ timeout: WAIT });
    // all asked by a reply: nothing to act on, no note
    expect(await page.getByTestId('rights-summary').count()).toBe(0);
    await expect.poll(() => badgeOf(ids.ana), { timeout: WAIT }).toBe('requested');
    await expect.poll(() => badgeOf(ids.bob), { timeout: WAIT }).toBe('requested');
    expect(await card(ids.ana).locator('.post-state').innerText()).toContain('Rights requested');
    // two replies went out on Mastodon, each to its post
    expect(fx.posted.map((p) => p.body.in_reply_to_id).sort()).toEqual([ANA_STATUS, BOB_STATUS]);
    await screenshot(page, { path: join(SHOTS, 'console-rights-queue-1280.png') });

    // asking again is refused, with the reason in words
    await page.getByLabel('Select post by Ana Lima').check();
    await page.getByRole('group', { name: 'Selected posts' }).getByRole('button', { name: 'Request rights' }).click();
    const refused = page.getByRole('list', { name: 'Posts not asked' });
    await refused.waitFor({ timeout: WAIT });
    expect(await refused.innerText()).toContain('Ana Lima: rights are already requested');
    await page.getByText('No rights were requested. 1 post not asked.').waitFor({ timeout: WAIT });
    await page.getByTestId('rights-summary').getByRole('button', { name: 'Dismiss' }).click();

    // the authors answer their requests on Mastodon
    const requestTo = (statusId: string) => String(fx.others.find((s) => s.in_reply_to_id === statusId)!.id);
    fx.reply({ id: ANA_REPLY, to: requestTo(ANA_STATUS), who: ANA, text: 'Sure! #YesHarbor', tags: ['YesHarbor'] });
    fx.reply({ id: BOB_REPLY, to: requestTo(BOB_STATUS), who: BOB, text: 'No thanks' });
    await expect.poll(() => badgeOf(ids.ana), { timeout: HEARD }).toBe('granted');
    await expect.poll(() => badgeOf(ids.bob), { timeout: HEARD }).toBe('declined');
    await expect(card(ids.ana).locator('[data-rights-held]').count()).resolves.toBe(0);
    await expect(card(ids.bob).locator('[data-rights-held]').count()).resolves.toBe(1);
    await screenshot(page, { path: join(SHOTS, 'console-rights-queue-answered-1280.png') });

    // the granted post is public, the declined one not
    await expect.poll(publicLinks, { timeout: WAIT }).toEqual([link('ana', ANA_STATUS)]);
    expect(errors).toEqual([]);
  });

  it('lists the decliner on the opt-out list and both requests in the report, with their links; downloads the CSV and the PDF', async () => {
    await page.goto(`${instance.url}/console/#/rights/${accountId}`);
    await page.getByRole('heading', { level: 1, name: 'Rights · Harbor Coffee' }).waitFor({ timeout: WAIT });
    const optOuts = page.getByRole('list', { name: 'Authors never asked again' });
    await optOuts.waitFor({ timeout: WAIT });
    const entries = await optOuts.locator('li').allInnerTexts();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatch(/bob@social\.example.*declined/);

    const report = page.locator('table.rights-report-table');
    await report.waitFor({ timeout: WAIT });
    const ana = report.locator(`tr[data-post-id="${ids.ana}"]`);
    const bob = report.locator(`tr[data-post-id="${ids.bob}"]`);
    expect(await ana.innerText()).toContain('Rights granted');
    expect(await bob.innerText()).toContain('Rights declined');
    await expect(ana.getByRole('link', { name: /^post by Ana Lima/ }).getAttribute('href')).resolves.toBe(
      link('ana', ANA_STATUS),
    );
    await expect(ana.getByRole('link', { name: /^answer by/ }).getAttribute('href')).resolves.toBe(
      link('ana', ANA_REPLY),
    );
    await expect(bob.getByRole('link', { name: /^answer by/ }).getAttribute('href')).resolves.toBe(
      link('bob', BOB_REPLY),
    );
    const requestUrl = await ana.getByRole('link', { name: /^request to/ }).getAttribute('href');
    expect(requestUrl).toMatch(/^https:\/\/social\.example\/@harborcoffee\/\d+$/);

    // the CSV: fetched with the token in a header, saved from a blob (no token in any URL)
    const asked: string[] = [];
    page.on('request', (r) => asked.push(r.url()));
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: WAIT }),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^postId,wallId,network,author,/);
    expect(csv).toContain(link('ana', ANA_REPLY));
    expect(csv).toContain(link('bob', BOB_REPLY));
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    // the PDF beside it, the same way
    const [pdf] = await Promise.all([
      page.waitForEvent('download', { timeout: WAIT }),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(
      readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    expect(pdf.suggestedFilename()).toMatch(/^account-\d+-rights-evidence-[\d-]+\.pdf$/);
    expect(asked.some((u) => u.includes(token))).toBe(false);

    await page.evaluate('scrollTo(0, 0)');
    await expectAccessible('rights screen');
    await shootConsoleScreen(page, 'rights');

    // an author taken off the list may be asked again
    await optOuts.getByRole('button', { name: /^Remove .*bob/ }).click();
    await page.getByText('Nobody has opted out.').waitFor({ timeout: WAIT });
    expect(await manage('GET', `/accounts/${accountId}/rights/opt-outs`)).toEqual([]);
  });

  it('shows a post’s rights with their evidence, and records an answer by hand', async () => {
    await page.goto(`${instance.url}/console/#/walls/${wallId}/posts/${ids.ana}`);
    const panel = page.getByRole('region', { name: 'Rights' });
    await panel.waitFor({ timeout: WAIT });
    await panel.getByText('Rights granted').first().waitFor({ timeout: WAIT });
    const trail = panel.getByRole('list', { name: 'Evidence, oldest first' });
    await expect(trail.locator('li').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Asked · by rita-rights[\s\S]*Hi @ana/),
      expect.stringMatching(/^Granted · by the author[\s\S]*Sure! #YesHarbor/),
    ]);
    await expect(panel.getByRole('link', { name: /^See the answer/ }).getAttribute('href')).resolves.toBe(
      link('ana', ANA_REPLY),
    );
    await expectAccessible('post rights panel', '.post-rights');

    // the author takes it back by e-mail: recorded by hand, the post leaves the public wall
    await panel.getByRole('button', { name: 'Record answer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record the author’s answer' });
    await dialog.getByLabel('Answer', { exact: true }).selectOption('revoked');
    await dialog.getByLabel('Link to the answer').fill('not a link');
    await dialog.getByRole('button', { name: 'Record answer' }).click();
    await dialog.getByText('The answer was not recorded').waitFor({ timeout: WAIT });
    await dialog.getByLabel('Link to the answer').fill('');
    await dialog.getByLabel('Note').fill('asked us by e-mail to take it down');
    await expectAccessible('record answer dialog', 'dialog');
    await dialog.getByRole('button', { name: 'Record answer' }).click();
    await page.getByText('Answer recorded: rights revoked.').waitFor({ timeout: WAIT });
    await panel.getByText('Rights revoked').first().waitFor({ timeout: WAIT });
    await expect(trail.locator('li').last().innerText()).resolves.toMatch(
      /^Answer recorded by hand \(revoked\) · by rita-rights[\s\S]*asked us by e-mail/,
    );
    await expect.poll(publicLinks, { timeout: WAIT }).toEqual([]);
    await screenshot(page, { path: join(SHOTS, 'console-rights-post-1280.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('gives the text to send by hand where Wallery cannot reply, with a Copy button and the post’s link', async () => {
    // without a Mastodon connection the account cannot reply there: a new post is asked by hand
    await manage('DELETE', `/connections/${connectionId}`);
    fx.statuses.push(post(CLEO_STATUS, CLEO, 5, 'Latte art'));
    await manage('POST', `/walls/${wallId}/feeds/${feedId}/poll`);
    const cleo = ((await manage('GET', `/walls/${wallId}/posts?state=all`)).data as Data[]).find(
      (p) => p.authorName === 'Cleo Park',
    )!.id as number;
    await page.goto(`${instance.url}/console/#/walls/${wallId}/queue`);
    const filters = page.getByRole('search', { name: 'Filter posts' });
    await filters.getByLabel('State').selectOption('all');
    await filters.getByLabel('Rights').selectOption('none');
    await card(cleo).waitFor({ timeout: WAIT });
    await page.getByLabel('Select post by Cleo Park').check();
    await page.getByRole('group', { name: 'Selected posts' }).getByRole('button', { name: 'Request rights' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send these requests by hand' });
    await dialog.waitFor({ timeout: WAIT });
    const item = dialog.locator(`li[data-post-id="${cleo}"]`);
    const text =
      'Hi @cleo@social.example! We love this post and would like to show it on our site. Reply #YesHarbor to agree to Harbor Coffee using it. Terms: https://harbor.example/terms';
    await expect(item.locator('.rights-text').innerText()).resolves.toBe(text);
    await expect(item.getByRole('link', { name: /^Open the post/ }).getAttribute('href')).resolves.toBe(
      link('cleo', CLEO_STATUS),
    );
    await item.getByRole('button', { name: 'Copy the request to Cleo Park' }).click();
    await item.getByText('Copied the request to Cleo Park.').waitFor({ timeout: WAIT });
    await expectAccessible('by-hand requests dialog', 'dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    // the note stays: the request can be shown again
    await page.getByTestId('rights-summary').getByText('1 request to send by hand').waitFor({ timeout: WAIT });
    expect(await manage('GET', `/walls/${wallId}/posts/${cleo}/rights`)).toMatchObject({
      state: 'requested',
      method: 'manual',
      requestText: text,
    });
    // nothing went out on Mastodon for it
    expect(fx.posted.map((p) => p.body.in_reply_to_id)).not.toContain(CLEO_STATUS);
    expect(errors).toEqual([]);
  });
});
