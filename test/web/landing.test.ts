// The instance's start page at `/`: a browser asking for HTML gets links to
// the console, the guide and the API explorer; any API client still gets the
// contract's 404 envelope for a path with no route, whatever the method.
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideBuilt } from '../../src/http/web/guide.js';
import { landingPage, setDemoWalls } from '../../src/http/web/landing.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the start page', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => srv?.close());

  it('answers a browser with links to the console, the guide and the API explorer, under a strict policy', async () => {
    const response = await fetch(`${srv.baseUrl}/`, { headers: { Accept: HTML } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[\w+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('script-src');
    const body = await response.text();
    expect(body).toContain('href="/console/"');
    expect(body).toContain('href="/docs"');
    // the guide is linked only when this install has it built
    expect(body.includes('href="/guide/"')).toBe(guideBuilt());
  });

  it('stays the 404 envelope for API clients, and no method is added to the path', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const response = await fetch(`${srv.baseUrl}/`, { headers: accept ? { Accept: accept } : {} });
      expect(response.status, String(accept)).toBe(404);
      expect(await response.json()).toEqual({
        responseCode: 404,
        responseStatus: 'error',
        responseMessage: 'Not found',
      });
    }
    const xml = await fetch(`${srv.baseUrl}/?format=xml`);
    expect(xml.status).toBe(404);
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await fetch(`${srv.baseUrl}/`, { method, headers: { Accept: HTML } });
      expect(response.status, method).toBe(404);
    }
  });

  it.skipIf(!hasChromium)(
    'has no accessibility violation in Chromium and loads nothing the policy blocks',
    async () => {
      let browser: Browser | undefined;
      try {
        browser = await launchChromium();
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        setDemoWalls([
          { id: 101, name: 'Tonewood Music — #tonewood', key: 'pk_demo' },
          { id: 102, name: 'Starlight Lake Festival 2026', key: 'pk_event' },
        ]);
        await page.goto(`${srv.baseUrl}/`);
        setDemoWalls([]);
        await screenshot(page, { path: 'docs/screenshots/start-page.png' });
        await expect(page.getByRole('link', { name: /Console/ }).isVisible()).resolves.toBe(true);
        // the stylesheet applied (cards, not a bare list): nothing was blocked
        expect(
          await page
            .locator('ul')
            .first()
            .evaluate((el) => getComputedStyle(el).display),
        ).toBe('grid');
        await expect(page.getByRole('link', { name: /Starlight Lake Festival/ }).isVisible()).resolves.toBe(true);
        const result = await new AxeBuilder({ page }).analyze();
        expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
          [],
        );
        expect(problems).toEqual([]);
      } finally {
        await browser?.close();
      }
    },
  );

  it('links the demo walls’ hosted pages, each in its own layout, when start made their key', () => {
    expect(landingPage(false, [])).not.toContain('Demo walls');
    const made = landingPage(false, [{ id: 101, name: 'Summer <Trail>', key: 'pk_a&b' }]);
    expect(made).toContain('Demo walls');
    expect(made).toContain('href="/walls/101?key=pk_a%26b"');
    expect(made).toContain('Summer &lt;Trail&gt;');
    // a key made at an earlier start is not known: the console makes another
    const earlier = landingPage(false, [{ id: 101, name: 'Summer Trail Wall', key: null }]);
    expect(earlier).toContain('href="/console/#/walls/101/embed"');
    expect(earlier).not.toContain('/walls/101?key=');
  });

  it('redirects a browser elsewhere with LANDING_REDIRECT; API clients still get the 404 envelope', async () => {
    const redirecting = await startTestServer({
      web: { sourceMaps: false, landingRedirect: 'https://brand.example/' },
    });
    try {
      const browser = await fetch(`${redirecting.baseUrl}/`, { headers: { Accept: HTML }, redirect: 'manual' });
      expect(browser.status).toBe(302);
      expect(browser.headers.get('location')).toBe('https://brand.example/');
      const api = await fetch(`${redirecting.baseUrl}/`, { headers: { Accept: 'application/json' } });
      expect(api.status).toBe(404);
      expect(((await api.json()) as { responseCode: number }).responseCode).toBe(404);
    } finally {
      await redirecting.close();
    }
  });
});
