// The host pages of the browser tests: the two-line snippet of
// docs/guides/embed-and-hosted-page.md on
// a page, plus a recorder of the element's DOM events, optionally under
// hostile CSS; and a small node:http server that serves them from an origin
// of its own (the embed's API is another origin, as on a real site).
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

export interface HostPageOptions {
  /** where the script is loaded from ('' = the page's own origin) */
  base?: string;
  wall: string | number;
  key: string;
  layout?: string;
  theme?: string;
  limit?: number;
  columns?: number;
  poll?: number;
  /** `off`: no analytics */
  analytics?: string;
  /** extra CSS on the host page */
  css?: string;
}

declare global {
  interface Window {
    walleryEvents: { type: string; id?: string; t: number }[];
    xss?: number;
  }
}

/** The host page of a test: the snippet of the embed guide, plus a recorder of the element's events. */
export function hostPage(o: HostPageOptions): string {
  const attr = (name: string, v: unknown) => (v === undefined ? '' : ` ${name}="${String(v)}"`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Host page</title>
<style>body{margin:0}${o.css ?? ''}</style>
<script>
  window.walleryEvents = [];
  for (const type of ['wallery:ready', 'wallery:post-added', 'wallery:post-removed'])
    document.addEventListener(type, (e) => window.walleryEvents.push({ type, t: performance.now(), id: e.detail && e.detail.post ? e.detail.post.id : e.detail && e.detail.id }));
</script>
<script type="module" src="${o.base ?? ''}/embed/v1/wallery.js"></script>
</head><body>
<h1 class="host-title">Host page</h1>
<wallery-wall${attr('wall', o.wall)}${attr('key', o.key)}${attr('layout', o.layout)}${attr('theme', o.theme)}${attr('limit', o.limit)}${attr('columns', o.columns)}${attr('poll', o.poll)}${attr('analytics', o.analytics)}></wallery-wall>
</body></html>`;
}

/** What careless or hostile host pages do to everything. */
export const HOSTILE_CSS = `
* { color: red !important; display: block !important; font-size: 40px !important; font-family: serif !important;
    line-height: 3 !important; letter-spacing: 5px !important; text-transform: uppercase !important;
    background: yellow !important; margin: 7px !important; padding: 9px !important; border: 3px dashed lime !important; }
html { font-size: 30px !important; }
article, img, button, a, p, ul, li, dialog { all: revert !important; outline: 5px solid red !important; visibility: hidden !important; }
wallery-wall { text-align: right !important; direction: ltr; word-spacing: 20px !important; }
`;

/** A page of another site that shows `src` in a frame (and notes when the frame has loaded, or failed to). */
export function framingPage(src: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Framing page</title></head><body>
<h1>A page that frames a wall</h1>
<iframe src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" title="wall" width="1000" height="700" onload="window.frameLoaded = true"></iframe>
</body></html>`;
}

export interface HostServer {
  /** `http://HOST:PORT` (HOST: 127.0.0.1 unless said) */
  origin: string;
  /** the URL of a host page: `wall`, `key`, `layout`, `theme`, `limit`, `columns`, `poll`, `css=hostile`; or `frame` (a URL to show in an iframe) */
  url(query: Record<string, string | number | undefined>): string;
  close(): Promise<void>;
}

/**
 * A node:http server of its own origin serving host pages that load the
 * embed from `base`; `host`: the loopback address it listens on (another one
 * is another origin).
 */
export async function startHostServer(base: string, host = '127.0.0.1'): Promise<HostServer> {
  const server: Server = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    const one = (name: string) => q.get(name) ?? undefined;
    const num = (name: string) => (q.has(name) ? Number(q.get(name)) : undefined);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    const frame = one('frame');
    if (frame !== undefined) return res.end(framingPage(frame));
    res.end(
      hostPage({
        base,
        wall: one('wall') ?? '',
        key: one('key') ?? '',
        layout: one('layout'),
        theme: one('theme'),
        limit: num('limit'),
        columns: num('columns'),
        poll: num('poll'),
        css: one('css') === 'hostile' ? HOSTILE_CSS : '',
      }),
    );
  });
  server.keepAliveTimeout = 1000;
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const origin = `http://${host}:${port}`;
  return {
    origin,
    url: (query) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
      return `${origin}/?${params}`;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
