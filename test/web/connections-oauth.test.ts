// The OAuth connect flow in real Chromium: a real `wallery serve` (built,
// SQLite, the demo data set) whose X app (OAUTH_X_*) points at the local
// authorization server (test/connections/fixtures/oauth-server.ts). In the
// console's Connections screen, Connect X leaves for the fixture's sign-in
// page, Allow comes back through /connect/callback to the screen, which lists
// the connection as active with the account signed in as; the token request
// carried the PKCE verifier of the challenge; Deny and a forged `state` land
// on a page that says why, and store nothing. axe on the screen; screenshots
// at 1280 and 375 px go to docs/screenshots/console-connections-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { startOAuthServer, type OAuthServer } from '../connections/fixtures/oauth-server.js';
import { hasChromium, launchChromium, seriousAxeFindings, shootConsoleScreen, CONSOLE_WIDE } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const ACCOUNT = 1; // Tonewood Music Co.

interface ConnectionRecord {
  id: number;
  network: string;
  authKind: string;
  externalAccountName: string | null;
  status: string;
  statusText: string;
}

describe.skipIf(!hasChromium)('connecting X with OAuth from the console, in Chromium', () => {
  let dir: string;
  let database: string;
  let instance: Instance;
  let fx: OAuthServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token = '';
  const errors: string[] = [];

  async function cli(args: string[]): Promise<string> {
    const done = await runCli([...args, '--database', database]);
    expect(done.code, done.stderr).toBe(0);
    return done.stdout;
  }
  async function listed(): Promise<ConnectionRecord[]> {
    const res = await fetch(`${instance.url}/api/manage/v1/accounts/${ACCOUNT}/connections`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { responseData: { data: ConnectionRecord[] } }).responseData.data;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-connections-oauth-'));
    database = join(dir, 'wallery.db');
    const launching = launchChromium();
    fx = await startOAuthServer({ profile: 'x', user: { id: '1612', name: 'Tonewood Music', username: 'tonewood' } });
    instance = await startInstance(
      {
        OAUTH_X_CLIENT_ID: fx.clientId,
        OAUTH_X_CLIENT_SECRET: fx.clientSecret,
        OAUTH_X_BASE_URL: fx.origin,
        // the fixture is on loopback, which the SSRF guard refuses unless allowed
        INGEST_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
        SECRET_KEY: Buffer.alloc(32, 11).toString('base64'),
      },
      ['serve', '--database', database],
    );
    // the app's registered redirect URI: this instance's /connect/callback
    fx.redirectUris.push(`${instance.url}/connect/callback`);
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demoDataFile(Date.now(), demoMediaBase(instance.url))));
    await cli(['import', file]);
    token = (JSON.parse(await cli(['tokens', 'create', '--json', '--name', 'olga-admin'])) as { token: string }).token;
    browser = await launching;
    context = await browser.newContext({ viewport: CONSOLE_WIDE, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    await page.goto(`${instance.url}/console/#/walls`);
    await page.getByLabel('Operator token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Walls' }).waitFor({ timeout: WAIT });
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    await fx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const xOffer = () => page.locator('li.network-offer[data-network="x"]');

  it('shows every network: a Connect button where the app is configured, the settings it needs where not', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Connections · Tonewood Music Co.' }).waitFor({ timeout: WAIT });
    await page.getByText('This account has no connections yet.').waitFor({ timeout: WAIT });
    await xOffer().getByRole('button', { name: 'Connect X' }).waitFor({ timeout: WAIT });
    // Instagram has no app on this instance: no Connect button, the settings named
    const instagram = page.locator('li.network-offer[data-network="instagram"]');
    expect(await instagram.getByRole('button', { name: 'Connect Instagram' }).count()).toBe(0);
    expect(await instagram.textContent()).toContain('OAUTH_META_CLIENT_ID and OAUTH_META_CLIENT_SECRET');
    // a pasted token or key where the network takes one
    await page
      .locator('li.network-offer[data-network="flickr"]')
      .getByRole('button', { name: /^Add API key/ })
      .waitFor();
    expect(await seriousAxeFindings(page, 'connections, none yet')).toEqual([]);
  });

  it('Connect X: the network’s sign-in page, Allow, and back in the console the connection is active', async () => {
    await xOffer().getByRole('button', { name: 'Connect X' }).click();
    // the fixture's page, on its own origin: a full-page navigation
    await page.getByRole('heading', { name: 'Authorize Wallery to read your account?' }).waitFor({ timeout: WAIT });
    expect(new URL(page.url()).origin).toBe(fx.origin);
    const asked = new URL(page.url()).searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('redirect_uri')).toBe(`${instance.url}/connect/callback`);
    await page.getByRole('link', { name: 'Allow' }).click();

    await page.getByRole('heading', { level: 1, name: 'Connections · Tonewood Music Co.' }).waitFor({ timeout: WAIT });
    expect(page.url()).toMatch(new RegExp(`^${instance.url}/console/#/connections/${ACCOUNT}\\?connected=\\d+$`));
    await page.getByText('X as @tonewood: feeds of this account can read with it now.').waitFor({ timeout: WAIT });
    const row = page.locator('table.connections tbody tr');
    await row.first().waitFor({ timeout: WAIT });
    expect(await row.count()).toBe(1);
    expect(await row.locator('th').textContent()).toBe('X @tonewood');
    expect(await row.locator('td[data-label="Network"]').textContent()).toBe('X');
    expect(await row.locator('td[data-label="Signed in as"]').textContent()).toBe('@tonewood');
    expect(await row.locator('.conn-status-text').textContent()).toMatch(/^expires in (1|2) hours?$/);

    // the token request carried the verifier of the challenge the browser was sent with
    expect(fx.tokenRequests).toHaveLength(1);
    expect(fx.tokenRequests[0]).toMatchObject({
      grantType: 'authorization_code',
      pkceVerified: true,
      clientAuth: 'basic',
    });
    const stored = await listed();
    expect(stored).toEqual([
      expect.objectContaining({ network: 'x', authKind: 'oauth', externalAccountName: '@tonewood', status: 'active' }),
    ]);
    // the token is nowhere on the page
    const issued = [...fx.accessTokens];
    const text = (await page.locator('body').textContent()) ?? '';
    for (const t of issued) expect(text).not.toContain(t);

    expect(await seriousAxeFindings(page, 'connections, one connected')).toEqual([]);
    await shootConsoleScreen(page, 'connections');
  });

  it('refuses a forged state on the callback with a page in words, storing nothing', async () => {
    await page.goto(`${instance.url}/connect/callback?code=stolen-code&state=forged-by-someone-else`);
    await page.getByRole('heading', { level: 1, name: 'Not connected' }).waitFor({ timeout: WAIT });
    expect(await page.locator('#why').textContent()).toContain('not one this Wallery started');
    expect(fx.tokenRequests).toHaveLength(1);
    expect(await listed()).toHaveLength(1);
    expect(await seriousAxeFindings(page, 'callback refusal')).toEqual([]);
  });

  it('Deny on the network’s page: the refusal in words, back to Connections, nothing stored', async () => {
    await page.goto(`${instance.url}/console/#/connections/${ACCOUNT}`);
    await xOffer().getByRole('button', { name: 'Connect X' }).click({ timeout: WAIT });
    await page.getByRole('heading', { name: 'Authorize Wallery to read your account?' }).waitFor({ timeout: WAIT });
    await page.getByRole('link', { name: 'Deny' }).click();
    await page.getByRole('heading', { level: 1, name: 'Not connected' }).waitFor({ timeout: WAIT });
    expect(await page.locator('#why').textContent()).toContain(
      'signing in to X was cancelled or not allowed: the person signing in said no',
    );
    await page.getByRole('link', { name: 'Back to Connections' }).click();
    await page.getByRole('heading', { level: 1, name: 'Connections · Tonewood Music Co.' }).waitFor({ timeout: WAIT });
    expect(await listed()).toHaveLength(1);
    expect(fx.tokenRequests).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
