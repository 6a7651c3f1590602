// How the built front ends are delivered, over real HTTP: the embed script
// (stable URL and hashed) and the console's assets in brotli or gzip when the
// browser asks, identity otherwise, with Vary: Accept-Encoding; long-lived
// caching on hashed names, short on stable ones; source maps not public
// unless WEB_SOURCE_MAPS=public; the favicon.
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONSOLE_DIST } from '../../src/http/web/console.js';
import { loadConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { entryFile, packageBuild } from './build.js';

/** A GET with exactly these headers (fetch would add its own Accept-Encoding and decompress). */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

/** The console's bundle, when it was built (npm run build). */
const consoleJs = (() => {
  try {
    return readdirSync(join(DEFAULT_CONSOLE_DIST, 'assets')).find((f) => f.endsWith('.js'));
  } catch {
    return undefined;
  }
})();

describe('static delivery', () => {
  let srv: TestServer;
  let maps: TestServer;
  let dist: string;
  let hashed: string;
  beforeAll(async () => {
    dist = packageBuild();
    hashed = entryFile(dist);
    srv = await startTestServer();
    maps = await startTestServer({ web: { sourceMaps: true, landingRedirect: null } });
  });
  afterAll(async () => {
    await srv?.close();
    await maps?.close();
  });

  it('sends the embed script in brotli or gzip when asked, identity otherwise, equal to the built file', async () => {
    const file = readFileSync(join(dist, hashed));
    for (const path of ['/embed/v1/wallery.js', `/${hashed}`]) {
      for (const [accept, expected] of [
        ['br', 'br'],
        ['gzip, deflate', 'gzip'],
        ['gzip;q=1, br;q=0', 'gzip'],
        ['br, gzip', 'br'],
        ['', undefined],
        ['identity', undefined],
      ] as const) {
        const res = await get(`${srv.baseUrl}${path}`, accept ? { 'Accept-Encoding': accept } : {});
        expect(res.status, `${path} ${accept}`).toBe(200);
        expect(res.headers['content-encoding'], `${path} ${accept}`).toBe(expected);
        expect(String(res.headers.vary), path).toMatch(/Accept-Encoding/i);
        expect(res.headers['content-type']).toMatch(/javascript/);
        expect(decode(expected, res.body).toString().trimEnd(), `${path} ${accept}`).toBe(file.toString().trimEnd());
        if (expected === 'br') {
          console.info(`[wallery] ${path}: ${file.length} B, ${res.body.length} B brotli`);
          expect(res.body.length).toBeLessThanOrEqual(25 * 1024);
        }
      }
    }
    expect((await get(`${srv.baseUrl}/embed/v1/wallery.js`)).headers['cache-control']).toBe('public, max-age=300');
    expect((await get(`${srv.baseUrl}/${hashed}`)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    // the compressed copies are never files of their own
    for (const ext of ['br', 'gz']) expect((await get(`${srv.baseUrl}/${hashed}.${ext}`)).status).toBe(404);
  });

  it.skipIf(consoleJs === undefined)('sends the console’s bundle compressed too', async () => {
    const file = readFileSync(join(DEFAULT_CONSOLE_DIST, 'assets', consoleJs!));
    const res = await get(`${srv.baseUrl}/console/assets/${consoleJs}`, { 'Accept-Encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode('br', res.body).equals(file)).toBe(true);
    console.info(`[wallery] console bundle: ${file.length} B, ${res.body.length} B brotli`);
    const gz = await get(`${srv.baseUrl}/console/assets/${consoleJs}`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode('gzip', gz.body).equals(file)).toBe(true);
  });

  it('keeps source maps private by default, and serves them with WEB_SOURCE_MAPS=public', async () => {
    expect(loadConfig({}).web.sourceMaps).toBe(false);
    expect(loadConfig({ WEB_SOURCE_MAPS: 'public' }).web.sourceMaps).toBe(true);
    expect(() => loadConfig({ WEB_SOURCE_MAPS: 'yes' })).toThrow(/WEB_SOURCE_MAPS must be public or off/);
    // no file names a map (that would be a 404 by default)
    expect(readFileSync(join(dist, hashed), 'utf8')).not.toContain('sourceMappingURL');
    const paths = [`/${hashed}.map`, ...(consoleJs ? [`/console/assets/${consoleJs}.map`] : [])];
    for (const path of paths) expect((await get(`${srv.baseUrl}${path}`)).status, path).toBe(404);
    expect((await get(`${srv.baseUrl}/embed/v1/wallery.js`)).headers.sourcemap).toBeUndefined();
    expect((await get(`${srv.baseUrl}/${hashed}`)).headers.sourcemap).toBeUndefined();

    for (const path of paths) {
      const res = await get(`${maps.baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(JSON.parse(res.body.toString()).version).toBe(3);
    }
    // named by a header, relative to the script's own URL
    const stable = await get(`${maps.baseUrl}/embed/v1/wallery.js`, { 'Accept-Encoding': 'br' });
    expect(stable.headers.sourcemap).toBe(`../../${hashed}.map`);
    expect(
      (await get(new URL(String(stable.headers.sourcemap), `${maps.baseUrl}/embed/v1/wallery.js`).href)).status,
    ).toBe(200);
    expect((await get(`${maps.baseUrl}/${hashed}`, { 'Accept-Encoding': 'br' })).headers.sourcemap).toBe(
      `${hashed.replace('assets/', '')}.map`,
    );
  });

  it('answers the favicon, and every page links it', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const res = await get(`${srv.baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\//);
      expect(res.body.toString()).toMatch(/^<svg /);
    }
    const pages = [
      await get(`${srv.baseUrl}/`, { Accept: 'text/html' }),
      await get(`${srv.baseUrl}/walls/404404?key=pk_x`),
      ...(consoleJs ? [await get(`${srv.baseUrl}/console/`)] : []),
    ];
    for (const page of pages) expect(page.body.toString()).toContain('<link rel="icon" href="/favicon.svg"');
  });
});
