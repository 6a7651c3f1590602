// The operator console (web/console, built by `vite build -c
// vite.console.config.ts` into dist/console): one page at /console/ and its
// hashed assets under /console/assets/, cached for a year. The page runs
// nothing inline, so its Content-Security-Policy allows scripts and styles
// of this origin only; it talks to the management API of this origin.
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from './assets.js';
import { servedPath, builtFileHeaders } from './built-files.js';
import { sendHtml } from './page.js';
import { messageCsp, messagePage } from './visitor-page.js';

export const DEFAULT_CONSOLE_DIST = join(PACKAGE_ROOT, 'dist', 'console');
export const CONSOLE_PATH = '/console';

/**
 * Only this origin's scripts, styles, API; the posts' pictures and videos from
 * any host (an operator must see what they approve); never framed (a
 * moderation screen under someone else's page could be clickjacked).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: http: data:",
  "media-src 'self' https: http:",
  "connect-src 'self'",
  // the embed tab's preview: the wall's hosted page of this server
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';
const hide = { hide: true } as const;

/** index.html, re-read when a new build replaces it. */
class ConsolePage {
  private cached: { mtimeMs: number; html: string } | null = null;
  constructor(private readonly file: string) {}
  html(): string | null {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.file).mtimeMs;
    } catch {
      return null;
    }
    if (this.cached?.mtimeMs !== mtimeMs) this.cached = { mtimeMs, html: readFileSync(this.file, 'utf8') };
    return this.cached.html;
  }
}

function sendConsolePage(reply: FastifyReply, status: number, body: string) {
  // the console is never framed, and its address (a wall or post id) goes to no one
  return sendHtml(reply, status, body, CONSOLE_CSP, { 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' });
}

export async function registerConsole(
  app: FastifyInstance,
  distDir = DEFAULT_CONSOLE_DIST,
  sourceMaps = false,
): Promise<void> {
  const page = new ConsolePage(join(distDir, 'index.html'));
  const assetsDir = join(distDir, 'assets');
  if (existsSync(assetsDir)) {
    await app.register(fastifyStatic, {
      root: assetsDir,
      prefix: `${CONSOLE_PATH}/assets/`,
      decorateReply: false,
      cacheControl: false,
      index: false,
      schemaHide: true,
      // the build's brotli and gzip copies to who asks; maps only when public
      preCompressed: true,
      allowedPath: servedPath(sourceMaps),
      setHeaders: (res, file) => {
        res.setHeader('Cache-Control', IMMUTABLE);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        builtFileHeaders(res, file, sourceMaps);
      },
    });
  }
  // the one page; its screens are in the URL's hash (#/walls/3/queue), which never reaches the server
  app.get(CONSOLE_PATH, { schema: hide }, async (request, reply) => {
    // the router ignores a trailing slash; the page's relative asset URLs need one
    const path = request.url.split('?')[0]!;
    if (!path.endsWith('/'))
      return reply
        .code(308)
        .header('Location', `${path.replace(/^.*\//, '')}/`)
        .send();
    const html = page.html();
    if (html === null)
      return sendHtml(
        reply,
        503,
        messagePage('Console not built', 'The operator console was not built (npm run build).'),
        messageCsp("'none'"),
        { 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' },
      );
    return sendConsolePage(reply, 200, html);
  });
}
