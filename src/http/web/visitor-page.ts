// The small pages a visitor may meet instead of a wall: a link whose key is
// wrong or revoked, a wall that was deleted, a page that cannot be shown right
// now. They are for the people of the brand's own site, so they say what
// happened in plain words and never what an operator should type: that goes
// to the server's log (see `visitorPage`'s `operatorNote`). Styled by one
// fixed stylesheet allowed by its hash (no inline script, nothing else
// inline), in the wall's own theme when the wall is known, Wallery's neutral
// look otherwise. They may be framed by any page: they hold nothing to click
// and nothing of the wall, and a brand's page that frames a link gone stale
// shows this page rather than a browser's refusal.
import { createHash } from 'node:crypto';
import { FAVICON_LINK } from './favicon.js';
import { escapeHtml } from './page.js';

const STYLE = `:root{color-scheme:light dark;--bg:#f3f4f6;--card:#fff;--text:#14171f;--muted:#4a5060;--line:#dde1e8;--accent:#2450d6}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){color-scheme:dark;--bg:#0f1115;--card:#181b22;--text:#eef0f4;--muted:#b4bac6;--line:#2a2f3a;--accent:#8fb0ff}}
:root[data-theme=dark]{color-scheme:dark;--bg:#0f1115;--card:#181b22;--text:#eef0f4;--muted:#b4bac6;--line:#2a2f3a;--accent:#8fb0ff}
:root[data-theme=light]{color-scheme:light}
*{box-sizing:border-box}
html,body{margin:0;min-height:100%;background:var(--bg);color:var(--text)}
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;display:grid;place-items:center;min-height:100vh;padding:1.5rem}
main{max-width:28rem;width:100%;padding:2rem 2rem 1.75rem;background:var(--card);border:1px solid var(--line);border-radius:1rem;text-align:center}
.mark{display:block;width:2.5rem;height:2.5rem;margin:0 auto 1rem}
.mark .a{fill:var(--accent)}.mark .b{fill:var(--card)}.mark .l{fill-opacity:.75}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 .5rem;letter-spacing:-.01em}
p{margin:0;color:var(--muted)}
footer{margin-top:1.5rem;font-size:.8125rem;color:var(--muted)}
`;

/** The policy of a message page: its one stylesheet, the icon, nothing else; framed by `frameAncestors`. */
export const messageCsp = (frameAncestors: string): string =>
  [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/** A visitor page's: framed by anyone (see above). */
export const VISITOR_CSP = messageCsp('*');

/** The wall's theme (`light`, `dark`, `auto`), when the wall is known; else the neutral look (`auto`). */
export type VisitorLook = string | null;

const MARK =
  '<svg class="mark" viewBox="0 0 32 32" aria-hidden="true">' +
  '<rect width="32" height="32" rx="7" class="a"/>' +
  '<rect x="6" y="6" width="9" height="12" rx="2" class="b"/>' +
  '<rect x="17" y="6" width="9" height="7" rx="2" class="b l"/>' +
  '<rect x="6" y="20" width="9" height="6" rx="2" class="b l"/>' +
  '<rect x="17" y="15" width="9" height="11" rx="2" class="b"/></svg>';

/** A page of one title and one sentence, in the look of `theme` (the wall's; neutral when null). */
export function messagePage(title: string, message: string, theme: VisitorLook = null): string {
  const look = theme === 'light' || theme === 'dark' ? ` data-theme="${theme}"` : '';
  return `<!doctype html>
<html lang="en"${look}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Wallery</title>
${FAVICON_LINK}
<style>${STYLE}</style>
</head>
<body>
<main>
${MARK}
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<footer>Wallery</footer>
</main>
</body>
</html>
`;
}

/** What went wrong, from a visitor's side. */
export type VisitorCase = 'wall-not-found' | 'key-missing' | 'key-invalid' | 'unavailable';

interface VisitorText {
  status: number;
  title: string;
  message: string;
}

/** Plain words only: no command, no setting, no key (tested: test/web/pages.test.ts). */
export const VISITOR_TEXT: Record<VisitorCase, VisitorText> = {
  'wall-not-found': {
    status: 404,
    title: 'This wall is not here',
    message: 'The wall at this address was taken down or never existed. Check the link you followed.',
  },
  'key-missing': {
    status: 400,
    title: 'This link is incomplete',
    message: 'Part of this wall’s link is missing. Ask whoever shared it for the full link.',
  },
  'key-invalid': {
    status: 403,
    title: 'This link is no longer valid',
    message: 'This wall’s link has expired or was replaced. Ask whoever shared it for a new link.',
  },
  unavailable: {
    status: 503,
    title: 'This wall cannot be shown right now',
    message: 'Something on our side is not ready. Please try again in a few minutes.',
  },
};

export function visitorPage(which: VisitorCase, theme: VisitorLook = null): { status: number; html: string } {
  const text = VISITOR_TEXT[which];
  return { status: text.status, html: messagePage(text.title, text.message, theme) };
}
