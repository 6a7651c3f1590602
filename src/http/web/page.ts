// The hosted wall page (GET /walls/{idOrSlug}?key=pk_…): a complete HTML
// document holding one <wallery-wall>, made for big screens (event layout by
// default). It has no inline script or style, so its Content-Security-Policy
// can be strict. The page names nothing of the wall but its id: whether the
// key may read it is for the embed API to say, and the wall's name comes
// from there.
import type { FastifyReply } from 'fastify';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Where a page's pictures may come from. */
export type PagePictures =
  /** the posts' own hosts: any https origin (an instance without the media pipeline) */
  | { local: false }
  /** Wallery's copies only: this origin, and PUBLIC_URL's when it is another (the copies' URLs name it) */
  | { local: true; publicUrl: string | null };

/**
 * Scripts and styles only from this origin (Lit's constructed stylesheets
 * need no 'unsafe-inline'); the API and stream on this origin; framed only
 * by `frameAncestors` (framing.ts; `'none'` unless said). Pictures: with the
 * media pipeline, Wallery's copies only — this origin (and PUBLIC_URL's), and
 * data: for the ThumbHash placeholders the embed draws while a copy loads —
 * so a visitor's browser asks no other host for a picture; without it, the
 * posts' own hosts (any https origin). Videos are not copied: they stay on
 * their network's https host, loaded only when one plays.
 */
export function pageCsp(frameAncestors = "'none'", pictures: PagePictures = { local: false }): string {
  const own = pictures.local && pictures.publicUrl ? new URL(pictures.publicUrl).origin : null;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    pictures.local ? `img-src 'self'${own ? ` ${own}` : ''} data:` : "img-src 'self' https: data:",
    pictures.local ? "media-src 'self' https:" : "media-src 'self' https: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export interface WallPage {
  wallId: number;
  key: string;
  layout: string;
  theme: string | null;
  /** Wallery's copies of pictures only (the media pipeline is on) */
  localMedia: boolean;
  /** path of the hashed embed script, relative to the page (`../assets/wallery-HASH.js`) */
  script: string;
  stylesheet: string;
  /** the wall's branded background (`#rrggbb`), or null: the page's stylesheet is asked for it (pageBackgroundCss) */
  background?: string | null;
}

export function wallPage(page: WallPage): string {
  const theme = page.theme ? ` theme="${escapeHtml(page.theme)}"` : '';
  const local = page.localMedia ? ' local-media' : '';
  // the wall's background from the first paint: the stylesheet says it (no inline style under the CSP)
  const bg = page.background && /^#[0-9a-f]{6}$/.test(page.background) ? `?background=${page.background.slice(1)}` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin-when-cross-origin">
<title>Wall ${page.wallId} · Wallery</title>
<link rel="stylesheet" href="${escapeHtml(page.stylesheet + bg)}">
<script type="module" src="${escapeHtml(page.script)}"></script>
</head>
<body>
<main>
<wallery-wall wall="${page.wallId}" key="${escapeHtml(page.key)}" layout="${escapeHtml(page.layout)}"${theme}${local}></wallery-wall>
</main>
</body>
</html>
`;
}

export function messagePage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Wallery</title>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</body>
</html>
`;
}

/** The page's own stylesheet: no margins, the wall fills the screen. */
export const PAGE_CSS = `html,body{margin:0;padding:0;background:#0f1115}
main{display:block;min-height:100vh}
@media (prefers-color-scheme: light){html,body{background:#f3f4f6}}
`;

/**
 * Sends one of Wallery's own HTML pages: never sniffed, never cached without
 * asking, under its Content-Security-Policy, with any headers of its own.
 */
export function sendHtml(
  reply: FastifyReply,
  status: number,
  body: string,
  csp: string,
  headers: Record<string, string> = {},
) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', csp)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'no-cache')
    .headers(headers)
    .send(body);
}

/** The page stylesheet's rule for a wall's background (`?background=rrggbb`); '' for anything else. */
export const pageBackgroundCss = (background: unknown): string =>
  typeof background === 'string' && /^[0-9a-f]{6}$/.test(background) ? `html,body{background:#${background}}\n` : '';
