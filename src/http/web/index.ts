// The embed's front end, served by Wallery: the built script at a stable URL
// and as immutable hashed assets, the hosted wall page and the demo media.
// These are pages and files for browsers, not API operations: they are left
// out of the OpenAPI document (see WEB_ROUTE_PREFIXES).
import { EMBED_LAYOUTS, EMBED_THEMES } from '../../domain/lists.js';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { findLiveWallByIdOrSlug, type PublicWall } from '../../store/walls.js';
import { DEFAULT_WEB_DIST, DEMO_MEDIA_DIR, WebAssets } from './assets.js';
import { CONSOLE_PATH, registerConsole } from './console.js';
import { GUIDE_PATH, registerGuide } from './guide.js';
import type { PublishableKeyGrant } from '../../store/publishable-keys.js';
import { frameAncestors, framingHeaders } from './framing.js';
import { messagePage, PAGE_CSS, pageBackgroundCss, pageCsp, sendHtml, wallPage, type PagePictures } from './page.js';
import { serverSelfUrl } from '../self-url.js';

/** Where the routes of this module live; everything under them is a page or a file, not the API. */
export const WEB_ROUTE_PREFIXES = ['/embed/', '/assets/', '/walls/', '/demo-media/', '/console/', GUIDE_PATH] as const;
export const isWebRoute = (url: string): boolean =>
  url === CONSOLE_PATH || url === '/guide' || WEB_ROUTE_PREFIXES.some((p) => url.startsWith(p));

export const STABLE_SCRIPT_PATH = '/embed/v1/wallery.js';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';
const LAYOUTS: ReadonlySet<string> = new Set(EMBED_LAYOUTS);
const THEMES: ReadonlySet<string> = new Set(EMBED_THEMES);
/** a publishable key as it may appear in a page URL: `pk_` and printable ASCII, no spaces */
const PUBLISHABLE_KEY = /^pk_[\x21-\x7e]{1,256}$/;

export interface WebOptions {
  /** the Vite build (default dist/web of the package) */
  distDir?: string;
  /** demo pictures served under /demo-media/ (default demo/media of the package) */
  demoMediaDir?: string;
  /** the operator console's build (default dist/console of the package) */
  consoleDir?: string;
  /** the documentation site's build (default dist/site of the package) */
  guideDir?: string;
  /** wall lookup of the hosted page (default: live walls of the store, by id or slug) */
  findWall?: (idOrSlug: string) => Promise<PublicWall | null>;
  /** publishable key lookup of the hosted page (default: the embed API's key cache) */
  findGrant?: (key: string) => Promise<PublishableKeyGrant | null>;
}

const hide = { hide: true } as const;

/** One of the hosted pages, framed by `ancestors` only (framing.ts; no one by default). */
const sendPage = (
  reply: FastifyReply,
  status: number,
  body: string,
  ancestors = "'none'",
  pictures: PagePictures = { local: false },
) => sendHtml(reply, status, body, pageCsp(ancestors, pictures), framingHeaders(ancestors));

