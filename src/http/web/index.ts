// The embed's front end, served by Wallery: the built script at a stable URL
// and as immutable hashed assets, the hosted wall page and the demo media.
// These are pages and files for browsers, not API operations: they are left
// out of the OpenAPI document (see WEB_ROUTE_PREFIXES).
import { EMBED_LAYOUTS, EMBED_THEMES } from '../../domain/lists.js';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { findLiveWallByIdOrSlug, findWall as findWallRow, type PublicWall, type WallRow } from '../../store/walls.js';
import { DEFAULT_WEB_DIST, DEMO_MEDIA_DIR, WebAssets } from './assets.js';
import { builtFileHeaders, servedPath } from './built-files.js';
import { CONSOLE_PATH, registerConsole } from './console.js';
import { GUIDE_PATH, registerGuide } from './guide.js';
import type { PublishableKeyGrant } from '../../store/publishable-keys.js';
import { FAVICON_PATH, registerFavicon } from './favicon.js';
import { loadFirstPage } from './first-page.js';
import { frameAncestors, framingHeaders } from './framing.js';
import {
  PAGE_CSS,
  pageBackgroundCss,
  pageCsp,
  sendHtml,
  wallPage,
  type OverlayStyle,
  type PagePictures,
} from './page.js';
import { VISITOR_CSP, visitorPage, type VisitorCase } from './visitor-page.js';
import { parseAcceptEncoding } from '../v2/response-cache.js';
import { serverSelfUrl } from '../self-url.js';
import { DEFAULT_CDN_CACHING, sharedCacheControl, tagHeaders } from '../../cdn/tags.js';

/** Where the routes of this module live; everything under them is a page or a file, not the API. */
export const WEB_ROUTE_PREFIXES = [
  '/embed/',
  '/assets/',
  '/walls/',
  '/demo-media/',
  '/console/',
  GUIDE_PATH,
  // the OAuth connect flow's callback (src/http/connect/): a page the network's sign-in sends the browser to
  '/connect/',
] as const;
export const isWebRoute = (url: string): boolean =>
  url === CONSOLE_PATH ||
  url === '/guide' ||
  url === FAVICON_PATH ||
  url === '/favicon.ico' ||
  WEB_ROUTE_PREFIXES.some((p) => url.startsWith(p));

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
  /** WEB_SOURCE_MAPS=public: serve the built scripts' source maps, named by a SourceMap header (default: not served) */
  sourceMaps?: boolean;
}

const hide = { hide: true } as const;

/** One of the hosted pages, framed by `ancestors` only (framing.ts; no one by default). */
const sendPage = (
  reply: FastifyReply,
  status: number,
  body: string,
  ancestors = "'none'",
  pictures: PagePictures = { local: false },
  extra: Record<string, string> = {},
) => sendHtml(reply, status, body, pageCsp(ancestors, pictures), { ...framingHeaders(ancestors), ...extra });

