// The hosted wall page (GET /walls/{idOrSlug}?key=pk_…): a complete HTML
// document holding one <wallery-wall>, made for big screens (event layout by
// default), its first page of posts rendered on the server (wallPage). It
// has no inline script or style, so its Content-Security-Policy can be
// strict. It is made only for a key of the wall (index.ts checks it first):
// what it shows is what the embed API would show that key.
import type { FastifyReply } from 'fastify';
import { sanitizeIngestedHtml } from '../../domain/sanitize.js';
import type { EmbedPost } from '../../schemas/embed.js';
import { FAVICON_LINK } from './favicon.js';
import type { FirstPage } from './first-page.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Where a page's pictures may come from. */
export type PagePictures =
  /** the posts' own hosts: any https origin (an instance without the media pipeline) */
  | { local: false }
  /**
   * Wallery's copies only: this origin, and PUBLIC_URL's when it is another (the copies' URLs name
   * it); and the host of the wall's logo, the one picture the operator links rather than a post
   */
  | { local: true; publicUrl: string | null; logoUrl?: string | null };

/** An http(s) URL's origin, else null. */
function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

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
  const own = pictures.local
    ? [...new Set([originOf(pictures.publicUrl), originOf(pictures.logoUrl)])].filter((o) => o !== null)
    : [];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    pictures.local ? `img-src 'self'${own.map((o) => ` ${o}`).join('')} data:` : "img-src 'self' https: data:",
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
  /** the embed API's first answers, rendered into the page and handed to the component (first-page.ts) */
  first: FirstPage;
  /** the live-stream overlay instead of the wall (a transparent page); null or absent: the wall */
  overlay?: OverlayStyle | null;
}

/** The overlay styles of the hosted page's `/overlay` (web/embed/screen.ts). */
export type OverlayStyle = 'lower-third' | 'ticker';

/**
 * The hosted page. Readable without JavaScript: the first page of posts is
 * in the HTML as a plain list of cards inside <wallery-wall> (its light DOM,
 * which the component's shadow DOM replaces once it runs: the cards never
 * show twice), with the wall's name as title and Open Graph / Twitter card
 * meta for link previews. The same data, as the embed API gave it, is in a
 * JSON island (never run: `type="application/json"`, so the policy needs
 * nothing inline) that the component takes as its first load
 * (web/embed/initial.ts) before it opens the live stream.
 */
export function wallPage(page: WallPage): string {
  const { wall } = page.first.wall;
  const { posts } = page.first.posts;
  const theme = page.theme ? ` theme="${escapeHtml(page.theme)}"` : '';
  const local = page.localMedia ? ' local-media' : '';
  const look = page.theme ?? wall.theme;
  const htmlTheme =
    (look === 'light' || look === 'dark' ? ` data-theme="${look}"` : '') + (page.overlay ? ' data-overlay' : '');
  const overlay = page.overlay ? ` overlay="${escapeHtml(page.overlay)}"` : '';
  // the wall's branded background from the first paint: the stylesheet says it (no inline style under the CSP; pageBackgroundCss)
  const background = wall.branding.background;
  const bg = background && /^#[0-9a-f]{6}$/.test(background) ? `?background=${background.slice(1)}` : '';
  return `<!doctype html>
<html lang="en"${htmlTheme}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin-when-cross-origin">
<title>${escapeHtml(wall.name)}</title>
${previewMeta(wall.name, posts, page.localMedia)}
${FAVICON_LINK}
<link rel="stylesheet" href="${escapeHtml(page.stylesheet + bg)}">
<script type="module" src="${escapeHtml(page.script)}"></script>
</head>
<body>
<main>
<wallery-wall wall="${page.wallId}" key="${escapeHtml(page.key)}" layout="${escapeHtml(page.layout)}"${theme}${local}${overlay}>
${postCards(wall.name, posts, page.localMedia)}
</wallery-wall>
</main>
<script type="application/json" id="${INITIAL_ID}">${jsonIsland(page.first)}</script>
</body>
</html>
`;
}

/** The id of the JSON island web/embed/initial.ts reads. */
export const INITIAL_ID = 'wallery-initial';

/** JSON inside <script>: `<`, `>` and `&` as \u escapes, so no `</script>` or `<!--` can end or bend it. */
export const jsonIsland = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The first picture a post shows: Wallery's copy, else (without the media pipeline) the original. */
function pictureOf(
  post: EmbedPost,
  localMedia: boolean,
): { src: string; width: number | null; height: number | null; alt: string } | null {
  const item = post.media[0];
  if (!item) return null;
  if (item.copy) return { src: item.copy.src, width: item.copy.width, height: item.copy.height, alt: item.alt ?? '' };
  const original = item.kind === 'image' ? item.url : item.poster;
  return original && !localMedia ? { src: original, width: null, height: null, alt: item.alt ?? '' } : null;
}

