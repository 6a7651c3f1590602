// The console's Home, Accounts and sign-in in real Chromium against a real
// server (SQLite): the sign-in tells a user key, a publishable key, garbage,
// a revoked token and a session that ended apart; an empty instance greets
// with the steps to a first wall; accounts are created, edited and deleted
// (the name typed to confirm), read-only for a token limited to one; Home
// lists what needs attention on the demo data set made to need it — each
// item a link to its screen. axe on every screen; screenshots at 1280 and
// 375 px go to docs/screenshots/.
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_TOKEN_COMMAND } from '../../src/cli/serve.js';
import { demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { utcDay } from '../../src/domain/dates.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createOperatorToken, revokeOperatorToken, type OperatorTokenInput } from '../../src/manage/tokens.js';
import { addCounts } from '../../src/store/analytics.js';
import { importDataFile } from '../../src/store/datafile.js';
import { generateUserKey } from '../../src/store/keys.js';
import { generatePublishableKey } from '../../src/store/publishable-keys.js';
import { raiseUsage } from '../../src/store/usage.js';
import { MESSAGES } from '../../web/console/src/signInText.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hasChromium, launchChromium, CONSOLE_WIDE, shootConsoleScreen, seriousAxeFindings } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = CONSOLE_WIDE;

describe.skipIf(!hasChromium)('the console’s Home, Accounts and sign-in in Chromium', () => {
  let srv: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let admin = '';
  const errors: string[] = [];

  const op = () => ({ db: srv.store.db, actor: CLI_ACTOR, now: Date.now() });
  const makeToken = async (input: OperatorTokenInput) => createOperatorToken(op(), input);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const launching = launchChromium();
    // an instance as `wallery serve` starts on an empty store: nothing but the first admin token
    srv = await startTestServer();
    admin = (await makeToken({ name: 'anna-admin' })).token;
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await browser?.close();
    await srv?.close();
  });

  async function newPage(hash = ''): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // a refused call (401, 409) and a demo picture are not the console's errors
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    await page.goto(`${srv.baseUrl}/console/${hash}`);
    return page;
  }

  async function signIn(page: Page, token: string, landing = 'Home') {
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: landing }).waitFor({ timeout: WAIT });
  }

  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

  /** No serious or critical axe violations on what the page shows now (within `within`, when given). */
  async function expectAccessible(page: Page, label: string, within?: string) {
    expect(await seriousAxeFindings(page, label, within)).toEqual([]);
  }

  /** The page at 1280 and 375 px (nothing wider than the screen), then back at 1280. */
  const shoot = shootConsoleScreen;

  it('sign-in names what was pasted: a user key, a publishable key, garbage, a revoked token; a session that ended', async () => {
    const page = await newPage();
    await page.getByRole('heading', { level: 1, name: /Sign in/ }).waitFor({ timeout: WAIT });
    // the hint gives the command `npm start` prints
    await expect(page.locator('.signin .hint').innerText()).resolves.toContain(FIRST_TOKEN_COMMAND);

    const revoked = await makeToken({ name: 'gone-already', role: 'editor' });
    await revokeOperatorToken(op(), String(revoked.id));
    const cases: [string, string][] = [
      [generateUserKey(), MESSAGES.userKey],
      ['demo-enterprise-key', MESSAGES.userKey],
      [`${srv.baseUrl}/walls/101?key=${generatePublishableKey()}`, MESSAGES.publishableKey],
      ['correct horse battery staple', MESSAGES.notAToken],
      ['wop_not-a-token-this-server-made', MESSAGES.revoked],
      [revoked.token, MESSAGES.revoked],
    ];
    const field = page.getByLabel('Operator token');
    for (const [typed, message] of cases) {
      await field.fill(typed);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.signin .field-error', { hasText: message }).waitFor({ timeout: WAIT });
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
      // a refused sign-in is not a session that ended
      expect(await page.getByTestId('session-message').count()).toBe(0);
    }
    await expectAccessible(page, 'sign-in with a user key');
    await field.fill(generateUserKey());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.signin .field-error', { hasText: MESSAGES.userKey }).waitFor({ timeout: WAIT });
    await shoot(page, 'signin-user-key', false);

    // a token that worked and was revoked while in use: "your session ended", once, on the next call
    const soon = await makeToken({ name: 'soon-revoked', role: 'viewer' });
    await field.fill(`Bearer ${soon.token}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: WAIT });
    await revokeOperatorToken(op(), String(soon.id));
    // the next call ends it: the Walls screen's, or Home's own refresh when that comes first (then
    // the menu is gone before a click could land: the hash is set instead of clicking its link)
    await page.evaluate("location.hash = '#/walls'");
    await page.getByTestId('session-message').waitFor({ timeout: WAIT });
    await expect(page.getByTestId('session-message').innerText()).resolves.toBe(MESSAGES.sessionEnded);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an empty instance greets with the steps to a first wall, not a blank page', async () => {
    const page = await newPage();
    await signIn(page, admin);
    const start = page.getByTestId('get-started');
    await start.waitFor({ timeout: WAIT });
    await expect(start.innerText()).resolves.toMatch(/no walls yet/);
    await expectAccessible(page, 'home, empty');
    await shoot(page, 'home-start');
    await start.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Accounts' }).waitFor({ timeout: WAIT });
    await page.getByText('No accounts yet.').waitFor({ timeout: WAIT });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('accounts: create (a bad limit first), edit, delete with the name typed; one with walls stays; a scoped admin reads only its own', async () => {
    await importDataFile(srv.store, demoDataFile(Date.now(), demoMediaBase(srv.baseUrl)), Date.now());
    const page = await newPage('#/accounts');
    await signIn(page, admin, 'Accounts');
    const rows = page.locator('tr[data-account-id]');
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBe(4);

    // create: a limit that is not a number is refused next to its field
    await page.getByRole('button', { name: 'New account' }).click();
    const create = page.getByRole('dialog', { name: 'New account' });
    await expect.poll(() => create.getByLabel('Name').evaluate((e) => e === document.activeElement)).toBe(true);
    await create.getByLabel('Name').fill('Harbour Festival');
    await create.getByLabel('Plan').selectOption('widget');
    await create.getByLabel('Daily call limit').fill('lots');
    await create.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => create.getByLabel('Daily call limit').getAttribute('aria-invalid'), { timeout: WAIT })
      .toBe('true');
    await create.getByLabel('Daily call limit').fill('5000');
    await create.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Account “Harbour Festival” created.').waitFor({ timeout: WAIT });
    const harbour = rows.filter({ hasText: 'Harbour Festival' });
    await expect
      .poll(() => harbour.locator('td').allInnerTexts(), { timeout: WAIT })
      .toEqual(['Widget', '5,000', expect.stringContaining('Keys & usage')]);

    // edit
    await page.getByRole('button', { name: 'Edit Harbour Festival' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit account' });
    await expect(edit.getByLabel('Daily call limit').inputValue()).resolves.toBe('5000');
    await edit.getByLabel('Plan').selectOption('enterprise');
    await edit.getByLabel('Daily call limit').fill('20000');
    await edit.getByRole('button', { name: 'Save account' }).click();
    await page.getByText('Account “Harbour Festival” saved.').waitFor({ timeout: WAIT });
    await expect
      .poll(() => harbour.locator('td').allInnerTexts(), { timeout: WAIT })
      .toEqual(['Enterprise', '20,000', expect.stringContaining('Keys & usage')]);
    await expectAccessible(page, 'accounts');
    await shoot(page, 'accounts');

    // delete: only once the name is typed exactly
    await page.getByRole('button', { name: 'Delete Harbour Festival' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete account' });
    const confirm = remove.getByLabel('Type the account’s name to confirm');
    await confirm.fill('Harbour');
    // the button says it is off until then (aria-disabled, still focusable); Enter in the field submits too
    await expect(remove.getByRole('button', { name: 'Delete account' }).getAttribute('aria-disabled')).resolves.toBe(
      'true',
    );
    await confirm.press('Enter');
    await remove.getByText('Type the name exactly as shown (Harbour Festival)').waitFor({ timeout: WAIT });
    await expect(confirm.getAttribute('aria-invalid')).resolves.toBe('true');
    await confirm.fill('Harbour Festival');
    await expectAccessible(page, 'delete account dialog', 'dialog[open]');
    await shoot(page, 'accounts-delete', false);
    await remove.getByRole('button', { name: 'Delete account' }).click();
    await page.getByText('Account “Harbour Festival” deleted.').waitFor({ timeout: WAIT });
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBe(4);

    // an account with walls is not deleted: the API's refusal, in the dialog
    await page.getByRole('button', { name: 'Delete Tonewood Music Co.' }).click();
    await remove.getByLabel('Type the account’s name to confirm').fill('Tonewood Music Co.');
    await remove.getByRole('button', { name: 'Delete account' }).click();
    await remove.getByText('The account was not deleted').waitFor({ timeout: WAIT });
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => rows.count(), { timeout: WAIT }).toBe(4);
    expect(errors).toEqual([]);
    await page.close();

    // an admin limited to account 2 sees it alone, read-only; a moderator has no Accounts at all
    const scoped = await newPage();
    await signIn(scoped, (await makeToken({ name: 'festival-admin', role: 'admin', accounts: [2] })).token);
    await nav(scoped, 'Accounts').click();
    await scoped.getByTestId('accounts-read-only').waitFor({ timeout: WAIT });
    await expect
      .poll(() => scoped.locator('tr[data-account-id]').evaluateAll((trs) => trs.map((t) => t.dataset.accountId)))
      .toEqual(['2']);
    for (const name of ['New account', /^Edit/, /^Delete/])
      expect(await scoped.getByRole('button', { name }).count()).toBe(0);
    await scoped.close();
    const moderator = await newPage();
    await signIn(moderator, (await makeToken({ name: 'mo', role: 'moderator' })).token);
    expect(await nav(moderator, 'Accounts').count()).toBe(0);
    await moderator.close();
  });

  it('Home: all clear, then what needs attention — posts waiting, failing feeds and webhooks, a full account, today — each a link to its screen', async () => {
    const page = await newPage();
    await signIn(page, admin);
    await expect(page.getByTestId('home-summary').innerText()).resolves.toMatch(/All clear/);

    // the demo data made to need attention
    const db = srv.store.db;
    const today = utcDay(srv.clock.now);
    const pendingOf = async (wallId: number, n: number) => {
      const ids = await db
        .selectFrom('posts')
        .select('id')
        .where('wall_id', '=', wallId)
        .orderBy('id')
        .limit(n)
        .execute();
      await db
        .updateTable('posts')
        .set({ state: 'pending' })
        .where(
          'id',
          'in',
          ids.map((r) => r.id),
        )
        .execute();
    };
    await pendingOf(102, 4);
    await pendingOf(103, 2);
    const feed = await db
      .selectFrom('feeds')
      .select(['id', 'name'])
      .where('wall_id', '=', 102)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('feed_ingest_state')
      .values({
        feed_id: feed.id,
        interval_s: 300,
        consecutive_failures: 4,
        failing: 1,
        last_error: 'refused: 127.0.0.1 is a loopback address',
        last_error_at: srv.clock.now - 5 * 60_000,
      })
      .execute();
    const hook = await fetch(`${srv.baseUrl}/api/manage/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        accountId: 1,
        url: 'https://crm.tonewood.example/hooks/wallery',
        events: ['post.approved'],
      }),
    });
    const hookId = ((await hook.json()) as { responseData: { id: number } }).responseData.id;
    await db
      .updateTable('webhooks')
      .set({ state: 'failing', consecutive_failures: 6, last_error_at: srv.clock.now - 60_000 })
      .where('id', '=', hookId)
      .execute();
    await raiseUsage(db, 2, today, 9_240);
    await addCounts(db, [
      { wallId: 101, day: today, type: 'impression', postId: 10001, productId: 0, n: 1_284 },
      { wallId: 101, day: today, type: 'click', postId: 10001, productId: 0, n: 37 },
      { wallId: 101, day: today, type: 'product_click', postId: 10001, productId: 501, n: 12 },
      { wallId: 102, day: today, type: 'impression', postId: 20001, productId: 0, n: 3_410 },
      { wallId: 102, day: today, type: 'cta_click', postId: 20001, productId: 0, n: 58 },
    ]);

    // read again when the screen opens
    await nav(page, 'Walls').click();
    await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
    await nav(page, 'Home').click();
    await expect
      .poll(() => page.getByTestId('home-summary').innerText(), { timeout: WAIT })
      .toMatch(/^5 things need your attention/);
    const card = (name: RegExp) => page.getByRole('region', { name });
    const links = (name: RegExp) =>
      card(name)
        .getByRole('listitem')
        .getByRole('link')
        .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent?.replace(/\s+/g, ' ').trim()]));
    await expect(links(/^Posts waiting/)).resolves.toEqual([
      ['#/walls/102/queue', expect.stringMatching(/^Starlight Lake Festival 2026.*4 posts waiting/)],
      ['#/walls/103/queue', expect.stringMatching(/2 posts waiting/)],
    ]);
    await expect(links(/^Feeds failing/)).resolves.toEqual([
      ['#/walls/102/feeds', expect.stringMatching(new RegExp(`^${feed.name}.*the last 4 polls failed`))],
    ]);
    await expect(links(/^Webhooks failing/)).resolves.toEqual([
      [`#/webhooks/1/${hookId}`, expect.stringMatching(/^https:\/\/crm\.tonewood\.example\/hooks\/wallery.*6 failed/)],
    ]);
    await expect(links(/^Near the daily call limit/)).resolves.toEqual([
      ['#/keys/2', expect.stringMatching(/^Starlight Lake Festival.*9,240 of 10,000 .*\(92 %\)/)],
    ]);
    await expect(page.getByTestId('today-impressions').innerText()).resolves.toBe('4,694');
    await expect(page.getByTestId('today-clicks').innerText()).resolves.toBe('107');
    await expect(links(/^Today/)).resolves.toEqual([
      ['#/analytics/102', expect.stringMatching(/3,410 impressions · 58 clicks/)],
      ['#/analytics/101', expect.stringMatching(/1,284 impressions · 49 clicks/)],
    ]);
    await expectAccessible(page, 'home');
    await shoot(page, 'home');

    // the links lead to the screens that deal with them
    await card(/^Posts waiting/)
      .getByRole('link')
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: /Starlight Lake Festival 2026/ }).waitFor({ timeout: WAIT });
    await page.goBack();
    await card(/^Feeds failing/)
      .getByRole('link')
      .first()
      .click();
    await page.locator(`[data-feed-id="${feed.id}"]`).waitFor({ timeout: WAIT });
    await page.goBack();
    await card(/^Webhooks failing/)
      .getByRole('link')
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: /Webhooks/ }).waitFor({ timeout: WAIT });
    // the brand goes home
    await page.getByRole('link', { name: 'Wallery console' }).click();
    await page.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: WAIT });
    expect(errors).toEqual([]);
    await page.close();
  });
});
