// The console's rule editor with the spam rules, in real Chromium against a
// real `wallery serve` (SQLite, the demo data set): add a burst, a duplicate,
// a link-only and an account rule with their fields, and a rights rule with
// its states (none chosen is named before anything is sent), a field out of
// range named before anything is sent, edit one in place, save — the
// management API then holds exactly those rules — and no serious axe finding.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { CONSOLE_WIDE, hasChromium, launchChromium } from './browser.js';

const WAIT = 30_000;
const WALL = 101;

describe.skipIf(!hasChromium)('the rule editor: spam rules', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let browser: Browser;
  let token = '';

  async function cli(args: string[]): Promise<string> {
    const done = await runCli([...args, '--database', database]);
    expect(done.code, done.stderr).toBe(0);
    return done.stdout;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-spam-console-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    instance = await startInstance({}, ['serve', '--database', database]);
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    await cli(['import', file]);
    token = (JSON.parse(await cli(['tokens', 'create', '--json', '--name', 'anna-admin'])) as { token: string }).token;
    browser = await launching;
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function rules(): Promise<unknown[]> {
    const res = await fetch(`${instance.url}/api/manage/v1/walls/${WALL}/rules`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { responseData: { rules: unknown[] } }).responseData.rules;
  }

  async function open(): Promise<{ page: Page; errors: string[] }> {
    const page = await (await browser.newContext({ viewport: CONSOLE_WIDE, reducedMotion: 'reduce' })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/#/walls`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
    await page.goto(`${instance.url}/console/#/walls/${WALL}/rules`);
    await page.getByRole('heading', { level: 2, name: 'Add a rule' }).waitFor({ timeout: WAIT });
    return { page, errors };
  }

  const listed = (page: Page) => page.getByRole('list', { name: 'Rules, in order' }).locator('li.rule').allInnerTexts();

  it('adds, checks and edits the spam rules; the API holds what was saved', async () => {
    const before = await rules();
    const { page, errors } = await open();
    const form = page.getByRole('form', { name: 'Add a rule' });

    // a burst: one author 5 times in 1 minute (the defaults), held
    await form.getByLabel('Rule', { exact: true }).selectOption('burst');
    await form.getByLabel('Count by').selectOption('author');
    await form.getByRole('button', { name: 'Add rule' }).click();
    // a duplicate with a window out of range: named, nothing added
    await form.getByLabel('Rule', { exact: true }).selectOption('duplicate');
    await form.getByLabel('Action').selectOption('reject');
    await form.getByLabel('Within (minutes)').fill('5000');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await form.getByText('Enter a window of 1 to 1440 minutes.').waitFor({ timeout: WAIT });
    await form.getByLabel('Within (minutes)').fill('30');
    await form.getByLabel('Distance (bits)').fill('6');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await form.getByLabel('Rule', { exact: true }).selectOption('link_only');
    await form.getByLabel('Action').selectOption('hold');
    await form.getByRole('button', { name: 'Add rule' }).click();
    // an account rule: bots, and accounts younger than 7 days
    await form.getByLabel('Rule', { exact: true }).selectOption('account');
    await form.getByLabel('Youngest account (days)').fill('7');
    await form.getByRole('button', { name: 'Add rule' }).click();
    // a rights rule: granted is checked at first; none checked is named
    await form.getByLabel('Rule', { exact: true }).selectOption('rights');
    await form.getByLabel('Action').selectOption('reject');
    const states = form.getByRole('group', { name: 'Posts whose rights are' });
    await states.getByLabel('granted', { exact: true }).uncheck();
    await form.getByRole('button', { name: 'Add rule' }).click();
    await form.getByText('Choose at least one rights state.').waitFor({ timeout: WAIT });
    await states.getByLabel('declined', { exact: true }).check();
    await states.getByLabel('revoked', { exact: true }).check();
    await form.getByRole('button', { name: 'Add rule' }).click();

    const added = (await listed(page)).slice(before.length);
    expect(added).toEqual([
      expect.stringContaining('The 5th post and after of one author within 1 minute'),
      expect.stringContaining('Posts repeating one of the last 30 minutes (within 6 bits)'),
      expect.stringContaining('Posts with nothing but links, hashtags or mentions'),
      expect.stringContaining('Posts by accounts flagged as bots or accounts younger than 7 days'),
      expect.stringContaining('Posts whose rights are declined or revoked'),
    ]);

    // edit the burst in place: by link, 20 in 10 minutes, rejected
    const n = before.length + 1;
    await page.getByRole('button', { name: `Edit rule ${n}` }).click();
    const editor = page.getByRole('form', { name: 'Edit rule: Bursts of posts' });
    await editor.getByLabel('Action').selectOption('reject');
    await editor.getByLabel('Count by').selectOption('link');
    await editor.getByLabel('Posts').fill('20');
    await editor.getByLabel('Minutes').fill('10');
    await editor.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(async () => (await listed(page))[n - 1])
      .toContain('The 20th post and after of one link within 10 minutes');
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    await page.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText(/^Rules saved\./).waitFor({ timeout: WAIT });
    const saved = (await rules()).slice(before.length);
    expect(saved).toEqual([
      { id: expect.any(String), kind: 'burst', action: 'reject', by: 'link', count: 20, minutes: 10 },
      { id: expect.any(String), kind: 'duplicate', action: 'reject', within: 30, distance: 6 },
      { id: expect.any(String), kind: 'link_only', action: 'hold' },
      { id: expect.any(String), kind: 'account', action: 'hold', bot: true, minAgeDays: 7 },
      { id: expect.any(String), kind: 'rights', action: 'reject', states: ['declined', 'revoked'] },
    ]);
    expect(errors).toEqual([]);
  });
});
