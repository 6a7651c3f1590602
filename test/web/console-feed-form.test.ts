// The console's feed form, made from the connector schemas, in real Chromium
// on a real `wallery serve` (SQLite, built server, nothing polled): for EVERY
// connector kind of the generated catalogue (so the kinds added later are
// covered without a change here) the form shows the kind's description, its
// "What you need" link and each field by its label (one-of groups as radio
// buttons), and the setting an operator types creates the feed — the API
// stores exactly it — and fills the form back when the feed is edited; axe
// finds nothing serious in it. A refusal shows under the field it names. A
// kind that reads with a connection lists the account's connections of its
// network, or links to connecting one when there is none (screenshots
// docs/screenshots/console-feed-form-{1280,390}.png).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markConnectionFailed } from '../../src/store/connections.js';
import { openStore, type Store } from '../../src/store/store.js';
import { CONNECTOR_CATALOGUE, type CatalogueKind } from '../../web/console/src/api/connectors.gen.js';
import { addConnection } from '../helpers/connections.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasChromium, launchChromium, screenshot, seriousAxeFindings } from './browser.js';
import { aboutText } from '../../web/console/src/screens/feeds/settings.js';
import { fieldsToFill, sampleOf } from './feed-samples.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** the first kind that reads with a connection (none before the networks that need one are added) */
const WITH_CONNECTION = CONNECTOR_CATALOGUE.find((k) => k.network !== null);

/** How far the dialog's content reaches past its right edge (px; 0: it fits). */
const overflowOf = (page: Page) =>
  page.evaluate<number>(
    `(() => { const d = document.querySelector('dialog[open]'); return d.scrollWidth - d.clientWidth; })()`,
  );

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field by its label: the title, marked "(required)" or not. */
const labelled = (title: string) => new RegExp(`^${escaped(title)}( \\(required\\))?$`);

