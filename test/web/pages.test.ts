// The embed's files and the hosted page, served by a real Wallery (SQLite,
// the demo data set): caching, CORS, the CSP, HTML escaping, 404 pages — and
// the script's weight: at most 25 KB as sent (brotli), Lit included.
import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile } from '../../src/demo/demo-data.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { entryFile, packageBuild, testBuild } from './build.js';
import { hasChromium, launchChromium, screenshot } from './browser.js';
import { startHostServer } from './host-page.js';
import { revokePublishableKey } from '../../src/manage/publishable-keys.js';

// What a browser receives: the server sends the build's brotli copy to every
// browser that asks for it (all current ones do). Issue 30's target.
const BUDGET_BROTLI = 25 * 1024;

/** What a visitor page never shows: a command, a setting, code. */
function expectNoOperatorText(page: string): void {
  const text = page.replace(/<style>[\s\S]*?<\/style>/g, '').replace(/<[^>]*>/g, ' ');
  expect(text).not.toMatch(/wallery |npm |npx |`|pk_|\?key=|--[a-z]/);
}

describe('the embed script', () => {
  it(`weighs at most ${BUDGET_BROTLI / 1024} KB as sent (brotli), in one file (the QR code's and the screen control's chunks aside)`, () => {
    const dir = testBuild();
    const file = entryFile(dir);
    const code = readFileSync(join(dir, file));
    const br = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    console.info(`[wallery] embed script ${file}: ${code.length} B, ${br} B brotli`);
    expect(file).toMatch(/^assets\/wallery-[\w-]{8}\.js$/);
    expect(br).toBeLessThanOrEqual(BUDGET_BROTLI);
    // one self-contained module: no imports of other chunks but the QR code's, which only the event screen loads,
    // and the screen control's view, which only a screen its host controls (or the overlay page) loads
    const chunk = (name: string) =>
      new RegExp(
        `import\\(new URL\\([\`"']\\./${name}-[\\w-]{8}\\.js[\`"'],\\s*import\\.meta\\.url\\.replace\\([\`"']/embed/v1/[\`"'],\\s*[\`"']/assets/[\`"']\\)\\)\\.href\\)`,
        'g',
      );
    const [qr, view] = [chunk('qr'), chunk('screen-view')];
    expect(code.toString().match(qr)).toHaveLength(1);
    expect(code.toString().match(view)).toHaveLength(1);
    expect(code.toString().replace(qr, '').replace(view, '')).not.toMatch(/\bimport\s*[{(*"'`]|\bfrom\s*["'`]\.\//);
    // the chunks import nothing themselves (one that imported Lit would load the entry a second time)
    for (const name of ['qr', 'screen-view']) {
      const file = readdirSync(join(dir, 'assets')).find((f) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(f))!;
      expect(readFileSync(join(dir, 'assets', file), 'utf8')).not.toMatch(/\bimport\s*[{(*"'`]|\bfrom\s*["'`]/);
    }
  });
});

describe('the embed’s files and hosted page', () => {
  let srv: TestServer;
  let hashed: string;
  /** keys of wall 101: bound to no origin, and bound to two; a key of wall 102 */
  let anyOrigin: string;
  let bound: string;
  let otherWall: string;
  let token: string;
  beforeAll(async () => {
    hashed = entryFile(packageBuild());
    srv = await startTestServer({ data: demoDataFile(Date.now()) });
    const op = { db: srv.store.db, actor: CLI_ACTOR, now: Date.now() };
    anyOrigin = (await createPublishableKey(op, 101, {})).key;
    bound = (await createPublishableKey(op, 101, { origins: ['https://harbor.example', 'http://127.0.0.1:5173'] })).key;
    otherWall = (await createPublishableKey(op, 102, {})).key;
    token = (await createOperatorToken(op, 'pages-test')).token;
  });
  afterAll(async () => srv?.close());

  it('serves the script at a stable URL (short cache) and hashed (immutable), both readable cross-origin', async () => {
    const stable = await fetch(`${srv.baseUrl}/embed/v1/wallery.js`);
    expect(stable.status).toBe(200);
    expect(stable.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(stable.headers.get('cache-control')).toBe('public, max-age=300');
    expect(stable.headers.get('access-control-allow-origin')).toBe('*');
    const stableCode = await stable.text();
    const etag = stable.headers.get('etag')!;
    const again = await fetch(`${srv.baseUrl}/embed/v1/wallery.js`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const asset = await fetch(`${srv.baseUrl}/${hashed}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('access-control-allow-origin')).toBe('*');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const code = await asset.text();
    // the same code; neither names a source map (they are not public by default: test/web/static.test.ts)
    expect(stableCode.trimEnd()).toBe(code.trimEnd());
    expect(stableCode).not.toContain('sourceMappingURL');
    expect((await fetch(`${srv.baseUrl}/assets/wallery-missing.js`)).status).toBe(404);
  });

  it('serves the hosted page by id and by slug, the wall’s own layout by default, under a strict CSP', async () => {
    for (const path of ['/walls/101', '/walls/tonewood-music']) {
      const res = await fetch(`${srv.baseUrl}${path}?key=${anyOrigin}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toContain('unsafe');
      const html = await res.text();
      expect(html).toContain(`<wallery-wall wall="101" key="${anyOrigin}" layout="masonry">\n`);
      expect(html).toContain(`<script type="module" src="../${hashed}"></script>`);
      // the key was checked first: the page is what the embed API shows that key (test/web/ssr.test.ts)
      expect(html).toContain('<title>Tonewood Music — #tonewood</title>');
      expect(html).not.toMatch(/<script>|<style>|style=/); // nothing inline
      expect(html).not.toMatch(/<script(?![^>]*(type="module" src=|type="application\/json"))/); // nothing that runs inline
    }
    const chosen = await (await fetch(`${srv.baseUrl}/walls/101?key=${anyOrigin}&layout=grid&theme=dark`)).text();
    expect(chosen).toContain('layout="grid" theme="dark"');
    const unknown = await (await fetch(`${srv.baseUrl}/walls/101?key=${anyOrigin}&layout=<x>&theme=1`)).text();
    expect(unknown).toContain('layout="masonry">\n');
  });

  it('answers a key that is unknown, revoked or of another wall with a page that shows nothing and echoes nothing', async () => {
    const key = `pk_"><script>alert(1)</script>&'`;
    for (const k of [key, 'pk_unknown', otherWall]) {
      const res = await fetch(`${srv.baseUrl}/walls/101?key=${encodeURIComponent(k)}`);
      expect(res.status, k).toBe(403);
      // a visitor page: nothing to click, nothing of the wall; a site framing a stale link shows it
      expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *');
      const html = await res.text();
      expect(html).toContain('This link is no longer valid');
      expectNoOperatorText(html);
      expect(html).not.toContain('<wallery-wall');
      expect(html).not.toContain(k);
    }
  });

  it('may be framed by the key’s origins only; by no one for a key bound to none, unless the wall allows it', async () => {
    const headers = async (key: string) => {
      const res = await fetch(`${srv.baseUrl}/walls/101?key=${key}`);
      expect(res.status).toBe(200);
      return {
        ancestors: /frame-ancestors ([^;]*)/.exec(res.headers.get('content-security-policy')!)?.[1],
        xfo: res.headers.get('x-frame-options'),
      };
    };
    expect(await headers(bound)).toEqual({ ancestors: 'https://harbor.example http://127.0.0.1:5173', xfo: null });
    expect(await headers(anyOrigin)).toEqual({ ancestors: "'none'", xfo: 'DENY' });
    const allow = (allowFraming: boolean) =>
      fetch(`${srv.baseUrl}/api/manage/v1/walls/101`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ allowFraming }),
      });
    const patched = await allow(true);
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { responseData: { allowFraming: boolean } }).responseData.allowFraming).toBe(
      true,
    );
    expect(await headers(anyOrigin)).toEqual({ ancestors: '*', xfo: null });
    // the key's origins bind it whatever the wall allows
    expect(await headers(bound)).toEqual({ ancestors: 'https://harbor.example http://127.0.0.1:5173', xfo: null });
    expect((await allow(false)).status).toBe(200);
    expect(await headers(anyOrigin)).toEqual({ ancestors: "'none'", xfo: 'DENY' });
  });

  it('answers an unknown wall or a missing key with a plain page, and leaves /api/* alone', async () => {
    for (const path of ['/walls/999?key=pk_x', '/walls/no-such-slug?key=pk_x', '/walls/0?key=pk_x']) {
      const res = await fetch(`${srv.baseUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      expect(html).toContain('This wall is not here');
      expect(html).toContain('<html lang="en">\n'); // the wall is not known: the neutral look
      expectNoOperatorText(html);
    }
    for (const path of ['/walls/101', '/walls/101?key=demo-enterprise-key', '/walls/101?key=pk_has%20space']) {
      const res = await fetch(`${srv.baseUrl}${path}`);
      expect(res.status, path).toBe(400);
      const html = await res.text();
      expect(html).toContain('This link is incomplete');
      expectNoOperatorText(html);
    }
    const api = await fetch(`${srv.baseUrl}/api/v2/widget/wallInfo/101?user_key=demo-enterprise-key`);
    expect(api.status).toBe(200);
  });

  it('serves the demo pictures, which the demo data points at', async () => {
    const data = demoDataFile(Date.now(), `${srv.baseUrl}/demo-media`);
    const first = data.walls[0]!.feeds[0]!.posts[0]! as { picture: string; userPicture: string };
    // a photograph, an initials avatar, a drawn product of the browser tests
    for (const url of [first.picture, first.userPicture, `${srv.baseUrl}/demo-media/product-501.svg`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      const svg = url.endsWith('.svg');
      expect(res.headers.get('content-type')).toBe(svg ? 'image/svg+xml' : 'image/jpeg');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      if (svg) expect(await res.text()).toMatch(/^<svg /);
      else expect([...new Uint8Array(await res.arrayBuffer()).slice(0, 2)]).toEqual([0xff, 0xd8]);
    }
  });

  it.skipIf(!hasChromium)(
    'shows visitors plain words, never a command: the visitor pages and the component’s error state, axe clean',
    async () => {
      const op = { db: srv.store.db, actor: CLI_ACTOR, now: Date.now() };
      const revoked = await createPublishableKey(op, 101, {});
      await revokePublishableKey(op, 101, revoked.id);
      const elsewhere = (await createPublishableKey(op, 101, { origins: ['https://brand.example'] })).key;
      const browser = await launchChromium();
      const host = await startHostServer(srv.baseUrl);
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        // the HTTP pages: a revoked key, a wrong key, no key, a deleted (unknown) wall
        for (const path of [
          `/walls/101?key=${revoked.key}`,
          `/walls/101?key=${otherWall}`,
          '/walls/101',
          `/walls/404404?key=${anyOrigin}`,
        ]) {
          const res = await page.goto(`${srv.baseUrl}${path}`);
          expect(res!.status(), path).toBeGreaterThanOrEqual(400);
          const text = await page.locator('body').innerText();
          expectNoOperatorText(text);
          expect(await page.locator('h1').isVisible()).toBe(true);
          const axe = await new AxeBuilder({ page }).analyze();
          expect(
            axe.violations.map((v) => v.id),
            path,
          ).toEqual([]);
        }
        await screenshot(page, { path: 'docs/screenshots/visitor-page.png' });
        // the component on a brand's page: a revoked key, an origin the key does not allow, a wall gone
        const alert = page.locator('wallery-wall [role=alert]');
        for (const [wall, key] of [
          ['101', revoked.key],
          ['101', elsewhere],
          ['404404', anyOrigin],
        ] as const) {
          await page.goto(host.url({ wall, key }));
          await alert.waitFor({ state: 'visible', timeout: 60_000 });
          expectNoOperatorText(await alert.innerText());
          const axe = await new AxeBuilder({ page }).include('wallery-wall').analyze();
          expect(axe.violations.map((v) => v.id)).toEqual([]);
        }
      } finally {
        await host.close();
        await browser.close();
      }
    },
    180_000,
  );
});
