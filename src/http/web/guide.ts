// The documentation site (docs/, built by `npm run docs:build` into
// dist/site for the base /guide/), served by the instance so that it links to
// its own documentation; /docs stays the API explorer. Clean URLs: /guide/a/b
// is the file a/b.html (@fastify/static). Its hashed assets are cached for a year.
//
// Content-Security-Policy: VitePress puts a few small scripts inline in every
// page (the dark-mode switch before paint, the page-hash map). Rather than
// allow inline scripts, the policy names each of them by its SHA-256, computed
// from the built pages when they are first served (and again after a
// rebuild). Styles are another matter: Vue sets style attributes while it
// hydrates and as the reader scrolls (the outline marker, the search box),
// which no hash computed ahead can name, so inline styles are allowed on
// these pages only — a static site with no user content, whose scripts stay
// locked to this origin and those hashes (test/web/guide.test.ts
// checks in Chromium that nothing is blocked).
import { createHash } from 'node:crypto';
import fastifyStatic from '@fastify/static';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Parser } from 'htmlparser2';
import { PACKAGE_ROOT } from './assets.js';
import { sendHtml } from './page.js';
import { messageCsp, messagePage } from './visitor-page.js';

export const GUIDE_PATH = '/guide/';
export const DEFAULT_GUIDE_DIST = join(PACKAGE_ROOT, 'dist', 'site');

const IMMUTABLE = 'public, max-age=31536000, immutable';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function htmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** The site's policy: its inline scripts by hash, no other inline script. */
export function guideCsp(dir: string): string {
  const scripts = new Set<string>();
  for (const file of htmlFiles(dir)) {
    let inScript = false;
    let text = '';
    const parser = new Parser(
      {
        onopentag(name, attributes) {
          if (name === 'script' && attributes.src === undefined) {
            inScript = true;
            text = '';
          }
        },
        ontext(data) {
          if (inScript) text += data;
        },
        onclosetag(name) {
          if (name === 'script' && inScript) {
            scripts.add(sha256(text));
            inScript = false;
          }
        },
      },
      { decodeEntities: false },
    );
    parser.write(readFileSync(file, 'utf8'));
    parser.end();
  }
  return [
    "default-src 'none'",
    ["script-src 'self'", ...[...scripts].sort()].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Whether the site was built (the start banner links it only then). */
export function guideBuilt(dir = DEFAULT_GUIDE_DIST): boolean {
  try {
    return statSync(join(dir, 'index.html')).isFile();
  } catch {
    return false;
  }
}

export async function registerGuide(app: FastifyInstance, distDir = DEFAULT_GUIDE_DIST): Promise<void> {
  const dir = resolve(distDir);
  let policy: { builtAt: number; csp: string } | null = null;
  const csp = () => {
    const builtAt = statSync(join(dir, 'index.html')).mtimeMs;
    if (policy?.builtAt !== builtAt) policy = { builtAt, csp: guideCsp(dir) };
    return policy.csp;
  };
  const notBuilt = (reply: FastifyReply) =>
    sendHtml(
      reply,
      404,
      messagePage('Documentation not built', 'This instance has no documentation site: run npm run docs:build.'),
      messageCsp("'none'"),
    );

  await app.register(
    async (site) => {
      // a page that is not there: the site's own 404 page
      site.setNotFoundHandler((_request, reply) => {
        if (!guideBuilt(dir)) return notBuilt(reply);
        return sendHtml(reply, 404, readFileSync(join(dir, '404.html'), 'utf8'), csp());
      });
      // clean URLs (a/b is a/b.html), folders' index.html; the traversal guard and ranges are the plugin's
      await site.register(fastifyStatic, {
        root: dir,
        prefix: '/',
        extensions: ['html'],
        index: ['index.html'],
        wildcard: true,
        cacheControl: false,
        schemaHide: true,
        setHeaders: (res, file) => {
          res.setHeader('X-Content-Type-Options', 'nosniff');
          if (extname(file) === '.html') {
            res.setHeader('Content-Security-Policy', csp());
            res.setHeader('Referrer-Policy', 'no-referrer');
            res.setHeader('Cache-Control', 'no-cache');
          } else {
            const hashed = file.startsWith(join(dir, 'assets') + sep);
            res.setHeader('Cache-Control', hashed ? IMMUTABLE : 'no-cache');
          }
        },
      });
      // The server ignores trailing slashes in routing, so this route also gets
      // /guide/ itself: only the slash-less form is sent to the site's root.
      site.get('/', { schema: { hide: true } }, async (request, reply) => {
        if (!request.url.split('?')[0]!.endsWith('/')) return reply.redirect(GUIDE_PATH);
        return guideBuilt(dir) ? reply.sendFile('index.html') : notBuilt(reply);
      });
    },
    { prefix: '/guide' },
  );
}