function previewMeta(name: string, posts: readonly EmbedPost[], localMedia: boolean): string {
  const description = `The latest posts of ${name}, live.`;
  const picture = posts.map((p) => pictureOf(p, localMedia)).find((p) => p !== null) ?? null;
  const meta = [
    `<meta name="description" content="${escapeHtml(description)}">`,
    '<meta property="og:type" content="website">',
    `<meta property="og:title" content="${escapeHtml(name)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    '<meta property="og:site_name" content="Wallery">',
    `<meta name="twitter:card" content="${picture ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${escapeHtml(name)}">`,
    `<meta name="twitter:description" content="${escapeHtml(description)}">`,
  ];
  if (picture) {
    meta.push(`<meta property="og:image" content="${escapeHtml(picture.src)}">`);
    if (picture.width && picture.height) {
      meta.push(`<meta property="og:image:width" content="${picture.width}">`);
      meta.push(`<meta property="og:image:height" content="${picture.height}">`);
    }
    if (picture.alt) meta.push(`<meta property="og:image:alt" content="${escapeHtml(picture.alt)}">`);
    meta.push(`<meta name="twitter:image" content="${escapeHtml(picture.src)}">`);
  }
  return meta.join('\n');
}

const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The cards a browser without JavaScript (a crawler, a preview) reads; the page's stylesheet lays them out. */
function postCards(name: string, posts: readonly EmbedPost[], localMedia: boolean): string {
  const cards = posts.map((post) => {
    const picture = pictureOf(post, localMedia);
    const size = picture?.width && picture.height ? ` width="${picture.width}" height="${picture.height}"` : '';
    const img = picture
      ? `<img src="${escapeHtml(picture.src)}" alt="${escapeHtml(picture.alt)}"${size} loading="lazy" decoding="async">`
      : '';
    const text = sanitizeIngestedHtml(post.html);
    const at = Date.parse(post.createdAt);
    const time = Number.isFinite(at) ? `<time datetime="${escapeHtml(post.createdAt)}">${DATE.format(at)}</time>` : '';
    const link = post.link ? `<a href="${escapeHtml(post.link)}" rel="nofollow noopener noreferrer">View post</a>` : '';
    return `<li class="wallery-card" data-ssr-post-id="${escapeHtml(post.id)}">${img}<div class="wallery-card-body"><p class="wallery-author">${escapeHtml(post.author.name)}</p>${text ? `<div class="wallery-text">${text}</div>` : ''}<p class="wallery-meta">${time}${time && link ? ' · ' : ''}${link}</p></div></li>`;
  });
  return `<h1 class="wallery-title">${escapeHtml(name)}</h1>
<ul class="wallery-cards">
${cards.join('\n')}
</ul>`;
}

/**
 * The page's own stylesheet: no margins, the wall fills the screen; before
 * the component runs (or without JavaScript), the server's cards in a simple
 * list of columns, in the wall's theme (`data-theme` on <html>) or the visitor's.
 */
export const PAGE_CSS = `html,body{margin:0;padding:0;background:#0f1115;color:#eef0f4}
html[data-overlay],html[data-overlay] body{background:transparent!important}
html[data-overlay] .wallery-title,html[data-overlay] .wallery-cards{display:none}
main{display:block;min-height:100vh}
@media (prefers-color-scheme: light){html:not([data-theme=dark]),html:not([data-theme=dark]) body{background:#f3f4f6;color:#14171f}}
html[data-theme=light],html[data-theme=light] body{background:#f3f4f6;color:#14171f}
wallery-wall{display:block;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.wallery-title{margin:0;padding:1.5rem 1.5rem .5rem;font-size:1.75rem;line-height:1.2}
.wallery-cards{list-style:none;margin:0;padding:1rem 1.5rem 2rem;columns:18rem;column-gap:1rem}
.wallery-card{background:#181b22;border:1px solid #2a2f3a;border-radius:.75rem;overflow:hidden;break-inside:avoid;margin:0 0 1rem}
.wallery-card img{display:block;width:100%;height:auto;background:#2a2f3a}
.wallery-card-body{padding:.875rem 1rem 1rem}
.wallery-author{margin:0 0 .25rem;font-weight:600}
.wallery-text{overflow-wrap:anywhere}
.wallery-text p{margin:0 0 .5rem}
.wallery-meta{margin:.5rem 0 0;font-size:.875rem;color:#b4bac6}
.wallery-card a{color:#8fb0ff}
@media (prefers-color-scheme: light){html:not([data-theme=dark]) .wallery-card{background:#fff;border-color:#dde1e8}html:not([data-theme=dark]) .wallery-meta{color:#4a5060}html:not([data-theme=dark]) .wallery-card a{color:#2450d6}}
html[data-theme=light] .wallery-card{background:#fff;border-color:#dde1e8}
html[data-theme=light] .wallery-meta{color:#4a5060}
html[data-theme=light] .wallery-card a{color:#2450d6}
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
  // :root raises the rule to the theme rules' weight (html[data-theme=light] body): coming after them, it wins
  typeof background === 'string' && /^[0-9a-f]{6}$/.test(background)
    ? `html:root,html:root body{background:#${background}}\n`
    : '';
