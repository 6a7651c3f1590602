// The instance serves the built documentation site under /guide/ (the
// explorer keeps /docs), with a policy that names the site's inline scripts
// by hash instead of allowing inline scripts.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerGuide } from '../../src/http/web/guide.js';

const dir = mkdtempSync(join(tmpdir(), 'wallery-guide-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = 'document.documentElement.classList.add("dark")';
const STYLE = '--shiki-light:#005CC5;--shiki-dark:#79B8FF;';
const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function site(): string {
  const root = join(dir, 'site');
  mkdirSync(join(root, 'get-started'), { recursive: true });
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), `<html><head><script>${SCRIPT}</script></head><body>home</body></html>`);
  writeFileSync(join(root, 'get-started/install.html'), `<html><body><span style="${STYLE}">npm</span></body></html>`);
  writeFileSync(join(root, '404.html'), '<html><body>no such page</body></html>');
  writeFileSync(join(root, 'assets/app.abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the site');
  return root;
}

async function server(siteDir: string) {
  // the real server's routing: it ignores trailing slashes, so /guide and /guide/ meet the same route
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } });
  await registerGuide(app, siteDir);
  await app.ready();
  return app;
}

describe('the documentation site on the instance', () => {
  it('serves its pages at clean URLs with a policy that allows only its own inline scripts, by hash', async () => {
    const app = await server(site());
    const home = await app.inject({ url: '/guide/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('home');
    const csp = String(home.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' ${hash(SCRIPT)}`);
    expect(/script-src ([^;]*)/.exec(csp)![1]).not.toContain('unsafe-inline');
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");

    const page = await app.inject({ url: '/guide/get-started/install' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('npm');
    expect((await app.inject({ url: '/guide' })).headers.location).toBe('/guide/');
    const root = await app.inject({ url: '/guide/?q=1' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('home');

    const asset = await app.inject({ url: '/guide/assets/app.abc123.js' });
    // a JavaScript MIME type (either name), which nosniff lets run
    expect(asset.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    await app.close();
  });

  it('answers its 404 page for a missing page, and nothing outside the site', async () => {
    const app = await server(site());
    const missing = await app.inject({ url: '/guide/no/such/page' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('no such page');
    for (const url of ['/guide/../secret.txt', '/guide/%2e%2e/secret.txt', '/guide/..%2fsecret.txt']) {
      const response = await app.inject({ url });
      expect(response.body, url).not.toContain('outside the site');
    }
    await app.close();
  });

  it('says the site was not built when it was not', async () => {
    const app = await server(join(dir, 'never-built'));
    const response = await app.inject({ url: '/guide/' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('npm run docs:build');
    await app.close();
  });
});