export async function registerWeb(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const assets = new WebAssets(options.distDir ?? DEFAULT_WEB_DIST);
  const findWall = options.findWall ?? ((idOrSlug: string) => findLiveWallByIdOrSlug(app.ctx.store.db, idOrSlug));
  const findGrant = options.findGrant ?? ((key: string) => app.embedKeys.lookup(app.ctx.store.db, key));
  /** the wall's stored record (its theme, what the page renders); none in a store-less test server */
  const wallRow = (id: number): Promise<WallRow | null> =>
    app.hasDecorator('ctx') ? findWallRow(app.ctx.store.db, id, { live: true }) : Promise.resolve(null);
  const sourceMaps = options.sourceMaps ?? false;
  /** s-maxage and tag prefix (buildServer's registerCdn; the defaults for a bare test server) */
  const cdn = () => (app.hasDecorator('cdn') ? app.cdn : DEFAULT_CDN_CACHING);

  registerFavicon(app);

  // hashed files: cached for a year by browsers and CDNs, readable cross-origin (module scripts use CORS);
  // their brotli and gzip copies (made by the build) sent to who asks for them
  if (existsSync(assets.assetsDir)) {
    await app.register(fastifyStatic, {
      root: assets.assetsDir,
      prefix: '/assets/',
      decorateReply: false,
      cacheControl: false,
      index: false,
      preCompressed: true,
      allowedPath: servedPath(sourceMaps),
      setHeaders: (res, file) => {
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cache-Control', IMMUTABLE);
        builtFileHeaders(res, file, sourceMaps);
      },
      schemaHide: true,
    });
  } else {
    app.get('/assets/*', { schema: hide }, async (_request, reply) => reply.callNotFound());
  }

  // the stable URL of the snippet: the same code, cached briefly so a new release reaches pages within minutes
  assets.entryScript(); // compressed now, not on a visitor's first request
  app.get(STABLE_SCRIPT_PATH, { schema: hide }, async (request, reply) => {
    const entry = assets.entryScript();
    if (!entry) {
      request.log.warn('the embed script was not built: run npm run build');
      return reply
        .code(503)
        .type('text/javascript; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('console.error("Wallery: the embed script is not available on this server");\n');
    }
    const etag = `"${entry.file.replace(/^.*\//, '')}"`;
    reply
      .header('Cache-Control', SHORT)
      .header('Access-Control-Allow-Origin', '*')
      .header('ETag', etag)
      .header('Vary', 'Accept-Encoding');
    if (sourceMaps && entry.map) reply.header('SourceMap', `../../${entry.map}`);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    reply.type('text/javascript; charset=utf-8');
    const accepted = parseAcceptEncoding(request.headers['accept-encoding']);
    if (accepted.has('br')) return reply.header('Content-Encoding', 'br').send(entry.br);
    if (accepted.has('gzip')) return reply.header('Content-Encoding', 'gzip').send(entry.gzip);
    return reply.send(entry.code);
  });

  app.get<{ Querystring: { background?: string } }>('/embed/v1/page.css', { schema: hide }, async (request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('Cache-Control', SHORT)
      .send(PAGE_CSS + pageBackgroundCss(request.query.background)),
  );

  /** A visitor page instead of the wall; what an operator should do goes to the log. */
  const sendVisitor = (
    request: FastifyRequest,
    reply: FastifyReply,
    which: VisitorCase,
    theme: string | null,
    operatorNote: string,
  ) => {
    request.log.info({ page: request.url.split('?')[0], visitorPage: which }, operatorNote);
    const page = visitorPage(which, theme);
    return sendHtml(reply, page.status, page.html, VISITOR_CSP);
  };

  type HostedRequest = FastifyRequest<{
    Params: { idOrSlug: string };
    Querystring: Record<string, string | string[] | undefined>;
  }>;
  /** The hosted page; `overlay`: the live-stream overlay of it (a transparent page for OBS), or null. */
  const hostedPage = async (request: HostedRequest, reply: FastifyReply, overlay: OverlayStyle | null) => {
    const one = (name: string) => {
      const v = request.query[name];
      return typeof v === 'string' ? v : undefined;
    };
    const wall = await findWall(request.params.idOrSlug);
    if (!wall) {
      return sendVisitor(
        request,
        reply,
        'wall-not-found',
        null,
        'hosted page of a wall that does not exist (or was deleted)',
      );
    }
    const row = await wallRow(wall.id);
    const theme = one('theme');
    const look = theme && THEMES.has(theme) ? theme : (row?.theme ?? null);
    const key = one('key');
    if (!key || !PUBLISHABLE_KEY.test(key)) {
      return sendVisitor(
        request,
        reply,
        'key-missing',
        look,
        `hosted page of wall ${wall.id} without a publishable key: its link needs ?key=pk_… (wallery walls keys create ${wall.id})`,
      );
    }
    // the key's origins say which sites may frame the page: a wrong key shows nothing of the wall
    const grant = await findGrant(key);
    if (!grant || grant.wallId !== wall.id) {
      return sendVisitor(
        request,
        reply,
        'key-invalid',
        look,
        `hosted page of wall ${wall.id} with a key that is unknown, revoked or of another wall: ` +
          `make a new one with \`wallery walls keys create ${wall.id}\` (or in the console's Embed tab)`,
      );
    }
    const entry = assets.entryFile();
    if (!entry || !row) {
      return sendVisitor(
        request,
        reply,
        'unavailable',
        look,
        entry ? `wall ${wall.id} could not be read` : 'the embed script was not built: run npm run build',
      );
    }
    // relative to the page, so a Wallery behind a path prefix works too
    const up = (request.url.split('?')[0]!.endsWith('/') ? '../../' : '../') + (overlay ? '../' : '');
    const layout = one('layout');
    // with the media pipeline, the page shows Wallery's copies only: a visitor's browser asks no other host
    const localMedia = app.ctx.media != null;
    const first = await loadFirstPage(request, row, key);
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
        localMedia,
        first,
        overlay,
      }),
      frameAncestors(grant),
      localMedia
        ? { local: true, publicUrl: serverSelfUrl(app).publicUrl, logoUrl: first.wall.wall.branding?.logoUrl }
        : { local: false },
      // browsers ask each time; CDNs keep it until the wall (or its account) changes and is purged
      { 'Cache-Control': sharedCacheControl(0, cdn()), ...tagHeaders(cdn(), wall.id, grant.accountId) },
    );
  };
  app.get<{ Params: { idOrSlug: string }; Querystring: Record<string, string | string[] | undefined> }>(
    '/walls/:idOrSlug',
    { schema: hide },
    async (request, reply) => hostedPage(request, reply, null),
  );
  // the overlay for live streams (OBS browser source): ?style=lower-third (default) or ticker
  app.get<{ Params: { idOrSlug: string }; Querystring: Record<string, string | string[] | undefined> }>(
    '/walls/:idOrSlug/overlay',
    { schema: hide },
    async (request, reply) => {
      const style = request.query.style;
      return hostedPage(request, reply, style === 'ticker' ? 'ticker' : 'lower-third');
    },
  );

  await registerConsole(app, options.consoleDir, sourceMaps);
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