export async function registerWeb(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const assets = new WebAssets(options.distDir ?? DEFAULT_WEB_DIST);
  const findWall = options.findWall ?? ((idOrSlug: string) => findLiveWallByIdOrSlug(app.ctx.store.db, idOrSlug));
  const findGrant = options.findGrant ?? ((key: string) => app.embedKeys.lookup(app.ctx.store.db, key));

  // hashed files: cached for a year by browsers and CDNs, readable cross-origin (module scripts use CORS)
  const corsAsset = (res: { setHeader(name: string, value: string): void }) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', IMMUTABLE);
  };
  if (existsSync(assets.assetsDir)) {
    await app.register(fastifyStatic, {
      root: assets.assetsDir,
      prefix: '/assets/',
      decorateReply: false,
      cacheControl: false,
      index: false,
      setHeaders: corsAsset,
      schemaHide: true,
    });
  } else {
    app.get('/assets/*', { schema: hide }, async (_request, reply) => reply.callNotFound());
  }

  // the stable URL of the snippet: the same code, cached briefly so a new release reaches pages within minutes
  app.get(STABLE_SCRIPT_PATH, { schema: hide }, async (request, reply) => {
    const entry = assets.entryCode();
    if (!entry) {
      return reply
        .code(503)
        .type('text/javascript; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('console.error("Wallery: the embed script was not built (npm run build)");\n');
    }
    const etag = `"${entry.file.replace(/^.*\//, '')}"`;
    reply.header('Cache-Control', SHORT).header('Access-Control-Allow-Origin', '*').header('ETag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/javascript; charset=utf-8').send(entry.code);
  });

  app.get<{ Querystring: { background?: string } }>('/embed/v1/page.css', { schema: hide }, async (request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('Cache-Control', SHORT)
      .send(PAGE_CSS + pageBackgroundCss(request.query.background)),
  );

  app.get<{ Params: { idOrSlug: string }; Querystring: Record<string, string | string[] | undefined> }>(
    '/walls/:idOrSlug',
    { schema: hide },
    async (request, reply) => {
      const one = (name: string) => {
        const v = request.query[name];
        return typeof v === 'string' ? v : undefined;
      };
      const wall = await findWall(request.params.idOrSlug);
      if (!wall) return sendPage(reply, 404, messagePage('Wall not found', 'There is no wall at this address.'));
      const key = one('key');
      if (!key || !PUBLISHABLE_KEY.test(key)) {
        return sendPage(
          reply,
          400,
          messagePage('Key needed', 'Open this page with ?key= and a publishable key of the wall (pk_…).'),
        );
      }
      // the key's origins say which sites may frame the page: a wrong key shows nothing of the wall
      const grant = await findGrant(key);
      if (!grant || grant.wallId !== wall.id) {
        return sendPage(
          reply,
          403,
          messagePage('Link not valid', 'This wall’s link has no valid key. Ask whoever shared it for a new link.'),
        );
      }
      const entry = assets.entryFile();
      if (!entry) {
        return sendPage(reply, 503, messagePage('Not built', 'The embed script was not built (npm run build).'));
      }
      // relative to the page, so a Wallery behind a path prefix works too
      const up = request.url.split('?')[0]!.endsWith('/') ? '../../' : '../';
      const layout = one('layout');
      const theme = one('theme');
      // with the media pipeline, the page shows Wallery's copies only: a visitor's browser asks no other host
      const localMedia = app.ctx.media != null;
      return sendPage(
        reply,
        200,
        wallPage({
          wallId: wall.id,
          key,
          // the page's choice, else the wall's, else the event layout (the page is made for screens)
          layout: layout && LAYOUTS.has(layout) ? layout : (wall.layout ?? 'event'),
          theme: theme && THEMES.has(theme) ? theme : null,
          script: `${up}${entry}`,
          stylesheet: `${up}embed/v1/page.css`,
          background: wall.background,
          localMedia,
        }),
        frameAncestors(grant),
        localMedia ? { local: true, publicUrl: serverSelfUrl(app).publicUrl } : { local: false },
      );
    },
  );

  await registerConsole(app, options.consoleDir);
  await registerGuide(app, options.guideDir);

  // pictures of the demo data set, so `npm start` shows a wall without the internet
  const demoDir = options.demoMediaDir ?? DEMO_MEDIA_DIR;
  if (existsSync(demoDir)) {
    await app.register(fastifyStatic, {
      root: demoDir,
      prefix: '/demo-media/',
      decorateReply: false,
      index: false,
      maxAge: '1d',
      schemaHide: true,
      setHeaders: (res) => {
        res.setHeader('Access-Control-Allow-Origin', '*');
        // an SVG opened on its own can run nothing
        res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      },
    });
  }
}
