// The instance's front door: a browser that opens the server's address gets a
// page pointing at what it serves (the console, the guide, the API explorer).
// Only a browser asking for HTML gets it: for any API client `/` stays what
// the contract says of a path with no route, the 404 envelope, and no method
// but GET/HEAD is added to it (server.ts's not-found handler asks here first).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_PATH } from './console.js';
import { FAVICON_LINK } from './favicon.js';
import { GUIDE_PATH } from './guide.js';
import { escapeHtml, sendHtml } from './page.js';

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#14171f;--muted:#4a5060;--line:#dde1e8;--accent:#2450d6}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--card:#181b22;--text:#eef0f4;--muted:#b4bac6;--line:#2a2f3a;--accent:#8fb0ff}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
main{max-width:60rem;margin:0 auto;padding:4rem 1.5rem}
h1{font-size:2.25rem;margin:0 0 .25rem;letter-spacing:-.02em}
.lead{color:var(--muted);margin:0 0 2.5rem;font-size:1.125rem}
ul{list-style:none;margin:0;padding:0;display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr))}
a{display:block;height:100%;padding:1.25rem 1.5rem;background:var(--card);border:1px solid var(--line);border-radius:.75rem;color:inherit;text-decoration:none}
a:hover,a:focus-visible{border-color:var(--accent);outline:none;box-shadow:0 0 0 3px color-mix(in srgb,var(--accent) 30%,transparent)}
h2{font-size:1.125rem;margin:0 0 .25rem;color:var(--accent)}
p{margin:0;color:var(--muted)}
h2.section{margin:2.5rem 0 1rem;font-size:1.25rem;color:inherit}
footer{margin-top:3rem;color:var(--muted);font-size:.875rem}
code{font:inherit;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
`;

const POLICY = [
  "default-src 'none'",
  "img-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Door {
  href: string;
  title: string;
  text: string;
}

/** A wall of the demo data set, as `wallery start` made it: its hosted page needs its publishable key. */
export interface DemoWall {
  id: number;
  name: string;
  /** the key made at this start; null: made at an earlier start, shown only then */
  key: string | null;
}

let demoWalls: readonly DemoWall[] = [];

/** The demo walls the start page links (set by `wallery start` once the demo data is in). */
export function setDemoWalls(walls: readonly DemoWall[]): void {
  demoWalls = walls;
}

function demoDoors(walls: readonly DemoWall[]): Door[] {
  return walls.flatMap((w): Door[] => {
    if (w.key === null) {
      return [
        {
          href: `${CONSOLE_PATH}/#/walls/${w.id}/embed`,
          title: w.name,
          text: 'The demo wall. Its page needs a publishable key: make one in the console’s Embed tab.',
        },
      ];
    }
    // each wall in its own layout (the festival's is the event screen)
    return [
      {
        href: `/walls/${w.id}?key=${encodeURIComponent(w.key)}`,
        title: w.name,
        text: 'A demo wall on its hosted page, live.',
      },
    ];
  });
}

export function landingPage(guide: boolean, demo: readonly DemoWall[] = demoWalls): string {
  const doors: Door[] = [
    {
      href: `${CONSOLE_PATH}/`,
      title: 'Console',
      text: 'Set up walls and feeds, moderate posts, tag products, get the embed code.',
    },
    ...(guide
      ? [
          {
            href: GUIDE_PATH,
            title: 'Guide',
            text: 'Get started, guides for every feature, the API, configuration and CLI reference.',
          },
        ]
      : []),
    {
      href: '/docs',
      title: 'API explorer',
      text: 'The management and embed APIs, described by OpenAPI, to read and to try.',
    },
  ];
  const item = (d: Door) =>
    `<li><a href="${escapeHtml(d.href)}"><h2>${escapeHtml(d.title)}</h2><p>${escapeHtml(d.text)}</p></a></li>`;
  const items = doors.map(item).join('\n');
  const demoDoorsHtml = demoDoors(demo).map(item).join('\n');
  const demoSection = demoDoorsHtml ? `\n<h2 class="section">Demo walls</h2>\n<ul>\n${demoDoorsHtml}\n</ul>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wallery</title>
${FAVICON_LINK}
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Wallery</h1>
<p class="lead">Social walls for sites, shops and event screens: collect posts, moderate them, show them anywhere.</p>
<ul>
${items}
</ul>${demoSection}
<footer>The public API v2 answers under <code>/api/v2/</code>; the health checks at <code>/healthz</code> and <code>/readyz</code>.</footer>
</main>
</body>
</html>
`;
}

/** A browser opening the server's root, asking for a page. */
export function wantsLanding(request: FastifyRequest, path: string): boolean {
  return (
    path === '/' &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/** The start page; or, with LANDING_REDIRECT, a 302 there (a production instance's `/` is the brand's site). */
export function sendLanding(reply: FastifyReply, guide: boolean, redirect: string | null = null) {
  if (redirect !== null) return reply.code(302).header('Location', redirect).header('Cache-Control', 'no-cache').send();
  return sendHtml(reply, 200, landingPage(guide), POLICY, { 'Referrer-Policy': 'no-referrer' });
}