describe.skipIf(!hasChromium)('the feed form made from the connector schemas, in Chromium', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let store: Store;
  let browser: Browser;
  let context: BrowserContext;
  let token = '';
  /** the wall whose account has a connection of every network; the wall of an account with none */
  let wallId = 0;
  let bareWallId = 0;
  let bareAccountId = 0;
  /** per connection network, the account's active connection (and one expired before it) */
  const connections = new Map<string, { active: number; expired: number }>();

  /** A management API call as the admin; its responseData. */
  async function manage(method: string, path: string, body?: unknown) {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return ((await res.json()) as { responseData: any }).responseData;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-feed-form-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    instance = await startInstance({}, ['serve', '--database', database]);
    const made = await runCli(['tokens', 'create', '--name', 'fay', '--json', '--database', database]);
    expect(made.code, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { token: string }).token;
    const account = await manage('POST', '/accounts', { name: 'Harbour Events', plan: 'enterprise' });
    const bare = await manage('POST', '/accounts', { name: 'Quiet Shop', plan: 'enterprise' });
    bareAccountId = bare.id as number;
    wallId = (await manage('POST', '/walls', { accountId: account.id, name: 'Harbour Fest', url: 'harbour-fest' }))
      .id as number;
    bareWallId = (await manage('POST', '/walls', { accountId: bare.id, name: 'Quiet Wall', url: 'quiet-wall' }))
      .id as number;
    store = openStore({ kind: 'sqlite', path: database });
    for (const network of new Set(CONNECTOR_CATALOGUE.flatMap((k) => (k.network ? [k.network] : [])))) {
      const add = (name: string, expiresAt: number | null) =>
        addConnection(store.db, {
          accountId: account.id as number,
          network,
          name,
          externalAccountName: `harbour.${network}`,
          secret: { accessToken: `token-${network}-${name}` },
          expiresAt,
        });
      const expired = await add(`Old ${network}`, Date.now() - 2 * 86_400_000);
      await markConnectionFailed(store.db, expired, 'expired', 'the token expired', Date.now());
      connections.set(network, { active: await add(`Harbour ${network}`, null), expired });
    }
    browser = await launching;
    context = await browser.newContext({ viewport: WIDE, reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A signed-in page on a wall's feeds; console errors collected. */
  async function openFeeds(wall: number): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/#/walls/${wall}/feeds`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: /^Feeds · / }).waitFor({ timeout: WAIT });
    return { page, errors };
  }

  /** The Add feed dialog with a kind chosen. */
  async function addDialog(page: Page, kind: CatalogueKind): Promise<Locator> {
    await page.getByRole('button', { name: 'Add feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add feed' });
    await dialog.getByLabel('Network').selectOption(kind.kind);
    await dialog.locator(`fieldset.connector[data-kind="${kind.kind}"]`).waitFor({ timeout: WAIT });
    return dialog;
  }

  /** What the operator types: the sample of each field to fill; the setting the API must store for it. */
  function settingFor(kind: CatalogueKind): { typed: Map<string, string | boolean>; stored: Record<string, unknown> } {
    const connectionId = kind.network ? connections.get(kind.network)!.active : 0;
    const typed = new Map(fieldsToFill(kind).map((f) => [f.name, sampleOf(f, connectionId)] as const));
    const stored: Record<string, unknown> = { kind: kind.kind };
    for (const f of fieldsToFill(kind)) {
      const value = typed.get(f.name)!;
      if (f.input === 'checkbox') {
        if (value === true) stored[f.name] = true;
      } else if (f.input === 'number' || f.input === 'connection') stored[f.name] = Number(value);
      else if (f.input === 'list') stored[f.name] = String(value).split(/\s*,\s*/);
      else stored[f.name] = value;
    }
    return { typed, stored };
  }

  it.each(CONNECTOR_CATALOGUE.map((k) => [k.kind, k] as const))(
    '%s: shows its fields by their labels, creates the feed with what was typed, fills it back on edit',
    async (_, kind) => {
      const { page, errors } = await openFeeds(wallId);
      const dialog = await addDialog(page, kind);
      const settings = dialog.locator('fieldset.connector');
      // the kind's description and its page in the guide
      await settings.getByText(aboutText(kind.description)).waitFor({ timeout: WAIT });
      if (kind.docs) {
        const link = settings.getByRole('link', { name: `What you need for ${kind.title}` });
        expect(await link.getAttribute('href')).toBe(`../guide${kind.docs}`);
      }
      // each field the kind asks for by default, by its label; each one-of group as radio buttons
      const grouped = new Set(kind.oneOf.flat());
      for (const group of kind.oneOf) {
        const radios = settings.getByRole('group', { name: 'Collect by' }).getByRole('radio');
        await expect(radios.count()).resolves.toBeGreaterThanOrEqual(group.length);
        for (const name of group) {
          const title = kind.fields.find((f) => f.name === name)!.title;
          expect(await settings.getByRole('radio', { name: title, exact: true }).isChecked()).toBe(name === group[0]);
        }
      }
      for (const f of kind.fields.filter(
        // (a field of one mode shows once its mode is chosen: below, as it is filled)
        (f) => !f.advanced && !f.when && (!grouped.has(f.name) || kind.oneOf.some((g) => g[0] === f.name)),
      )) {
        // one control by that label (strict: two would fail), once loaded (a connection picker reads the account's)
        await settings.getByLabel(labelled(f.title)).waitFor({ timeout: WAIT });
      }
      const advanced = kind.fields.filter((f) => f.advanced);
      if (advanced.length) {
        await settings.getByText('Advanced').click();
        for (const f of advanced) await settings.getByLabel(labelled(f.title)).waitFor({ timeout: WAIT });
      }
      expect(await seriousAxeFindings(page, `feed form, ${kind.kind}`, 'dialog')).toEqual([]);
      expect(await overflowOf(page), 'the form is wider than its dialog').toBe(0);

      // typed as an operator types it → the feed, its setting stored exactly
      const name = `Feed of ${kind.kind}`;
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      const { typed, stored } = settingFor(kind);
      for (const f of fieldsToFill(kind)) {
        const input = settings.getByLabel(labelled(f.title));
        const value = typed.get(f.name)!;
        if (f.input === 'checkbox') await input.setChecked(value === true);
        else if (f.input === 'select' || f.input === 'connection') await input.selectOption(String(value));
        else await input.fill(String(value));
      }
      await dialog.getByRole('button', { name: 'Add feed' }).click();
      await page.getByText(`Feed “${name}” added.`).waitFor({ timeout: WAIT });
      const feed = ((await manage('GET', `/walls/${wallId}/feeds?limit=200`)).data as { name: string }[]).find(
        (f) => f.name === name,
      ) as { connector: unknown; source: string } | undefined;
      expect(feed?.connector).toEqual(stored);
      expect(feed?.source).toBe(kind.source);

      // edited: the form holds it again
      await page.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit feed' });
      await expect(edit.getByLabel('Network').inputValue()).resolves.toBe(kind.kind);
      for (const f of fieldsToFill(kind)) {
        const input = edit.locator('fieldset.connector').getByLabel(labelled(f.title));
        if (f.input === 'checkbox') await expect(input.isChecked()).resolves.toBe(typed.get(f.name));
        else await expect(input.inputValue(), `${kind.kind}.${f.name}`).resolves.toBe(String(typed.get(f.name)));
      }
      await edit.getByRole('button', { name: 'Cancel' }).click();
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('shows a refusal under the field it names: the one-of field asked for, left empty', async () => {
    const mastodon = CONNECTOR_CATALOGUE.find((k) => k.kind === 'mastodon')!;
    const { page, errors } = await openFeeds(wallId);
    const dialog = await addDialog(page, mastodon);
    await dialog.getByLabel('Name', { exact: true }).fill('Empty account');
    const settings = dialog.locator('fieldset.connector');
    await settings.getByLabel(labelled('Instance URL')).fill('https://mastodon.social');
    await settings.getByRole('radio', { name: 'Account', exact: true }).check();
    await expect(settings.getByLabel(labelled('Hashtag')).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Add feed' }).click();
    const field = settings.locator('.field', { has: page.getByLabel(labelled('Account')) });
    await field.locator('.field-error', { hasText: /^Account / }).waitFor({ timeout: WAIT });
    expect(await settings.getByLabel(labelled('Account')).getAttribute('aria-invalid')).toBe('true');
    // a web address the API refuses, under the feed URL (the rss kind)
    await dialog.getByLabel('Network').selectOption('rss');
    await settings.getByLabel(labelled('Feed URL')).fill('harbour.example/feed.xml');
    await dialog.getByRole('button', { name: 'Add feed' }).click();
    await settings
      .locator('.field-error', { hasText: 'Feed URL must be a web address starting with http:// or https://.' })
      .waitFor({ timeout: WAIT });
    expect(errors).toEqual([]);
    await page.close();
  });

  it.skipIf(!WITH_CONNECTION)(
    'lists the account’s connections of the network, or links to connecting one when there is none',
    async () => {
      const kind = WITH_CONNECTION!;
      const picker = kind.fields.find((f) => f.input === 'connection')!;
      // an account without a connection of the network: a link to connect one
      const bare = await openFeeds(bareWallId);
      const bareDialog = await addDialog(bare.page, kind);
      const connect = bareDialog.getByRole('link', { name: `Connect ${kind.source}` });
      await connect.waitFor({ timeout: WAIT });
      expect(await connect.getAttribute('href')).toBe(`#/connections/${bareAccountId}`);
      expect(await seriousAxeFindings(bare.page, 'feed form, no connection', 'dialog')).toEqual([]);
      expect(bare.errors).toEqual([]);
      await bare.page.close();

      // the account's own: its connections of that network by name, the expired one said so
      const { page, errors } = await openFeeds(wallId);
      const dialog = await addDialog(page, kind);
      const select = dialog.getByLabel(labelled(picker.title));
      const { active, expired } = connections.get(kind.network!)!;
      // the account's connections come from a query of their own: read the list once they are in it
      await select.locator(`option[value="${expired}"]`).waitFor({ state: 'attached', timeout: WAIT });
      await select.locator(`option[value="${active}"]`).waitFor({ state: 'attached', timeout: WAIT });
      const options = await select
        .locator('option')
        .evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
      expect(options).toEqual(
        expect.arrayContaining([
          [String(active), `Harbour ${kind.network} (harbour.${kind.network})`],
          [String(expired), `Old ${kind.network} (harbour.${kind.network}) — expired 2 days ago`],
        ]),
      );
      expect(options.every(([value]) => value === '' || [String(active), String(expired)].includes(value!))).toBe(true);
      await select.selectOption(String(active));
      await dialog.getByLabel('Name', { exact: true }).fill(`${kind.title} with a connection`);
      expect(await seriousAxeFindings(page, 'feed form, connection picker', 'dialog')).toEqual([]);
      for (const viewport of [WIDE, PHONE]) {
        await page.setViewportSize(viewport);
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        expect(width, `the page at ${viewport.width} px`).toBe(viewport.width);
        expect(await overflowOf(page), `the form at ${viewport.width} px`).toBe(0);
        await screenshot(dialog, { path: `${SHOTS}console-feed-form-${viewport.width}.png` });
      }
      expect(errors).toEqual([]);
      await page.close();
    },
  );
});
