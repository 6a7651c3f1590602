// The embed's files and the hosted page, served by a real Wallery (SQLite,
// the demo data set): caching, CORS, the CSP, HTML escaping, 404 pages — and
// the script's weight: at most 27 KB gzipped, Lit included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataFile } from '../../src/demo/demo-data.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { entryFile, packageBuild, testBuild } from './build.js';

// 25 KB until a wall's branding (web/embed/branding.ts: its font stacks, the
// WCAG colour maths that derives muted text, lines and text on the accent,
// the card styles) added about 1.2 KB
const BUDGET_GZIP = 27 * 1024;

describe('the embed script', () => {
  it(`weighs at most ${BUDGET_GZIP / 1024} KB gzipped, in one file`, () => {
    const dir = testBuild();
    const file = entryFile(dir);
    const code = readFileSync(join(dir, file));
    const gz = gzipSync(code, { level: 9 }).length;
    console.info(`[wallery] embed script ${file}: ${code.length} B, ${gz} B gzipped`);
    expect(file).toMatch(/^assets\/wallery-[\w-]{8}\.js$/);
    expect(gz).toBeLessThanOrEqual(BUDGET_GZIP);
    // one self-contained module: no imports of other chunks
    expect(code.toString()).not.toMatch(/\bimport\s*[{(*"'`]|\bfrom\s*["'`]\.\//);
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
    // the same code; the stable copy's source map points at the hashed one
    expect(stableCode.replace(/\/\/# sourceMappingURL=.*$/, '')).toBe(code.replace(/\/\/# sourceMappingURL=.*$/, ''));
    expect(stableCode).toContain('sourceMappingURL=../../assets/wallery-');
    expect((await fetch(`${srv.baseUrl}/assets/wallery-missing.js`)).status).toBe(404);
  });

  it('serves the hosted page by id and by slug, event layout by default, under a strict CSP', async () => {
    for (const path of ['/walls/101', '/walls/summer-trail-wall']) {
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
      expect(html).toContain(`<wallery-wall wall="101" key="${anyOrigin}" layout="event"></wallery-wall>`);
      expect(html).toContain(`<script type="module" src="../${hashed}"></script>`);
      expect(html).toContain('<title>Wall 101 · Wallery</title>');
      expect(html).not.toContain('Summer Trail Wall'); // the name is the embed API's to give, with a key
      expect(html).not.toMatch(/<script>|<style>|style=/); // nothing inline
    }
    const chosen = await (await fetch(`${srv.baseUrl}/walls/101?key=${anyOrigin}&layout=grid&theme=dark`)).text();
    expect(chosen).toContain('layout="grid" theme="dark"');
    const unknown = await (await fetch(`${srv.baseUrl}/walls/101?key=${anyOrigin}&layout=<x>&theme=1`)).text();
    expect(unknown).toContain('layout="event">');
  });

  it('answers a key that is unknown, revoked or of another wall with a page that shows nothing and echoes nothing', async () => {
    const key = `pk_"><script>alert(1)</script>&'`;
    for (const k of [key, 'pk_unknown', otherWall]) {
      const res = await fetch(`${srv.baseUrl}/walls/101?key=${encodeURIComponent(k)}`);
      expect(res.status, k).toBe(403);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toContain('Link not valid');
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
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toContain('Wall not found');
    }
    for (const path of ['/walls/101', '/walls/101?key=demo-enterprise-key', '/walls/101?key=pk_has%20space']) {
      const res = await fetch(`${srv.baseUrl}${path}`);
      expect(res.status, path).toBe(400);
      expect(await res.text()).toContain('publishable key');
    }
    const api = await fetch(`${srv.baseUrl}/api/v2/widget/wallInfo/101?user_key=demo-enterprise-key`);
    expect(api.status).toBe(200);
  });

  it('serves the demo pictures, which the demo data points at', async () => {
    const data = demoDataFile(Date.now(), `${srv.baseUrl}/demo-media`);
    const first = data.walls[0]!.feeds[0]!.posts[0]! as { picture: string; userPicture: string };
    for (const url of [first.picture, first.userPicture, `${srv.baseUrl}/demo-media/product-501.svg`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await res.text()).toMatch(/^<svg /);
    }
  });
});
