// The console's Webhooks screen in real Chromium against a real `wallery
// serve` (SQLite, the demo data set imported, webhooks delivered in-process)
// and a real receiver on 127.0.0.1 that verifies every signature: create
// (the secret shown once), send a test, a post approved through the API
// shows in the delivery log, replay it (the same event id arrives again),
// edit, disable and enable, rotate the secret, delete; a viewer sees no
// write. axe on the screen; screenshots at 1280 and 375 px go to
// docs/screenshots/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { eventually } from '../helpers/poll.js';
import { Receiver } from '../webhooks/helpers.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
const ACCOUNT = 1; // Tonewood Music Co., wall 101
const WALL = 101;
const POST = 10001;

interface Hook {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  state: string;
}
interface Attempt {
  id: number;
  eventId: string;
  type: string;
  status: string;
  replay: boolean;
}

describe.skipIf(!hasChromium)('the console’s Webhooks screen on a real `wallery serve`', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let rx: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  const tokens = { admin: '', viewer: '' };
  let hook: Hook;
  let approvedEvent = '';

  async function cli(args: string[]): Promise<string> {
    const done = await runCli([...args, '--database', database]);
    expect(done.code, done.stderr).toBe(0);
    return done.stdout;
  }
  const makeToken = async (args: string[]) =>
    (JSON.parse(await cli(['tokens', 'create', '--json', ...args])) as { token: string }).token;
  async function manage<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${tokens.admin}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, data: ((await res.json()) as { responseData: T }).responseData };
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-console-webhooks-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    rx = await new Receiver().start();
    // the receiver is on loopback, which the SSRF guard refuses unless allowed; a short tick: events go out soon
    // retried every second: a receiver that is down makes the endpoint `failing` (5 failures in a row) quickly
    instance = await startInstance(
      {
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
        WEBHOOK_TICK_MS: '100',
        WEBHOOK_RETRY_MIN_S: '1',
        WEBHOOK_RETRY_MAX_S: '1',
      },
      ['serve', '--database', database],
    );
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    await cli(['import', file]);
    [tokens.admin, tokens.viewer] = await Promise.all([
      makeToken(['--name', 'wendy-admin']),
      makeToken(['--name', 'vic-viewer', '--role', 'viewer']),
    ]);
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
    page = await openConsole(tokens.admin);
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    await rx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function openConsole(token: string): Promise<Page> {
    const p = await context.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('console', (m) => {
      // a refused call (4xx) and a post's picture this machine cannot reach are not the console's errors
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    await p.goto(`${instance.url}/console/#/walls`);
    await p.getByLabel('Operator token').fill(token);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
    return p;
  }

  /** No serious or critical axe violations on what the page shows now. */
  async function expectAccessible(p: Page, label: string) {
    const result = await new AxeBuilder({ page: p }).analyze();
    const bad = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad).toEqual([]);
  }

  const row = () => page.locator(`tr[data-webhook-id="${hook.id}"]`);
  const stateOf = () => row().getByTestId('hook-state').textContent();
  const focused = (p: Page) => p.evaluate(() => document.activeElement?.textContent ?? '');

  it('makes a webhook: URL and events, the secret shown once with a copy button', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks · Tonewood Music Co.' }).waitFor({ timeout: WAIT });
    await page.getByText('No webhooks for this account yet.').waitFor({ timeout: WAIT });

    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('dialog', { name: 'New webhook' });
    // a bad URL and no event: the API's messages next to the fields
    await form.getByLabel('URL').fill('ftp://nope');
    await form.getByLabel(/^post\.approved/).uncheck();
    await form.getByRole('button', { name: 'Make webhook' }).click();
    await form.locator('.field-error').first().waitFor({ timeout: WAIT });
    expect(await form.locator('.field-error').allTextContents()).toEqual([
      'URL must be a web address starting with http:// or https://.',
      expect.stringMatching(/events/),
    ]);
    await expectAccessible(page, 'new webhook, with errors');

    await form.getByLabel('URL').fill(rx.url);
    await form.getByLabel(/^post\.approved/).check();
    await form.getByLabel(/^post\.hidden/).check();
    await form.getByRole('button', { name: 'Make webhook' }).click();

    const shown = page.getByRole('dialog', { name: 'New webhook' });
    const secretBox = shown.getByLabel('Signing secret');
    await secretBox.waitFor({ timeout: WAIT });
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByText('Shown this once.').waitFor();
    await shown.getByRole('button', { name: 'Copy the signing secret' }).waitFor();
    rx.secret = secret;

    const listed = await manage<{ data: (Hook & { secret?: string })[] }>('GET', `/webhooks?accountId=${ACCOUNT}`);
    expect(listed.data.data).toHaveLength(1);
    hook = listed.data.data[0]!;
    expect(hook).toMatchObject({ url: rx.url, events: ['post.approved', 'post.hidden'], state: 'active' });
    expect(hook).not.toHaveProperty('secret');

    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    // focus is back where the dialog was opened from, and the secret is nowhere on the page any more
    expect(await focused(page)).toBe('New webhook');
    expect(await page.locator('body').textContent()).not.toContain(secret);
    expect(await stateOf()).toBe('active');
    expect(await row().locator('th').textContent()).toBe(rx.url);
    expect(await row().locator('.event-list li').allTextContents()).toEqual(['post.approved', 'post.hidden']);
  });

  it('sends a test and shows the attempt', async () => {
    await row()
      .getByRole('button', { name: /^Send test/ })
      .click();
    const result = page.getByRole('dialog', { name: 'Test event sent' });
    await result.waitFor({ timeout: WAIT });
    expect(await result.getByTestId('attempt-status').textContent()).toBe('delivered');
    await result.getByText('204', { exact: true }).waitFor(); // exact: the URL's port may hold 204 too
    expect(rx.received.map((r) => [r.type, r.verified])).toEqual([['webhook.test', true]]);
    await result.getByRole('button', { name: 'Done' }).click();
    await result.waitFor({ state: 'hidden' });
    expect(await focused(page)).toMatch(/^Send test/);
  });

  it('shows a post approved through the API in the delivery log, and replays it with the same event id', async () => {
    // pending, then approved: a post.approved (the step to pending is not an event this webhook takes)
    expect((await manage('PATCH', `/walls/${WALL}/posts/${POST}`, { state: 'pending' })).status).toBe(200);
    expect((await manage('PATCH', `/walls/${WALL}/posts/${POST}`, { state: 'approved' })).status).toBe(200);
    await eventually(
      'post.approved delivered and logged',
      async () => (await manage<{ data: Attempt[] }>('GET', `/webhooks/${hook.id}/deliveries`)).data.data,
      (log) => log.some((d) => d.type === 'post.approved' && d.status === 'delivered'),
      WAIT,
    );
    const arrived = rx.received.filter((r) => r.type === 'post.approved');
    expect(arrived.map((r) => r.verified)).toEqual([true]);
    approvedEvent = arrived[0]!.eventId;

    await row()
      .getByRole('link', { name: /^Delivery log/ })
      .click();
    const log = page.getByRole('region', { name: /^Delivery log/ });
    const attempt = log.locator(`tr[data-event-id="${approvedEvent}"]`);
    await attempt.waitFor({ timeout: WAIT });
    expect(await focused(page)).toBe(`Delivery log · ${rx.url}`);
    expect(await attempt.getAttribute('data-status')).toBe('delivered');
    expect(await attempt.locator('td[data-label="HTTP"]').textContent()).toBe('204');
    expect(await attempt.locator('td[data-label="Attempt"]').textContent()).toBe('1');
    expect(await attempt.locator('td[data-label="Latency"]').textContent()).toMatch(/^\d+ ms$/);
    expect(await log.locator('tr[data-event-id] th .mono:first-child').allTextContents()).toEqual([
      'post.approved',
      'webhook.test',
    ]);

    await attempt.getByRole('button', { name: /^Replay/ }).click();
    await log.getByText(`Replayed ${approvedEvent}: delivered.`).waitFor({ timeout: WAIT });
    expect(rx.ids().filter((e) => e === approvedEvent)).toHaveLength(2);
    expect(rx.received.every((r) => r.verified)).toBe(true);
    await log.locator(`tr[data-event-id="${approvedEvent}"]`).nth(1).waitFor({ timeout: WAIT });
    expect(await log.locator(`tr[data-event-id="${approvedEvent}"] th .sub`).first().textContent()).toBe(
      `${approvedEvent} · replay`,
    );
    await expectAccessible(page, 'webhooks with the delivery log');
  });

  it('shows a failing endpoint with its last error and next attempt', async () => {
    rx.mode = 'fail';
    expect((await manage('PATCH', `/walls/${WALL}/posts/${POST}`, { hidden: true })).status).toBe(200);
    await eventually(
      'the endpoint failing on the screen',
      async () => {
        await page.getByRole('button', { name: 'Refresh', exact: true }).click();
        return stateOf();
      },
      (state) => state === 'failing',
      WAIT,
      250,
    );
    const state = await row().locator('td[data-label="State"]').textContent();
    expect(state).toMatch(
      /\d+ failed attempts in a row; next attempt (in \d+ seconds?|just now|\d+ seconds? ago|soon)/,
    );
    expect(state).toMatch(/Last error \(.+\): .*503/);
    const log = page.getByRole('region', { name: /^Delivery log/ });
    await log.locator('tr[data-status="failed"]').first().waitFor({ timeout: WAIT });
    expect(await log.locator('tr[data-status="failed"] td[data-label="HTTP"]').first().textContent()).toBe('503');
  });

  it('looks right at 1280 and 375 px', async () => {
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `at ${viewport.width} px`).toBe(
        viewport.width,
      );
      await screenshot(page, { path: join(SHOTS, `console-webhooks-${viewport.width}.png`), fullPage: true });
    }
    await expectAccessible(page, 'webhooks at 375 px');
    await page.setViewportSize(WIDE);
  });

  it('edits the events, disables and enables, rotates the secret', async () => {
    rx.mode = 'ok'; // the post.hidden being retried goes through now
    await row().getByRole('button', { name: /^Edit/ }).click();
    const form = page.getByRole('dialog', { name: 'Edit webhook' });
    expect(await form.getByLabel('URL').inputValue()).toBe(rx.url);
    await form.getByLabel(/^post\.hidden/).uncheck();
    await form.getByLabel(/^post\.deleted/).check();
    await form.getByRole('button', { name: 'Save webhook' }).click();
    await form.waitFor({ state: 'hidden', timeout: WAIT });
    await page.getByText(`Webhook to ${rx.url} saved.`).waitFor({ timeout: WAIT });
    await expect
      .poll(() => row().locator('.event-list li').allTextContents(), { timeout: WAIT })
      .toEqual(['post.approved', 'post.deleted']);

    await row()
      .getByRole('button', { name: /^Disable/ })
      .click();
    await expect.poll(stateOf, { timeout: WAIT }).toBe('disabled');
    expect((await manage<Hook>('GET', `/webhooks/${hook.id}`)).data.enabled).toBe(false);
    await row()
      .getByRole('button', { name: /^Enable/ })
      .click();
    await expect.poll(stateOf, { timeout: WAIT }).toBe('active');
    expect((await manage<Hook>('GET', `/webhooks/${hook.id}`)).data.enabled).toBe(true);

    await row()
      .getByRole('button', { name: /^Rotate secret/ })
      .click();
    await page.getByRole('dialog', { name: 'Rotate secret' }).getByRole('button', { name: 'Rotate secret' }).click();
    const shown = page.getByRole('dialog', { name: 'New signing secret' });
    const fresh = await shown.getByLabel('Signing secret').inputValue();
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(rx.secret);
    await shown.getByText('Shown this once.').waitFor();
    rx.secret = fresh;
    await shown.getByRole('button', { name: 'Done' }).click();
    // signed with the new secret from now on
    await row()
      .getByRole('button', { name: /^Send test/ })
      .click();
    const result = page.getByRole('dialog', { name: 'Test event sent' });
    expect(await result.getByTestId('attempt-status').textContent()).toBe('delivered');
    const lastTest = () => rx.received.filter((r) => r.type === 'webhook.test').at(-1)!;
    expect(lastTest().verified).toBe(true);
    // for a day the old secret signs too
    expect(String(lastTest().headers['wallery-signature']).match(/v1=/g)).toHaveLength(2);
    await result.getByRole('button', { name: 'Done' }).click();
    await result.waitFor({ state: 'hidden' });

    // the secret leaked: rotate again, the old ones stop signing at once
    await row()
      .getByRole('button', { name: /^Rotate secret/ })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Rotate secret' });
    await confirm.getByLabel('Stop signing with the old secret now (it leaked)').check();
    await confirm.getByText('the old secret signs no more').waitFor();
    await expectAccessible(page, 'rotate secret, old one expired now');
    await confirm.getByRole('button', { name: 'Rotate secret' }).click();
    const revoked = page.getByRole('dialog', { name: 'New signing secret' });
    const newest = await revoked.getByLabel('Signing secret').inputValue();
    expect(newest).not.toBe(fresh);
    rx.secret = newest;
    await revoked.getByRole('button', { name: 'Done' }).click();
    await row()
      .getByRole('button', { name: /^Send test/ })
      .click();
    expect(await result.getByTestId('attempt-status').textContent()).toBe('delivered');
    expect(lastTest().verified).toBe(true);
    expect(String(lastTest().headers['wallery-signature']).match(/v1=/g)).toHaveLength(1);
    await result.getByRole('button', { name: 'Done' }).click();
  });

  it('shows a viewer the webhooks and the log, and no write; of a URL with a token in its query, origin and path', async () => {
    const withToken = `${rx.url}?token=tok_console_7`;
    expect((await manage('PATCH', `/webhooks/${hook.id}`, { url: withToken })).status).toBe(200);
    const viewer = await openConsole(tokens.viewer);
    await viewer.goto(`${instance.url}/console/#/webhooks/${ACCOUNT}/${hook.id}`);
    const log = viewer.getByRole('region', { name: /^Delivery log/ });
    await log.locator(`tr[data-event-id="${approvedEvent}"]`).first().waitFor({ timeout: WAIT });
    await viewer.locator(`tr[data-webhook-id="${hook.id}"]`).waitFor();
    const writes = /^(New webhook|Send test|Edit|Disable|Enable|Rotate secret|Delete|Replay)/;
    expect(await viewer.getByRole('button', { name: writes }).count()).toBe(0);
    expect(await viewer.locator(`tr[data-webhook-id="${hook.id}"] th`).textContent()).toBe(rx.url);
    expect(await viewer.locator('body').textContent()).not.toContain('tok_console_7');
    await expectAccessible(viewer, 'webhooks as a viewer');
    await viewer.close();
    // who may edit it sees it whole
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect.poll(() => row().locator('th').textContent(), { timeout: WAIT }).toBe(withToken);
    expect((await manage('PATCH', `/webhooks/${hook.id}`, { url: rx.url })).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect.poll(() => row().locator('th').textContent(), { timeout: WAIT }).toBe(rx.url);
  });

  it('deletes after a confirmation', async () => {
    await row()
      .getByRole('button', { name: /^Delete/ })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete webhook' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await row().count()).toBe(1);
    await row()
      .getByRole('button', { name: /^Delete/ })
      .click();
    await confirm.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhooks for this account yet.').waitFor({ timeout: WAIT });
    await page.getByText(`Webhook to ${rx.url} deleted.`).waitFor();
    // the log of the deleted webhook is closed, and focus is on the list, not lost with the row
    expect(await page.getByRole('region', { name: /^Delivery log/ }).count()).toBe(0);
    await expect.poll(() => focused(page), { timeout: WAIT }).toBe('Endpoints');
    expect((await manage('GET', `/webhooks/${hook.id}`)).status).toBe(404);
    expect(errors).toEqual([]);
  });
});
